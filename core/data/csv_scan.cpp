#include "core/data/csv_scan.h"

#include "core/data/csv_tokenizer.h"
#include "core/data/load_error.h"

#include <cmath>
#include <limits>

namespace elab::core::detail {

namespace {

enum class CellState : std::uint8_t { Skip, Missing, Number, Text };

struct Cell {
    CellState state = CellState::Skip;
    double value = 0;
    Level* level = nullptr;
};

bool isIntegral(double v) { return std::floor(v) == v && std::fabs(v) < 9007199254740992.0; }

void remember(CellLocation& where, const CsvField& field, std::size_t column) {
    if (where.line != 0)
        return;
    where.line = field.line;
    where.column = column + 1;
    where.text = std::string(field.text.substr(0, 200));
}

} // namespace

std::vector<std::string> readHeaderFields(std::string_view text, char delimiter, const std::string& source,
                                          std::size_t& recordLine) {
    CsvTokenizer tokenizer(text, delimiter, source);
    std::vector<CsvField> fields;
    if (!tokenizer.next(fields))
        throw LoadError(source, 0, 0, "empty file");
    recordLine = tokenizer.recordLine();
    std::vector<std::string> names;
    names.reserve(fields.size());
    for (const CsvField& f : fields)
        names.emplace_back(trimBlanks(f.text));
    return names;
}

void scanCsv(std::string_view text, const std::string& source, const ScanPlan& plan, ScanResult& result,
             RunContext* ctx, double progressBase, double progressSpan) {
    CsvTokenizer tokenizer(text, plan.delimiter, source);
    std::vector<CsvField> fields;
    tokenizer.next(fields); // the header, read and checked by the caller
    const std::size_t n = result.columns.size();
    std::vector<Cell> cells(n);
    std::vector<ColumnScan>& columns = result.columns;
    const std::size_t label = plan.label;

    result.marks.clear();
    for (;;) {
        if (result.records % kRecordMarkSpacing == 0)
            result.marks.push_back({result.records, tokenizer.position(), tokenizer.line()});
        if (!tokenizer.next(fields))
            break;
        if ((result.records & 4095) == 0 && ctx) {
            ctx->throwIfStopped();
            ctx->progress(progressBase + progressSpan * static_cast<double>(tokenizer.position()) /
                                             static_cast<double>(tokenizer.size()),
                          "parsing");
        }
        ++result.records;
        if (fields.size() != n)
            throw LoadError(source, tokenizer.recordLine(), 0,
                            "expected " + std::to_string(n) + " fields, found " + std::to_string(fields.size()));
        bool anyMissing = false;
        for (std::size_t c = 0; c < n; ++c) {
            ColumnScan& col = columns[c];
            Cell& cell = cells[c];
            const CsvField& field = fields[c];
            // Numbers first: they are most cells, and no missing marker parses as a finite one.
            NumberKind number = NumberKind::NotANumber;
            if (col.role == ScanRole::Infer) {
                number = parseNumber(field.text, cell.value);
                if (number == NumberKind::Finite) {
                    ++col.numbers;
                    cell.state = CellState::Number;
                    continue;
                }
            }
            if (isMissingCell(field.text)) {
                ++col.missing;
                cell.state = CellState::Missing;
                anyMissing = anyMissing || col.role != ScanRole::Ignored;
                continue;
            }
            switch (col.role) {
            case ScanRole::Ignored: cell.state = CellState::Skip; break;
            case ScanRole::Infer:
                switch (number) {
                case NumberKind::Finite: // handled above
                    break;
                case NumberKind::NonFinite:
                    ++col.numbers;
                    remember(col.firstNonFinite, field, c);
                    cell.state = CellState::Skip; // an error if the column stays numeric
                    break;
                case NumberKind::NotANumber:
                    ++col.texts;
                    remember(col.firstText, field, c);
                    cell.level = &col.levels.intern(trimBlanks(field.text));
                    ++cell.level->count;
                    cell.state = CellState::Text;
                    break;
                }
                break;
            case ScanRole::Categorical:
            case ScanRole::Label: {
                const std::string_view value = trimBlanks(field.text);
                cell.level = &col.levels.intern(value);
                ++cell.level->count;
                cell.state = CellState::Text;
                if (col.role == ScanRole::Categorical)
                    break;
                switch (parseNumber(value, cell.value)) {
                case NumberKind::Finite:
                    ++col.numbers;
                    col.nonIntegral = col.nonIntegral || !isIntegral(cell.value);
                    break;
                case NumberKind::NonFinite:
                    ++col.numbers;
                    remember(col.firstNonFinite, field, c);
                    cell.value = std::numeric_limits<double>::quiet_NaN();
                    break;
                case NumberKind::NotANumber:
                    ++col.texts;
                    remember(col.firstText, field, c);
                    cell.value = std::numeric_limits<double>::quiet_NaN();
                    break;
                }
                break;
            }
            }
        }
        const bool labelMissing = cells[label].state == CellState::Missing;
        bool labelOutside = false;
        if (plan.schema && !labelMissing) {
            Level& level = *cells[label].level; // the label column interns every cell
            if (level.schemaClass == -2)
                level.schemaClass = plan.schema->classIndex(fields[label].text);
            labelOutside = level.schemaClass < 0;
        }
        const bool kept = !labelMissing && !labelOutside && !(plan.dropIncomplete && anyMissing);
        result.missingLabelRows += labelMissing ? 1 : 0;
        result.outsideLabelRows += labelOutside ? 1 : 0;
        result.keep.push_back(kept ? 1 : 0);
        if (!kept)
            continue;
        ++result.keptRows;
        for (std::size_t c = 0; c < n; ++c) {
            ColumnScan& col = columns[c];
            const Cell& cell = cells[c];
            if (col.role == ScanRole::Ignored)
                continue;
            if (cell.state == CellState::Missing) {
                ++col.keptMissing;
            } else if (cell.state == CellState::Text) {
                ++cell.level->keptCount;
            } else if (cell.state == CellState::Number) {
                ++col.keptValues;
                col.keptSum += cell.value;
                col.keptNonZero += cell.value != 0.0 ? 1 : 0;
                if (col.countValues)
                    ++col.valueCounts[cell.value];
            }
        }
        result.labelLevel.push_back(cells[label].level);
        result.labelValue.push_back(cells[label].value);
    }
    if (ctx)
        ctx->throwIfStopped();
}

} // namespace elab::core::detail
