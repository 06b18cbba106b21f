// libFuzzer target for the CSV loader. Only LoadError and Cancelled may escape loadCsv; any
// other exception, a crash, a sanitizer report or an inconsistent Dataset is a bug.
//
// An input starting with a control byte (0x01–0x08, 0x0B, 0x0C, 0x0E–0x1F) uses that byte to
// pick the options (delimiter, label, missing policy, task, sparse threshold) so that every
// path is reachable; other inputs are read with the default options, so plain CSV files work
// as seeds.

#include "core/data/csv_loader.h"
#include "core/data/load_error.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace {

using namespace elab::core;

bool isSelector(std::uint8_t b) { return b >= 0x01 && b <= 0x1F && b != '\t' && b != '\n' && b != '\r'; }

CsvOptions optionsFrom(std::uint8_t b) {
    static constexpr char delimiters[] = {0, ',', ';', '\t', ' '};
    static const char* labels[] = {"", "0", "-1", "y"};
    CsvOptions o;
    o.delimiter = delimiters[b % 5];
    o.labelColumn = labels[(b / 5) % 4];
    o.missing = static_cast<MissingPolicy>((b / 2) % 3);
    switch ((b / 3) % 4) {
    case 1: o.task = TaskKind::Binary; break;
    case 2: o.task = TaskKind::Multiclass; break;
    case 3: o.task = TaskKind::Regression; break;
    default: break;
    }
    o.sparseDensityThreshold = b & 1 ? 1.0 : 0.1;
    o.maxIntegerClasses = b & 2 ? 2 : 50;
    if (b & 4)
        o.categoricalColumns = {"c"};
    if (b & 8)
        o.ignoredColumns = {"i"};
    return o;
}

[[noreturn]] void bug(const char* what) {
    std::fprintf(stderr, "fuzz_csv: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    CsvOptions options;
    if (!text.empty() && isSelector(data[0])) {
        options = optionsFrom(data[0]);
        text.remove_prefix(1);
    }
    double lastProgress = -1;
    RunContext ctx({}, [&](double fraction, std::string_view) {
        if (!(fraction >= 0.0 && fraction <= 1.0))
            bug("progress outside [0, 1]");
        lastProgress = fraction;
    });
    try {
        const Dataset d = loadCsv(text, "fuzz.csv", options, &ctx);
        if (const std::string problem = d.validate(); !problem.empty())
            bug(problem.c_str());
        if (static_cast<Index>(d.featureNames.size()) != d.featureCount() || d.rows() == 0 || d.featureCount() == 0)
            bug("feature names, rows or features inconsistent");
        for (Index i = 0; i < d.rows(); ++i)
            for (Index j = 0; j < d.featureCount(); ++j)
                if (!std::isfinite(d.features.value(i, j)))
                    bug("non-finite feature value");
        Index features = 0;
        for (const ColumnInfo& c : d.columns)
            features += c.featureCount;
        if (features != d.featureCount())
            bug("column infos do not add up to the features");
        if (d.targets.isClassification() && d.targets.classCount() < 2)
            bug("fewer than two classes accepted");
        if (lastProgress != 1.0)
            bug("final progress is not 1");
    } catch (const LoadError&) {
    } catch (const Cancelled&) {
    } catch (const std::exception& e) {
        bug(e.what());
    }
    return 0;
}
