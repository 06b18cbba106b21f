#pragma once
// The widgets of MechanismPanel, created and laid out in one place (the panel holds the
// logic). Every input has an objectName for tests and the window. GUI thread only.

#include "core/learner/utility_metric.h"
#include "core/learners/linear_erm/taylor.h"

#include <QMap>
#include <QtGlobal>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QWidget;
QT_END_NAMESPACE

namespace elab::ui {

class ParameterForm;

/// Which parts of the form a view shows.
enum class MechanismFormParts {
    All,     ///< the utility view: everything
    AtOneEps ///< a view computed at the slider's ε only (decision regions): no metric, repetitions,
             ///< Taylor estimates, sweep grid, nor a guarantee box (it shows the guarantee of its result)
};

struct MechanismForm {
    /// Creates every widget as a child of panel and lays them out in it, top to bottom:
    /// problems, mechanism, privacy guarantee, data preparation, measurement, Taylor, grid
    /// (parts: which of them are shown).
    explicit MechanismForm(QWidget* panel, MechanismFormParts parts = MechanismFormParts::All);

    QLabel* problems = nullptr; ///< "problemLabel"
    QFormLayout* mechanismForm = nullptr;
    QComboBox* mechanism = nullptr;        ///< "mechanismCombo", data: int(MechanismKind)
    QComboBox* loss = nullptr;             ///< "lossCombo", data: int(LossKind)
    QDoubleSpinBox* huberWidth = nullptr;  ///< "huberWidthSpin"
    QDoubleSpinBox* temperature = nullptr; ///< "temperatureSpin"
    QLineEdit* lambda = nullptr;           ///< "lambdaEdit"
    QLineEdit* delta = nullptr;            ///< "deltaEdit"
    /// One per catalog mechanism with parameters of its own, in catalog order: "<id>Group"
    /// (DP-SGD: "sgdGroup"), each shown for its mechanism only.
    std::vector<ParameterForm*> parameters;
    QGroupBox* guaranteeBox = nullptr; ///< "guaranteeGroup"
    QLabel* guarantee = nullptr;       ///< "guaranteeLabel"
    QFormLayout* preparationForm = nullptr;
    QComboBox* norm = nullptr;              ///< "normCombo", data: int(NormPolicy)
    QLabel* normNote = nullptr;             ///< "normNote"
    QCheckBox* standardise = nullptr;       ///< "standardiseCheck"
    QCheckBox* intercept = nullptr;         ///< "interceptCheck"
    QComboBox* positiveClass = nullptr;     ///< "positiveClassCombo", data: the class name
    QDoubleSpinBox* testFraction = nullptr; ///< "testFractionSpin"
    QComboBox* metric = nullptr;            ///< "metricCombo", data: int(UtilityMetric)
    QSpinBox* repeats = nullptr;            ///< "repeatsSpin"
    QLineEdit* seed = nullptr;              ///< "seedEdit"
    QPushButton* newSeed = nullptr;         ///< "newSeedButton"
    QCheckBox* secretSeed = nullptr;        ///< "secretSeedCheck": private release (seed from the OS, written nowhere)
    QGroupBox* taylorBox = nullptr;         ///< "taylorGroup"
    QLabel* taylorNote = nullptr;           ///< "taylorNote"
    QWidget* taylorInputs = nullptr;        ///< "taylorInputs"
    /// "first-orderCheck", "second-orderCheck", "inverse-epsCheck", "anchoredCheck"
    QMap<core::Estimator, QCheckBox*> estimators;
    QLineEdit* measureAt = nullptr; ///< "measureEdit"
    QLineEdit* epsMin = nullptr;    ///< "epsMinEdit"
    QLineEdit* epsMax = nullptr;    ///< "epsMaxEdit"
    QSpinBox* gridPoints = nullptr; ///< "gridPointsSpin"

    /// The free-text numeric fields (committed on editingFinished).
    QList<QLineEdit*> textEdits() const { return {lambda, delta, seed, measureAt, epsMin, epsMax}; }
};

} // namespace elab::ui
