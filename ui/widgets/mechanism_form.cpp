#include "ui/widgets/mechanism_form.h"

#include "ui/widgets/note_label.h"
#include "ui/widgets/parameter_form.h"
#include "ui/widgets/settings_text.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <utility>

namespace elab::ui {

namespace {

using core::Estimator;
using core::MechanismKind;
using core::NormPolicy;
using core::UtilityMetric;

QString formTr(const char* text) { return QCoreApplication::translate("elab::ui::MechanismPanel", text); }

QFormLayout* newForm(QGroupBox* box) {
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    return form;
}

QComboBox* newCombo(QWidget* parent, const char* name) {
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QString::fromLatin1(name));
    // Long item texts must not widen the left column.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    return combo;
}

QLabel* newNote(QWidget* parent, const char* name) {
    auto* label = new NoteLabel(parent);
    label->setObjectName(QString::fromLatin1(name));
    return label;
}

template <typename Spin>
Spin* newSpin(QWidget* parent, const char* name, const QString& toolTip) {
    auto* spin = new Spin(parent);
    spin->setObjectName(QString::fromLatin1(name));
    spin->setKeyboardTracking(false); // one edit per committed number, not per keystroke
    spin->setToolTip(toolTip);
    return spin;
}

QLineEdit* newEdit(QWidget* parent, const char* name, const QString& toolTip) {
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QString::fromLatin1(name));
    edit->setToolTip(toolTip);
    return edit;
}

} // namespace

MechanismForm::MechanismForm(QWidget* panel, MechanismFormParts parts) {
    problems = newNote(panel, "problemLabel");
    problems->setStyleSheet(QStringLiteral("QLabel { color: #b01e1e; background: #fdece6; border: 1px solid "
                                           "#e8b4a8; border-radius: 3px; padding: 4px; }"));

    auto* mechanismBox = new QGroupBox(formTr("Mechanism"), panel);
    mechanism = newCombo(mechanismBox, "mechanismCombo");
    for (const core::MechanismInfo& info : core::mechanismCatalog()) {
        mechanism->addItem(mechanismName(info.kind), int(info.kind));
        mechanism->setItemData(mechanism->count() - 1, mechanismToolTip(info.kind), Qt::ToolTipRole);
    }
    loss = newCombo(mechanismBox, "lossCombo");
    huberWidth =
        newSpin<QDoubleSpinBox>(mechanismBox, "huberWidthSpin",
                                formTr("Width h of the quadratic region around margin 1; curvature bound 1/(2h)"));
    huberWidth->setRange(0.001, 0.999);
    huberWidth->setDecimals(3);
    huberWidth->setSingleStep(0.05);
    temperature = newSpin<QDoubleSpinBox>(mechanismBox, "temperatureSpin",
                                          formTr("Temperature t of t·log(1 + e^((1−m)/t)); curvature bound 1/(4t)"));
    temperature->setRange(0.01, 100.0);
    temperature->setSingleStep(0.1);
    lambda = newEdit(mechanismBox, "lambdaEdit",
                     formTr("L2 regulariser Λ ≥ 0 in sum form: Σℓ + (Λ/2)‖θ‖². Output perturbation needs Λ > 0."));
    delta = newEdit(mechanismBox, "deltaEdit", formTr("δ of (ε, δ)-DP: in (0, 1) and well below 1/n"));
    mechanismForm = newForm(mechanismBox);
    mechanismForm->addRow(mechanism);
    mechanismForm->addRow(formTr("Loss"), loss);
    mechanismForm->addRow(formTr("Width h"), huberWidth);
    mechanismForm->addRow(formTr("Temperature t"), temperature);
    mechanismForm->addRow(formTr("Λ (L2)"), lambda);
    mechanismForm->addRow(formTr("δ"), delta);

    for (const core::MechanismInfo& info : core::mechanismCatalog())
        if (info.parameters != nullptr)
            parameters.push_back(new ParameterForm(*info.parameters, panel));

    guaranteeBox = new QGroupBox(formTr("Privacy guarantee"), panel);
    guaranteeBox->setObjectName(QStringLiteral("guaranteeGroup"));
    // Follows the ε slider: in a box of its own, so that a new text relayouts the panel only when
    // its height changes.
    auto* guaranteeNote = noteBox(guaranteeBox, "guaranteeLabel"); // top-aligned: a long warning starts at the top
    guarantee = guaranteeNote->label();
    guarantee->setTextFormat(Qt::RichText);
    guarantee->setTextInteractionFlags(Qt::TextSelectableByMouse);
    (new QVBoxLayout(guaranteeBox))->addWidget(guaranteeNote);

    auto* preparationBox = new QGroupBox(formTr("Data preparation"), panel);
    norm = newCombo(preparationBox, "normCombo");
    for (NormPolicy policy : {NormPolicy::ClipRows, NormPolicy::ScaleByMaxNorm, NormPolicy::None})
        norm->addItem(normPolicyName(policy), int(policy));
    norm->setToolTip(formTr("The privacy guarantees assume every row has ‖x‖₂ ≤ 1"));
    normNote = newNote(preparationBox, "normNote");
    normNote->setTextFormat(Qt::RichText);
    standardise = new QCheckBox(formTr("Standardise columns (leaks)"), preparationBox);
    standardise->setObjectName(QStringLiteral("standardiseCheck"));
    standardise->setToolTip(formTr("Mean 0, sd 1 with the training data's own statistics: leaks privacy"));
    intercept = new QCheckBox(formTr("Intercept (constant feature 1)"), preparationBox);
    intercept->setObjectName(QStringLiteral("interceptCheck"));
    intercept->setToolTip(formTr("Appended before the norm step; penalised like any weight"));
    positiveClass = newCombo(preparationBox, "positiveClassCombo");
    positiveClass->setToolTip(formTr("All classes: one model per class (one-vs-rest); ε and δ are split "
                                     "equally across the K models. A class: binarise, this class → +1, every "
                                     "other class → −1, one model with the whole budget."));
    testFraction = newSpin<QDoubleSpinBox>(preparationBox, "testFractionSpin",
                                           formTr("Stratified held-out share of the rows; test metrics need it > 0"));
    testFraction->setRange(0.0, 0.9);
    testFraction->setSingleStep(0.05);
    preparationForm = newForm(preparationBox);
    preparationForm->addRow(formTr("Row norm"), norm);
    preparationForm->addRow(normNote);
    preparationForm->addRow(standardise);
    preparationForm->addRow(intercept);
    preparationForm->addRow(formTr("Classes"), positiveClass);
    preparationForm->addRow(formTr("Test fraction"), testFraction);

    auto* measurementBox = new QGroupBox(formTr("Measurement"), panel);
    metric = newCombo(measurementBox, "metricCombo");
    for (UtilityMetric m :
         {UtilityMetric::TrainLoss, UtilityMetric::TestLoss, UtilityMetric::TrainAccuracy, UtilityMetric::TestAccuracy})
        metric->addItem(metricName(m), int(m));
    repeats =
        newSpin<QSpinBox>(measurementBox, "repeatsSpin", formTr("Noise draws per ε: the curve is their mean ± 1 sd"));
    repeats->setRange(1, 1000);
    seed = newEdit(measurementBox, "seedEdit", formTr("Seed of every random stream (split, noise draws)"));
    newSeed = new QPushButton(formTr("New seed"), measurementBox);
    newSeed->setObjectName(QStringLiteral("newSeedButton"));
    newSeed->setToolTip(formTr("Draw a fresh random seed"));
    auto* seedRow = new QHBoxLayout;
    seedRow->addWidget(seed, 1);
    seedRow->addWidget(newSeed);
    secretSeed = new QCheckBox(formTr("Private release (secret seed)"), measurementBox);
    secretSeed->setObjectName(QStringLiteral("secretSeedCheck"));
    secretSeed->setToolTip(
        formTr("Draw the seed from the operating system's entropy and write it nowhere (sessions and "
               "exports say null), so that the released models are the private release the guarantee "
               "is about. Unchecked, the run is reproducible: its public seed regenerates the noise."));
    auto* measurementForm = newForm(measurementBox);
    measurementForm->addRow(formTr("Metric"), metric);
    measurementForm->addRow(formTr("Repetitions"), repeats);
    measurementForm->addRow(formTr("Seed"), seedRow);
    measurementForm->addRow(QString(), secretSeed);

    taylorBox = new QGroupBox(formTr("Taylor estimates"), panel);
    taylorBox->setObjectName(QStringLiteral("taylorGroup"));
    taylorNote = newNote(taylorBox, "taylorNote");
    taylorInputs = new QWidget(taylorBox);
    taylorInputs->setObjectName(QStringLiteral("taylorInputs"));
    auto* inputs = new QVBoxLayout(taylorInputs);
    inputs->setContentsMargins(0, 0, 0, 0);
    const std::pair<Estimator, QString> kinds[] = {
        {Estimator::FirstOrder, formTr("First order (Li et al.)")},
        {Estimator::SecondOrder, formTr("Second order")},
        {Estimator::InverseEps, formTr("Inverse-ε (recommended)")},
        {Estimator::Anchored, formTr("Anchored at ε = ∞")},
    };
    for (const auto& [estimator, text] : kinds) {
        auto* check = new QCheckBox(text, taylorInputs);
        check->setObjectName(QString::fromLatin1(core::toString(estimator)) + QStringLiteral("Check"));
        inputs->addWidget(check);
        estimators.insert(estimator, check);
    }
    measureAt = newEdit(taylorInputs, "measureEdit",
                        formTr("ε values where the model is fitted and the estimates start, e.g. 0.1, 1, 5. "
                               "Clicking the chart adds one."));
    auto* measureRow = new QFormLayout;
    measureRow->addRow(formTr("Measure at"), measureAt);
    inputs->addLayout(measureRow);
    auto* taylorLayout = new QVBoxLayout(taylorBox);
    taylorLayout->addWidget(taylorNote);
    taylorLayout->addWidget(taylorInputs);

    auto* gridBox = new QGroupBox(formTr("Sweep grid"), panel);
    epsMin = newEdit(gridBox, "epsMinEdit", formTr("Smallest ε of the sweep"));
    epsMax = newEdit(gridBox, "epsMaxEdit", formTr("Largest ε of the sweep"));
    gridPoints =
        newSpin<QSpinBox>(gridBox, "gridPointsSpin",
                          formTr("Log-spaced ε values measured by a sweep; the slider's arrow keys step on them"));
    gridPoints->setRange(2, 200);
    auto* range = new QHBoxLayout;
    range->addWidget(epsMin, 1);
    range->addWidget(new QLabel(formTr("to"), gridBox));
    range->addWidget(epsMax, 1);
    auto* gridForm = newForm(gridBox);
    gridForm->addRow(formTr("ε from"), range);
    gridForm->addRow(formTr("Points"), gridPoints);

    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(problems);
    layout->addWidget(mechanismBox);
    for (ParameterForm* form : parameters)
        layout->addWidget(form);
    for (QWidget* w :
         {static_cast<QWidget*>(guaranteeBox), static_cast<QWidget*>(preparationBox),
          static_cast<QWidget*>(measurementBox), static_cast<QWidget*>(taylorBox), static_cast<QWidget*>(gridBox)})
        layout->addWidget(w);
    layout->addStretch(1);
    if (parts == MechanismFormParts::AtOneEps) {
        for (QWidget* w :
             {static_cast<QWidget*>(guaranteeBox), static_cast<QWidget*>(taylorBox), static_cast<QWidget*>(gridBox)})
            w->hide();
        measurementForm->setRowVisible(metric, false);
        measurementForm->setRowVisible(repeats, false);
        measurementBox->setTitle(formTr("Split and noise draws"));
    }
}

} // namespace elab::ui
