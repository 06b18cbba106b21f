#include "ui/views/regions/regions_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include "ui/widgets/eps_text.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <vector>

namespace elab::ui {

namespace {

QString regionsTr(const char* text) { return QCoreApplication::translate("elab::ui::RegionsText", text); }

QString accuracy(double v) { return std::isfinite(v) ? QString::number(v, 'f', 3) : QStringLiteral("—"); }

/// Points that more than half of the draws misclassify.
int mostlyMisclassified(const Eigen::VectorXd& fractions) {
    return static_cast<int>((fractions.array() > 0.5).count());
}

} // namespace

QString regionsFillTitle(RegionsFill fill) {
    switch (fill) {
    case RegionsFill::Majority: return regionsTr("Agreement-shaded majority");
    case RegionsFill::Draw: return regionsTr("Draw k");
    case RegionsFill::Agreement: return regionsTr("Agreement map");
    }
    return {};
}

QString regionsEpsText(double eps) {
    return std::isinf(eps) ? regionsTr("ε = ∞ (non-private)") : regionsTr("ε = %1").arg(formatNumber(eps));
}

GuaranteeText regionsGuarantee(const RegionsSettings& settings, const RegionsState& state) {
    if (!state.result || !state.resultProblem)
        return {};
    GuaranteeContext context;
    context.trainRows = static_cast<long long>(state.resultProblem->trainPoints().rows());
    context.formula = QString::fromUtf8(core::mechanismInfo(settings.mechanism.kind).formula);
    if (settings.plane == core::PlaneKind::Pca)
        context.leaks << regionsTr(
            "The PCA plane is computed from the training rows: it leaks privacy, and the leak is "
            "not counted in ε.");
    return describePrivacyGuarantee(state.result->guarantee, context);
}

QStringList regionsReadoutLines(const RegionsSettings& settings, const RegionsState& state) {
    QStringList lines;
    const core::RegionsResult* r = state.result.get();
    if (!r)
        return lines;
    const int draws = static_cast<int>(r->draws.size());
    QString grid = regionsTr("grid %1 × %1").arg(state.shownGrid());
    if (state.preview())
        grid =
            regionsTr("grid %1 × %1 while dragging (%2 × %2 on release)").arg(state.shownGrid()).arg(settings.gridSize);
    lines << (draws > 0 ? regionsTr("%1 · %2 draws · %3").arg(regionsEpsText(r->eps)).arg(draws).arg(grid)
                        : regionsTr("%1 · %2").arg(regionsEpsText(r->eps), grid));
    const bool test = std::isfinite(r->nonPrivate.testAccuracy);
    if (draws > 0) {
        lines << regionsTr("Train accuracy: %1 ± %2").arg(accuracy(r->trainAccuracyMean), accuracy(r->trainAccuracySd));
        if (test)
            lines
                << regionsTr("Test accuracy: %1 ± %2").arg(accuracy(r->testAccuracyMean), accuracy(r->testAccuracySd));
        lines << regionsTr("(mean ± sd over the %1 draws)").arg(draws);
        if (settings.fill == RegionsFill::Draw && settings.fillDraw < draws) {
            const core::RegionsModel& shown = r->draws[static_cast<std::size_t>(settings.fillDraw)];
            lines
                << (test
                        ? regionsTr("Draw %1: train %2, test %3")
                              .arg(settings.fillDraw + 1)
                              .arg(accuracy(shown.trainAccuracy), accuracy(shown.testAccuracy))
                        : regionsTr("Draw %1: train %2").arg(settings.fillDraw + 1).arg(accuracy(shown.trainAccuracy)));
        }
    }
    lines << (test ? regionsTr("Non-private: train %1, test %2")
                         .arg(accuracy(r->nonPrivate.trainAccuracy), accuracy(r->nonPrivate.testAccuracy))
                   : regionsTr("Non-private: train %1").arg(accuracy(r->nonPrivate.trainAccuracy)));
    // A plane on which even the non-private model only answers the largest class shows nothing
    // about privacy (digits' always-blank corner pixel): say so, and what to change.
    if (const Eigen::VectorXi& classOf = state.resultProblem->trainClass(); classOf.size() > 0) {
        std::vector<Eigen::Index> counts(state.resultProblem->classNames().size() + 1, 0);
        for (Eigen::Index i = 0; i < classOf.size(); ++i)
            if (classOf(i) >= 0 && static_cast<std::size_t>(classOf(i)) < counts.size())
                ++counts[static_cast<std::size_t>(classOf(i))];
        const auto top = std::max_element(counts.begin(), counts.end());
        const double rate = static_cast<double>(*top) / static_cast<double>(classOf.size());
        const auto k = static_cast<std::size_t>(top - counts.begin());
        if (r->nonPrivate.trainAccuracy <= rate + 0.01 && k < state.resultProblem->classNames().size())
            lines << regionsTr(
                         "⚠ On this plane the non-private model is no better than always answering '%1' (%2 of the "
                         "training rows): choose axes that separate the classes.")
                         .arg(QString::fromStdString(state.resultProblem->classNames()[k]), accuracy(rate));
    }
    {
        const auto& trainPoints = state.resultProblem->trainPoints();
        QString wrong = (draws > 0 ? regionsTr("Misclassified by most draws: %1 of %2 training rows")
                                   : regionsTr("Misclassified: %1 of %2 training rows"))
                            .arg(mostlyMisclassified(r->trainMisclassified))
                            .arg(trainPoints.rows());
        if (test)
            wrong += regionsTr(", %1 of %2 test rows")
                         .arg(mostlyMisclassified(r->testMisclassified))
                         .arg(state.resultProblem->testPoints().rows());
        lines << wrong;
    }
    // A large dataset is pictured on a subsample (core RegionsSpec::maxRows): say so, and what it means.
    for (const core::ProcessingStep& step : state.resultProblem->log())
        if (step.name == "subsample for the picture")
            lines << regionsTr("Pictured on a seeded subsample: %1").arg(QString::fromStdString(step.detail));
    return lines;
}

} // namespace elab::ui
