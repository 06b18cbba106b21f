#pragma once
// The Privacy audit view's side panel: the method, runs per neighbour T (two datasets), canaries m
// (one run), trainings and what the attacker sees (white-box), the confidence α, the canary (the
// default strongest unit row, or a training row), "compare every mechanism"; under it the
// mechanism panel reused with the parts that apply at one ε (mechanism, loss, Λ, δ, data
// preparation, seed; the guarantee shown is the claim being audited — "not met" for a mechanism
// broken on purpose, "auditNoiseDivisorSpin"). It edits the AuditSettings
// minus the slider's ε, which the view adds. objectNames: "auditMethodCombo", "auditCanariesSpin",
// "auditWhiteboxRunsSpin", "auditWhiteboxViewCombo", "auditRunsSpin", "auditAlphaSpin",
// "auditCanaryCombo", "auditCanaryRowSpin", "auditCompareAllCheck". GUI thread only.

#include "ui/views/audit/audit_settings.h"

#include "core/privacy/composition.h"

#include <QStringList>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::core {
struct Dataset;
}

namespace elab::ui {

class MechanismPanel;

class AuditPanel : public QWidget {
    Q_OBJECT
public:
    explicit AuditPanel(QWidget* parent = nullptr);

    AuditSettings settings() const { return m_settings; }
    /// Shows settings; emits nothing.
    void setSettings(const AuditSettings& settings);
    /// A new dataset: its shape for the mechanism panel, the canary row's range; emits nothing.
    void setDataset(const core::Dataset& dataset);
    /// The slider's ε, for the guarantee shown (cheap; emits nothing).
    void setCurrentEps(double eps);

signals:
    void settingsChanged();

private:
    void buildForm();
    void connectEdits();
    void showSettings();
    void takeMechanism();
    /// The dataset's shape and pipeline facts to the mechanism panel; a mechanism broken on
    /// purpose adds a leaking step, so its guarantee reads "not met" instead of the claim.
    void showDataShape();

    AuditSettings m_settings;
    bool m_applying = false;
    QFormLayout* m_form = nullptr;
    QComboBox* m_method = nullptr;
    QSpinBox* m_canaries = nullptr;
    QSpinBox* m_runs = nullptr;
    QDoubleSpinBox* m_broken = nullptr;
    QSpinBox* m_whiteboxRuns = nullptr;
    QComboBox* m_whiteboxView = nullptr;
    QDoubleSpinBox* m_alpha = nullptr;
    QComboBox* m_canary = nullptr;
    QSpinBox* m_canaryRow = nullptr;
    QCheckBox* m_compareAll = nullptr;
    MechanismPanel* m_mechanism = nullptr;
    struct DataShape {
        long long trainRows = 0;
        long long features = 0;
        bool multiclass = false;
        bool regression = false;
        QStringList classes;
        core::PipelineFacts facts;
    };
    std::optional<DataShape> m_shape; ///< the dataset's, once one is set
};

} // namespace elab::ui
