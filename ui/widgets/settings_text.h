#pragma once
// Words for the utility explorer's settings: readable names, the privacy guarantee actually
// given at an ε (also any view's guarantee of what it computed: describePrivacyGuarantee),
// and every problem of a settings value in words a user can act on.
// Pure functions of their arguments: any thread.

#include "core/privacy/composition.h"
#include "ui/widgets/utility_settings.h"

#include <QString>
#include <QStringList>

namespace elab::ui {

/// What the panel knows of the loaded dataset.
struct DataShape {
    long long trainRows = 0; ///< rows the model is fitted on (0: no dataset)
    long long features = 0;
    bool multiclass = false;
    bool regression = false;
    QStringList classNames;
    /// What loading did to the data (ε spent on private bounds, leaking steps such as a
    /// data-derived schema or imputation): every guarantee goes through core::withPipeline.
    core::PipelineFacts pipeline;
};

QString mechanismName(core::MechanismKind kind);
QString mechanismToolTip(core::MechanismKind kind);
QString lossName(core::LossKind kind);
QString metricName(core::UtilityMetric metric);
QString normPolicyName(core::NormPolicy policy);

/// The guarantee, as plain text and as rich text for a QLabel (leaks in red).
struct GuaranteeText {
    QString plain;
    QString html;
};

/// What the data preparation and the view add to a guarantee.
struct GuaranteeContext {
    long long trainRows = 0; ///< n (0: unknown)
    QStringList leaks;       ///< the view's own steps that read the private data (turn the guarantee off)
    bool constants = true;   ///< list the constants the mechanism used (ε', Δ, noise scale)
    QString formula;         ///< the mechanism in formulas (the catalog's), shown after the source
};

/// g in words: headline (notion, ε, δ), warnings (a large δ, the view's own leaks) and details
/// (source, n, assumptions, conditions, notes such as the branch taken, the constants). A
/// guarantee voided by a leaking step (g.voided()) reads "No privacy guarantee" in the warning
/// state, naming every step; a non-private mechanism reads "No privacy".
GuaranteeText describePrivacyGuarantee(const core::PrivacyGuarantee& g, const GuaranteeContext& context);

/// The guarantee of settings' mechanism at eps (+∞: none) on shape.trainRows rows, from the
/// mechanism catalog (core/mechanisms/mechanism_catalog.h), plus what the preprocessing does to its
/// assumption ‖x‖₂ ≤ 1. Microseconds.
GuaranteeText describeGuarantee(const UtilitySettings& settings, const DataShape& shape, double eps);

/// Every problem that stops a run, most specific first (UtilitySettings::validate() last,
/// without repeats); empty if the settings can run on this dataset.
QStringList settingsProblems(const UtilitySettings& settings, const DataShape& shape);

/// Why the Taylor estimates do not apply ("" when they do).
QString estimatesUnavailableReason(const UtilitySettings& settings);

} // namespace elab::ui
