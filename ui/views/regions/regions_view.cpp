#include "ui/views/regions/regions_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/regions/regions_chart_model.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/regions/regions_panel.h"
#include "ui/views/regions/regions_text.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/note_label.h"
#include "ui/widgets/throttled_text.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>

namespace elab::ui {

namespace {

// Its text changes on every slider step: plain, not selectable (no text document to relayout).
QLabel* plain(QLabel* l) {
    l->setTextInteractionFlags(Qt::NoTextInteraction);
    return l;
}

// A label whose text changes on every slider step, in a NoteBox of its own (the box is returned).
NoteBox* changingLabel(QWidget* parent, const char* name) {
    NoteBox* box = noteBox(parent, name);
    plain(box->label());
    return box;
}

} // namespace

RegionsView::RegionsView(RegionsController* controller, RegionsPanel* panel, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_panel(panel) {
    buildLayout();
    connect(m_slider, &EpsSlider::epsChanged, this, &RegionsView::onEpsChanged);
    connect(m_slider, &EpsSlider::dragFinished, this, [this](double eps) { onEpsChanged(eps, false); });
    connect(m_panel, &RegionsPanel::settingsChanged, this, &RegionsView::pushSettings);
    // Each result: the picture, the ε in its title and the readout, in this one call.
    connect(m_controller, &RegionsController::stateChanged, this, &RegionsView::refresh);
    connect(m_controller, &RegionsController::busyChanged, this, &RegionsView::refreshStatus);
    m_slider->setEps(m_panel->settings().currentEps);
    refresh();
}

void RegionsView::buildLayout() {
    m_slider = new EpsSlider(this);
    m_chart = new charts::ChartView(this);
    m_chart->setMinimumSize(480, 400);

    auto* readoutBox = new QGroupBox(tr("At the picture's ε"), this);
    NoteBox* readout = changingLabel(readoutBox, "readout");
    m_readout = readout->label();
    m_readout->setMinimumHeight(7 * m_readout->fontMetrics().lineSpacing());
    NoteBox* status = changingLabel(readoutBox, "status");
    m_status = status->label();
    m_status->setStyleSheet(QStringLiteral("color: #555;"));
    // The side column has a fixed width, and the status a line even when empty: its changes at
    // every slider step ("computing ε = …", then nothing) need no new layout of the view.
    m_status->setMinimumHeight(m_status->fontMetrics().lineSpacing());
    for (NoteBox* box : {readout, status}) {
        QSizePolicy policy = box->sizePolicy();
        policy.setHorizontalPolicy(QSizePolicy::Ignored);
        box->setSizePolicy(policy);
    }
    auto* readoutLayout = new QVBoxLayout(readoutBox);
    readoutLayout->addWidget(readout);
    readoutLayout->addWidget(status);

    auto* guaranteeBox = new QGroupBox(tr("Privacy guarantee of each draw"), this);
    NoteBox* guarantee = changingLabel(guaranteeBox, "guarantee");
    m_guarantee = guarantee->label();
    m_guarantee->setTextFormat(Qt::RichText);
    m_guaranteeShown = new ThrottledText(m_guarantee, 100, this);
    auto* guaranteeScroll = new QScrollArea(guaranteeBox);
    guaranteeScroll->setWidget(guarantee);
    guaranteeScroll->setWidgetResizable(true);
    guaranteeScroll->setFrameShape(QFrame::NoFrame);
    guaranteeScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    (new QVBoxLayout(guaranteeBox))->addWidget(guaranteeScroll);

    auto* side = new QVBoxLayout;
    side->setContentsMargins(0, 0, 0, 0);
    side->addWidget(readoutBox);
    side->addWidget(guaranteeBox, 1);
    auto* sideWidget = new QWidget(this);
    sideWidget->setLayout(side);
    sideWidget->setFixedWidth(320);

    QLabel* note = plain(noteLabel(this, "privacyNote"));
    note->setText(tr("Note: these pictures are computed on the data itself and are not private. Choosing ε by "
                     "looking at them spends privacy, unless the data is public or a proxy for the private data."));
    note->setStyleSheet(QStringLiteral("color: #555;"));

    auto* middle = new QHBoxLayout;
    middle->addWidget(m_chart, 1);
    middle->addWidget(sideWidget);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_slider);
    layout->addLayout(middle, 1);
    layout->addWidget(note);
}

RegionsSettings RegionsView::composedSettings() const {
    RegionsSettings s = m_panel->settings();
    s.currentEps = m_slider->eps();
    return s;
}

void RegionsView::applySettings(const RegionsSettings& settings) {
    m_applying = true;
    m_panel->setSettings(settings);
    m_slider->setEps(settings.currentEps);
    m_applying = false;
    pushSettings();
}

void RegionsView::setDatasetName(const QString& name) {
    m_datasetName = name;
    refresh();
}

void RegionsView::pushSettings() {
    if (!m_applying)
        m_controller->setSettings(composedSettings());
}

void RegionsView::onEpsChanged(double eps, bool dragging) {
    const bool released = m_controller->dragging() && !dragging;
    m_controller->setCurrentEps(eps, dragging);
    if (released)
        refresh(); // the title states the shown picture's ε again (a new picture refreshes again)
    else
        refreshStatus(); // the picture follows when its result arrives
}

charts::ChartData RegionsView::chartData() const {
    return buildRegionsChart(m_controller->settings(), m_controller->state(), m_datasetName, m_controller->dragging());
}

QString RegionsView::readoutText() const { return m_readout->text(); }
QString RegionsView::guaranteeText() const {
    return regionsGuarantee(m_controller->settings(), m_controller->state()).plain;
}
QString RegionsView::statusText() const { return m_status->text(); }

void RegionsView::refresh() {
    const RegionsSettings& s = m_controller->settings();
    const RegionsState& state = m_controller->state();
    m_chart->setData(chartData());
    QStringList lines = regionsReadoutLines(s, state);
    if (lines.isEmpty())
        lines << (m_controller->hasDataset() ? tr("Computing the regions…")
                                             : tr("Load a classification dataset to see its decision regions."));
    m_readout->setText(lines.join(QLatin1Char('\n')));
    // Rich text, re-parsed and laid out at each new text: while the handle is held, at most
    // every 100 ms (the readout and the picture follow every result).
    m_guaranteeShown->set(regionsGuarantee(s, state).html, m_controller->dragging());
    refreshStatus();
    emit redrawn();
}

void RegionsView::refreshStatus() {
    QString text;
    const bool problem = !m_controller->lastError().isEmpty();
    if (problem != m_statusIsProblem) { // a style sheet costs a relayout: only when it changes
        m_statusIsProblem = problem;
        m_status->setStyleSheet(problem ? QStringLiteral("color: #b01e1e;") : QStringLiteral("color: #555;"));
    }
    if (problem)
        text = tr("Problem: %1").arg(m_controller->lastError());
    else if (m_controller->isBusy() && m_controller->state().result &&
             m_controller->state().result->eps != m_slider->eps())
        text = tr("computing %1…").arg(regionsEpsText(m_slider->eps()));
    else if (m_controller->isBusy())
        text = tr("computing…");
    m_status->setText(text);
}

} // namespace elab::ui
