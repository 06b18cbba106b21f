#include "ui/views/utility/utility_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/utility/utility_chart_model.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_text.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/mechanism_panel.h"
#include "ui/widgets/note_label.h"
#include "ui/widgets/side_column.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QCheckBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::ui {

namespace {

QLabel* wrappingLabel(QWidget* parent) {
    auto* label = new NoteLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

UtilityView::UtilityView(UtilityController* controller, MechanismPanel* panel, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_panel(panel) {
    buildLayout();
    connect(m_slider, &EpsSlider::epsChanged, this, &UtilityView::onEpsChanged);
    connect(m_slider, &EpsSlider::dragFinished, this, [this](double eps) { onEpsChanged(eps, false); });
    connect(m_panel, &MechanismPanel::settingsChanged, this, &UtilityView::pushSettings);
    connect(m_target, &QLineEdit::textChanged, this, &UtilityView::pushSettings);
    connect(m_chart, &charts::ChartView::clicked, this, [this](QPointF value) { addMeasuringPoint(value.x()); });
    connect(m_removeMeasuring, &QPushButton::clicked, this, &UtilityView::removeSelectedMeasuringPoint);
    connect(m_verify, &QPushButton::clicked, m_controller, &UtilityController::verifyTarget);
    connect(m_useProposal, &QPushButton::clicked, this, [this] {
        if (const auto eps = m_controller->proposedEps()) {
            m_slider->setEps(*eps);
            onEpsChanged(m_slider->eps(), false);
        }
    });
    // Streamed results redraw at most once per frame; the slider's own move redraws at once
    // (onEpsChanged), so the estimate follows the handle in the same frame.
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(16);
    connect(&m_refreshTimer, &QTimer::timeout, this, &UtilityView::refresh);
    connect(m_controller, &UtilityController::stateChanged, this, [this] {
        if (!m_refreshTimer.isActive())
            m_refreshTimer.start();
    });
    m_slider->setGrid(composedSettings().grid());
    refresh();
}

void UtilityView::buildLayout() {
    m_slider = new EpsSlider(this);
    m_chart = new charts::ChartView(this);
    m_chart->setMinimumSize(480, 320);

    auto* readoutBox = new QGroupBox(tr("At the current ε"), this);
    // Changes on every slider step: plain, not selectable (no text document to relayout), in a
    // box of its own and tall enough for its usual lines, so that a new text relayouts nothing.
    auto* readout = new NoteBox(readoutBox, "readout");
    m_readout = readout->label();
    m_readout->setTextInteractionFlags(Qt::NoTextInteraction);
    m_readout->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_readout->setMinimumHeight(8 * m_readout->fontMetrics().lineSpacing());
    (new QVBoxLayout(readoutBox))->addWidget(readout);

    auto* targetBox = new QGroupBox(tr("Target utility"), this);
    m_target = new QLineEdit(targetBox);
    m_target->setObjectName(QStringLiteral("targetEdit"));
    m_target->setPlaceholderText(tr("e.g. 0.35 (loss) or 0.9 (accuracy)"));
    m_target->setClearButtonEnabled(true);
    m_proposal = wrappingLabel(targetBox);
    m_proposal->setObjectName(QStringLiteral("proposal"));
    m_warning = wrappingLabel(targetBox);
    m_warning->setObjectName(QStringLiteral("warning"));
    m_warning->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_verify = new QPushButton(tr("Verify"), targetBox);
    m_verify->setObjectName(QStringLiteral("verifyButton"));
    m_verify->setToolTip(tr("Measure at the proposed ε and refine until the measured utility meets the target"));
    m_useProposal = new QPushButton(tr("Go to proposed ε"), targetBox);
    m_steps = new QTableWidget(0, 4, targetBox);
    m_steps->setObjectName(QStringLiteral("stepsTable"));
    m_steps->setHorizontalHeaderLabels({tr("ε"), tr("measured"), tr("meets"), tr("trainings")});
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_steps->verticalHeader()->setVisible(false);
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->setMinimumHeight(110);
    m_stepsSummary = wrappingLabel(targetBox);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_verify);
    buttons->addWidget(m_useProposal);
    auto* targetLayout = new QVBoxLayout(targetBox);
    targetLayout->addWidget(m_target);
    targetLayout->addWidget(m_proposal);
    targetLayout->addWidget(m_warning);
    targetLayout->addLayout(buttons);
    targetLayout->addWidget(m_steps);
    targetLayout->addWidget(m_stepsSummary);

    auto* measuringBox = new QGroupBox(tr("Measuring points"), this);
    m_measuring = new QListWidget(measuringBox);
    m_measuring->setObjectName(QStringLiteral("measuringList"));
    m_measuring->setMaximumHeight(90);
    m_removeMeasuring = new QPushButton(tr("Remove"), measuringBox);
    auto* measuringHint = wrappingLabel(measuringBox);
    measuringHint->setText(tr("Click the chart to add a measuring point."));
    auto* measuringLayout = new QVBoxLayout(measuringBox);
    measuringLayout->addWidget(m_measuring);
    measuringLayout->addWidget(m_removeMeasuring);
    measuringLayout->addWidget(measuringHint);

    m_privacyNote = wrappingLabel(this);
    m_privacyNote->setObjectName(QStringLiteral("privacyNote"));
    m_privacyNote->setText(tr("Note: these curves are computed on the data itself and are not private. Choosing ε by "
                              "looking at them spends privacy, unless the data is public or a proxy for the private "
                              "data."));
    m_privacyNote->setStyleSheet(QStringLiteral("color: #555;"));

    auto* compareBox = new QGroupBox(tr("Compare with"), this);
    m_compare = new QListWidget(compareBox);
    m_compare->setObjectName(QStringLiteral("compareList"));
    m_compare->setToolTip(tr("Sweep these mechanisms too, after this one, on the same ε grid with the same seeds, "
                             "and draw them on the same chart"));
    buildCompareList();
    auto* comparison = new NoteBox(compareBox, "comparison");
    m_comparison = comparison->label();
    m_comparison->setTextInteractionFlags(Qt::NoTextInteraction);
    m_comparison->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* compareLayout = new QVBoxLayout(compareBox);
    compareLayout->addWidget(m_compare);
    compareLayout->addWidget(comparison);

    auto* side = new QVBoxLayout;
    side->addWidget(readoutBox);
    side->addWidget(compareBox);
    side->addWidget(targetBox, 1);
    side->addWidget(measuringBox);
    auto* sideWidget = new QWidget(this);
    sideWidget->setLayout(side);
    side->setContentsMargins(0, 0, 0, 0);

    m_logY = new QCheckBox(tr("Log scale (utility axis)"), this);
    m_logY->setObjectName(QStringLiteral("logYCheck"));
    m_logY->setToolTip(tr("Losses at small ε can be many times the non-private loss: a log axis shows every decade"));
    connect(m_logY, &QCheckBox::toggled, this, &UtilityView::refresh);
    connect(m_logY, &QCheckBox::clicked, this, [this] { m_logYChosen = true; });
    auto* chartColumn = new QVBoxLayout;
    m_chartColumn = chartColumn;
    chartColumn->addWidget(m_chart, 1);
    chartColumn->addWidget(m_logY);
    auto* middle = new QHBoxLayout;
    middle->addLayout(chartColumn, 1);
    middle->addWidget(scrollingColumn(sideWidget, 320, this));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_slider);
    layout->addLayout(middle, 1);
    layout->addWidget(m_privacyNote);
}

void UtilityView::buildCompareList() {
    for (const core::MechanismInfo& info : core::mechanismCatalog()) {
        if (!info.isPrivate)
            continue; // the non-private level is drawn anyway
        auto* item = new QListWidgetItem(QString::fromLatin1(core::toString(info.kind)), m_compare);
        item->setData(Qt::UserRole, QString::fromLatin1(core::toString(info.kind)));
        item->setToolTip(QString::fromUtf8(info.title));
        item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        item->setCheckState(Qt::Unchecked);
    }
    m_compare->setMaximumHeight(m_compare->sizeHintForRow(0) * m_compare->count() + 2 * m_compare->frameWidth());
    connect(m_compare, &QListWidget::itemChanged, this, &UtilityView::pushSettings);
}

void UtilityView::refreshCompareList(const UtilitySettings& settings) {
    const QSignalBlocker blocker(m_compare);
    for (int row = 0; row < m_compare->count(); ++row) {
        QListWidgetItem* item = m_compare->item(row);
        const core::MechanismKind kind =
            core::mechanismKindFromString(item->data(Qt::UserRole).toString().toStdString());
        const bool self = kind == settings.mechanism.kind;
        item->setFlags(self ? Qt::ItemIsUserCheckable : Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
        const bool checked =
            std::find(settings.compareWith.begin(), settings.compareWith.end(), kind) != settings.compareWith.end();
        item->setCheckState(checked && !self ? Qt::Checked : Qt::Unchecked);
    }
}

UtilitySettings UtilityView::composedSettings() const {
    UtilitySettings s = m_panel->settings();
    s.compareWith.clear();
    for (int row = 0; row < m_compare->count(); ++row) { // catalog order
        const QListWidgetItem* item = m_compare->item(row);
        const core::MechanismKind kind =
            core::mechanismKindFromString(item->data(Qt::UserRole).toString().toStdString());
        if (item->checkState() == Qt::Checked && kind != s.mechanism.kind)
            s.compareWith.push_back(kind);
    }
    s.currentEps = m_slider->eps();
    bool ok = false;
    const double target = m_target->text().trimmed().toDouble(&ok);
    s.target = ok && std::isfinite(target) ? std::optional<double>(target) : std::nullopt;
    return s;
}

void UtilityView::applySettings(const UtilitySettings& settings) {
    m_applying = true;
    m_panel->setSettings(settings);
    m_slider->setGrid(settings.grid());
    m_slider->setEps(settings.currentEps);
    m_panel->setCurrentEps(settings.currentEps);
    m_target->setText(settings.target ? QString::number(*settings.target, 'g', 6) : QString());
    refreshCompareList(settings);
    m_applying = false;
    pushSettings();
}

void UtilityView::setDatasetName(const QString& name) {
    m_datasetName = name;
    refresh();
}

void UtilityView::pushSettings() {
    if (m_applying)
        return;
    const UtilitySettings s = composedSettings();
    m_slider->setGrid(s.grid());
    m_panel->setCurrentEps(s.currentEps);
    m_controller->setSettings(s);
    refreshCompareList(s); // the chosen mechanism's row is not a comparison
    refreshMeasuringList();
}

void UtilityView::onEpsChanged(double eps, bool dragging) {
    m_panel->setCurrentEps(eps);
    m_controller->setCurrentEps(eps, dragging);
    refresh(); // same frame: the instant estimate and the marker
}

void UtilityView::addMeasuringPoint(double eps) {
    if (!(eps > 0.0) || !std::isfinite(eps))
        return;
    const double rounded = QString::number(eps, 'g', 3).toDouble();
    UtilitySettings s = composedSettings();
    if (std::find(s.measureAt.begin(), s.measureAt.end(), rounded) != s.measureAt.end())
        return;
    s.measureAt.push_back(rounded);
    applySettings(s);
}

void UtilityView::removeSelectedMeasuringPoint() {
    const int row = m_measuring->currentRow();
    UtilitySettings s = composedSettings();
    if (row < 0 || row >= static_cast<int>(s.measureAt.size()))
        return;
    s.measureAt.erase(s.measureAt.begin() + row);
    applySettings(s);
}

charts::ChartData UtilityView::chartData() const {
    return buildUtilityChart(m_controller->settings(), m_controller->state(), m_controller->proposedEps(),
                             m_datasetName, m_logY && m_logY->isChecked(), m_controller->dragging());
}

void UtilityView::refresh() {
    m_refreshTimer.stop();
    // A loss that spans more than three decades (tiny ε, e.g. DP-SGD's noise swamping the model)
    // is unreadable on a linear axis: switch to the log axis once, unless the user chose.
    if (!m_logYChosen && !m_logY->isChecked() && core::isLossMetric(m_controller->settings().metric)) {
        double lo = std::numeric_limits<double>::infinity(), hi = 0.0;
        for (const auto& p : m_controller->state().points)
            if (p && p->mean > 0.0) {
                lo = std::min(lo, p->mean);
                hi = std::max(hi, p->mean);
            }
        if (hi > 1000.0 * lo) {
            const QSignalBlocker blocker(m_logY);
            m_logY->setChecked(true);
        }
    }
    m_chart->setData(chartData());
    refreshReadout();
    refreshTarget();
}

QString UtilityView::readoutText() const { return m_readout->text(); }
QString UtilityView::proposalText() const { return m_proposal->text(); }
QString UtilityView::warningText() const { return m_warning->text(); }

QString UtilityView::comparisonText() const { return m_comparison->text(); }

void UtilityView::refreshReadout() {
    const UtilityReadoutContext context{m_controller->dragging(), m_controller->hasDataset(),
                                        m_controller->lastError()};
    m_readout->setText(
        utilityReadoutLines(m_controller->settings(), m_controller->state(), context).join(QLatin1Char('\n')));
    const QStringList comparison =
        comparisonLines(m_controller->settings(), m_controller->state(), m_controller->dragging());
    m_comparison->setText(comparison.isEmpty() ? tr("Tick mechanisms to sweep them beside this one.")
                                               : comparison.join(QLatin1Char('\n')));
}

void UtilityView::refreshTarget() {
    const UtilitySettings& s = m_controller->settings();
    const core::ProposedEps proposal = m_controller->proposal();
    const std::optional<double> proposed = proposal.eps;
    // setText of an unchanged text does nothing, where clear() would lay the whole view out again
    // (at every ε slider step).
    const ProposalText text =
        utilityProposalText(s, m_controller->state(), proposal, m_controller->estimatesAvailable());
    m_proposal->setText(text.proposal);
    m_warning->setText(text.warning);
    m_useProposal->setEnabled(proposed.has_value());
    m_verify->setEnabled(s.target.has_value() && (s.estimatesApply() || !s.compareWith.empty()) &&
                         m_controller->state().data != nullptr);

    const auto& v = m_controller->state().verification;
    m_steps->setRowCount(v ? static_cast<int>(v->steps.size()) : 0);
    if (!v) {
        m_stepsSummary->setText(QString());
        return;
    }
    for (int row = 0; row < static_cast<int>(v->steps.size()); ++row) {
        const QStringList cells = verificationStepCells(v->steps[static_cast<std::size_t>(row)]);
        for (int c = 0; c < cells.size(); ++c)
            m_steps->setItem(row, c, new QTableWidgetItem(cells[c]));
    }
    m_stepsSummary->setText(verificationSummary(*v, m_controller->state().verifiedTarget));
}

void UtilityView::refreshMeasuringList() {
    const UtilitySettings s = composedSettings();
    m_measuring->clear();
    for (double e : s.measureAt)
        m_measuring->addItem(tr("ε = %1").arg(formatEps(e)));
    m_measuring->setEnabled(s.estimatesApply());
}

void UtilityView::addBelowChart(QWidget* w) { m_chartColumn->addWidget(w, 1); }

} // namespace elab::ui
