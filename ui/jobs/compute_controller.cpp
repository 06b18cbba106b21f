#include "ui/jobs/compute_controller.h"

#include <utility>

namespace elab::ui {

namespace {
constexpr int kFrameMs = 16;
} // namespace

ComputeControllerBase::ComputeControllerBase(QObject* parent) : QObject(parent) {
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kFrameMs);
    connect(&m_coalesce, &QTimer::timeout, this, &ComputeControllerBase::onCoalesced);
}

// Derived destructors call cancel() and waitForIdle() while their state still exists (a
// cancel delivers finished() to their handlers); here only the workers are awaited.
ComputeControllerBase::~ComputeControllerBase() { waitForIdle(); }

JobSlot* ComputeControllerBase::addJobSlot(const QString& name, bool indicated) {
    auto* slot = new JobSlot(name, this);
    adoptJobSlot(slot, indicated);
    return slot;
}

void ComputeControllerBase::adoptJobSlot(JobSlot* slot, bool indicated) {
    m_slots << slot;
    if (indicated)
        m_indicated << slot;
    connect(slot, &JobSlot::busyChanged, this, &ComputeControllerBase::updateBusy);
    connect(slot, &JobSlot::failed, this, [this, slot](const QString& message) {
        const bool held = m_heldFor == slot && takeHeld();
        reportFailure(message);
        if (held) // a step held for the failed job may well succeed
            retryHeld();
        updateBusy();
    });
}

void ComputeControllerBase::reportFailure(const QString& message) {
    m_error = message;
    emit failed(message);
}

void ComputeControllerBase::waitForIdle() {
    for (JobSlot* slot : m_slots)
        slot->waitForIdle();
}

bool ComputeControllerBase::holdWhileRunning(const JobSlot* slot) {
    m_heldFor = slot->isBusy() ? slot : nullptr;
    return m_heldFor != nullptr;
}

bool ComputeControllerBase::takeHeld() { return std::exchange(m_heldFor, nullptr) != nullptr; }

bool ComputeControllerBase::isBusy() const {
    if (m_havePending || m_heldFor || m_coalesce.isActive() || extraBusy())
        return true;
    for (const JobSlot* slot : m_slots)
        if (slot->isBusy())
            return true;
    return false;
}

void ComputeControllerBase::updateBusy() {
    const bool busy = isBusy();
    if (busy == m_wasBusy)
        return;
    m_wasBusy = busy;
    emit busyChanged(busy);
    if (!busy)
        emit idle();
}

void ComputeControllerBase::setDataset(std::shared_ptr<const core::Dataset> dataset,
                                       std::shared_ptr<const core::Dataset> test) {
    m_dataset = std::move(dataset);
    m_test = std::move(test);
    m_needRerun = true;
    if (!m_havePending) {
        keepAppliedAsPending();
        m_havePending = true;
    }
    emit datasetChanged();
    m_coalesce.start();
    updateBusy();
}

void ComputeControllerBase::schedulePending() {
    m_havePending = true;
    m_coalesce.start();
    updateBusy();
}

void ComputeControllerBase::scheduleRerun() {
    m_needRerun = true;
    if (!m_havePending) {
        keepAppliedAsPending();
        m_havePending = true;
    }
    m_coalesce.start();
    updateBusy();
}

void ComputeControllerBase::onCoalesced() {
    if (!m_havePending)
        return;
    m_havePending = false;
    applyPending();
}

void ComputeControllerBase::cancel() {
    m_coalesce.stop();
    m_havePending = false;
    m_heldFor = nullptr;
    for (JobSlot* slot : m_slots)
        slot->cancel();
    updateBusy();
}

} // namespace elab::ui
