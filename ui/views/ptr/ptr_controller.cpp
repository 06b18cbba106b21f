#include "ui/views/ptr/ptr_controller.h"

#include "core/util/random.h"
#include "ui/jobs/background_release.h"

#include <utility>

namespace elab::ui {

PtrController::PtrController(QObject* parent)
    : ComputeController(parent), m_job(addJobSlot(QStringLiteral("ptr"), false)) {
    connect(this, &ComputeControllerBase::datasetChanged, this,
            [this] { releaseInBackground(std::exchange(m_state, PtrState{})); });
}

PtrController::~PtrController() {
    cancel();
    waitForIdle();
}

bool PtrController::upToDate() const { return m_state.release && m_stateSettings == m_applied; }

void PtrController::applySettings(const PtrSettings& next) {
    if (std::string e = next.validate(); !e.empty()) {
        setLastError(QString::fromStdString(e));
        emit stateChanged();
        updateBusy();
        return;
    }
    const bool rerun = rerunRequested();
    const bool run = rerun || !(next == m_applied) || !m_state.release;
    m_applied = next;
    if (!run || !hasDataset()) {
        updateBusy();
        return;
    }
    clearRerun();
    setLastError({});
    PtrSettings sameEps = next;
    sameEps.currentEps = m_running.currentEps;
    if (!(!rerun && m_state.release && sameEps == m_running && holdWhileRunning(m_job))) // an ε step waits
        start();
    updateBusy();
}

void PtrController::start() {
    const PtrSettings s = m_applied;
    m_running = s;
    auto dataset = this->dataset();
    // The binarised data is kept while the threshold is the same (the dataset change clears it).
    std::shared_ptr<const core::PtrData> data =
        m_state.data && m_state.binarisedAt == s.binariseAt ? m_state.data : nullptr;
    m_job->start(tr("Propose-test-release"), [this, s, dataset, data](JobContext& job) -> std::function<void()> {
        auto prepared =
            data ? data : std::make_shared<const core::PtrData>(core::ptrData(dataset->features, s.binariseAt));
        job.run().throwIfStopped();
        const core::PtrRelease release =
            core::ptrRelease(*prepared, s.currentEps, s.delta, core::deriveSeed(s.seed, 0));
        int passed = 0;
        for (int r = 0; r < s.runs; ++r) {
            if (r % 4096 == 0)
                job.run().throwIfStopped();
            passed += core::ptrTest(prepared->statistic, s.currentEps, s.delta,
                                    core::deriveSeed(s.seed, static_cast<std::uint64_t>(r)))
                          .passed;
        }
        const double fraction = static_cast<double>(passed) / s.runs;
        return [this, s, prepared, release, fraction] {
            m_state.data = prepared;
            m_state.binarisedAt = s.binariseAt;
            m_state.release = release;
            m_state.eps = s.currentEps;
            m_state.passFraction = fraction;
            m_state.runs = s.runs;
            m_stateSettings = s;
            emit stateChanged();
            takeHeld();
            if (!upToDate()) // a step held meanwhile
                start();
            updateBusy();
        };
    });
}

} // namespace elab::ui
