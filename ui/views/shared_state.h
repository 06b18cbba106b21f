#pragma once
// What views read of each other, owned by the window that hosts them (ViewHost::sharedState):
// a view publishes what others need here, with a signal, and no view names another. Today the
// Utility view publishes its applied settings and measured sweep, which the Privacy accounting
// view reads for its utility-cost column. GUI thread only.

#include "ui/widgets/utility_settings.h"

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

} // namespace elab::ui
