#pragma once
// The Decision regions view's side panel (the left column while its tab is shown): the plane
// (two feature combos, or PCA — labelled as leaking), the quadratic expansion, the number of
// noise draws, the fill (majority shaded by agreement, one draw, the agreement map) and the
// grid; under it the utility view's mechanism panel reused with the parts that apply at one ε
// (mechanism, loss, Λ, δ, data preparation, seed; the mechanism menu comes from the catalog).
// It edits the RegionsSettings minus the slider's ε, which the view adds. Widgets have
// objectNames ("planeFeatures", "planePca", "featureACombo", "featureBCombo", "quadraticCheck",
// "drawsSpin", "fillCombo", "fillDrawSpin", "gridCombo"). GUI thread only.

#include "ui/views/regions/regions_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QFormLayout;
class QRadioButton;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::ui {

class MechanismPanel;

class RegionsPanel : public QWidget {
    Q_OBJECT
public:
    explicit RegionsPanel(QWidget* parent = nullptr);

    /// The settings as edited (currentEps as last set; the view composes the slider's).
    RegionsSettings settings() const { return m_settings; }
    /// Shows settings; emits nothing.
    void setSettings(const RegionsSettings& settings);
    /// A new dataset: its feature names, classes and shape, and its teaching plane
    /// (adaptRegionsToDataset); emits nothing.
    void setDataset(const core::Dataset& dataset);
    MechanismPanel* mechanismPanel() const { return m_mechanism; }

signals:
    /// Any edit by the user.
    void settingsChanged();

private:
    void buildForm();
    void connectEdits();
    void showSettings();
    void takeMechanism();

    RegionsSettings m_settings;
    bool m_applying = false;
    QFormLayout* m_form = nullptr;
    QRadioButton* m_features = nullptr;
    QRadioButton* m_pca = nullptr;
    QComboBox* m_featureA = nullptr;
    QComboBox* m_featureB = nullptr;
    QCheckBox* m_quadratic = nullptr;
    QSpinBox* m_draws = nullptr;
    QComboBox* m_fill = nullptr;
    QSpinBox* m_fillDraw = nullptr;
    QComboBox* m_grid = nullptr;
    MechanismPanel* m_mechanism = nullptr;
};

} // namespace elab::ui
