#include "ui/views/accounting/accounting_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/accounting/accounting_chart_model.h"
#include "ui/views/accounting/accounting_controller.h"
#include "ui/widgets/eps_slider.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/note_label.h"
#include "ui/widgets/slider_steps.h"
#include "ui/widgets/throttled_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace elab::ui {

namespace {

QSpinBox* spin(QWidget* parent, const char* name, int lo, int hi, const QString& tip) {
    auto* s = new QSpinBox(parent);
    s->setObjectName(QString::fromLatin1(name));
    s->setRange(lo, hi);
    s->setKeyboardTracking(false);
    s->setToolTip(tip);
    return s;
}

} // namespace

AccountingPanel::AccountingPanel(QWidget* parent) : QWidget(parent) {
    auto* box = new QGroupBox(tr("DP-SGD schedule"), this);
    m_rows = spin(box, "accountingRowsSpin", 0, 1000000000, tr("Training rows N; 0: the loaded dataset's rows"));
    m_batch = spin(box, "accountingBatchSpin", 1, 100000000, tr("Expected batch size S: q = S/N"));
    m_epochs = spin(box, "accountingEpochsSpin", 1, 100000, tr("Epochs of ⌈N/S⌉ steps: T = epochs·⌈N/S⌉"));
    m_delta = new QLineEdit(box);
    m_delta->setObjectName(QStringLiteral("accountingDeltaEdit"));
    m_delta->setToolTip(tr("δ of (ε, δ)-DP, in (0, 1) and well below 1/N"));
    m_accountant = new QComboBox(box);
    m_accountant->setObjectName(QStringLiteral("accountingAccountantCombo"));
    m_accountant->setToolTip(tr("The accountant that calibrates the current σ (marked in red)"));
    m_accountant->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_accountant->setMinimumContentsLength(8);
    for (core::AccountantKind kind : core::kAccountants)
        m_accountant->addItem(QString::fromStdString(core::accountantTitle(kind)), int(kind));
    m_nPublic = new QCheckBox(tr("N is public (add/remove)"), box);
    m_nPublic->setObjectName(QStringLiteral("accountingPublicRowsCheck"));
    m_nPublic->setToolTip(
        tr("Checked: N is public knowledge, q and T are the same for a dataset with one row more or "
           "less, and ε is add/remove. Unchecked: N is the private row count and ε is replace-one at "
           "that fixed N, by group privacy from the add/remove accountant at (ε/2, δ/(1 + e^{ε/2})) — "
           "as DP-SGD states its guarantee without a declared N"));
    m_follow = new QCheckBox(tr("Follow the Utility tab"), box);
    m_follow->setObjectName(QStringLiteral("accountingFollowUtilityCheck"));
    m_follow->setToolTip(tr("Ticked: N, S, epochs, δ and the accountant are the Utility tab's DP-SGD settings, "
                            "and change with them. Editing one of them here unticks it."));
    m_source = noteLabel(box, "accountingSource");
    m_source->setStyleSheet(QStringLiteral("color: #555;"));
    m_problem = noteLabel(box, "accountingProblem");
    m_problem->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Rows N"), m_rows);
    form->addRow(tr("Batch size S"), m_batch);
    form->addRow(tr("Epochs"), m_epochs);
    form->addRow(tr("δ"), m_delta);
    form->addRow(tr("Calibrate with"), m_accountant);
    form->addRow(m_nPublic);
    form->addRow(m_follow);
    form->addRow(m_source);
    form->addRow(m_problem);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(box);
    layout->addStretch(1);
    for (QSpinBox* s : {m_rows, m_batch, m_epochs})
        connect(s, &QSpinBox::valueChanged, this, &AccountingPanel::edited);
    connect(m_accountant, &QComboBox::currentIndexChanged, this, &AccountingPanel::edited);
    connect(m_nPublic, &QCheckBox::toggled, this, &AccountingPanel::edited);
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (m_applying || on == m_settings.followUtility)
            return;
        m_settings.followUtility = on;
        emit settingsChanged();
    });
    connect(m_delta, &QLineEdit::editingFinished, this, &AccountingPanel::edited);
    setSettings(m_settings);
}

void AccountingPanel::setDatasetRows(long long rows) {
    m_rows->setSpecialValueText(rows > 0 ? tr("the dataset's (%1)").arg(rows) : tr("the dataset's"));
}

void AccountingPanel::setSourceText(const QString& text) { m_source->setText(text); }

void AccountingPanel::setSettings(const AccountingSettings& s) {
    m_applying = true;
    m_settings = s;
    m_rows->setValue(static_cast<int>(std::min<long long>(s.rows, 1000000000)));
    m_batch->setValue(static_cast<int>(std::lround(s.batchSize)));
    m_epochs->setValue(s.epochs);
    m_delta->setText(formatNumber(s.delta, 6));
    m_accountant->setCurrentIndex(m_accountant->findData(int(s.accountant)));
    m_nPublic->setChecked(s.nPublic);
    m_follow->setChecked(s.followUtility);
    m_problem->clear();
    m_applying = false;
}

void AccountingPanel::edited() {
    if (m_applying)
        return;
    AccountingSettings next = m_settings;
    next.rows = m_rows->value();
    next.batchSize = m_batch->value();
    next.epochs = m_epochs->value();
    next.accountant = core::AccountantKind(m_accountant->currentData().toInt());
    next.nPublic = m_nPublic->isChecked();
    const auto delta = parseNumber(m_delta->text());
    if (!delta || !(*delta > 0.0 && *delta < 1.0)) {
        m_problem->setText(tr("δ: “%1” is not a number in (0, 1)").arg(m_delta->text()));
        return;
    }
    m_problem->clear();
    next.delta = *delta;
    if (next == m_settings)
        return;
    next.followUtility = false; // the user's own schedule: stop following the Utility tab
    m_settings = next;
    {
        const QSignalBlocker blocker(m_follow);
        m_follow->setChecked(false);
    }
    emit settingsChanged();
}

AccountingView::AccountingView(AccountingController* controller, AccountingPanel* panel, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_panel(panel) {
    m_slider = new EpsSlider(this);
    m_sigmaChart = new charts::ChartView(this);
    m_sigmaChart->setMinimumSize(420, 360);
    m_epochChart = new charts::ChartView(this);
    m_epochChart->setMinimumSize(360, 360);
    // The texts that change while the slider moves, each in a NoteBox: a new text lays the view
    // out again (and resizes both charts) only when its height changes.
    NoteBox* table = noteBox(this, "accountingTable");
    m_table = table->label();
    m_table->setTextFormat(Qt::RichText);
    NoteBox* readout = noteBox(this, "accountingReadout");
    m_readout = readout->label();
    m_readout->setMinimumWidth(260);
    NoteBox* status = noteBox(this, "accountingStatus");
    m_status = status->label();
    m_status->setStyleSheet(QStringLiteral("color: #555;"));
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_sigmaChart, 3);
    charts->addWidget(m_epochChart, 2);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(table, 3);
    bottom->addWidget(readout, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_slider);
    layout->addLayout(charts, 1);
    layout->addLayout(bottom);
    layout->addWidget(status);

    // While the handle is held the texts that state ε or σ are held still (a new chart title or
    // table lays the window out again, at every delivered step) and follow on release.
    m_tableShown = new ThrottledText(m_table, kHeldTextMs, this);
    m_statusShown = new ThrottledText(m_status, kHeldTextMs, this);
    connectSliderSteps(
        m_slider, this, m_controller,
        [this](bool dragging) {
            if (!m_applying)
                m_controller->setCurrentEps(composedSettings().currentEps, dragging);
        },
        [this] { refresh(); });
    connect(m_panel, &AccountingPanel::settingsChanged, this, &AccountingView::pushSettings);
    // While the handle is held, new curves are drawn at most every kHeldRedrawMs (each redraw
    // repaints both charts: ~10–40 ms of this thread); at rest, at once.
    m_redraw = new Throttle(
        kHeldRedrawMs, [this] { refresh(); }, this);
    connect(m_controller, &AccountingController::stateChanged, this,
            [this] { m_redraw->request(m_controller->dragging()); });
    connect(m_controller, &AccountingController::datasetChanged, this,
            [this] { m_panel->setDatasetRows(m_controller->dataset() ? m_controller->dataset()->rows() : 0); });
    // A hovered σ is accounted off this thread (RDP at a small σ: up to 30 ms per mouse move).
    connect(m_sigmaChart, &charts::ChartView::hovered, this,
            [this](QPointF v) { m_controller->requestReadout(v.x()); });
    connect(m_controller, &AccountingController::readoutReady, this,
            [this](double, const QString& text) { m_readout->setText(text); });
    m_slider->setEps(m_panel->settings().currentEps);
    refresh();
}

AccountingSettings AccountingView::composedSettings() const {
    AccountingSettings s = m_panel->settings();
    // The ∞ stop has nothing to account: the largest finite ε stands in.
    s.currentEps = std::isfinite(m_slider->eps()) ? m_slider->eps() : 100.0;
    return s;
}

void AccountingView::applySettings(const AccountingSettings& s) {
    m_applying = true;
    m_panel->setSettings(s);
    m_slider->setEps(s.currentEps);
    m_applying = false;
    pushSettings();
}

void AccountingView::pushSettings() {
    if (!m_applying)
        m_controller->setSettings(composedSettings());
}

charts::ChartData AccountingView::sigmaChart() const {
    return buildSigmaChart(m_controller->settings(), m_controller->curves().get());
}

charts::ChartData AccountingView::epochChart() const {
    return buildEpochChart(m_controller->settings(), m_controller->curves().get());
}

QString AccountingView::tableText() const { return m_table->text(); }
QString AccountingView::readoutText() const { return m_readout->text(); }

void AccountingView::refresh() {
    m_redraw->ran();
    const bool held = m_controller->dragging();
    m_sigmaChart->setData(buildSigmaChart(m_controller->settings(), m_controller->curves().get(), held));
    m_epochChart->setData(buildEpochChart(m_controller->settings(), m_controller->curves().get(), held));
    const auto curves = m_controller->curves();
    const auto& sweep = m_controller->sweep();
    m_tableShown->set(accountingTableHtml(curves.get(), sweep ? &*sweep : nullptr, &m_controller->costs()), held);
    if (curves && !held) // an accounting per accountant on this thread: on release
        showReadout(curves->currentSigma);
    const QString error = m_controller->lastError();
    QString status = error.isEmpty() ? accountingAssumptions(curves.get()) : tr("Problem: %1").arg(error);
    if (error.isEmpty() && curves)
        status = accountingUnreached(*curves) + status;
    if (!std::isfinite(m_slider->eps()))
        status = tr("ε = ∞ has no noise to account for: showing ε = 100, the slider's largest finite value. ") + status;
    m_statusShown->set(status, held);
    setStyleSheetIfChanged(m_status,
                           error.isEmpty() ? QStringLiteral("color: #555;") : QStringLiteral("color: #b01e1e;"));
    emit redrawn();
}

// The readout at the current σ: its ε per accountant are the worker's (accountingReadout reads the
// spending curves), so this stays cheap; other σ come from AccountingController::requestReadout.
void AccountingView::showReadout(double sigma) {
    const auto curves = m_controller->curves();
    if (!curves || !(sigma > 0.0) || !std::isfinite(sigma)) // +∞: no σ reaches the current ε
        return;
    m_readout->setText(accountingReadout(*curves, sigma));
}

} // namespace elab::ui
