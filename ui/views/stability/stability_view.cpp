#include "ui/views/stability/stability_view.h"

#include "ui/charts/chart_view.h"
#include "ui/views/stability/stability_chart_model.h"
#include "ui/views/stability/stability_controller.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/note_label.h"
#include "ui/widgets/side_column.h"

#include "core/stability/stability_defaults.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>

namespace elab::ui {

namespace {

using core::StabilityMethod;

constexpr StabilityMethod kMethods[] = {StabilityMethod::None, StabilityMethod::L2, StabilityMethod::Dropout,
                                        StabilityMethod::DeterministicDropout};

QString tableNumber(double v) {
    return std::isfinite(v) ? formatNumber(v, 3, NumberForm::Printf) : QStringLiteral("—");
}

QDoubleSpinBox* fractionSpin(const QString& name, double lo, double hi, double step, QWidget* parent) {
    auto* spin = new QDoubleSpinBox(parent);
    spin->setObjectName(name);
    spin->setRange(lo, hi);
    spin->setSingleStep(step);
    spin->setDecimals(2);
    return spin;
}

QSpinBox* intSpin(const QString& name, int lo, int hi, QWidget* parent) {
    auto* spin = new QSpinBox(parent);
    spin->setObjectName(name);
    spin->setRange(lo, hi);
    return spin;
}

} // namespace

StabilityView::StabilityView(StabilityController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_settings(controller->pendingSettings()) {
    auto* side = new QWidget(this);
    buildForm(side);
    m_testChart = new charts::ChartView(this);
    m_marginalChart = new charts::ChartView(this);
    for (charts::ChartView* chart : {m_testChart, m_marginalChart})
        chart->setMinimumSize(300, 260); // two side by side beside the form on a 1280 × 720 screen
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_table = new QTableWidget(0, 5, this);
    m_table->setObjectName(QStringLiteral("summaryTable"));
    m_table->setAccessibleName(tr("Stability by method"));
    m_table->setHorizontalHeaderLabels(
        {tr("err(0), all data"), tr("λ (CV)"), tr("separable"), tr("‖θ(D) − θ(D∖i)‖"), tr("relative")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setToolTip(tr("err(0): test error of each method trained on all the training rows. Model stability: "
                           "‖θ(D) − θ(D∖{i})‖₂ over sampled training rows i, and that mean over ‖θ(D)‖₂."));

    auto* charts = new QHBoxLayout;
    charts->addWidget(m_testChart, 1);
    charts->addWidget(m_marginalChart, 1);
    auto* right = new QVBoxLayout;
    right->addLayout(charts, 1);
    right->addWidget(m_status);
    right->addWidget(m_table);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(scrollingColumn(side, 290, this));
    layout->addLayout(right, 1);

    connectEdits();
    connect(m_controller, &StabilityController::stateChanged, this, &StabilityView::refresh);
    connect(m_controller, &StabilityController::busyChanged, this, &StabilityView::refreshStatus);
    connect(m_controller, &StabilityController::datasetChanged, this, &StabilityView::adaptToDataset);
    connect(m_controller->sweepSlot(), &JobSlot::progress, this, &StabilityView::refreshStatus);
    connect(m_cancel, &QPushButton::clicked, m_controller, &StabilityController::cancel);
    connect(m_recompute, &QPushButton::clicked, m_controller, &StabilityController::recompute);
    showSettings();
    adaptToDataset();
    refresh();
}

void StabilityView::buildForm(QWidget* side) {
    auto* box = new QGroupBox(tr("Stability under removal (Jain et al. §5)"), side);
    auto* form = new QFormLayout(box);
    m_model = new QComboBox(box);
    m_model->setObjectName(QStringLiteral("modelCombo"));
    m_model->addItem(tr("From the target"), int(StabilityModelChoice::FromTask));
    m_model->addItem(tr("Logistic regression"), int(StabilityModelChoice::Logistic));
    m_model->addItem(tr("Linear regression (MSE)"), int(StabilityModelChoice::Linear));
    form->addRow(tr("Model"), m_model);
    m_positiveClass = new QComboBox(box);
    m_positiveClass->setObjectName(QStringLiteral("positiveClassCombo"));
    m_positiveClass->setToolTip(tr("A multiclass label is binarised: this class against the rest"));
    m_positiveLabel = new QLabel(tr("Positive class"), box);
    form->addRow(m_positiveLabel, m_positiveClass);

    auto* methods = new QWidget(box);
    auto* methodsLayout = new QVBoxLayout(methods);
    methodsLayout->setContentsMargins(0, 0, 0, 0);
    methodsLayout->setSpacing(2);
    for (StabilityMethod method : kMethods) {
        auto* check = new QCheckBox(QString::fromStdString(methodTitle(method)), methods);
        check->setObjectName(QStringLiteral("method:") + QString::fromLatin1(core::toString(method)));
        m_methods.insert(method, check);
        methodsLayout->addWidget(check);
    }
    form->addRow(tr("Methods"), methods);
    m_dropoutRate = fractionSpin(QStringLiteral("dropoutRateSpin"), 0.0, 0.95, 0.05, box);
    m_dropoutRate->setToolTip(tr("Dropout rate 1 − q; q is the keep probability"));
    form->addRow(tr("Dropout rate"), m_dropoutRate);

    auto* removal = new QWidget(box);
    auto* removalLayout = new QHBoxLayout(removal);
    removalLayout->setContentsMargins(0, 0, 0, 0);
    m_random = new QRadioButton(tr("Random"), removal);
    m_random->setObjectName(QStringLiteral("removalRandom"));
    m_random->setToolTip(tr("Train on a random (1 − ρ) fraction of the training rows"));
    m_adversarial = new QRadioButton(tr("Adversarial"), removal);
    m_adversarial->setObjectName(QStringLiteral("removalAdversarial"));
    m_adversarial->setToolTip(tr("Remove the nρ rows with the smallest |⟨x, θ_full⟩| (nearest the boundary)"));
    auto* group = new QButtonGroup(removal);
    group->addButton(m_random);
    group->addButton(m_adversarial);
    removalLayout->addWidget(m_random);
    removalLayout->addWidget(m_adversarial);
    form->addRow(tr("Removal"), removal);

    auto* grid = new QWidget(box);
    auto* gridLayout = new QHBoxLayout(grid);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    m_rhoMin = fractionSpin(QStringLiteral("rhoMinSpin"), 0.0, 0.99, 0.05, grid);
    m_rhoMax = fractionSpin(QStringLiteral("rhoMaxSpin"), 0.0, 0.99, 0.05, grid);
    m_rhoPoints = intSpin(QStringLiteral("rhoPointsSpin"), 1, 50, grid);
    m_rhoPoints->setSuffix(tr(" pts"));
    gridLayout->addWidget(m_rhoMin);
    gridLayout->addWidget(new QLabel(QStringLiteral("–"), grid));
    gridLayout->addWidget(m_rhoMax);
    gridLayout->addWidget(m_rhoPoints);
    form->addRow(tr("ρ grid"), grid);
    m_repeats = intSpin(QStringLiteral("repeatsSpin"), 1, 1000, box);
    form->addRow(tr("Repetitions"), m_repeats);
    m_testFraction = fractionSpin(QStringLiteral("testFractionSpin"), 0.05, 0.95, 0.05, box);
    m_testFraction->setToolTip(tr("Held-out test rows (the paper: a 50/50 split)"));
    form->addRow(tr("Test fraction"), m_testFraction);
    m_seed = intSpin(QStringLiteral("seedSpin"), 0, INT_MAX, box);
    m_seed->setToolTip(tr("Seeds the split, the removals, the dropout masks and the CV folds"));
    form->addRow(tr("Seed"), m_seed);

    m_problem = new NoteLabel(box);
    m_problem->setObjectName(QStringLiteral("problemLabel"));
    m_problem->setStyleSheet(QStringLiteral("color: #b01e1e;"));
    m_cancel = new QPushButton(tr("Cancel"), box);
    m_recompute = new QPushButton(tr("Recompute"), box);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_recompute);
    buttons->addWidget(m_cancel);
    auto* note =
        new NoteLabel(tr("Preprocessing as the CLI: logistic → columns standardised, then rows clipped to ‖x‖ ≤ 1 "
                         "(sparse data: clipped only); linear → columns standardised, intercept fitted. "
                         "The study is non-private."),
                      side);
    note->setStyleSheet(QStringLiteral("color: #555;"));
    auto* layout = new QVBoxLayout(side);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
    layout->addWidget(note);
    layout->addStretch(1);
}

void StabilityView::connectEdits() {
    auto apply = [this](auto change) {
        return [this, change](auto&&...) {
            if (m_applying)
                return;
            change(m_settings);
            edited();
        };
    };
    connect(m_model, &QComboBox::currentIndexChanged, this,
            apply([this](StabilitySettings& s) { s.model = StabilityModelChoice(m_model->currentData().toInt()); }));
    connect(m_positiveClass, &QComboBox::currentIndexChanged, this, apply([this](StabilitySettings& s) {
                if (m_positiveClass->currentIndex() >= 0)
                    s.positiveClass = m_positiveClass->currentText().toStdString();
            }));
    for (QCheckBox* check : m_methods)
        connect(check, &QCheckBox::toggled, this, apply([this](StabilitySettings& s) {
                    s.methods.clear();
                    for (StabilityMethod method : kMethods)
                        if (m_methods.value(method)->isChecked())
                            s.methods.push_back(method);
                }));
    connect(m_dropoutRate, &QDoubleSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.dropoutRate = m_dropoutRate->value(); }));
    connect(m_adversarial, &QRadioButton::toggled, this, apply([this](StabilitySettings& s) {
                s.removal = m_adversarial->isChecked() ? core::RemovalKind::Adversarial : core::RemovalKind::Random;
            }));
    connect(m_rhoMin, &QDoubleSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.rhoMin = m_rhoMin->value(); }));
    connect(m_rhoMax, &QDoubleSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.rhoMax = m_rhoMax->value(); }));
    connect(m_rhoPoints, &QSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.rhoPoints = m_rhoPoints->value(); }));
    connect(m_repeats, &QSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.repeats = m_repeats->value(); }));
    connect(m_testFraction, &QDoubleSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.testFraction = m_testFraction->value(); }));
    connect(m_seed, &QSpinBox::valueChanged, this,
            apply([this](StabilitySettings& s) { s.seed = static_cast<std::uint64_t>(m_seed->value()); }));
}

void StabilityView::showSettings() {
    m_applying = true;
    const StabilitySettings& s = m_settings;
    m_model->setCurrentIndex(m_model->findData(int(s.model)));
    for (StabilityMethod method : kMethods)
        m_methods.value(method)->setChecked(std::find(s.methods.begin(), s.methods.end(), method) != s.methods.end());
    m_dropoutRate->setValue(s.dropoutRate);
    (s.removal == core::RemovalKind::Adversarial ? m_adversarial : m_random)->setChecked(true);
    m_rhoMin->setValue(s.rhoMin);
    m_rhoMax->setValue(s.rhoMax);
    m_rhoPoints->setValue(s.rhoPoints);
    m_repeats->setValue(s.repeats);
    m_testFraction->setValue(s.testFraction);
    m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(s.seed, INT_MAX)));
    if (s.positiveClass)
        m_positiveClass->setCurrentIndex(m_positiveClass->findText(QString::fromStdString(*s.positiveClass)));
    m_applying = false;
}

void StabilityView::applySettings(const StabilitySettings& settings) {
    m_settings = settings;
    showSettings();
    edited();
}

void StabilityView::edited() {
    m_problem->setText(QString::fromStdString(m_settings.validate()));
    m_controller->setSettings(m_settings);
}

/// A multiclass dataset needs a positive class (core::defaultPositiveClass, unless the current one
/// exists);
/// other datasets lose it. The model follows the target unless set explicitly.
void StabilityView::adaptToDataset() {
    const auto dataset = m_controller->dataset();
    const bool multiclass = dataset && dataset->targets.kind == core::TaskKind::Multiclass;
    m_positiveClass->setVisible(multiclass);
    m_positiveLabel->setVisible(multiclass);
    if (!dataset)
        return;
    m_applying = true;
    m_positiveClass->clear();
    if (multiclass)
        for (const std::string& name : dataset->targets.classNames)
            m_positiveClass->addItem(QString::fromStdString(name));
    m_applying = false;
    StabilitySettings s = m_settings;
    const auto& names = dataset->targets.classNames;
    if (!multiclass)
        s.positiveClass.reset();
    else if (!s.positiveClass || std::find(names.begin(), names.end(), *s.positiveClass) == names.end())
        s.positiveClass =
            names.empty()
                ? std::nullopt
                : std::optional<std::string>(names[static_cast<std::size_t>(core::defaultPositiveClass(*dataset))]);
    applySettings(s);
}

void StabilityView::setDatasetName(const QString& name) {
    m_datasetName = name;
    refresh();
}

charts::ChartData StabilityView::chartData(int which) const {
    return buildStabilityChart(which == 1 ? StabilityChart::MarginalError : StabilityChart::TestError,
                               m_controller->settings(), m_controller->state(), m_datasetName);
}

QString StabilityView::statusText() const { return m_status->text(); }
QString StabilityView::problemText() const { return m_problem->text(); }

void StabilityView::refresh() {
    m_testChart->setData(chartData(0));
    m_marginalChart->setData(chartData(1));
    const QString settingsProblem = QString::fromStdString(m_settings.validate());
    m_problem->setText(settingsProblem.isEmpty() ? m_controller->lastError() : settingsProblem);
    refreshStatus();
    refreshTable();
}

void StabilityView::refreshStatus() {
    const StabilityState& st = m_controller->state();
    const std::size_t done = st.completedCells(), total = st.totalCells();
    const bool busy = m_controller->sweepSlot()->isBusy();
    QString text;
    if (!m_controller->hasDataset())
        text = tr("Load a binary-label or regression dataset to run the stability study.");
    else if (!m_controller->lastError().isEmpty())
        text = tr("Not computed: see the problem on the left.");
    else if (busy && done == 0)
        text = tr("computing… fitting every method on all the data (CV for λ), %1 %")
                   .arg(std::lround(100.0 * m_controller->progress()));
    else if (busy)
        text = tr("computing… %1 of %2 cells (%3 %)")
                   .arg(done)
                   .arg(total)
                   .arg(std::lround(100.0 * m_controller->progress()));
    else if (st.cancelled)
        text = tr("cancelled: %1 of %2 cells kept").arg(done).arg(total);
    else if (st.complete)
        text = tr("done: %1 cells, %2 fits in %3 s").arg(total).arg(st.fits).arg(st.seconds, 0, 'f', 1);
    m_status->setText(text);
    m_cancel->setEnabled(busy);
}

void StabilityView::refreshTable() {
    const StabilityState& st = m_controller->state();
    m_table->setRowCount(static_cast<int>(st.methods.size()));
    for (std::size_t m = 0; m < st.methods.size(); ++m) {
        const StabilityMethod method = st.methods[m];
        auto* header = new QTableWidgetItem(QString::fromStdString(methodTitle(method)));
        header->setForeground(methodColor(method));
        m_table->setVerticalHeaderItem(static_cast<int>(m), header);
        const core::MethodBaseline* base = st.baseline(method);
        int separableFits = 0, fits = 0;
        for (std::size_t g = 0; g < st.rho.size(); ++g)
            if (const core::StabilityCell* cell = st.cell(g, m)) {
                separableFits += cell->separable;
                fits += static_cast<int>(cell->errors.size());
            }
        QString separable = tr("—");
        if (method == StabilityMethod::None || method == StabilityMethod::DeterministicDropout) {
            if (base && base->separable)
                separable = tr("yes (stopped at a separating θ)");
            else if (separableFits > 0)
                separable = tr("%1 of %2 reduced fits").arg(separableFits).arg(fits);
            else if (base || fits > 0)
                separable = tr("no");
        }
        const core::ModelStability* stab = m < st.stability.size() ? &st.stability[m] : nullptr;
        const QString pending = st.cancelled ? tr("—") : tr("…");
        const QStringList cells{
            base ? (base->fullError.sd > 0.0 ? QStringLiteral("%1 ± %2").arg(tableNumber(base->fullError.mean),
                                                                             tableNumber(base->fullError.sd))
                                             : tableNumber(base->fullError.mean))
                 : pending,
            method == StabilityMethod::L2 ? (base ? tableNumber(base->mu) : pending) : tr("—"), separable,
            stab ? QStringLiteral("%1 ± %2").arg(tableNumber(stab->distance.mean), tableNumber(stab->distance.sd))
                 : pending,
            stab ? tableNumber(stab->relativeMean) : pending};
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(static_cast<int>(m), c, new QTableWidgetItem(cells[c]));
    }
    // Every row whole: the heights the wrapped cells take at the table's width (a size hint taken
    // before the columns are laid out counts one line per cell and cut the last rows).
    m_table->resizeRowsToContents();
    int height = 2 * m_table->frameWidth() + m_table->horizontalHeader()->sizeHint().height();
    for (int row = 0; row < m_table->rowCount(); ++row)
        height += m_table->rowHeight(row);
    m_table->setFixedHeight(height);
}

} // namespace elab::ui
