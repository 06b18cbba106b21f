#pragma once
// Computes the Private dropout (PTR) view off the GUI thread (core/privacy/ptr_dropout.h): the
// statistic Λ of the loaded features binarised at the settings' threshold (once per dataset and
// threshold), then, at the slider's ε, one full release and the pass fraction over the settings'
// runs of the test (seeds (seed, run); the same draws as full releases would make). Latest wins,
// except that a slider step waits for the running release (holdWhileRunning). GUI thread only.

#include "ui/jobs/compute_controller.h"
#include "ui/views/ptr/ptr_settings.h"

#include "core/privacy/ptr_dropout.h"

#include <memory>
#include <optional>

namespace elab::ui {

struct PtrState {
    std::shared_ptr<const core::PtrData> data; ///< binarised features and Λ
    double binarisedAt = 0.0;                  ///< the threshold data was binarised at
    std::optional<core::PtrRelease> release;   ///< one release at eps (seed (seed, 0))
    double eps = 0.0;                          ///< of release and passFraction
    double passFraction = 0.0;                 ///< over runs tests at eps
    int runs = 0;
};

class PtrController : public ComputeController<PtrSettings> {
    Q_OBJECT
public:
    explicit PtrController(QObject* parent = nullptr);
    ~PtrController() override;

    // A slider step (setCurrentEps, ComputeController) is held while a release at another ε
    // runs, so a drag shows releases instead of restarting one every frame.
    const PtrState& state() const { return m_state; }
    /// The state is of the applied settings (threshold, ε, δ, runs, seed).
    bool upToDate() const;

private:
    void applySettings(const PtrSettings& next) override;
    void start();

    JobSlot* m_job;
    PtrState m_state;
    PtrSettings m_stateSettings;
    PtrSettings m_running; ///< the settings of the job running (or last started)
};

} // namespace elab::ui
