#include "app/cli/info_report.h"

#include <cstdio>
#include <sstream>

namespace elab::app {

namespace {
std::string fixed(double v, int digits = 4) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
    return buffer;
}
} // namespace

nlohmann::ordered_json infoJson(const core::Dataset& data, const core::DatasetSummary& s) {
    using json = nlohmann::ordered_json;
    json j;
    j["name"] = data.name;
    j["provenance"] = {{"path", data.provenance.path},
                       {"format", data.provenance.format},
                       {"gzipped", data.provenance.gzipped},
                       {"sha256", data.provenance.sha256},
                       {"bytes", data.provenance.bytes}};
    j["rows"] = s.rows;
    j["features"] = s.features;
    j["storage"] = s.sparse ? "sparse" : "dense";
    j["stored_entries"] = s.storedEntries;
    j["density"] = s.density;
    j["task"] = core::toString(s.task);
    if (data.targets.isClassification()) {
        json classes = json::array();
        for (const auto& c : s.classes)
            classes.push_back({{"name", c.name}, {"count", c.count}});
        j["classes"] = classes;
    } else {
        j["target"] = {{"min", s.targetMin}, {"max", s.targetMax}, {"mean", s.targetMean}};
    }
    json columns = json::array();
    for (const auto& c : data.columns)
        columns.push_back(
            {{"name", c.name}, {"kind", core::toString(c.kind)}, {"missing", c.missing}, {"levels", c.levels.size()}});
    j["columns"] = columns;
    j["missing_cells"] = s.missingCells;
    j["row_norms"] = {{"min", s.normMin},
                      {"max", s.normMax},
                      {"mean", s.normMean},
                      {"median", s.normMedian},
                      {"rows_above_1", s.rowsAboveUnitNorm}};
    json log = json::array();
    for (const auto& step : data.log)
        log.push_back({{"step", step.name}, {"detail", step.detail}, {"leaks_privacy", step.leaksPrivacy}});
    j["log"] = log;
    return j;
}

std::string infoText(const core::Dataset& data, const core::DatasetSummary& s) {
    std::ostringstream out;
    out << data.name << "  (" << data.provenance.format << (data.provenance.gzipped ? ", gzip" : "") << ")\n";
    out << "  path      " << data.provenance.path << "\n";
    if (!data.provenance.sha256.empty())
        out << "  sha256    " << data.provenance.sha256 << "\n";
    out << "  rows      " << s.rows << "\n";
    out << "  features  " << s.features << " (" << (s.sparse ? "sparse" : "dense") << ", "
        << fixed(100.0 * s.density, 3) << " % non-zero)\n";
    out << "  task      " << core::toString(s.task) << "\n";
    if (data.targets.isClassification()) {
        for (const auto& c : s.classes)
            out << "    " << c.name << ": " << c.count << " ("
                << fixed(100.0 * static_cast<double>(c.count) / static_cast<double>(s.rows), 3) << " %)\n";
    } else {
        out << "    target min " << fixed(s.targetMin) << ", mean " << fixed(s.targetMean) << ", max "
            << fixed(s.targetMax) << "\n";
    }
    out << "  row norms min " << fixed(s.normMin) << ", median " << fixed(s.normMedian) << ", mean "
        << fixed(s.normMean) << ", max " << fixed(s.normMax) << "; " << s.rowsAboveUnitNorm
        << " rows above 1 (clipping changes them)\n";
    out << "  missing   " << s.missingCells << " cells\n";
    for (const auto& c : data.columns)
        if (c.missing > 0)
            out << "    " << c.name << ": " << c.missing << "\n";
    if (!data.log.empty()) {
        out << "  log\n";
        for (const auto& step : data.log)
            out << "    " << (step.leaksPrivacy ? "[leaks privacy] " : "") << step.name << ": " << step.detail << "\n";
    }
    return out.str();
}

} // namespace elab::app
