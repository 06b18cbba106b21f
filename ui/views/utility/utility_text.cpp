#include "ui/views/utility/utility_text.h"

#include "ui/views/utility/utility_chart_model.h"
#include "ui/widgets/eps_text.h"

#include "core/sweeps/mechanism_comparison.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::ui {

namespace {

// The view's translation context: the texts were the view's before they were functions.
QString utilityTr(const char* text) { return QCoreApplication::translate("elab::ui::UtilityView", text); }

QString readoutNumber(double v) { return formatNumber(v, 4, NumberForm::Printf); }

} // namespace

double trainLossBoundAt(const UtilityState& state, double eps) {
    const auto& g = state.grid;
    const auto& b = state.trainLossBound;
    if (b.size() != g.size() || g.empty() || !(eps >= g.front() && eps <= g.back()))
        return std::numeric_limits<double>::quiet_NaN();
    const auto k = static_cast<std::size_t>(std::upper_bound(g.begin(), g.end(), eps) - g.begin());
    if (k == 0 || k >= g.size())
        return eps == g.back() ? b.back() : b.front();
    const double t = std::log(eps / g[k - 1]) / std::log(g[k] / g[k - 1]);
    return std::exp((1.0 - t) * std::log(b[k - 1]) + t * std::log(b[k]));
}

QStringList utilityReadoutLines(const UtilitySettings& s, const UtilityState& state,
                                const UtilityReadoutContext& context) {
    QStringList lines;
    lines << utilityTr("ε = %1").arg(formatEps(s.currentEps));
    const auto& probe = state.probe;
    // While the handle is held the latest measurement is shown at its own ε (it follows the drag).
    const bool held = context.dragging && probe && std::isfinite(probe->eps);
    if (probe && (probe->eps == s.currentEps || held))
        lines << utilityTr("measured%1: %2 ± %3 (%4%5)")
                     .arg(probe->eps == s.currentEps ? QString() : utilityTr(" at ε = %1").arg(formatEps(probe->eps)))
                     .arg(readoutNumber(probe->mean), readoutNumber(probe->sd))
                     .arg(probe->repeats == 1 ? utilityTr("1 repetition")
                                              : utilityTr("%1 repetitions").arg(probe->repeats))
                     .arg(probe->full ? QString()
                                      : utilityTr(", preview while dragging; all %1 on release").arg(s.repeats));
    else if (context.hasDataset)
        lines << utilityTr("measured: computing…");
    if (s.estimatesApply()) {
        for (const core::MeasuringFit& fit : state.measuring)
            for (core::Estimator e : s.estimators) {
                const double v = core::meanEstimate(fit, e, s.currentEps);
                // The line past the non-private level is its extrapolation leaving its model: held there.
                const bool atLevel = core::unboundedEstimate(fit, e, s.currentEps) < v;
                lines << utilityTr("%1 (measured at ε = %2): %3%4")
                             .arg(estimatorTitle(e), formatEps(fit.measureAt))
                             .arg(readoutNumber(v))
                             .arg(atLevel ? utilityTr(" — held at the non-private level (the line passes it)")
                                          : QString());
            }
    } else {
        lines << utilityTr("Taylor estimates: only for Gaussian objective perturbation with a loss metric.");
    }
    if (state.nonPrivate)
        lines << utilityTr("non-private: %1").arg(readoutNumber(*state.nonPrivate));
    if (const double bound = trainLossBoundAt(state, s.currentEps);
        s.metric == core::UtilityMetric::TrainLoss && std::isfinite(bound))
        lines << utilityTr("theory's bound on the expected loss (MATH.md §4.5): %1").arg(readoutNumber(bound));
    const core::MonotonicityCheck check = state.monotonicity(s.metric);
    std::string note; // one (the last violation's): the box has room for a few lines only
    for (const core::MonotonicityViolation& v : check.violations) {
        lines << utilityTr("⚠ worse as ε grows: %1 at ε = %2 against %3 at ε = %4 (%5 standard errors) — "
                           "the first sign of a broken mechanism")
                     .arg(readoutNumber(v.meanWorse), formatEps(v.epsWorse), readoutNumber(v.meanBetter),
                          formatEps(v.epsBetter))
                     .arg(v.zScore(), 0, 'f', 1);
        note = v.note;
    }
    if (!note.empty())
        lines << QString::fromStdString(note);
    if (const auto& majority = state.majorityFor(s.metric);
        majority && state.nonPrivate && !core::isLossMetric(s.metric)) {
        if (const std::string floor = core::majorityNote(*state.nonPrivate, *majority); !floor.empty())
            lines << QStringLiteral("⚠ ") + QString::fromStdString(floor);
    }
    if (state.dominance)
        lines << QStringLiteral("⚠ ") + QString::fromStdString(core::dominanceNote(*state.dominance));
    if (!context.lastError.isEmpty())
        lines << utilityTr("Problem: %1").arg(context.lastError);
    return lines;
}

ProposalText utilityProposalText(const UtilitySettings& s, const UtilityState& state, const core::ProposedEps& proposal,
                                 bool estimatesAvailable) {
    ProposalText text;
    const bool setAside = proposal.setAside.has_value();
    if (!s.target) {
        text.proposal = utilityTr("Enter a target to see the smallest ε that meets it.");
        return text;
    }
    if (setAside)
        text.warning = QString::fromStdString(core::doubtText(proposal, core::isLossMetric(s.metric)));
    if (!proposal.eps && setAside && !state.sweepComplete) {
        text.proposal = utilityTr("Measuring before proposing: the estimate is in doubt.");
    } else if (!proposal.eps) {
        text.proposal = utilityTr("No ε between %1 and %2 meets %3, by the estimate or the measured curve.")
                            .arg(formatEps(s.epsMin), formatEps(s.epsMax))
                            .arg(readoutNumber(*s.target));
    } else {
        text.proposal =
            utilityTr("Proposed ε = %1 (%2)")
                .arg(formatEps(*proposal.eps))
                .arg(proposal.fromEstimate
                         ? utilityTr("%1 measured at ε = %2")
                               .arg(estimatorTitle(s.estimators.front()), formatEps(proposal.measureAt))
                     : setAside ? utilityTr("interpolated on the measured curve; the estimate is set aside")
                     : estimatesAvailable
                         ? utilityTr("the estimate never reaches the target; interpolated on the measured curve")
                         : utilityTr("interpolated on the measured curve"));
    }
    return text;
}

QStringList verificationStepCells(const core::ChooseEpsStep& step) {
    return {formatEps(step.eps), readoutNumber(step.measured), step.meets ? utilityTr("yes") : utilityTr("no"),
            QString::number(step.trainings)};
}

QString verificationSummary(const core::ChooseEpsResult& v, double target) {
    const int trainings = v.steps.empty() ? 0 : v.steps.back().trainings;
    const int bisection = v.bisection.empty() ? 0 : v.bisection.back().trainings;
    if (!v.reachable)
        return utilityTr("Even the non-private model misses the target %1.").arg(readoutNumber(target));
    if (std::isfinite(v.chosenEps))
        return utilityTr("Target %1 met at ε = %2 after %3 trainings (bisection: ε = %4 after %5).")
            .arg(readoutNumber(target), formatEps(v.chosenEps))
            .arg(trainings)
            .arg(formatEps(v.bisectionEps))
            .arg(bisection);
    return utilityTr("Not met within %1 steps.").arg(v.steps.size());
}

} // namespace elab::ui

namespace elab::ui {

namespace {

/// One mechanism of the comparison as the readout needs it.
struct Compared {
    QString name;
    std::vector<core::SweepPoint> points;
    std::optional<ProbeResult> probe;
    bool pending = false; ///< its sweep has not ended
};

} // namespace

QStringList comparisonLines(const UtilitySettings& s, const UtilityState& state, bool dragging) {
    if (s.compareWith.empty())
        return {};
    std::vector<Compared> all;
    {
        Compared main{QString::fromLatin1(core::toString(s.mechanism.kind)), {}, state.probe, !state.sweepComplete};
        for (const auto& p : state.points)
            if (p)
                main.points.push_back(*p);
        all.push_back(std::move(main));
    }
    for (const ComparedState& c : state.compared)
        all.push_back(
            {QString::fromLatin1(core::toString(c.kind)), c.measured(), c.probe, !c.complete && c.error.empty()});
    const double eps = s.currentEps;
    std::vector<double> values(all.size(), std::numeric_limits<double>::quiet_NaN()), sds = values;
    std::vector<bool> measured(all.size(), false);
    for (std::size_t i = 0; i < all.size(); ++i) {
        const Compared& c = all[i];
        if (c.probe && c.probe->eps == eps && c.probe->full && !dragging) {
            values[i] = c.probe->mean;
            sds[i] = c.probe->sd;
            measured[i] = true;
        } else if (std::isinf(eps)) {
            continue;
        } else if (const auto curve = core::measuredCurve(c.points);
                   curve && eps >= c.points.front().eps && eps <= c.points.back().eps) {
            values[i] = curve(eps);
            const auto sdCurve = [&c] {
                std::vector<core::SweepPoint> sd = c.points;
                for (core::SweepPoint& p : sd)
                    p.mean = p.sd;
                return core::measuredCurve(sd);
            }();
            sds[i] = sdCurve(eps);
        }
    }
    QStringList lines;
    lines << utilityTr("Compared at ε = %1 (best first):").arg(formatEps(eps));
    int rank = 0;
    for (std::size_t i : core::rankByUtility(values, s.metric)) {
        const Compared& c = all[i];
        if (std::isnan(values[i]))
            lines << utilityTr("–  %1: %2")
                         .arg(c.name, c.pending ? utilityTr("computing…") : utilityTr("not measured here"));
        else
            lines << utilityTr("%1. %2: %3%4 ± %5")
                         .arg(++rank)
                         .arg(c.name, measured[i] ? QString() : utilityTr("≈ "), readoutNumber(values[i]),
                              readoutNumber(sds[i]));
    }
    if (!s.target)
        return lines;
    lines << utilityTr("ε each needs for the target %1:").arg(readoutNumber(*s.target));
    const bool verified = state.targetEps.size() == all.size() && state.targetEpsTarget == *s.target;
    std::vector<std::optional<double>> needs;
    for (std::size_t i = 0; i < all.size(); ++i) {
        const std::optional<double> onCurve = core::measuredTargetEps(all[i].points, *s.target, s.metric);
        QString line = utilityTr("%1: ").arg(all[i].name);
        if (all[i].pending)
            line += utilityTr("computing…");
        else if (!onCurve)
            line += utilityTr("not met on the grid");
        else
            line += utilityTr("%1 on the measured curve").arg(formatEps(*onCurve));
        if (verified) {
            const auto& v = state.targetEps[i].verified;
            line += v ? utilityTr(", verified %1").arg(formatEps(*v)) : utilityTr(", not verified");
            needs.push_back(v);
        } else {
            needs.push_back(all[i].pending ? std::nullopt : onCurve);
        }
        lines << line;
    }
    if (const auto least = core::leastEps(needs))
        lines << utilityTr("Least ε: %1 at ε = %2 (%3)")
                     .arg(all[*least].name, formatEps(*needs[*least]),
                          verified ? utilityTr("verified") : utilityTr("on the measured curve; Verify to confirm"));
    else
        lines << utilityTr("No mechanism meets the target on the grid.");
    return lines;
}

} // namespace elab::ui
