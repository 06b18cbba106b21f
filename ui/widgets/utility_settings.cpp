#include "ui/widgets/utility_settings.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/util/grid_text.h"

#include <algorithm>
#include <cmath>

namespace elab::ui {

bool UtilitySettings::estimatesApply() const {
    return core::mechanismInfo(mechanism.kind).taylor && core::isLossMetric(metric);
}

core::MechanismSpec UtilitySettings::comparedSpec(core::MechanismKind kind) const {
    core::MechanismSpec spec = mechanism;
    core::selectMechanism(spec, kind);
    return spec;
}

std::vector<double> UtilitySettings::grid() const {
    if (gridPoints < 1 || !(epsMin > 0.0) || !(epsMax >= epsMin))
        return {};
    return core::spacedGrid(epsMin, epsMax, gridPoints, core::GridSpacing::Logarithmic); // the CLI's A:B:K
}

std::string UtilitySettings::validate() const {
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (std::string e = preprocess.validate(); !e.empty())
        return e;
    if (!(testFraction >= 0.0 && testFraction < 1.0))
        return "the test fraction must be in [0, 1)";
    if (core::usesTestSet(metric) && testFraction <= 0.0)
        return std::string("the metric ") + core::toString(metric) + " needs a held-out test fraction > 0";
    if (repeats < 1 || repeats > 1000)
        return "repetitions must be between 1 and 1000";
    if (!(epsMin > 0.0) || !(epsMax > epsMin) || !std::isfinite(epsMax))
        return "the ε grid needs 0 < ε min < ε max";
    if (gridPoints < 2 || gridPoints > 200)
        return "the ε grid needs between 2 and 200 points";
    for (double e : measureAt)
        if (!(e > 0.0) || !std::isfinite(e))
            return "measuring points must be finite numbers > 0";
    if (!(currentEps > 0.0))
        return "the current ε must be > 0";
    if (target && !std::isfinite(*target))
        return "the target utility must be a finite number";
    for (core::MechanismKind kind : compareWith) {
        if (std::count(compareWith.begin(), compareWith.end(), kind) > 1)
            return std::string("compare with: ") + core::toString(kind) + " is named twice";
        if (kind == mechanism.kind)
            return std::string("compare with: ") + core::toString(kind) + " is the mechanism itself";
        if (std::string e = comparedSpec(kind).validate(); !e.empty())
            return std::string("compare with ") + core::mechanismInfo(kind).title + ": " + e;
    }
    return {};
}

} // namespace elab::ui
