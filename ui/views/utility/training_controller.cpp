#include "ui/views/utility/training_controller.h"

#include "ui/jobs/job_slot.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::ui {

TrainingController::TrainingController(QObject* parent)
    : QObject(parent), m_privateJob(new JobSlot(QStringLiteral("training"), this)),
      m_referenceJob(new JobSlot(QStringLiteral("training-reference"), this)) {
    for (JobSlot* slot : {m_privateJob, m_referenceJob}) {
        connect(slot, &JobSlot::failed, this, &TrainingController::failed);
        connect(slot, &JobSlot::busyChanged, this, &TrainingController::updated);
    }
}

TrainingController::~TrainingController() {
    cancel();
    waitForIdle();
}

bool TrainingController::busy() const { return m_privateJob->isBusy() || m_referenceJob->isBusy(); }

bool TrainingController::complete() const {
    if (!active())
        return true;
    const auto full = static_cast<std::size_t>(m_epochs);
    return !busy() && m_reference.size() == full && (!std::isfinite(m_eps) || m_private.size() == full);
}

void TrainingController::cancel() {
    m_privateJob->cancel();
    m_referenceJob->cancel();
}

void TrainingController::waitForIdle() {
    m_privateJob->waitForIdle();
    m_referenceJob->waitForIdle();
}

void TrainingController::request(std::shared_ptr<const core::PreparedProblem> problem, double eps, std::uint64_t seed,
                                 int epochs) {
    m_epochs = epochs;
    if (!problem || !problem->learner().capabilities().epochs) {
        const bool had = m_problem != nullptr;
        cancel();
        m_problem.reset();
        m_private.clear();
        m_reference.clear();
        if (had)
            emit updated();
        return;
    }
    const bool newProblem = problem != m_problem || seed != m_seed;
    if (!newProblem && eps == m_eps)
        return;
    m_problem = std::move(problem);
    m_seed = seed;
    m_eps = eps;
    if (newProblem) {
        m_reference.clear();
        startReference();
    }
    m_private.clear();
    if (std::isfinite(eps))
        startPrivate();
    else
        m_privateJob->cancel(); // ε = ∞: the non-private run is the picture
    emit updated();
}

void TrainingController::startPrivate() {
    startRun(m_privateJob, m_eps, &TrainingController::m_private, tr("Training at ε = %1").arg(m_eps, 0, 'g', 3));
}

void TrainingController::startReference() {
    startRun(m_referenceJob, std::numeric_limits<double>::infinity(), &TrainingController::m_reference,
             tr("Training without privacy"));
}

void TrainingController::startRun(JobSlot* slot, double eps, std::vector<core::EpochMetrics> TrainingController::*run,
                                  const QString& what) {
    auto problem = m_problem;
    const std::uint64_t seed = m_seed;
    const int epochs = m_epochs;
    slot->start(what, [this, problem, eps, seed, epochs, run](JobContext& job) {
        problem->learner().trainEpochs(
            eps, seed, 0, job.run().stopToken(), [this, &job, epochs, run](const core::EpochMetrics& m) {
                job.run().progress(double(m.epoch) / std::max(1, epochs), "epochs");
                job.post([this, m, run] { // on the GUI thread, only if this job is still the slot's current one
                    (this->*run).push_back(m);
                    emit updated();
                });
            });
        job.run().throwIfStopped();
        return std::function<void()>([this] { emit updated(); });
    });
}

} // namespace elab::ui
