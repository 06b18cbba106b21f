#include "app/cli/ptr_command.h"

#include "app/cli/write_output.h"

#include "core/data/dataset_loader.h"
#include "core/privacy/ptr_dropout.h"
#include "core/report/result_json.h"
#include "core/util/grid_text.h"
#include "core/util/random.h"
#include "resources/builtin_resources.h"

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

namespace elab::app {

void PtrCommand::addTo(CLI::App& command) {
    data.addTo(command);
    command.add_option("--eps", eps,
                       "ε grid of the test and the release (A:B:K log-spaced, or a list); the "
                       "procedure is (2ε, δ)-DP");
    command.add_option("--delta", delta, "δ")->check(CLI::Range(1e-300, 0.5));
    command.add_option("--binarise-at", binariseAt, "A feature counts as 1 when its value is above this (public)");
    command.add_option("--runs", runs, "Releases per ε (fresh noise each)")->check(CLI::Range(1, 10000000));
    seed.addTo(command, "the runs");
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv, "CSV (one row per ε) instead of JSON");
}

int PtrCommand::run() const {
    const std::vector<double> grid = core::parseGridText(eps, core::GridSpacing::Logarithmic, "ε");
    const core::Dataset d = core::loadDataset(data.spec, data.toLoadOptions(), resources::builtinBytesProvider());
    const core::PtrData prepared = core::ptrData(d.features, binariseAt);
    const core::PtrStatistic& s = prepared.statistic;
    struct Row {
        double eps, threshold, probability, passFraction;
        core::Index mostReleased;
    };
    std::vector<Row> rows;
    for (std::size_t g = 0; g < grid.size(); ++g) {
        int passed = 0;
        std::map<core::Index, int> released;
        for (int r = 0; r < runs; ++r) {
            const core::PtrRelease rel = core::ptrRelease(
                prepared, grid[g], delta, core::deriveSeed(seed.value(), g, static_cast<std::uint64_t>(r)));
            passed += rel.passed ? 1 : 0;
            if (rel.passed)
                ++released[rel.feature];
        }
        core::Index most = -1;
        int mostCount = 0;
        for (const auto& [feature, count] : released)
            if (count > mostCount) {
                most = feature;
                mostCount = count;
            }
        rows.push_back({grid[g], core::ptrThreshold(grid[g], delta, s.rows),
                        core::ptrPassProbability(s.lambda, grid[g], delta, s.rows), static_cast<double>(passed) / runs,
                        most});
    }
    if (csv) {
        std::ostringstream o;
        o << "eps,guarantee_eps,delta,lambda,threshold,pass_probability,pass_fraction,most_released_feature\n";
        for (const Row& r : rows)
            o << r.eps << ',' << 2.0 * r.eps << ',' << delta << ',' << s.lambda << ',' << r.threshold << ','
              << r.probability << ',' << r.passFraction << ','
              << (r.mostReleased >= 0 ? d.featureName(r.mostReleased) : std::string()) << '\n';
        writeOutput(out, o.str());
        return 0;
    }
    nlohmann::ordered_json j;
    j["command"] = "ptr";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = seed.json();
    j["seed_mode"] = core::toString(seed.mode());
    j["data"] = core::datasetJson(d);
    j["binarise_at"] = binariseAt;
    j["lambda"] = s.lambda;
    j["lambda_feature"] = d.featureName(s.argmin);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Row& r : rows)
        list.push_back(
            {{"eps", r.eps},
             {"threshold", r.threshold},
             {"pass_probability", r.probability},
             {"pass_fraction", r.passFraction},
             {"runs", runs},
             {"most_released_feature",
              r.mostReleased >= 0 ? nlohmann::ordered_json(d.featureName(r.mostReleased)) : nlohmann::ordered_json()},
             {"guarantee", core::guaranteeJson(seed.guarantee(
                               core::withPipeline(core::ptrGuarantee(r.eps, delta), core::pipelineFacts(d))))}});
    j["by_eps"] = std::move(list);
    writeOutput(out, j.dump(1) + "\n");
    return 0;
}

} // namespace elab::app
