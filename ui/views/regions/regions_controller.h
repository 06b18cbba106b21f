#pragma once
// Computes the Decision regions off the GUI thread (docs/STYLE.md §2): the "prepare" job builds
// the plane (core::RegionsProblem: projection, expansion, preparation, grid, learner and noise —
// once per dataset and settings) and evaluates it at the slider's ε; the "regions" job only
// evaluates (core::evaluateRegions: R fits, the grid, the boundaries), warm-started from the
// previous ε. Slider steps follow the base's drag path (ComputeController::setSliderStep): a
// step starts an evaluation at once when none runs; steps arriving while one runs are held
// (holdWhileRunning), the latest starting as soon as the running one delivers — so the picture
// follows a drag continuously instead of being restarted on every step. When a step at the full
// grid takes longer than a frame budget, steps while dragging use a coarser grid and the full
// grid follows on release. Settings changes are coalesced (one frame); stale and cancelled
// results are dropped by the slots.
//
// Threads: every function and signal is for the GUI thread.

#include "ui/jobs/compute_controller.h"
#include "ui/views/regions/regions_settings.h"
#include "ui/views/regions/regions_state.h"

namespace elab::ui {

class RegionsController : public ComputeController<RegionsSettings> {
    Q_OBJECT
public:
    /// Above this wall time per evaluation at the full grid, steps while dragging use kDragGrid.
    static constexpr double kLiveBudgetMs = 40.0;
    static constexpr int kDragGrid = 128;

    explicit RegionsController(QObject* parent = nullptr);
    ~RegionsController() override;

    // The slider's ε (+∞: the non-private model only) arrives by setCurrentEps (ComputeController).
    /// Prepares and evaluates the applied settings again (after a cancel or a failure).
    void recompute() { scheduleRerun(); }

    const RegionsState& state() const { return m_state; }
    /// The regions shown are those of the applied settings at the applied ε, on the full grid.
    bool upToDate() const;

    JobSlot* prepareSlot() const { return m_prepare; }
    JobSlot* evaluateSlot() const { return m_evaluate; }

private:
    void applySettings(const RegionsSettings& next) override;
    void reportFailure(const QString& message) override;
    void retryHeld() override { requestEvaluation(); }
    void sliderReleased() override;
    void startPreparation();
    /// The picture is not the applied settings' at the applied ε on the full grid, and can be
    /// computed from the prepared problem.
    bool evaluationNeeded() const;
    void requestEvaluation();
    void startEvaluation();

    JobSlot* m_prepare = nullptr;
    JobSlot* m_evaluate = nullptr;
    RegionsState m_state;
};

} // namespace elab::ui
