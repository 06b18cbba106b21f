#include "ui/views/regions/regions_controller.h"

#include "ui/jobs/background_release.h"

#include <chrono>
#include <cmath>
#include <utility>

namespace elab::ui {

namespace {

using Clock = std::chrono::steady_clock;

/// One evaluation on a worker: the regions at eps (cancelled: throws), and its wall time.
std::shared_ptr<const core::RegionsResult> evaluate(const core::RegionsProblem& problem, double eps,
                                                    const std::shared_ptr<const core::RegionsResult>& warm,
                                                    JobContext& job, double* ms) {
    const auto start = Clock::now();
    auto result = std::make_shared<const core::RegionsResult>(
        core::evaluateRegions(problem, eps, job.run().stopToken(), warm.get()));
    if (result->stopped)
        throw core::Cancelled();
    *ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    return result;
}

} // namespace

RegionsController::RegionsController(QObject* parent)
    : ComputeController(parent), m_prepare(addJobSlot(QStringLiteral("regions-prepare"), true)),
      m_evaluate(addJobSlot(QStringLiteral("regions"), false)) {}

RegionsController::~RegionsController() {
    cancel();
    waitForIdle();
}

bool RegionsController::upToDate() const {
    return m_state.result && !m_state.preview() && m_state.problemSettings.sameProblem(m_applied) &&
           m_state.result->eps == m_applied.currentEps;
}

void RegionsController::sliderReleased() {
    requestEvaluation(); // the full grid after a preview
    updateBusy();
}

void RegionsController::reportFailure(const QString& message) {
    setLastError(message);
    emit stateChanged(); // the readout says what went wrong
    emit failed(message);
    updateBusy();
}

void RegionsController::applySettings(const RegionsSettings& next) {
    if (const std::string problem = next.validate(); !problem.empty()) {
        setLastError(QString::fromStdString(problem)); // shown in the readout; nothing to compute
        emit stateChanged();
        updateBusy();
        return;
    }
    setLastError({});
    const bool evaluate = next.currentEps != m_applied.currentEps;
    // Without a prepared problem (a failure) any change but a slider step prepares again; while
    // one is prepared, its delivery evaluates at the latest ε.
    const bool prepare =
        rerunRequested() || !next.sameProblem(m_applied) || (!m_state.problem && !m_prepare->isBusy() && !evaluate);
    m_applied = next;
    if (!hasDataset()) {
        updateBusy();
        return;
    }
    if (prepare) {
        clearRerun();
        startPreparation();
    } else {
        requestEvaluation(); // a new ε, or a release that joined this change (a preview shown)
        if (!evaluate)
            emit stateChanged(); // the fill or the draw shown: drawn from what is there
    }
    updateBusy();
}

void RegionsController::startPreparation() {
    m_evaluate->cancel();
    takeHeld();
    releaseInBackground(std::exchange(m_state, RegionsState{}));
    setLastError({});
    emit stateChanged();
    const RegionsSettings s = m_applied;
    m_prepare->start(tr("Decision regions"),
                     [this, dataset = dataset(), test = testDataset(), s](JobContext& job) -> std::function<void()> {
                         job.run().progress(0.0, "preparing the plane");
                         auto problem =
                             std::make_shared<const core::RegionsProblem>(*dataset, testCopy(test), s.toSpec());
                         job.run().throwIfStopped();
                         job.run().progress(0.5, "training the draws");
                         double ms = 0.0;
                         auto result = evaluate(*problem, s.currentEps, nullptr, job, &ms);
                         return [this, problem, result, s, ms] {
                             m_state.problem = problem;
                             m_state.problemSettings = s;
                             m_state.show(result, problem);
                             m_state.evaluationMs = ms;
                             emit stateChanged();
                             requestEvaluation(); // the slider may have moved meanwhile
                         };
                     });
}

bool RegionsController::evaluationNeeded() const {
    // No problem while one is prepared (startPreparation empties the state): it evaluates itself.
    return m_state.problem && m_state.problemSettings.sameProblem(m_applied) && !upToDate();
}

void RegionsController::requestEvaluation() {
    if (!evaluationNeeded() || holdWhileRunning(m_evaluate)) // the latest ε starts when the running one delivers
        return;
    startEvaluation();
}

void RegionsController::startEvaluation() {
    takeHeld();
    const double eps = m_applied.currentEps;
    const bool coarse = dragging() && m_state.evaluationMs > kLiveBudgetMs && m_applied.gridSize > kDragGrid;
    std::shared_ptr<const core::RegionsProblem> problem = coarse ? m_state.dragProblem : m_state.problem;
    // Warm starts from the picture shown, when it was computed on the same problem.
    std::shared_ptr<const core::RegionsResult> warm =
        problem && m_state.resultProblem == problem ? m_state.result : nullptr;
    const RegionsSettings s = m_applied;
    m_evaluate->start(tr("Decision regions at ε = %1").arg(eps, 0, 'g', 3),
                      [this, dataset = dataset(), test = testDataset(), problem, warm, s, eps,
                       coarse](JobContext& job) -> std::function<void()> {
                          auto p = problem;
                          if (!p) { // the drag grid, prepared on first use
                              core::RegionsSpec spec = s.toSpec();
                              spec.gridSize = kDragGrid;
                              p = std::make_shared<const core::RegionsProblem>(*dataset, testCopy(test), spec);
                          }
                          double ms = 0.0;
                          auto result = evaluate(*p, eps, warm, job, &ms);
                          return [this, p, result, ms, coarse] {
                              if (coarse)
                                  m_state.dragProblem = p;
                              else
                                  m_state.evaluationMs = ms;
                              m_state.show(result, p);
                              emit stateChanged();
                              // The latest step, or the full grid after a preview (released).
                              if ((takeHeld() || !dragging()) && evaluationNeeded())
                                  startEvaluation();
                          };
                      });
}

} // namespace elab::ui
