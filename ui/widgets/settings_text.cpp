#include "ui/widgets/settings_text.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/composition.h"
#include "core/privacy/plain_language.h"

#include "ui/widgets/eps_text.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::ui {

namespace {

QString settingsTr(const char* text) { return QCoreApplication::translate("elab::ui::SettingsText", text); }

// Core messages start in lower case to fit inside sentences; shown alone they start a line.
QString sentence(const std::string& message) {
    QString text = QString::fromStdString(message);
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

const QString kWarningRed = QStringLiteral("#b01e1e");

QString red(const QString& text) {
    return QStringLiteral("<span style='color:%1'>%2</span>").arg(kWarningRed, text.toHtmlEscaped());
}

} // namespace

QString mechanismName(core::MechanismKind kind) { return QString::fromUtf8(core::mechanismInfo(kind).title); }

QString mechanismToolTip(core::MechanismKind kind) { return QString::fromUtf8(core::mechanismInfo(kind).summary); }

QString lossName(core::LossKind kind) {
    switch (kind) {
    case core::LossKind::Logistic: return settingsTr("Logistic");
    case core::LossKind::HuberSvm: return settingsTr("Huber SVM");
    case core::LossKind::SmoothHinge: return settingsTr("Smoothed hinge");
    case core::LossKind::Squared: return settingsTr("Squared (regression)");
    }
    return {};
}

QString metricName(core::UtilityMetric metric) {
    switch (metric) {
    case core::UtilityMetric::TrainLoss: return settingsTr("Training loss");
    case core::UtilityMetric::TestLoss: return settingsTr("Test loss");
    case core::UtilityMetric::TrainAccuracy: return settingsTr("Training accuracy");
    case core::UtilityMetric::TestAccuracy: return settingsTr("Test accuracy");
    }
    return {};
}

QString normPolicyName(core::NormPolicy policy) {
    switch (policy) {
    case core::NormPolicy::ClipRows: return settingsTr("Clip rows to ‖x‖ ≤ 1");
    case core::NormPolicy::ScaleByMaxNorm: return settingsTr("Scale by max norm");
    case core::NormPolicy::None: return settingsTr("None");
    }
    return {};
}

namespace {

GuaranteeText textOf(const QString& headline, const QStringList& warnings, const QStringList& details,
                     bool assumptionBroken) {
    GuaranteeText text;
    text.plain = (QStringList{headline} + warnings + details).join(QLatin1Char('\n'));
    text.html = assumptionBroken ? QStringLiteral("<b>%1</b>").arg(red(headline))
                                 : QStringLiteral("<b>%1</b>").arg(headline.toHtmlEscaped());
    for (const QString& w : warnings)
        text.html += QStringLiteral("<br>") + red(QStringLiteral("⚠ ") + w);
    for (const QString& d : details)
        text.html += QStringLiteral("<br>") + d.toHtmlEscaped();
    return text;
}

} // namespace

GuaranteeText describePrivacyGuarantee(const core::PrivacyGuarantee& g, const GuaranteeContext& context) {
    const long long n = context.trainRows;
    if (g.voided()) {
        // The warning state: the mechanism ran, but a step before it read the private data.
        QStringList warnings, details;
        for (const std::string& step : g.assumptionsNotMet)
            warnings << settingsTr("Not met: %1").arg(sentence(step));
        warnings << context.leaks;
        if (g.brokenOnPurpose)
            details << settingsTr("This mechanism adds less noise than its ε needs, on purpose: an audit should "
                                  "catch it. Nothing is guaranteed; set \"Broken on purpose\" back to no.");
        else
            details << settingsTr(
                "The mechanism's own ε holds only for the training rows as they reached it; a step that reads "
                "the private data outside a mechanism can reveal any one person's row, so nothing is guaranteed "
                "about the file. Use public bounds, a public schema and row clipping to get the guarantee back.");
        details << settingsTr("Mechanism: %1").arg(QString::fromStdString(g.source));
        for (const std::string& note : g.notes)
            details << QStringLiteral("• ") + sentence(note);
        for (const std::string& c : g.conditions)
            details << QStringLiteral("• ") + settingsTr("Condition: %1").arg(QString::fromStdString(c));
        return textOf(settingsTr("No privacy guarantee: assumptions not met"), warnings, details, true);
    }
    if (!g.isPrivate && context.leaks.isEmpty())
        return textOf(settingsTr("No privacy"), {},
                      {settingsTr("ε = ∞ is the non-private end: the model is fitted without noise.")}, false);
    if (!g.isPrivate)
        return textOf(settingsTr("No privacy guarantee: assumptions not met"), context.leaks, {}, true);
    QString headline = QString::fromStdString(g.notion) + QStringLiteral(": ε = ") + formatNumber(g.epsilon);
    if (g.delta > 0.0)
        headline += QStringLiteral(", δ = ") + formatNumber(g.delta);
    QStringList warnings, details;
    if (g.delta > 0.0 && n > 0 && g.delta >= 1.0 / static_cast<double>(n))
        warnings << settingsTr("δ = %1 is not below 1/n = %2: a δ that large allows publishing a "
                               "few rows outright.")
                        .arg(formatNumber(g.delta), formatNumber(1.0 / static_cast<double>(n)));
    warnings << context.leaks;
    for (const std::string& sentence : core::plainLanguage(g, n))
        details << QString::fromStdString(sentence);
    details << settingsTr("Source: %1").arg(QString::fromStdString(g.source));
    if (!context.formula.isEmpty())
        details << settingsTr("Formula: %1").arg(context.formula);
    details << (n > 0 ? settingsTr("n = %1 training rows").arg(n) : settingsTr("No dataset loaded: n unknown."));
    for (const std::string& a : g.assumptions)
        details << QStringLiteral("• ") + settingsTr("Assumes %1").arg(QString::fromStdString(a));
    if (n <= 0 && !g.branch.empty())
        details << QStringLiteral("• ") + settingsTr("The branch taken (extra ridge or not) depends on n.");
    else
        for (const std::string& note : g.notes)
            details << QStringLiteral("• ") + sentence(note);
    if (context.constants && n > 0 && !g.parameters.empty()) {
        QStringList constants;
        for (const core::MechanismParameter& p : g.parameters)
            if (std::isfinite(p.value))
                constants << QString::fromStdString(p.symbol) + QStringLiteral(" = ") + formatNumber(p.value);
        details << QStringLiteral("• ") + settingsTr("Constants: %1").arg(constants.join(QStringLiteral(", ")));
    }
    // A view's own leak (context.leaks) turns the guarantee off as a leaking step does.
    const bool broken = !context.leaks.isEmpty();
    if (broken)
        headline = settingsTr("No privacy guarantee: assumptions not met (the mechanism alone: %1)").arg(headline);
    return textOf(headline, warnings, details, broken);
}

GuaranteeText describeGuarantee(const UtilitySettings& settings, const DataShape& shape, double eps) {
    const core::MechanismSpec& spec = settings.mechanism;
    if (!core::mechanismInfo(spec.kind).isPrivate)
        return textOf(settingsTr("No privacy"), {},
                      {settingsTr("Non-private reference: the model is fitted without noise.")}, false);
    if (std::isinf(eps))
        return describePrivacyGuarantee(core::PrivacyGuarantee{}, {});
    if (const std::string problem = spec.validate(); !problem.empty())
        return textOf(settingsTr("No guarantee"), {}, {sentence(problem)}, false);
    try {
        // K classes unless a positive class binarises the labels.
        const int classes = shape.multiclass && !settings.preprocess.positiveClass
                                ? std::max(2, static_cast<int>(shape.classNames.size()))
                                : 0;
        // The loaded data's own steps, and those the form's preprocessing will add.
        core::PipelineFacts pipeline = shape.pipeline;
        for (std::string& step : core::plannedLeaks(settings.preprocess))
            pipeline.leakingSteps.push_back(std::move(step));
        core::PrivacyGuarantee g = core::withSeedMode(
            core::withPipeline(
                core::mechanismInfo(spec.kind).guarantee(
                    spec, std::max(Eigen::Index{1}, static_cast<Eigen::Index>(shape.trainRows)), classes, eps),
                pipeline),
            settings.secretSeed ? core::SeedMode::SecretRelease : core::SeedMode::Reproducible);
        // The Data tab estimates private bounds at load, with the public seed 1 (PrivateBoundsOptions).
        if (settings.secretSeed && g.isPrivate && shape.pipeline.preparationEpsilon > 0.0)
            g.conditions.emplace_back("the privately estimated bounds were drawn when the data was loaded, with the "
                                      "public seed 1: only the model's own noise is a private release");
        return describePrivacyGuarantee(
            g, {shape.trainRows, {}, false, QString::fromUtf8(core::mechanismInfo(spec.kind).formula)});
    } catch (const std::exception& e) {
        return textOf(settingsTr("No guarantee"), {}, {sentence(e.what())}, false);
    }
}

QStringList settingsProblems(const UtilitySettings& settings, const DataShape& shape) {
    QStringList problems;
    // The core repeats some of the specific messages below in other words after a colon:
    // a message whose head (up to ':') starts an earlier one is the same problem.
    auto add = [&problems](const QString& p) {
        const QString head = p.section(QLatin1Char(':'), 0, 0).trimmed();
        if (p.isEmpty() || std::any_of(problems.cbegin(), problems.cend(),
                                       [&](const QString& q) { return q.startsWith(head, Qt::CaseInsensitive); }))
            return;
        problems << p;
    };
    if (shape.regression)
        add(settingsTr("Regression is not supported yet: the engine fits margin losses (logistic, "
                       "Huber SVM, smoothed hinge) on binary labels only."));
    else if (settings.mechanism.model.loss.kind() == core::LossKind::Squared)
        add(settingsTr("Squared loss is for regression datasets: pick a margin loss."));
    if (settings.mechanism.usesDelta() &&
        !(settings.mechanism.privacy.delta > 0.0 && settings.mechanism.privacy.delta < 1.0))
        add(settingsTr("δ must be in (0, 1), and well below 1/n (e.g. 1e-5)."));
    if (core::mechanismInfo(settings.mechanism.kind).needsPositiveLambda && !(settings.mechanism.model.lambda > 0.0))
        add(settingsTr("Output perturbation needs Λ > 0: its sensitivity 2ζ/(nΛ) is infinite at Λ = 0."));
    add(sentence(settings.mechanism.validate()));
    add(sentence(settings.preprocess.validate()));
    add(sentence(settings.validate()));
    // validate() stops at the first problem: look past the mechanism and preprocessing too.
    UtilitySettings rest = settings;
    rest.mechanism = core::MechanismSpec{};
    rest.preprocess = core::PreprocessOptions{};
    add(sentence(rest.validate()));
    return problems;
}

QString estimatesUnavailableReason(const UtilitySettings& settings) {
    if (const auto& info = core::mechanismInfo(settings.mechanism.kind); !info.taylor)
        return QString::fromUtf8(info.noTaylorReason);
    if (!core::isLossMetric(settings.metric))
        return settingsTr("Taylor estimates need a loss metric: accuracy is a step function of the model, "
                          "with no derivative in ε.");
    return {};
}

} // namespace elab::ui
