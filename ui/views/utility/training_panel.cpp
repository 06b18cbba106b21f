#include "ui/views/utility/training_panel.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/chart_view.h"
#include "ui/views/utility/training_controller.h"
#include "ui/widgets/note_label.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace elab::ui {

namespace {

using charts::SeriesData;
using charts::SeriesKind;

enum class Quantity { Accuracy, Loss };

double valueOf(const core::EpochMetrics& m, Quantity q, bool test) {
    if (q == Quantity::Accuracy)
        return test ? m.testAccuracy : m.trainAccuracy;
    return test ? m.testLoss : m.trainLoss;
}

void addRun(charts::ChartData& chart, const std::vector<core::EpochMetrics>& run, Quantity q, const QString& prefix,
            const QString& label, const QColor& colour, Qt::PenStyle trainStyle) {
    for (bool test : {false, true}) {
        SeriesData s = charts::makeSeries(
            QStringLiteral("%1:%2").arg(prefix, test ? QStringLiteral("test") : QStringLiteral("train")),
            QStringLiteral("%1, %2").arg(label, test ? QStringLiteral("test") : QStringLiteral("train")),
            SeriesKind::Line, colour);
        s.style = test ? Qt::DashLine : trainStyle;
        s.width = test ? 2.0 : 1.5;
        for (const core::EpochMetrics& m : run) {
            const double v = valueOf(m, q, test);
            if (std::isfinite(v))
                s.points.append(QPointF(m.epoch, v));
        }
        chart.series << s;
    }
}

charts::ChartData chartOf(const TrainingController& c, Quantity q) {
    charts::ChartData chart;
    chart.logX = false;
    chart.xTitle = QStringLiteral("epoch");
    chart.yTitle = q == Quantity::Accuracy ? QStringLiteral("accuracy") : QStringLiteral("cross-entropy loss");
    chart.title = q == Quantity::Accuracy ? QStringLiteral("Accuracy per epoch") : QStringLiteral("Loss per epoch");
    chart.xMin = 0.0;
    int most = std::max(1, c.epochs());
    most = std::max({most, c.privateRun().empty() ? 0 : c.privateRun().back().epoch,
                     c.referenceRun().empty() ? 0 : c.referenceRun().back().epoch});
    chart.xMax = most;
    if (q == Quantity::Accuracy) {
        chart.yMin = 0.0;
        chart.yMax = 1.0;
    }
    addRun(chart, c.referenceRun(), q, QStringLiteral("nonprivate"), QStringLiteral("non-private"),
           QColor(120, 120, 120), Qt::SolidLine);
    addRun(chart, c.privateRun(), q, QStringLiteral("private"), QStringLiteral("ε = %1").arg(c.eps(), 0, 'g', 3),
           charts::paletteColor(0), Qt::SolidLine);
    chart.footnote =
        QStringLiteral("DP-SGD at the slider's ε (seed's repetition 0) and the same run without clipping or "
                       "noise. Train metrics on at most 5,000 evenly spaced training rows. The curves are "
                       "computed on the data: only the final model is private.");
    return chart;
}

} // namespace

TrainingPanel::TrainingPanel(TrainingController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller) {
    setObjectName(QStringLiteral("trainingPanel"));
    m_accuracy = new charts::ChartView(this);
    m_loss = new charts::ChartView(this);
    for (charts::ChartView* v : {m_accuracy, m_loss})
        v->setMinimumSize(300, 240);
    m_status = new NoteLabel(this);
    m_status->setObjectName(QStringLiteral("trainingStatus"));
    m_status->setStyleSheet(QStringLiteral("color: #555;"));
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_accuracy, 1);
    charts->addWidget(m_loss, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(charts, 1);
    layout->addWidget(m_status);
    connect(m_controller, &TrainingController::updated, this, &TrainingPanel::refresh);
    connect(m_controller, &TrainingController::failed, this,
            [this](const QString& message) { m_status->setText(tr("Training failed: %1").arg(message)); });
    refresh();
}

charts::ChartData TrainingPanel::accuracyChart() const { return chartOf(*m_controller, Quantity::Accuracy); }
charts::ChartData TrainingPanel::lossChart() const { return chartOf(*m_controller, Quantity::Loss); }
QString TrainingPanel::statusText() const { return m_status->text(); }

void TrainingPanel::refresh() {
    setVisible(m_controller->active());
    if (!m_controller->active())
        return;
    m_accuracy->setData(accuracyChart());
    m_loss->setData(lossChart());
    const auto& p = m_controller->privateRun();
    const auto& r = m_controller->referenceRun();
    QString text = std::isfinite(m_controller->eps()) ? tr("Training at ε = %1: epoch %2 of %3")
                                                            .arg(m_controller->eps(), 0, 'g', 3)
                                                            .arg(p.size())
                                                            .arg(m_controller->epochs())
                                                      : tr("ε = ∞: the non-private run only");
    if (!p.empty() && std::isfinite(p.back().testAccuracy))
        text += tr(", test accuracy %1").arg(p.back().testAccuracy, 0, 'f', 3);
    else if (!p.empty())
        text += tr(", training accuracy %1 (no test set: set a test fraction)").arg(p.back().trainAccuracy, 0, 'f', 3);
    if (!r.empty())
        text += std::isfinite(r.back().testAccuracy)
                    ? tr("; non-private epoch %1, test accuracy %2").arg(r.size()).arg(r.back().testAccuracy, 0, 'f', 3)
                    : tr("; non-private epoch %1, training accuracy %2")
                          .arg(r.size())
                          .arg(r.back().trainAccuracy, 0, 'f', 3);
    if (m_controller->busy())
        text += tr(" — training…");
    m_status->setText(text);
}

} // namespace elab::ui
