#pragma once
// Neighbours at the input (docs/audit.md, "Auditing the whole pipeline"): two versions of the
// user's file that differ in one raw row, as text, for the audit of the whole pipeline
// (core/audit/pipeline_audit.h). Kinds:
// - input-label: one row's label replaced by another class of the file (the most frequent other
//   one);
// - input-level: one row's categorical level replaced by the column's most frequent level — by
//   default the row that alone has its level, so that D′ has one level fewer if the encoding is
//   read from the data;
// - input-add: D is the file without one row, D′ the file itself.
// The row (0-based among the file's data rows, the header not counted) is chosen automatically
// unless given: the first row without a missing cell that alone has a categorical level (the
// rarest level's first such row if no level is unique), else the first row without a missing cell.
// Only the changed record is rewritten (its fields re-quoted where needed); every other byte of
// the file is kept.

#include "core/data/dataset.h"
#include "core/util/option_names.h"

#include <optional>
#include <string>

namespace elab::core {

enum class InputNeighbourKind { Label, Level, Add };

/// "input-label", "input-level", "input-add".
const OptionNames<InputNeighbourKind>& inputNeighbourNames();
const char* toString(InputNeighbourKind kind);

struct InputNeighbour {
    InputNeighbourKind kind = InputNeighbourKind::Level;
    long long row = -1;      ///< 0-based data row of the file
    std::string column;      ///< the column changed (label or categorical; empty for input-add)
    std::string from, to;    ///< its value in D and in D′ (input-add: empty)
    std::string description; ///< "row 17 (the only row with native_country = Holand-Netherlands): …"
    std::string textD, textDPrime;
};

/// The neighbours of a CSV file's text. loaded is the file as the product loads it (its column
/// roles and names: which column is the label, which are categorical); delimiter 0: detected as
/// the loader does. Throws std::invalid_argument naming what is missing (no categorical column for
/// input-level, a regression target for input-label, a row out of range or with a missing cell
/// where the change is made, a file that is not CSV).
InputNeighbour makeInputNeighbour(const std::string& text, const Dataset& loaded, char delimiter,
                                  InputNeighbourKind kind, std::optional<long long> row);

} // namespace elab::core
