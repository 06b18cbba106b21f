#include "ui/views/audit/audit_controller.h"

#include "core/data/data_preparation.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "ui/jobs/background_release.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace elab::ui {

namespace {

constexpr auto kStreamEvery = std::chrono::milliseconds(50);

/// The chosen mechanism first, then (compareAll) every other private one, in catalog order. The
/// white-box audit audits DP-SGD alone.
std::vector<core::MechanismKind> auditedKinds(const AuditSettings& s) {
    std::vector<core::MechanismKind> kinds{s.mechanism.kind};
    if (s.compareAll && s.method != AuditMethod::Whitebox)
        for (const core::MechanismKind kind : core::privateMechanisms())
            if (kind != s.mechanism.kind)
                kinds.push_back(kind);
    return kinds;
}

} // namespace

std::function<void()> AuditController::runOneRunAudits(JobContext& job, const core::SweepData& data,
                                                       const AuditSettings& s,
                                                       const std::vector<core::MechanismKind>& kinds) {
    // One private fit per mechanism: the chosen one first, then (compareAll) the others.
    for (std::size_t k = 0; k < kinds.size(); ++k) {
        core::OneRunAuditSpec spec = s.toOneRunSpec();
        core::selectMechanism(spec.mechanism, kinds[k]);
        AuditRow row{kinds[k], nullptr, {}, nullptr, nullptr};
        if (std::string e = spec.validate(); !e.empty() && k > 0) {
            row.error = QString::fromStdString(e);
        } else {
            try {
                auto r = std::make_shared<const core::OneRunAuditResult>(core::runOneRunAudit(data, spec, &job.run()));
                if (r->stopped)
                    throw core::Cancelled();
                row.oneRun = r;
            } catch (const std::invalid_argument& failure) {
                if (k == 0)
                    throw; // the chosen mechanism: the view's error
                row.error = QString::fromUtf8(failure.what());
            }
        }
        job.post([this, k, row] {
            if (k == 0)
                m_state.oneRun = row.oneRun;
            if (k < m_state.rows.size())
                m_state.rows[k] = row;
            emit stateChanged();
        });
    }
    return [this] {
        m_state.finished = true;
        emit stateChanged();
    };
}

std::function<void()> AuditController::runWhiteboxAudit(JobContext& job, const core::SweepData& data,
                                                        const AuditSettings& s) {
    // The trainings' progress and Cancel come through the job's run context.
    auto r =
        std::make_shared<const core::WhiteboxAuditResult>(core::runWhiteboxAudit(data, s.toWhiteboxSpec(), &job.run()));
    if (r->stopped)
        throw core::Cancelled();
    return [this, r] {
        m_state.whitebox = r;
        m_state.finished = true;
        emit stateChanged();
    };
}

AuditController::AuditController(QObject* parent)
    : ComputeController(parent), m_job(addJobSlot(QStringLiteral("audit"), true)) {}

AuditController::~AuditController() {
    cancel();
    waitForIdle();
}

bool AuditController::upToDate() const { return m_state.finished && m_stateSettings == m_applied; }

void AuditController::applySettings(const AuditSettings& next) {
    if (std::string e = next.validate(); !e.empty()) {
        m_job->cancel();
        setLastError(QString::fromStdString(e));
        emit stateChanged();
        updateBusy();
        return;
    }
    const bool run = rerunRequested() || !(next == m_applied) || !lastError().isEmpty();
    m_applied = next;
    if (!run || !hasDataset()) {
        updateBusy();
        return;
    }
    clearRerun();
    start();
    updateBusy();
}

void AuditController::start() {
    const AuditSettings s = m_applied;
    const std::vector<core::MechanismKind> kinds = auditedKinds(s);
    releaseInBackground(std::exchange(m_state, AuditState{}));
    m_state.eps = s.currentEps;
    m_state.scoresD.assign(static_cast<std::size_t>(s.runs), std::numeric_limits<double>::quiet_NaN());
    m_state.scoresDPrime = m_state.scoresD;
    if (s.compareAll && s.method != AuditMethod::Whitebox)
        for (core::MechanismKind kind : kinds)
            m_state.rows.push_back(AuditRow{kind, nullptr, {}, nullptr, nullptr});
    m_stateSettings = s;
    setLastError({});
    emit stateChanged();
    auto dataset = this->dataset();
    auto test = testDataset();
    m_job->start(tr("Privacy audit"), [this, dataset, test, s, kinds](JobContext& job) -> std::function<void()> {
        core::DataPreparation preparation;
        preparation.testFraction = s.testFraction;
        preparation.preprocess = s.preprocess;
        const core::PreparedData prepared = core::prepareExperimentData(*dataset, testCopy(test), preparation, s.seed);
        if (prepared.train.targets.kind == core::TaskKind::Regression)
            throw std::invalid_argument(
                "regression targets: the private mechanisms here need a classification dataset");
        const core::SweepData data = core::sweepDataOf(prepared.train);
        if (s.method == AuditMethod::OneRun)
            return runOneRunAudits(job, data, s, kinds);
        if (s.method == AuditMethod::Whitebox)
            return runWhiteboxAudit(job, data, s);

        // The chosen mechanism, its scores streamed at most every kStreamEvery.
        std::vector<double> d(static_cast<std::size_t>(s.runs), std::numeric_limits<double>::quiet_NaN());
        std::vector<double> dPrime = d;
        int done = 0;
        auto last = std::chrono::steady_clock::now();
        auto sink = [&](int neighbour, int run, double score) {
            (neighbour == 0 ? d : dPrime)[static_cast<std::size_t>(run)] = score;
            ++done;
            const auto now = std::chrono::steady_clock::now();
            if (now - last < kStreamEvery)
                return;
            last = now;
            job.post([this, d, dPrime, done] {
                m_state.scoresD = d;
                m_state.scoresDPrime = dPrime;
                m_state.runsDone = done;
                emit stateChanged();
            });
        };
        auto chosen = std::make_shared<const core::AuditResult>(core::runAudit(data, s.toSpec(), &job.run(), sink));
        if (chosen->stopped)
            throw core::Cancelled();
        job.post([this, chosen] {
            m_state.scoresD = chosen->scoresD;
            m_state.scoresDPrime = chosen->scoresDPrime;
            m_state.runsDone = 2 * chosen->runs;
            m_state.result = chosen;
            if (!m_state.rows.empty())
                m_state.rows.front().result = chosen;
            emit stateChanged();
        });
        // The table: every other private mechanism at the same ε, same data, runs and seed.
        for (std::size_t k = 1; k < kinds.size(); ++k) {
            core::AuditSpec spec = s.toSpec();
            core::selectMechanism(spec.mechanism, kinds[k]);
            AuditRow row{kinds[k], nullptr, {}, nullptr, nullptr};
            if (std::string e = spec.validate(); !e.empty()) {
                row.error = QString::fromStdString(e);
            } else {
                try {
                    auto r = std::make_shared<const core::AuditResult>(core::runAudit(data, spec, &job.run()));
                    if (r->stopped)
                        throw core::Cancelled();
                    row.result = r;
                } catch (const std::invalid_argument& failure) {
                    row.error = QString::fromUtf8(failure.what());
                }
            }
            job.post([this, k, row] {
                if (k < m_state.rows.size())
                    m_state.rows[k] = row;
                emit stateChanged();
            });
        }
        return [this] {
            m_state.finished = true;
            emit stateChanged();
        };
    });
}

} // namespace elab::ui
