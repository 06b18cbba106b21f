#include "ui/jobs/job_slot.h"

#include "core/util/vector_state.h"
#include "core/util/worker_threads.h"
#include "ui/jobs/background_priority.h"

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <new>

namespace elab::ui {

namespace {
using Clock = std::chrono::steady_clock;
// Progress reaches the GUI at most this often (a flood of queued calls would stall it).
constexpr auto kProgressInterval = std::chrono::milliseconds(50);
} // namespace

void JobContext::post(std::function<void()> fn) const {
    JobSlot* slot = m_slot;
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(
        slot, [slot, generation, fn = std::move(fn)] { slot->deliver(generation, fn, false, false, {}); },
        Qt::QueuedConnection);
}

JobSlot::JobSlot(const QString& name, QObject* parent) : QObject(parent) {
    setObjectName(name);
    m_pool.setObjectName(name);
    m_pool.setMaxThreadCount(2);
}

JobSlot::~JobSlot() {
    if (m_stop)
        m_stop->request_stop();
    m_pool.waitForDone();
}

void JobSlot::waitForIdle() { m_pool.waitForDone(); }

quint64 JobSlot::start(const QString& what, Work work) {
    if (m_stop)
        m_stop->request_stop();
    const quint64 generation = ++m_generation;
    std::stop_source stop;
    m_stop = stop;
    m_what = what;
    setBusy(true);
    emit started(what);

    auto job = [this, generation, token = stop.get_token(), work = std::move(work)]() {
        Clock::time_point lastPost{};
        core::ProgressSink sink = [this, generation, lastPost](double fraction, std::string_view stage) mutable {
            const auto now = Clock::now();
            if (fraction < 1.0 && now - lastPost < kProgressInterval)
                return;
            lastPost = now;
            const QString label = QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size()));
            QMetaObject::invokeMethod(
                this,
                [this, generation, fraction, label] {
                    if (generation == m_generation && m_busy)
                        emit progress(fraction, label);
                },
                Qt::QueuedConnection);
        };
        lowerThisThreadsPriority();
        // Workers joining this thread's own parallel_for calls (its implicit arena) run the
        // process's worker hook too (core/util/worker_threads.h).
        core::observeThisThreadsArena();
        // A pool thread inherits the vector state of the thread that created it; QApplication
        // leaves the GUI thread's dirty (core/util/vector_state.h: 10× slower SSE loops).
        core::clearUpperVectorState();
        JobContext context(this, generation, token, sink);
        std::function<void()> delivery;
        QString error;
        bool cancelled = false;
        try {
            if (token.stop_requested())
                throw core::Cancelled();
            delivery = work(context);
            cancelled = token.stop_requested();
        } catch (const core::Cancelled&) {
            cancelled = true;
        } catch (const std::bad_alloc&) {
            error = tr("out of memory");
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        } catch (...) {
            // Nothing may escape: the job must always deliver, or the slot stays busy.
            error = tr("unexpected error");
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, delivery = std::move(delivery), cancelled, error] {
                deliver(generation, delivery, true, cancelled, error);
            },
            Qt::QueuedConnection);
    };
    (void)QtConcurrent::run(&m_pool, std::move(job));
    return generation;
}

void JobSlot::cancel() {
    if (!m_busy)
        return;
    if (m_stop)
        m_stop->request_stop();
    m_stop.reset();
    ++m_generation; // what the stopped job still delivers is stale
    setBusy(false);
    emit finished(true);
}

void JobSlot::deliver(quint64 generation, const std::function<void()>& fn, bool final, bool cancelled,
                      const QString& error) {
    if (generation != m_generation || !m_busy) {
        emit staleResultDropped(generation);
        return;
    }
    if (!final) {
        if (fn)
            fn();
        return;
    }
    m_stop.reset();
    if (!error.isEmpty()) {
        setBusy(false);
        emit failed(error);
        return;
    }
    // The delivery runs while the slot still counts as busy, so that whoever waits for
    // busyChanged(false) sees its result. It may start the next job of this slot.
    const quint64 before = m_generation;
    if (fn)
        fn(); // even on a stop: the delivery carries what finished
    if (m_generation != before)
        return;
    setBusy(false);
    emit finished(cancelled);
}

void JobSlot::setBusy(bool busy) {
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace elab::ui
