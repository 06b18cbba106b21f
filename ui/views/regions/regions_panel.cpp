#include "ui/views/regions/regions_panel.h"

#include "ui/views/regions/regions_text.h"
#include "ui/widgets/mechanism_panel.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace elab::ui {

namespace {

// A LIBSVM file may have 10⁵ features: the combos list the first ones.
constexpr int kMaxListedFeatures = 2000;
constexpr int kGridSizes[] = {64, 128, 256, 512};

/// The mechanism panel edits a UtilitySettings: the training choice this view shares with it.
UtilitySettings mechanismPart(const RegionsSettings& s) { return mechanismFormSettings(s, s.currentEps); }

QComboBox* combo(QWidget* parent, const char* name) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QString::fromLatin1(name));
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
    return c;
}

} // namespace

RegionsPanel::RegionsPanel(QWidget* parent) : QWidget(parent) {
    buildForm();
    connectEdits();
    showSettings();
}

void RegionsPanel::buildForm() {
    auto* box = new QGroupBox(tr("Decision regions"), this);
    m_form = new QFormLayout(box);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto* plane = new QWidget(box);
    auto* planeLayout = new QHBoxLayout(plane);
    planeLayout->setContentsMargins(0, 0, 0, 0);
    m_features = new QRadioButton(tr("Two features"), plane);
    m_features->setObjectName(QStringLiteral("planeFeatures"));
    m_pca = new QRadioButton(tr("PCA (leaks)"), plane);
    m_pca->setObjectName(QStringLiteral("planePca"));
    m_pca->setToolTip(tr("The first two principal components of the training rows: computed from the private "
                         "data, so the plane itself leaks privacy (not counted in ε)"));
    auto* group = new QButtonGroup(plane);
    group->addButton(m_features);
    group->addButton(m_pca);
    planeLayout->addWidget(m_features);
    planeLayout->addWidget(m_pca);
    m_form->addRow(tr("Plane"), plane);
    m_featureA = combo(box, "featureACombo");
    m_featureB = combo(box, "featureBCombo");
    m_form->addRow(tr("x axis"), m_featureA);
    m_form->addRow(tr("y axis"), m_featureB);
    m_quadratic = new QCheckBox(tr("Quadratic expansion (x₁², x₁x₂, x₂²)"), box);
    m_quadratic->setObjectName(QStringLiteral("quadraticCheck"));
    m_quadratic->setToolTip(tr("Linear models on (x₁, x₂, x₁², x₁x₂, x₂²): boundaries become conics, so circles "
                               "and XOR can be separated"));
    m_form->addRow(m_quadratic);
    m_draws = new QSpinBox(box);
    m_draws->setObjectName(QStringLiteral("drawsSpin"));
    m_draws->setRange(1, RegionsSettings::kMaxDraws);
    m_draws->setToolTip(tr("Noise draws R: each is a model the mechanism could have released"));
    m_form->addRow(tr("Draws"), m_draws);
    m_fill = combo(box, "fillCombo");
    for (RegionsFill fill : {RegionsFill::Majority, RegionsFill::Draw, RegionsFill::Agreement})
        m_fill->addItem(regionsFillTitle(fill), int(fill));
    m_fill->setToolTip(tr("Agreement-shaded majority: each cell in the colour of the class most draws predict, "
                          "fainter where the draws disagree. Draw k: the regions of one draw, a model the "
                          "mechanism could have released. Agreement map: the share of draws voting with the "
                          "majority, on a colour scale."));
    m_form->addRow(tr("Fill"), m_fill);
    m_fillDraw = new QSpinBox(box);
    m_fillDraw->setObjectName(QStringLiteral("fillDrawSpin"));
    m_fillDraw->setPrefix(tr("draw "));
    m_form->addRow(tr("Shown"), m_fillDraw);
    m_grid = combo(box, "gridCombo");
    for (int g : kGridSizes)
        m_grid->addItem(QStringLiteral("%1 × %1").arg(g), g);
    m_grid->setToolTip(tr("Cells per side of the evaluation grid"));
    m_form->addRow(tr("Grid"), m_grid);

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

void RegionsPanel::connectEdits() {
    auto apply = [this](auto change) {
        return [this, change](auto&&...) {
            if (m_applying)
                return;
            change(m_settings);
            showSettings(); // rows that depend on the choice
            emit settingsChanged();
        };
    };
    connect(m_pca, &QRadioButton::toggled, this, apply([this](RegionsSettings& s) {
                s.plane = m_pca->isChecked() ? core::PlaneKind::Pca : core::PlaneKind::Features;
            }));
    connect(m_featureA, &QComboBox::currentIndexChanged, this,
            apply([this](RegionsSettings& s) { s.featureA = m_featureA->currentData().toInt(); }));
    connect(m_featureB, &QComboBox::currentIndexChanged, this,
            apply([this](RegionsSettings& s) { s.featureB = m_featureB->currentData().toInt(); }));
    connect(m_quadratic, &QCheckBox::toggled, this,
            apply([this](RegionsSettings& s) { s.quadratic = m_quadratic->isChecked(); }));
    connect(m_draws, &QSpinBox::valueChanged, this, apply([this](RegionsSettings& s) {
                s.draws = m_draws->value();
                s.fillDraw = std::min(s.fillDraw, s.draws - 1);
            }));
    connect(m_fill, &QComboBox::currentIndexChanged, this,
            apply([this](RegionsSettings& s) { s.fill = RegionsFill(m_fill->currentData().toInt()); }));
    connect(m_fillDraw, &QSpinBox::valueChanged, this,
            apply([this](RegionsSettings& s) { s.fillDraw = m_fillDraw->value() - 1; }));
    connect(m_grid, &QComboBox::currentIndexChanged, this,
            apply([this](RegionsSettings& s) { s.gridSize = m_grid->currentData().toInt(); }));
    connect(m_mechanism, &MechanismPanel::settingsChanged, this, [this] {
        takeMechanism();
        emit settingsChanged();
    });
}

void RegionsPanel::takeMechanism() { static_cast<TrainingChoice&>(m_settings) = m_mechanism->settings(); }

void RegionsPanel::setSettings(const RegionsSettings& settings) {
    m_settings = settings;
    m_mechanism->setSettings(mechanismPart(settings));
    showSettings();
}

void RegionsPanel::setDataset(const core::Dataset& d) {
    m_applying = true;
    for (QComboBox* c : {m_featureA, m_featureB}) {
        c->clear();
        const auto listed = std::min<core::Index>(d.featureCount(), kMaxListedFeatures);
        for (core::Index j = 0; j < listed; ++j)
            c->addItem(QString::fromStdString(d.featureName(j)), static_cast<int>(j));
    }
    m_applying = false;
    adaptRegionsToDataset(m_settings, d);
    m_mechanism->setSettings(mechanismPart(m_settings)); // standardising is part of the teaching plane
    QStringList classes;
    for (const std::string& name : d.targets.classNames)
        classes << QString::fromStdString(name);
    const auto trainRows = static_cast<long long>(static_cast<double>(d.rows()) * (1.0 - m_settings.testFraction));
    m_mechanism->setDataShape(trainRows, d.featureCount(), d.targets.kind == core::TaskKind::Multiclass, classes,
                              d.targets.kind == core::TaskKind::Regression, core::pipelineFacts(d));
    takeMechanism(); // the panel adapts the class and loss to the data
    showSettings();
}

void RegionsPanel::showSettings() {
    m_applying = true;
    const RegionsSettings& s = m_settings;
    (s.plane == core::PlaneKind::Pca ? m_pca : m_features)->setChecked(true);
    m_featureA->setCurrentIndex(m_featureA->findData(s.featureA));
    m_featureB->setCurrentIndex(m_featureB->findData(s.featureB));
    m_form->setRowVisible(m_featureA, s.plane == core::PlaneKind::Features);
    m_form->setRowVisible(m_featureB, s.plane == core::PlaneKind::Features);
    m_quadratic->setChecked(s.quadratic);
    m_draws->setValue(s.draws);
    m_fill->setCurrentIndex(m_fill->findData(int(s.fill)));
    m_fillDraw->setRange(1, s.draws);
    m_fillDraw->setSuffix(tr(" of %1").arg(s.draws));
    m_fillDraw->setValue(s.fillDraw + 1);
    m_form->setRowVisible(m_fillDraw, s.fill == RegionsFill::Draw);
    if (m_grid->findData(s.gridSize) < 0) // a session's own size
        m_grid->addItem(QStringLiteral("%1 × %1").arg(s.gridSize), s.gridSize);
    m_grid->setCurrentIndex(m_grid->findData(s.gridSize));
    m_applying = false;
}

} // namespace elab::ui
