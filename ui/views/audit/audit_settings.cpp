#include "ui/views/audit/audit_settings.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <cmath>

namespace elab::ui {

const core::OptionNames<AuditMethod>& auditMethodNames() {
    static const core::OptionNames<AuditMethod> names{{AuditMethod::TwoDatasets, "two-datasets"},
                                                      {AuditMethod::OneRun, "one-run"},
                                                      {AuditMethod::Whitebox, "whitebox"}};
    return names;
}

const core::OptionNames<core::WhiteboxView>& whiteboxViewNames() {
    static const core::OptionNames<core::WhiteboxView> names{{core::WhiteboxView::Iterates, "iterates"},
                                                             {core::WhiteboxView::Residual, "residual"}};
    return names;
}

std::string AuditSettings::validate() const {
    if (!core::mechanismInfo(mechanism.kind).isPrivate)
        return "the non-private reference claims no ε: choose a private mechanism to audit";
    if (method == AuditMethod::Whitebox && !core::mechanismInfo(mechanism.kind).trainsInEpochs)
        return "the white-box method puts gradient canaries into the steps of DP-SGD's training; " +
               std::string(core::mechanismInfo(mechanism.kind).title) +
               " has no steps to put them in: choose DP-SGD below, or the two-dataset or one-run method";
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (std::string e = preprocess.validate(); !e.empty())
        return e;
    if (!(testFraction >= 0.0 && testFraction < 1.0))
        return "the test fraction must be in [0, 1)";
    if (canaries < kMinCanaries || canaries > kMaxCanaries)
        return "the canaries of a one-run audit must be between 2 and 1,000,000";
    if (runs < kMinRuns || runs > kMaxRuns)
        return "the runs per neighbour must be between 20 and 1,000,000";
    if (whiteboxRuns < kMinWhiteboxRuns || whiteboxRuns > kMaxWhiteboxRuns)
        return "the trainings of a white-box audit must be between 2 and 1,000,000";
    if (!(alpha > 0.0 && alpha < 0.5))
        return "α must be in (0, 0.5): the bound holds with confidence 1 − α";
    if (!(currentEps > 0.0) || !std::isfinite(currentEps))
        return "the audited ε must be finite (ε = ∞ claims nothing): move the slider below ∞";
    if (!(noiseDivisor >= 1.0 && noiseDivisor <= kMaxNoiseDivisor))
        return "the noise divisor of a mechanism broken on purpose must be between 1 (correct) and 1000";
    if (canaryRow < -1)
        return "the canary row must be a row number ≥ 0, or −1 for the default canary";
    return {};
}

namespace {

/// The fields every audit method's spec takes from the settings: mechanism, claimed ε, α, seed
/// and the noise divisor of a mechanism broken on purpose.
template <typename Spec>
Spec commonSpec(const AuditSettings& s) {
    Spec spec;
    spec.mechanism = s.mechanism;
    spec.eps = s.currentEps;
    spec.alpha = s.alpha;
    spec.seed = s.seed;
    spec.noiseDivisor = s.noiseDivisor;
    return spec;
}

} // namespace

core::AuditSpec AuditSettings::toSpec() const {
    auto spec = commonSpec<core::AuditSpec>(*this);
    spec.runs = runs;
    if (canaryRow >= 0)
        spec.canaryRow = static_cast<core::Index>(canaryRow);
    return spec;
}

core::OneRunAuditSpec AuditSettings::toOneRunSpec() const {
    auto spec = commonSpec<core::OneRunAuditSpec>(*this);
    spec.canaries = canaries;
    return spec;
}

core::WhiteboxAuditSpec AuditSettings::toWhiteboxSpec() const {
    auto spec = commonSpec<core::WhiteboxAuditSpec>(*this);
    spec.runs = whiteboxRuns;
    spec.view = whiteboxView;
    return spec;
}

} // namespace elab::ui
