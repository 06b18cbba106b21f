// UtilityTab's part of the decision report: the prepared data, the measured curves of the
// mechanism and of those compared with it, the slider's ε as the chosen ε and the target.

#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_tab.h"

#include "core/report/decision_report.h"

#include <cmath>

namespace elab::ui {

namespace {

std::optional<core::SweepPoint> probeAt(const std::optional<ProbeResult>& probe, double eps) {
    if (!probe || !probe->full || probe->eps != eps)
        return std::nullopt;
    core::SweepPoint p;
    p.eps = probe->eps;
    p.mean = probe->mean;
    p.sd = probe->sd;
    return p;
}

std::vector<core::SweepPoint> measured(const std::vector<std::optional<core::SweepPoint>>& points) {
    std::vector<core::SweepPoint> out;
    for (const auto& p : points)
        if (p)
            out.push_back(*p);
    return out;
}

} // namespace

void UtilityTab::addToReport(core::DecisionInputs& report) const {
    const UtilityState& state = m_controller->state();
    const UtilitySettings& s = m_controller->settings();
    if (!state.data)
        return;
    report.keepAlive.push_back(state.data);
    report.train = &state.data->train;
    report.test = state.data->test ? &*state.data->test : nullptr;
    report.testFraction = s.testFraction;
    report.bounds = s.preprocess.bounds;
    report.metric = s.metric;
    report.repeats = s.repeats;
    report.chosenEps = s.currentEps;
    report.target = s.target;
    report.seedMode = s.secretSeed ? core::SeedMode::SecretRelease : core::SeedMode::Reproducible;
    report.seed = s.secretSeed ? std::nullopt : std::optional<std::uint64_t>(s.seed);
    // The verified ε per mechanism (main first), when "Verify" ran for this target.
    const bool verified = s.target && !state.targetEps.empty() && state.targetEpsTarget == *s.target;
    auto verifiedAt = [&](std::size_t k) {
        return verified && k < state.targetEps.size() ? state.targetEps[k].verified : std::nullopt;
    };
    core::ReportCurve main;
    main.spec = s.mechanism;
    main.points = measured(state.points);
    main.nonPrivate = state.nonPrivate;
    main.atChosen = probeAt(state.probe, s.currentEps);
    main.verifiedTargetEps = verifiedAt(0);
    if (!verified && s.target && state.verification && state.verifiedTarget == *s.target &&
        std::isfinite(state.verification->chosenEps))
        main.verifiedTargetEps = state.verification->chosenEps;
    report.curves.push_back(std::move(main));
    for (std::size_t k = 0; k < state.compared.size(); ++k) {
        const ComparedState& c = state.compared[k];
        core::ReportCurve curve;
        curve.spec = s.comparedSpec(c.kind);
        curve.points = c.measured();
        curve.nonPrivate = c.nonPrivate;
        curve.atChosen = probeAt(c.probe, s.currentEps);
        curve.verifiedTargetEps = verifiedAt(k + 1);
        curve.error = c.error;
        report.curves.push_back(std::move(curve));
    }
}

} // namespace elab::ui
