#pragma once
// The training view of the Utility tab (issue 12): for a learner that trains in epochs (DP-SGD),
// one run at the slider's ε streams its train/test loss and accuracy per epoch, beside the
// non-private run of the same problem (computed once per problem). Latest request wins: a new ε
// restarts the private run only; a new problem restarts both. GUI thread only.

#include "core/learner/prepared_problem.h"

#include <QList>
#include <QObject>

#include <memory>
#include <vector>

namespace elab::ui {

class JobSlot;

class TrainingController : public QObject {
    Q_OBJECT
public:
    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;

    /// Trains problem's learner at eps with seed (repetition 0; epochs: how many it will run, for
    /// the axes), if it trains in epochs; a null
    /// problem, or one that does not, stops everything and clears the curves.
    void request(std::shared_ptr<const core::PreparedProblem> problem, double eps, std::uint64_t seed, int epochs);
    void cancel();
    void waitForIdle();

    const std::vector<core::EpochMetrics>& privateRun() const { return m_private; }
    const std::vector<core::EpochMetrics>& referenceRun() const { return m_reference; }
    double eps() const { return m_eps; }
    int epochs() const { return m_epochs; }
    bool active() const { return m_problem != nullptr; }
    bool busy() const;
    /// Nothing to train, or both runs have every epoch (the private one unless ε = ∞).
    bool complete() const;
    /// The private and the reference run's slots (adopted by the Utility controller).
    QList<JobSlot*> jobSlots() const { return {m_privateJob, m_referenceJob}; }

signals:
    void updated();
    void failed(const QString& message);

private:
    void startPrivate();
    void startReference();
    /// One run at eps on slot, its epochs appended to this->*run as they arrive.
    void startRun(JobSlot* slot, double eps, std::vector<core::EpochMetrics> TrainingController::*run,
                  const QString& what);

    JobSlot* m_privateJob;
    JobSlot* m_referenceJob;
    std::shared_ptr<const core::PreparedProblem> m_problem;
    double m_eps = 0.0;
    std::uint64_t m_seed = 0;
    int m_epochs = 0;
    std::vector<core::EpochMetrics> m_private;
    std::vector<core::EpochMetrics> m_reference;
};

} // namespace elab::ui
