#include "app/cli/regions_command.h"

#include "app/cli/split_list.h"
#include "app/cli/write_output.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/composition.h"
#include "core/regions/decision_regions.h"
#include "core/report/result_json.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace elab::app {

namespace {

/// A feature by name or 0-based index.
core::Index featureIndex(const core::Dataset& d, const std::string& token) {
    for (core::Index j = 0; j < d.featureCount(); ++j)
        if (d.featureName(j) == token)
            return j;
    try {
        std::size_t used = 0;
        const long long j = std::stoll(token, &used);
        if (used == token.size() && j >= 0)
            return static_cast<core::Index>(j);
    } catch (const std::exception&) {
    }
    throw std::invalid_argument("--axes: no feature named '" + token +
                                "' (names as in `epsilonlab-cli info`, or 0-based indices)");
}

nlohmann::ordered_json polylinesJson(const std::vector<core::Polyline>& chains) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const core::Polyline& chain : chains) {
        nlohmann::ordered_json points = nlohmann::ordered_json::array();
        for (const auto& p : chain)
            points.push_back({p[0], p[1]});
        out.push_back(std::move(points));
    }
    return out;
}

nlohmann::ordered_json pointsJson(const Eigen::MatrixX2d& P, const Eigen::VectorXi& cls, const Eigen::VectorXd& wrong) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (core::Index i = 0; i < P.rows(); ++i)
        out.push_back({{"x", P(i, 0)}, {"y", P(i, 1)}, {"class", cls(i)}, {"misclassified_fraction", wrong(i)}});
    return out;
}

std::string csvText(const core::RegionsProblem& problem, const core::RegionsResult& r) {
    std::ostringstream out;
    out.precision(10);
    const int G = problem.spec().gridSize;
    out << "section,x,y,majority,agreement,nonprivate_class\n";
    for (int iy = 0; iy < G; ++iy)
        for (int ix = 0; ix < G; ++ix) {
            const auto c = static_cast<std::size_t>(iy * G + ix);
            out << "cell," << problem.x0() + (ix + 0.5) * (problem.x1() - problem.x0()) / G << ','
                << problem.y0() + (iy + 0.5) * (problem.y1() - problem.y0()) / G << ',' << int(r.majority[c]) << ','
                << r.agreement[c] << ',' << int(r.nonPrivate.cellClass[c]) << "\n";
        }
    out << "\nsection,set,x,y,class,misclassified_fraction\n";
    auto points = [&](const char* set, const Eigen::MatrixX2d& P, const Eigen::VectorXi& cls,
                      const Eigen::VectorXd& w) {
        for (core::Index i = 0; i < P.rows(); ++i)
            out << "point," << set << ',' << P(i, 0) << ',' << P(i, 1) << ',' << cls(i) << ',' << w(i) << "\n";
    };
    points("train", problem.trainPoints(), problem.trainClass(), r.trainMisclassified);
    points("test", problem.testPoints(), problem.testClass(), r.testMisclassified);
    out << "\nsection,model,chain,x,y\n";
    auto chains = [&](const std::string& model, const std::vector<core::Polyline>& lines) {
        for (std::size_t k = 0; k < lines.size(); ++k)
            for (const auto& p : lines[k])
                out << "boundary," << model << ',' << k << ',' << p[0] << ',' << p[1] << "\n";
    };
    chains("nonprivate", r.nonPrivate.boundaries);
    for (std::size_t d = 0; d < r.draws.size(); ++d)
        chains("draw" + std::to_string(d), r.draws[d].boundaries);
    return out.str();
}

} // namespace

void RegionsCommand::addTo(CLI::App& command) {
    data.addTo(command);
    mech.addTo(command);
    auto* pcaFlag = command.add_flag("--pca", pca,
                                     "Plane of the first two principal components of the training rows "
                                     "(computed from the private data: leaks, labelled)");
    command
        .add_option("--axes", features,
                    "Plane of two features: names or 0-based indices, A,B (--features is the LIBSVM width)")
        ->excludes(pcaFlag);
    command
        .add_option("--expand", expand, "Feature expansion in the plane: none or quadratic (x₁, x₂, x₁², x₁x₂, x₂²)")
        ->check(CLI::IsMember({"none", "quadratic"}));
    command.add_option("--eps", eps, "ε of the private draws (a number, or inf for the non-private model only)");
    command.add_option("--draws", draws, "Noise draws R (each fixed across ε)")->check(CLI::Range(1, 20));
    command.add_option("--grid", grid, "Grid cells per side G")->check(CLI::Range(16, 1024));
    command.add_option("--margin", margin, "Grid extent: the data's box grown by this fraction per side")
        ->check(CLI::Range(0.0, 1.0));
    seed.addTo(command, "the noise draws and the split");
    command.add_option("--threads", threads, "Worker threads (0: all cores; the output is the same for any)")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--out", out, "Write to this file instead of stdout");
    command.add_flag("--csv", csv,
                     "CSV instead of JSON: three sections (cells: x,y,majority,agreement,nonprivate_class; points; "
                     "boundaries: model,chain,x,y), separated by blank lines");
}

int RegionsCommand::run() const {
    const double e = eps == "inf" ? std::numeric_limits<double>::infinity() : std::stod(eps);
    if (!(e > 0.0))
        throw std::invalid_argument("--eps must be > 0 (or inf)");
    ExperimentData loaded = data.load();
    core::RegionsSpec spec;
    spec.preparation = data.preparation();
    spec.mechanism = mech.spec();
    spec.draws = draws;
    spec.gridSize = grid;
    spec.margin = margin;
    spec.seed = seed.value();
    spec.threads = threads;
    spec.plane.quadratic = expand == "quadratic";
    if (pca) {
        spec.plane.kind = core::PlaneKind::Pca;
    } else {
        const std::vector<std::string> names = splitList(features);
        if (names.size() != 2)
            throw std::invalid_argument("--axes needs exactly two features, A,B");
        spec.plane.featureA = featureIndex(loaded.train, names[0]);
        spec.plane.featureB = featureIndex(loaded.train, names[1]);
    }
    const core::RegionsProblem problem(loaded.train, loaded.test, spec);
    const core::RegionsResult r = core::evaluateRegions(problem, e);
    if (csv) {
        writeOutput(out, csvText(problem, r));
        return 0;
    }
    const core::PrivateLearner& learner = problem.prepared().learner();
    nlohmann::ordered_json j;
    j["command"] = "regions";
    j["version"] = EPSILONLAB_VERSION;
    j["seed"] = seed.json();
    j["seed_mode"] = core::toString(seed.mode());
    j["data"] = core::datasetJson(loaded.train);
    j["plane"] = {{"kind", core::optionName(core::planeKindNames(), spec.plane.kind)},
                  {"axes", {problem.axisName(0), problem.axisName(1)}},
                  {"expansion", expand},
                  {"processing", core::processingLogJson(problem.log())}};
    j["classes"] = problem.classNames();
    j["mechanism"] = {
        {"name", mech.mechanism},
        {"loss", core::toString(spec.mechanism.model.loss.kind())},
        {"lambda", mech.lambda},
        {"sgd", mech.parametersJson()},
        {"delta", spec.mechanism.effectiveDelta()},
        {"capabilities", {{"taylor", learner.capabilities().taylor}, {"warm_start", learner.capabilities().warmStart}}},
        {"guarantee", std::isfinite(e) ? core::guaranteeJson(seed.guarantee(r.guarantee)) : nlohmann::ordered_json()},
        {"guarantee_all_draws",
         std::isfinite(e)
             ? core::guaranteeJson(seed.guarantee(core::composedDraws(r.guarantee, static_cast<int>(r.draws.size()))))
             : nlohmann::ordered_json()}};
    j["eps"] = core::numberOrNull(e);
    j["draws"] = r.draws.size();
    j["grid"] = {{"size", grid},
                 {"x0", problem.x0()},
                 {"x1", problem.x1()},
                 {"y0", problem.y0()},
                 {"y1", problem.y1()},
                 {"order", "row-major, y from bottom to top: cell (ix, iy) at iy·G + ix"},
                 {"majority", r.majority},
                 {"agreement", r.agreement},
                 {"nonprivate_class", r.nonPrivate.cellClass}};
    nlohmann::ordered_json drawModels = nlohmann::ordered_json::array();
    for (const core::RegionsModel& d : r.draws)
        drawModels.push_back({{"train_accuracy", d.trainAccuracy},
                              {"test_accuracy", core::numberOrNull(d.testAccuracy)},
                              {"boundaries", polylinesJson(d.boundaries)}});
    j["accuracy"] = {{"train_mean", r.trainAccuracyMean},
                     {"train_sd", r.trainAccuracySd},
                     {"test_mean", core::numberOrNull(r.testAccuracyMean)},
                     {"test_sd", core::numberOrNull(r.testAccuracySd)},
                     {"nonprivate_train", r.nonPrivate.trainAccuracy},
                     {"nonprivate_test", core::numberOrNull(r.nonPrivate.testAccuracy)}};
    j["nonprivate"] = {{"boundaries", polylinesJson(r.nonPrivate.boundaries)}};
    j["draw_models"] = drawModels;
    j["points"] = {{"train", pointsJson(problem.trainPoints(), problem.trainClass(), r.trainMisclassified)},
                   {"test", pointsJson(problem.testPoints(), problem.testClass(), r.testMisclassified)}};
    writeOutput(out, j.dump(1) + "\n");
    return 0;
}

} // namespace elab::app
