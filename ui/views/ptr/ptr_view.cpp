#include "ui/views/ptr/ptr_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/ptr/ptr_chart_model.h"
#include "ui/views/ptr/ptr_controller.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/note_label.h"
#include "ui/widgets/slider_steps.h"
#include "ui/widgets/throttled_text.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace elab::ui {

namespace {

QLineEdit* edit(QWidget* parent, const char* name, const QString& tip) {
    auto* e = new QLineEdit(parent);
    e->setObjectName(QString::fromLatin1(name));
    e->setToolTip(tip);
    return e;
}

} // namespace

PtrPanel::PtrPanel(QWidget* parent) : QWidget(parent) {
    auto* box = new QGroupBox(tr("Propose-test-release (Jain et al., Alg. 2)"), this);
    m_binarise = edit(box, "ptrBinariseEdit",
                      tr("A feature counts as 1 in a row where its value is above this. Choose it without looking at "
                         "the data: it is public"));
    m_delta = edit(box, "ptrDeltaEdit", tr("δ of the (2ε, δ) guarantee; the test's threshold grows with log(1/δ)"));
    m_runs = new QSpinBox(box);
    m_runs->setObjectName(QStringLiteral("ptrRunsSpin"));
    m_runs->setRange(1, PtrSettings::kMaxRuns);
    m_runs->setSingleStep(1000);
    m_runs->setKeyboardTracking(false);
    m_runs->setToolTip(tr("Runs of the test (fresh Laplace noise each) for the measured pass fraction"));
    m_seed = edit(box, "ptrSeedEdit", tr("Seed of the runs: the same seed gives the same runs"));
    m_problem = noteLabel(box, "ptrProblem");
    m_problem->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Binarise at"), m_binarise);
    form->addRow(tr("δ"), m_delta);
    form->addRow(tr("Runs"), m_runs);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(m_problem);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(box);
    layout->addStretch(1);
    for (QLineEdit* e : {m_binarise, m_delta, m_seed})
        connect(e, &QLineEdit::editingFinished, this, &PtrPanel::edited);
    connect(m_runs, &QSpinBox::valueChanged, this, &PtrPanel::edited);
    setSettings(m_settings);
}

void PtrPanel::setSettings(const PtrSettings& s) {
    m_applying = true;
    m_settings = s;
    m_binarise->setText(formatNumber(s.binariseAt, 6));
    m_delta->setText(formatNumber(s.delta, 6));
    m_runs->setValue(s.runs);
    m_seed->setText(QString::number(s.seed));
    m_problem->clear();
    m_applying = false;
}

void PtrPanel::edited() {
    if (m_applying)
        return;
    PtrSettings next = m_settings;
    const auto at = parseNumber(m_binarise->text());
    const auto delta = parseNumber(m_delta->text());
    bool seedOk = false;
    const std::uint64_t seed = m_seed->text().trimmed().toULongLong(&seedOk);
    if (!at || !std::isfinite(*at)) {
        m_problem->setText(tr("Binarise at: “%1” is not a number").arg(m_binarise->text()));
        return;
    }
    if (!delta || !(*delta > 0.0 && *delta < 1.0)) {
        m_problem->setText(tr("δ: “%1” is not a number in (0, 1)").arg(m_delta->text()));
        return;
    }
    if (!seedOk) {
        m_problem->setText(tr("Seed: “%1” is not a whole number ≥ 0").arg(m_seed->text()));
        return;
    }
    m_problem->clear();
    next.binariseAt = *at;
    next.delta = *delta;
    next.runs = m_runs->value();
    next.seed = seed;
    if (next == m_settings)
        return;
    m_settings = next;
    emit settingsChanged();
}

PtrView::PtrView(PtrController* controller, PtrPanel* panel, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_panel(panel) {
    m_slider = new EpsSlider(this);
    m_passChart = new charts::ChartView(this);
    m_passChart->setMinimumSize(400, 340);
    m_thresholdChart = new charts::ChartView(this);
    m_thresholdChart->setMinimumSize(400, 340);
    // The texts that change while the slider moves, each in a NoteBox: a new text lays the view
    // out again (and resizes both charts) only when its height changes.
    NoteBox* readout = noteBox(this, "ptrReadout");
    m_readout = readout->label();
    m_readout->setTextFormat(Qt::RichText);
    NoteBox* status = noteBox(this, "ptrStatus");
    m_status = status->label();
    m_status->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    auto* explanation = noteLabel(this, "ptrExplanation");
    explanation->setStyleSheet(QStringLiteral("color: #555;"));
    explanation->setText(tr("Dropout that keeps the feature with the fewest surviving ones is private only when no "
                            "single row can change which feature that is. Propose-test-release checks this privately: "
                            "Λ measures how far every feature's count is from depending on one row; Λ + Laplace noise "
                            "must clear 2·log(1/δ)/(nε), or nothing is released. Larger n and larger ε make passing "
                            "likely; the whole procedure is (2ε, δ)-DP."));
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_passChart, 1);
    charts->addWidget(m_thresholdChart, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_slider);
    layout->addLayout(charts, 1);
    layout->addWidget(readout);
    layout->addWidget(status);
    layout->addWidget(explanation);

    connectSliderSteps(
        m_slider, this, m_controller,
        [this](bool dragging) {
            if (!m_applying)
                m_controller->setCurrentEps(composedSettings().currentEps, dragging);
        },
        [this] { refresh(); });
    connect(m_panel, &PtrPanel::settingsChanged, this, &PtrView::pushSettings);
    // While the handle is held, a release per step would repaint both charts and lay the window
    // out again for the readout at every frame: redraws at most every kHeldRedrawMs, the readout
    // at most every kHeldTextMs, both in full on release.
    m_redraw = new Throttle(
        kHeldRedrawMs, [this] { refresh(); }, this);
    m_readoutShown = new ThrottledText(m_readout, kHeldTextMs, this);
    connect(m_controller, &PtrController::stateChanged, this, [this] { m_redraw->request(m_controller->dragging()); });
    m_slider->setEps(m_panel->settings().currentEps);
    refresh();
}

PtrSettings PtrView::composedSettings() const {
    PtrSettings s = m_panel->settings();
    s.currentEps = m_slider->eps();
    return s;
}

void PtrView::applySettings(const PtrSettings& s) {
    m_applying = true;
    m_panel->setSettings(s);
    m_slider->setEps(s.currentEps);
    m_applying = false;
    pushSettings();
}

void PtrView::pushSettings() {
    if (!m_applying)
        m_controller->setSettings(composedSettings());
}

charts::ChartData PtrView::passChart() const { return buildPassChart(m_controller->settings(), m_controller->state()); }
charts::ChartData PtrView::thresholdChart() const {
    return buildThresholdChart(m_controller->settings(), m_controller->state());
}
QString PtrView::readoutText() const { return m_readout->text(); }

void PtrView::refresh() {
    m_redraw->ran();
    const bool held = m_controller->dragging();
    m_passChart->setData(buildPassChart(m_controller->settings(), m_controller->state(), held));
    m_thresholdChart->setData(buildThresholdChart(m_controller->settings(), m_controller->state(), held));
    const auto dataset = m_controller->dataset();
    m_readoutShown->set(ptrReadoutHtml(m_controller->settings(), m_controller->state(),
                                       [dataset](core::Index j) {
                                           return dataset && j >= 0 ? QString::fromStdString(dataset->featureName(j))
                                                                    : QStringLiteral("–");
                                       }),
                        held);
    m_status->setText(m_controller->lastError().isEmpty() ? QString()
                                                          : tr("Problem: %1").arg(m_controller->lastError()));
    emit redrawn();
}

} // namespace elab::ui
