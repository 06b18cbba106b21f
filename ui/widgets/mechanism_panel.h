#pragma once
// The explorer's left-column form: mechanism, loss, Λ, δ, data preparation, metric,
// repetitions, seed, Taylor estimators with their measuring points, and the sweep grid (a view
// at one ε shows the mechanism, preparation and seed only: MechanismFormParts). It
// edits a UtilitySettings (settings() returns exactly what was set and then edited, invalid
// combinations included) and explains every problem inline. The privacy guarantee actually
// given at the current ε is always shown. Widgets and their objectNames (e.g. "seedEdit",
// "newSeedButton", "mechanismCombo"): ui/widgets/mechanism_form.h. GUI thread only.

#include "ui/widgets/mechanism_form.h"
#include "ui/widgets/settings_text.h"
#include "ui/widgets/throttled_text.h"
#include "ui/widgets/utility_settings.h"

#include <QMap>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QGroupBox;
class QLineEdit;
QT_END_NAMESPACE

namespace elab::ui {

/// The settings a view at one ε hands the panel: its training choice and the ε its guarantee is
/// shown at (the rest of a UtilitySettings at its defaults).
UtilitySettings mechanismFormSettings(const TrainingChoice& training, double currentEps);

class MechanismPanel : public QWidget {
    Q_OBJECT
public:
    explicit MechanismPanel(QWidget* parent = nullptr, MechanismFormParts parts = MechanismFormParts::All);
    ~MechanismPanel() override;

    UtilitySettings settings() const { return m_settings; }
    /// Shows settings; emits nothing. Text-field parse problems are cleared.
    void setSettings(const UtilitySettings& settings);

    /// The dataset the settings apply to. trainRows: the rows the model is fitted on (call
    /// again when the split changes). Adapts settings() without emitting: a multiclass dataset
    /// gets a positive class (the first, unless the current one exists), other datasets lose
    /// it; squared loss becomes logistic on a classification dataset.
    void setDataShape(long long trainRows, long long features, bool multiclass, const QStringList& classNames,
                      bool regression, const core::PipelineFacts& pipeline = {});
    /// The slider's ε (+∞: non-private) for the guarantee; also settings().currentEps.
    /// Cheap (called on every slider move); emits nothing.
    void setCurrentEps(double eps);

    /// The problems shown inline, one per line; empty if the settings can run.
    QString problemText() const;
    /// The guarantee shown, as plain text.
    QString guaranteeText() const { return m_guarantee.plain; }
    /// The guarantee's group box, should the window want it outside a scroll area.
    QGroupBox* guaranteeBox() const { return m_form.guaranteeBox; }

signals:
    /// Any edit by the user (not setSettings/setDataShape/setCurrentEps).
    void settingsChanged();

private:
    void connectEdits();
    void commitText(QLineEdit* edit);
    void edited();
    void showSettings();
    void fillLossCombo();
    void fillClassCombo();
    void refresh();
    /// Recomputes the guarantee text now; throttled (slider steps): the label, whose rich-text
    /// layout costs 15–20 ms for a one-vs-rest guarantee, follows at most every 100 ms.
    void refreshGuarantee(bool throttled = false);
    void drawNewSeed();
    void setSecretSeed(bool secret);

    UtilitySettings m_settings;
    DataShape m_shape;
    GuaranteeText m_guarantee;
    QMap<QLineEdit*, QString> m_parseProblems;
    bool m_applying = false;
    MechanismForm m_form;
    ThrottledText* m_guaranteeShown = nullptr; // on m_form.guarantee
};

} // namespace elab::ui
