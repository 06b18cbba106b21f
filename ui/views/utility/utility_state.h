#pragma once
// What the utility explorer has computed so far, as the GUI thread holds it. Filled in by
// UtilityController from its background jobs; read by the view and by exports.

#include "core/data/data_preparation.h"
#include "core/data/norm_dominance.h"
#include "core/learner/prepared_problem.h"
#include "core/sweeps/choose_eps.h"
#include "core/sweeps/mechanism_comparison.h"
#include "core/sweeps/monotonicity.h"
#include "core/sweeps/utility_sweep.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elab::ui {

/// The measured utility at the slider's ε: preview (few repetitions) while dragging, full
/// (every repetition) after release.
struct ProbeResult {
    double eps = 0.0;
    double mean = 0.0;
    double sd = 0.0;
    int repeats = 0;
    bool full = false;
};

/// One compared mechanism (UtilitySettings::compareWith): its sweep on the main grid with the
/// same seeds, streamed in like the main one, its measurement at the slider's ε and the ε it needs
/// for the target.
struct ComparedState {
    core::MechanismKind kind = core::MechanismSpec{}.kind; ///< set when the comparison starts
    std::shared_ptr<const core::PreparedProblem> problem;  ///< null until its sweep starts
    std::vector<std::optional<core::SweepPoint>> points;   ///< by grid index
    std::optional<double> nonPrivate;
    bool complete = false;
    std::optional<ProbeResult> probe; ///< every repetition, at rest
    std::string error;                ///< why it could not be swept (empty: none)
    std::vector<core::SweepPoint> measured() const {
        std::vector<core::SweepPoint> out;
        for (const auto& p : points)
            if (p)
                out.push_back(*p);
        return out;
    }
};

struct UtilityState {
    std::shared_ptr<const core::PreparedData> data; ///< prepared (split, clipped), null before
    /// One feature dominating the prepared rows' norms (core/data/norm_dominance.h): the readout warns.
    std::optional<core::NormDominance> dominance;
    /// The largest class of the training and of the held-out rows (classification): an accuracy
    /// no better than its rate learned nothing, and the readout says so.
    std::optional<core::MajorityClass> majorityTrain, majorityTest;
    /// Of the rows the metric is measured on.
    const std::optional<core::MajorityClass>& majorityFor(core::UtilityMetric metric) const {
        return core::usesTestSet(metric) ? majorityTest : majorityTrain;
    }
    std::shared_ptr<const core::PreparedProblem>
        problem; ///< learner, Gram matrix, reference fit of data at these settings
    std::vector<double> grid;
    std::vector<std::optional<core::SweepPoint>> points; ///< by grid index; filled as they stream in
    std::optional<double> nonPrivate;
    std::vector<core::MeasuringFit> measuring; ///< Taylor data per measuring point
    core::PrivacyGuarantee guaranteeAtMax;
    std::vector<core::PrivacyGuarantee> guarantees; ///< per grid ε (branch, constants); empty until the sweep ends
    std::vector<double> trainLossBound; ///< per grid ε (MATH.md §4.5); empty until the sweep ends or without one
    int models = 1;                     ///< one-vs-rest models (K), or 1
    std::optional<ProbeResult> probe;
    std::optional<core::ChooseEpsResult> verification; ///< the last "verify" run
    double verifiedTarget = 0.0;                       ///< the target it was run for
    /// The compared mechanisms, in UtilitySettings::compareWith's order (swept after the main one).
    std::vector<ComparedState> compared;
    /// The verified ε for the target of the main mechanism (index 0) and each compared one
    /// (1 + i), from "Verify" with a compare set (core::verifyTargetEps); empty until then.
    std::vector<core::TargetEps> targetEps;
    double targetEpsTarget = 0.0; ///< the target they were verified for
    bool sweepCancelled = false;
    bool sweepComplete = false;
    double sweepSeconds = 0.0;

    /// The sweep's monotonicity self-check on the points measured so far (core/sweeps/monotonicity.h).
    core::MonotonicityCheck monotonicity(core::UtilityMetric metric) const {
        std::vector<core::SweepPoint> measured;
        for (const auto& p : points)
            if (p)
                measured.push_back(*p);
        core::MonotonicityCheck check = core::checkMonotonicity(measured, !core::isLossMetric(metric));
        core::explainByExtraRidge(check, guarantees); // no notes until the sweep ends (guarantees empty)
        return check;
    }

    /// Every compared mechanism's sweep has ended (complete or failed).
    bool comparisonComplete() const {
        for (const ComparedState& c : compared)
            if (!c.complete && c.error.empty())
                return false;
        return true;
    }

    std::size_t completedPoints() const {
        std::size_t n = 0;
        for (const auto& p : points)
            n += p.has_value();
        return n;
    }
};

} // namespace elab::ui
