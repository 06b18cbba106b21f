#include "ui/views/audit/audit_panel.h"

#include "ui/widgets/mechanism_panel.h"

#include "core/data/dataset.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QSpinBox>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

/// The mechanism panel edits a UtilitySettings: the training choice this view shares with it.
UtilitySettings mechanismPart(const AuditSettings& s) { return mechanismFormSettings(s, s.currentEps); }

} // namespace

AuditPanel::AuditPanel(QWidget* parent) : QWidget(parent) {
    buildForm();
    connectEdits();
    m_mechanism->setSettings(mechanismPart(m_settings));
    showSettings();
}

void AuditPanel::buildForm() {
    auto* box = new QGroupBox(tr("Privacy audit"), this);
    m_form = new QFormLayout(box);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_method = new QComboBox(box);
    m_method->setObjectName(QStringLiteral("auditMethodCombo"));
    m_method->addItem(tr("two datasets"), int(AuditMethod::TwoDatasets));
    m_method->addItem(tr("one run"), int(AuditMethod::OneRun));
    m_method->addItem(tr("white-box (DP-SGD)"), int(AuditMethod::Whitebox));
    m_method->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_method->setMinimumContentsLength(8); // the side column is narrow: never wider than its form
    m_method->setToolTip(tr("Two neighbouring datasets trained T times each (thousands of fits), or one training run "
                            "with m canaries, each put in or left out by its own coin (Steinke, Nasr & Jagielski "
                            "2023), or — DP-SGD only — T trainings with gradient canaries, every step seen (Nasr et "
                            "al. 2021, 2023)"));
    m_form->addRow(tr("Method"), m_method);
    m_canaries = new QSpinBox(box);
    m_canaries->setObjectName(QStringLiteral("auditCanariesSpin"));
    m_canaries->setRange(AuditSettings::kMinCanaries, AuditSettings::kMaxCanaries);
    m_canaries->setSingleStep(100);
    m_canaries->setKeyboardTracking(false);
    m_canaries->setToolTip(tr("Canaries m of the one run: one unit row per column, so at most the number of columns"));
    m_form->addRow(tr("Canaries"), m_canaries);
    m_runs = new QSpinBox(box);
    m_runs->setObjectName(QStringLiteral("auditRunsSpin"));
    m_runs->setRange(AuditSettings::kMinRuns, AuditSettings::kMaxRuns);
    m_runs->setSingleStep(100);
    m_runs->setKeyboardTracking(false);
    m_runs->setToolTip(tr("Runs T on each neighbour: half choose the threshold, half measure the errors. With T runs "
                          "no audit can show more than about log(T/2)"));
    m_form->addRow(tr("Runs per neighbour"), m_runs);
    m_whiteboxRuns = new QSpinBox(box);
    m_whiteboxRuns->setObjectName(QStringLiteral("auditWhiteboxRunsSpin"));
    m_whiteboxRuns->setRange(AuditSettings::kMinWhiteboxRuns, AuditSettings::kMaxWhiteboxRuns);
    m_whiteboxRuns->setSingleStep(100);
    m_whiteboxRuns->setKeyboardTracking(false);
    m_whiteboxRuns->setToolTip(tr("DP-SGD trainings T, each with every canary weight (half in, half out): the trials "
                                  "per side are T × weights / 2"));
    m_form->addRow(tr("Trainings"), m_whiteboxRuns);
    m_whiteboxView = new QComboBox(box);
    m_whiteboxView->setObjectName(QStringLiteral("auditWhiteboxViewCombo"));
    m_whiteboxView->addItem(tr("iterates"), int(core::WhiteboxView::Iterates));
    m_whiteboxView->addItem(tr("residual"), int(core::WhiteboxView::Residual));
    m_whiteboxView->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_whiteboxView->setMinimumContentsLength(8);
    m_whiteboxView->setToolTip(
        tr("What the attacker sees of each step: iterates — the noisy sum at the weights of "
           "features no training row uses (the data needs such a feature); residual — the "
           "noisy sum minus the sampled rows' clipped sum at every weight (it knows the batch)"));
    m_form->addRow(tr("Sees"), m_whiteboxView);
    m_alpha = new QDoubleSpinBox(box);
    m_alpha->setObjectName(QStringLiteral("auditAlphaSpin"));
    m_alpha->setDecimals(3);
    m_alpha->setRange(0.001, 0.499);
    m_alpha->setSingleStep(0.01);
    m_alpha->setKeyboardTracking(false);
    m_alpha->setToolTip(tr("ε_LB holds with confidence 1 − α"));
    m_form->addRow(tr("α"), m_alpha);
    m_canary = new QComboBox(box);
    m_canary->setObjectName(QStringLiteral("auditCanaryCombo"));
    m_canary->addItem(tr("strongest unit row"), false);
    m_canary->addItem(tr("a training row"), true);
    m_canary->setToolTip(tr("The row that tells the neighbours apart. Default: among the feature directions the data "
                            "covers least, the unit row that moves the non-private model most, labelled against it"));
    m_form->addRow(tr("Canary"), m_canary);
    m_canaryRow = new QSpinBox(box);
    m_canaryRow->setObjectName(QStringLiteral("auditCanaryRowSpin"));
    m_canaryRow->setKeyboardTracking(false);
    m_canaryRow->setToolTip(tr("The training row (0-based, after the split) used as the canary, its label flipped "
                               "against the model"));
    m_form->addRow(tr("Row"), m_canaryRow);
    m_compareAll = new QCheckBox(tr("Audit every mechanism at this ε"), box);
    m_compareAll->setObjectName(QStringLiteral("auditCompareAllCheck"));
    m_compareAll->setToolTip(tr("After the chosen mechanism, every other private mechanism of the catalog with the "
                                "same data, runs and seed: one bar and one table row each"));
    m_form->addRow(m_compareAll);
    m_broken = new QDoubleSpinBox(box);
    m_broken->setObjectName(QStringLiteral("auditNoiseDivisorSpin"));
    m_broken->setDecimals(1);
    m_broken->setRange(1.0, AuditSettings::kMaxNoiseDivisor);
    m_broken->setKeyboardTracking(false);
    m_broken->setSpecialValueText(tr("no (correct)"));
    m_broken->setPrefix(tr("noise ÷ "));
    m_broken->setToolTip(tr("For teaching: break the mechanism on purpose — train it at ε × this factor (its noise "
                            "divided by about as much) while ε is still claimed, and see whether the audit catches "
                            "it. 'no': the mechanism as it is"));
    m_form->addRow(tr("Broken on purpose"), m_broken);

    m_mechanism = new MechanismPanel(this, MechanismFormParts::AtOneEps);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* boxRow = new QVBoxLayout;
    boxRow->setContentsMargins(6, 6, 6, 0);
    boxRow->addWidget(box);
    layout->addLayout(boxRow);
    layout->addWidget(m_mechanism);
}

void AuditPanel::connectEdits() {
    auto apply = [this](auto change) {
        return [this, change](auto&&...) {
            if (m_applying)
                return;
            change(m_settings);
            showSettings();
            emit settingsChanged();
        };
    };
    connect(m_method, &QComboBox::currentIndexChanged, this,
            apply([this](AuditSettings& s) { s.method = AuditMethod(m_method->currentData().toInt()); }));
    connect(m_canaries, &QSpinBox::valueChanged, this,
            apply([this](AuditSettings& s) { s.canaries = m_canaries->value(); }));
    connect(m_runs, &QSpinBox::valueChanged, this, apply([this](AuditSettings& s) { s.runs = m_runs->value(); }));
    connect(m_whiteboxRuns, &QSpinBox::valueChanged, this,
            apply([this](AuditSettings& s) { s.whiteboxRuns = m_whiteboxRuns->value(); }));
    connect(m_whiteboxView, &QComboBox::currentIndexChanged, this, apply([this](AuditSettings& s) {
                s.whiteboxView = core::WhiteboxView(m_whiteboxView->currentData().toInt());
            }));
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this,
            apply([this](AuditSettings& s) { s.alpha = m_alpha->value(); }));
    connect(m_canary, &QComboBox::currentIndexChanged, this, apply([this](AuditSettings& s) {
                s.canaryRow = m_canary->currentData().toBool() ? m_canaryRow->value() : -1;
            }));
    connect(m_canaryRow, &QSpinBox::valueChanged, this, apply([this](AuditSettings& s) {
                if (s.canaryRow >= 0)
                    s.canaryRow = m_canaryRow->value();
            }));
    connect(m_broken, &QDoubleSpinBox::valueChanged, this, apply([this](AuditSettings& s) {
                s.noiseDivisor = m_broken->value();
                showDataShape();
            }));
    connect(m_compareAll, &QCheckBox::toggled, this,
            apply([this](AuditSettings& s) { s.compareAll = m_compareAll->isChecked(); }));
    connect(m_mechanism, &MechanismPanel::settingsChanged, this, [this] {
        takeMechanism();
        emit settingsChanged();
    });
}

void AuditPanel::takeMechanism() { static_cast<TrainingChoice&>(m_settings) = m_mechanism->settings(); }

void AuditPanel::setSettings(const AuditSettings& settings) {
    m_settings = settings;
    m_mechanism->setSettings(mechanismPart(settings));
    showSettings();
    showDataShape();
}

void AuditPanel::setCurrentEps(double eps) {
    m_settings.currentEps = eps;
    m_mechanism->setCurrentEps(eps);
}

void AuditPanel::setDataset(const core::Dataset& d) {
    QStringList classes;
    for (const std::string& name : d.targets.classNames)
        classes << QString::fromStdString(name);
    const auto trainRows = static_cast<long long>(static_cast<double>(d.rows()) * (1.0 - m_settings.testFraction));
    m_shape = DataShape{trainRows,
                        d.featureCount(),
                        d.targets.kind == core::TaskKind::Multiclass,
                        d.targets.kind == core::TaskKind::Regression,
                        classes,
                        core::pipelineFacts(d)};
    showDataShape();
    takeMechanism(); // the panel adapts the class and loss to the data
    m_applying = true;
    m_canaryRow->setRange(0, static_cast<int>(std::max<long long>(0, std::min<long long>(trainRows - 1, 1 << 30))));
    m_applying = false;
    if (m_settings.canaryRow > m_canaryRow->maximum())
        m_settings.canaryRow = -1;
    showSettings();
}

void AuditPanel::showDataShape() {
    if (!m_shape)
        return;
    core::PipelineFacts facts = m_shape->facts;
    if (m_settings.noiseDivisor > 1.0) // trained at about ε × k while ε is claimed: the claim is false
        facts.brokenMechanism =
            tr("broken on purpose: noise ÷ %1, so about ε × %1 is spent while ε is claimed (a mechanism to audit, "
               "not to use)")
                .arg(m_settings.noiseDivisor, 0, 'g', 4)
                .toStdString();
    m_mechanism->setDataShape(m_shape->trainRows, m_shape->features, m_shape->multiclass, m_shape->classes,
                              m_shape->regression, facts);
}

void AuditPanel::showSettings() {
    m_applying = true;
    const AuditSettings& s = m_settings;
    const bool oneRun = s.method == AuditMethod::OneRun;
    const bool whitebox = s.method == AuditMethod::Whitebox;
    const bool twoDatasets = !oneRun && !whitebox;
    m_method->setCurrentIndex(m_method->findData(int(s.method)));
    m_canaries->setValue(s.canaries);
    m_form->setRowVisible(m_canaries, oneRun);
    m_form->setRowVisible(m_runs, twoDatasets);
    m_form->setRowVisible(m_canary, twoDatasets);
    m_whiteboxRuns->setValue(s.whiteboxRuns);
    m_whiteboxView->setCurrentIndex(m_whiteboxView->findData(int(s.whiteboxView)));
    m_form->setRowVisible(m_whiteboxRuns, whitebox);
    m_form->setRowVisible(m_whiteboxView, whitebox);
    m_form->setRowVisible(m_compareAll, !whitebox); // the white-box audit is DP-SGD's alone
    m_runs->setValue(s.runs);
    m_alpha->setValue(s.alpha);
    m_canary->setCurrentIndex(s.canaryRow >= 0 ? 1 : 0);
    if (s.canaryRow >= 0)
        m_canaryRow->setValue(static_cast<int>(s.canaryRow));
    m_form->setRowVisible(m_canaryRow, twoDatasets && s.canaryRow >= 0);
    m_compareAll->setChecked(s.compareAll);
    m_broken->setValue(s.noiseDivisor);
    m_applying = false;
}

} // namespace elab::ui
