#pragma once
// What views read of each other, owned by the window that hosts them (ViewHost::sharedState):
// a view publishes what others need here, with a signal, and no view names another. Today the
// Utility view publishes its applied settings and measured sweep, which the Privacy accounting
// view reads for its utility-cost column. GUI thread only.

#include "ui/widgets/utility_settings.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QObject>

#include <vector>

namespace elab::ui {

/// The Utility view's sweep as others see it.
struct UtilitySweepSnapshot {
    UtilitySettings settings; ///< the settings the sweep was computed with (the controller's applied ones)
    bool prepared = false;    ///< the data was prepared (split, clipped) for these settings
    long long trainRows = 0;  ///< rows the model is trained on
    std::vector<double> eps;  ///< the grid (ascending)
    std::vector<double> mean; ///< measured mean utility per grid ε; NaN: not measured (yet)
};

class SharedState : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const UtilitySweepSnapshot& utilitySweep() const { return m_utilitySweep; }
    /// The Utility view's new settings or results; emits utilitySweepChanged.
    void publishUtilitySweep(UtilitySweepSnapshot sweep);

signals:
    void utilitySweepChanged();

private:
    UtilitySweepSnapshot m_utilitySweep;
};

/// A tab's first showing takes the Utility tab's mechanism: view's settings (composedSettings,
/// applySettings, a `mechanism` spec) switched to the published kind when it is private and
/// differs. Nothing without a shared state.
template <class View>
void startFromUtilityMechanism(const SharedState* shared, View& view) {
    if (!shared)
        return;
    const core::MechanismKind kind = shared->utilitySweep().settings.mechanism.kind;
    auto settings = view.composedSettings();
    if (!core::mechanismInfo(kind).isPrivate || settings.mechanism.kind == kind)
        return;
    core::selectMechanism(settings.mechanism, kind);
    view.applySettings(settings);
}

} // namespace elab::ui
