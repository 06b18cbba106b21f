// evaluateRegions (core/regions/decision_regions.h; docs/MATH.md §6): R fits at ε, each draw's
// picture on the grid, the agreement of the draws.

#include "core/privacy/composition.h"
#include "core/regions/decision_regions.h"

#include "core/regions/regions_impl.h"
#include "core/util/parallel_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::core {

namespace {

/// The class of each row of a score matrix: one column → 1 if s > 0 else 0 (binary: class 1 is
/// the positive label); K columns → the first largest.
std::vector<std::uint8_t> classesOf(const Eigen::MatrixXd& S) {
    std::vector<std::uint8_t> out(static_cast<std::size_t>(S.rows()));
    for (Index i = 0; i < S.rows(); ++i) {
        if (S.cols() == 1) {
            out[static_cast<std::size_t>(i)] = S(i, 0) > 0.0 ? 1 : 0;
        } else {
            Index best = 0;
            S.row(i).maxCoeff(&best);
            out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(best);
        }
    }
    return out;
}

double accuracy(const std::vector<std::uint8_t>& predicted, const Eigen::VectorXi& truth) {
    if (truth.size() == 0)
        return std::numeric_limits<double>::quiet_NaN();
    Index correct = 0;
    for (Index i = 0; i < truth.size(); ++i)
        correct += predicted[static_cast<std::size_t>(i)] == truth(i) ? 1 : 0;
    return static_cast<double>(correct) / static_cast<double>(truth.size());
}

/// Points of a boundary closer than this many cells to the chord of their neighbours are dropped
/// (a straight boundary keeps its two ends instead of one point per cell it crosses).
constexpr double kBoundaryTolerance = 0.02;

/// Boundaries: the zero contour of the score (one column), or for K columns of each class's
/// margin s_c − max_{k≠c} s_k for c < K − 1 (every boundary touches such a class).
std::vector<Polyline> boundariesOf(const Eigen::MatrixXd& S, const RegionsProblem& problem) {
    const int G = problem.spec().gridSize;
    const double dx = (problem.x1() - problem.x0()) / G, dy = (problem.y1() - problem.y0()) / G;
    const double x0 = problem.x0() + 0.5 * dx, y0 = problem.y0() + 0.5 * dy; // cell centres
    std::vector<double> field(static_cast<std::size_t>(S.rows()));
    std::vector<Polyline> out;
    const Index K = S.cols();
    for (Index c = 0; c < std::max<Index>(1, K - 1); ++c) {
        for (Index i = 0; i < S.rows(); ++i) {
            double v = S(i, c);
            if (K > 1) {
                double other = -std::numeric_limits<double>::infinity();
                for (Index k = 0; k < K; ++k)
                    if (k != c)
                        other = std::max(other, S(i, k));
                v -= other;
            }
            field[static_cast<std::size_t>(i)] = v;
        }
        for (const Polyline& chain : zeroContours(field, G, G, x0, y0, dx, dy))
            out.push_back(simplifyChain(chain, dx, dy, kBoundaryTolerance));
    }
    return out;
}

RegionsModel pictureOf(const TrainedModel& model, const RegionsProblem& problem, const RegionsProblem::Impl& m,
                       std::vector<std::uint8_t>* trainPredicted, std::vector<std::uint8_t>* testPredicted) {
    RegionsModel out;
    if (model.stopped()) {
        out.stopped = true;
        return out;
    }
    const Eigen::MatrixXd S = model.scores(m.grid);
    out.cellClass = classesOf(S);
    out.boundaries = boundariesOf(S, problem);
    *trainPredicted = classesOf(model.scores(m.train.features));
    out.trainAccuracy = accuracy(*trainPredicted, m.trainClass);
    if (m.test) {
        *testPredicted = classesOf(model.scores(m.test->features));
        out.testAccuracy = accuracy(*testPredicted, m.testClass);
    } else {
        out.testAccuracy = std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

void meanSd(const std::vector<RegionsModel>& draws, double RegionsModel::*field, double& mean, double& sd) {
    const double n = static_cast<double>(draws.size());
    mean = 0.0;
    for (const RegionsModel& d : draws)
        mean += d.*field;
    mean /= n;
    double ss = 0.0;
    for (const RegionsModel& d : draws)
        ss += (d.*field - mean) * (d.*field - mean);
    sd = draws.size() > 1 ? std::sqrt(ss / (n - 1.0)) : 0.0;
}

} // namespace

RegionsResult evaluateRegions(const RegionsProblem& problem, double eps, std::stop_token stop,
                              const RegionsResult* warm) {
    const RegionsProblem::Impl& m = problem.impl();
    const PrivateLearner& learner = m.prepared->learner();
    const RegionsSpec& spec = problem.spec();
    const std::size_t cells = static_cast<std::size_t>(spec.gridSize) * static_cast<std::size_t>(spec.gridSize);
    RegionsResult result;
    result.eps = eps;

    std::vector<std::uint8_t> trainPredicted, testPredicted;
    const auto reference = m.prepared->reference(stop, spec.solver);
    result.nonPrivate = pictureOf(*reference, problem, m, &trainPredicted, &testPredicted);
    if (result.nonPrivate.stopped) {
        result.stopped = true;
        return result;
    }
    const bool isPrivate = std::isfinite(eps);
    if (isPrivate)
        result.guarantee = withDrawsShown(m.prepared->guarantee(eps), spec.draws);
    const int R = isPrivate ? spec.draws : 0;
    result.draws.resize(static_cast<std::size_t>(R));
    result.fits.resize(static_cast<std::size_t>(R));
    std::vector<std::vector<std::uint8_t>> trainPred(static_cast<std::size_t>(R)),
        testPred(static_cast<std::size_t>(R));
    const bool useWarm =
        warm && !warm->stopped && warm->fits.size() == static_cast<std::size_t>(R) && learner.capabilities().warmStart;
    RunContext ctx(stop, {});
    ParallelGrid grid(spec.threads, &ctx, "regions");
    grid.run(static_cast<std::size_t>(R), [&](std::size_t r) {
        const TrainedModel* start = useWarm ? warm->fits[r].get() : nullptr;
        auto fit = learner.fit(eps, *m.noises[r], start, stop, spec.solver);
        result.draws[r] = pictureOf(*fit, problem, m, &trainPred[r], &testPred[r]);
        result.fits[r] = std::move(fit);
    });
    for (std::size_t r = 0; r < result.draws.size(); ++r)
        if (!result.fits[r] || result.draws[r].stopped) {
            result.stopped = true;
            return result;
        }

    // Majority and agreement per cell; misclassification per point.
    const int K = problem.classes();
    result.majority.resize(cells);
    result.agreement.resize(cells);
    std::vector<int> votes(static_cast<std::size_t>(K));
    for (std::size_t c = 0; c < cells; ++c) {
        if (R == 0) {
            result.majority[c] = result.nonPrivate.cellClass[c];
            result.agreement[c] = 1.0f;
            continue;
        }
        std::fill(votes.begin(), votes.end(), 0);
        for (const RegionsModel& d : result.draws)
            ++votes[d.cellClass[c]];
        const auto best = std::max_element(votes.begin(), votes.end()); // ties: the lowest index
        result.majority[c] = static_cast<std::uint8_t>(best - votes.begin());
        result.agreement[c] = static_cast<float>(*best) / static_cast<float>(R);
    }
    auto misclassified = [&](const Eigen::VectorXi& truth, const std::vector<std::vector<std::uint8_t>>& predicted,
                             const std::vector<std::uint8_t>& nonPrivate) {
        Eigen::VectorXd f = Eigen::VectorXd::Zero(truth.size());
        for (Index i = 0; i < truth.size(); ++i) {
            if (R == 0) {
                f(i) = nonPrivate[static_cast<std::size_t>(i)] != truth(i) ? 1.0 : 0.0;
                continue;
            }
            for (const auto& p : predicted)
                f(i) += p[static_cast<std::size_t>(i)] != truth(i) ? 1.0 : 0.0;
            f(i) /= R;
        }
        return f;
    };
    result.trainMisclassified = misclassified(m.trainClass, trainPred, trainPredicted);
    result.testMisclassified = misclassified(m.testClass, testPred, testPredicted);
    if (R > 0) {
        meanSd(result.draws, &RegionsModel::trainAccuracy, result.trainAccuracyMean, result.trainAccuracySd);
        meanSd(result.draws, &RegionsModel::testAccuracy, result.testAccuracyMean, result.testAccuracySd);
    } else {
        result.trainAccuracyMean = result.nonPrivate.trainAccuracy;
        result.testAccuracyMean = result.nonPrivate.testAccuracy;
    }
    return result;
}

} // namespace elab::core
