#include "ui/jobs/job_slot.h"

#include "core/util/vector_state.h"
#include "core/util/worker_threads.h"
#include "ui/jobs/background_priority.h"

#include <QCoreApplication>
#include <QEvent>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <mutex>
#include <new>

#if defined(__SANITIZE_THREAD__)
#define EPSILONLAB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EPSILONLAB_TSAN 1
#endif
#endif
#ifdef EPSILONLAB_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace elab::ui {

namespace {
using Clock = std::chrono::steady_clock;
// Progress reaches the GUI at most this often (a flood of queued calls would stall it).
constexpr auto kProgressInterval = std::chrono::milliseconds(50);

// What a worker hands to the GUI thread: posted with QCoreApplication::postEvent, which gives the
// event to the receiver's thread, where it is run and deleted. Not a queued
// QMetaObject::invokeMethod: that keeps a reference on the worker, which deletes the functor
// (and what it captured) once the GUI thread has run it.
class DeliveryEvent : public QEvent {
public:
    explicit DeliveryEvent(std::function<void()> fn) : QEvent(type()), run(std::move(fn)) {}
    static QEvent::Type type() {
        static const auto t = static_cast<QEvent::Type>(QEvent::registerEventType());
        return t;
    }
    std::function<void()> run;
};

// postEvent() happens before the event is delivered, but Qt orders the two inside libQt6Core
// (a futex-based mutex), which ThreadSanitizer does not see when Qt is not instrumented: under
// TSan, say so on the event's address. Nothing in other builds.
void handedOver([[maybe_unused]] void* event) {
#ifdef EPSILONLAB_TSAN
    __tsan_release(event);
#endif
}
void takenOver([[maybe_unused]] void* event) {
#ifdef EPSILONLAB_TSAN
    __tsan_acquire(event);
#endif
}
} // namespace

void JobContext::post(std::function<void()> fn) const {
    JobSlot* slot = m_slot;
    const quint64 generation = m_generation;
    slot->postToGui([slot, generation, fn = std::move(fn)] { slot->deliver(generation, fn, false, false, {}); });
}

void JobSlot::postToGui(std::function<void()> fn) {
    auto* event = new DeliveryEvent(std::move(fn));
    handedOver(event);
    // Several workers of a sweep post at once; Qt serialises their appends to the GUI thread's
    // event list with its own mutex, which ThreadSanitizer does not see (a reported race between
    // two threads' copies into that list). This one it sees; it is held only while posting.
    static std::mutex posting;
    const std::lock_guard lock(posting);
    QCoreApplication::postEvent(this, event);
}

void JobSlot::customEvent(QEvent* event) {
    takenOver(event); // before reading anything the worker wrote, the event's type included
    if (event->type() == DeliveryEvent::type())
        static_cast<DeliveryEvent*>(event)->run();
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
            postToGui([this, generation, fraction, label] {
                if (generation == m_generation && m_busy)
                    emit progress(fraction, label);
            });
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
        postToGui([this, generation, delivery = std::move(delivery), cancelled, error] {
            deliver(generation, delivery, true, cancelled, error);
        });
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
