#pragma once
// The built-in datasets: embedded CSVs (licences in resources/datasets/LICENSES.md) and
// seeded 2-D generators for teaching.

#include "core/data/dataset.h"
#include "core/data/feature_bounds.h"
#include "core/data/public_schema.h"

#include <optional>

#include <string>
#include <vector>

namespace elab::core {

struct BuiltinInfo {
    std::string name;        ///< spec is "builtin:" + name
    std::string fileName;    ///< embedded file; empty for generated sets
    std::string labelColumn; ///< for embedded CSVs
    TaskKind task = TaskKind::Binary;
    std::string description;
    std::string licence;
    /// Display names of the classes by index (classification), if the file codes them 0..C−1.
    std::vector<std::string> classNames;
};

const std::vector<BuiltinInfo>& builtinCatalog();
/// nullptr if unknown.
const BuiltinInfo* findBuiltin(const std::string& name);

/// The ranges a built-in dataset's documentation gives for its numeric columns (public
/// bounds, feature_bounds.h), empty when it gives none: digits (every pixel an integer in
/// 0..16, UCI optdigits), penguins (study year 2007..2009, palmerpenguins), iris, wine and breast
/// cancer (a few columns, from their documentation's summary statistics). Ranges read off
/// the data itself are not public and are not shipped.
PublicBounds documentedBounds(const std::string& name);

/// The schema a built-in dataset's documentation gives (public_schema.h) when labelColumn
/// (empty: the catalog's) is its label and task (unset: the catalog's) its task: the classes
/// (breast cancer 0/1, iris and wine 0..2, digits 0..9, penguins' three species), diabetes'
/// regression task, and penguins' islands and sexes as levels. A level list becomes the class
/// list when its column is chosen as the label. Empty for generated sets and unknown names.
PublicSchema documentedSchema(const std::string& name, const std::string& labelColumn = {},
                              std::optional<TaskKind> task = std::nullopt);

/// The bounds an option names (the CLI's and the GUI's --bounds): "builtin" → the documented
/// ranges of dataSpec's built-in dataset; anything else → a bounds file. Throws LoadError
/// (unreadable or malformed file) or std::invalid_argument ("builtin" without documented ranges).
PublicBounds boundsFromOption(const std::string& option, const std::string& dataSpec);

/// The name of the dataset the GUI and run.sh open first.
inline const char* defaultBuiltin() { return "breast_cancer"; }

} // namespace elab::core
