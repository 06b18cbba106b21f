#pragma once
// One "latest request wins" background job (docs/STYLE.md §2): starting a job asks the
// running one to stop (cooperative stop token) and bumps a generation counter; whatever a
// superseded or cancelled job still delivers is dropped on the GUI thread. Work runs on a
// private pool (one running job plus one winding down); inside, the core may use TBB.
//
// Threads: start/cancel/isBusy/waitForIdle and every signal: the GUI thread (the owner's).
// The work function runs on a worker thread and may call JobContext::post to stream
// partial results; each posted function runs on the GUI thread only if its job is current.

#include "core/util/run_context.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <optional>
#include <stop_token>

namespace elab::ui {

class JobSlot;

/// What a worker sees: the run context (stop token, throttled progress) and a way to post
/// partial results to the GUI thread.
class JobContext {
public:
    core::RunContext& run() { return m_run; }
    bool stopRequested() const { return m_run.stopRequested(); }
    /// Worker thread: runs fn later on the GUI thread, if the job is still current then.
    void post(std::function<void()> fn) const;

private:
    friend class JobSlot;
    JobContext(JobSlot* slot, quint64 generation, std::stop_token stop, core::ProgressSink progress)
        : m_slot(slot), m_generation(generation), m_run(std::move(stop), std::move(progress)) {}
    JobSlot* m_slot;
    quint64 m_generation;
    core::RunContext m_run;
};

class JobSlot : public QObject {
    Q_OBJECT
public:
    /// Runs on a worker; returns the final delivery to run on the GUI thread (may be empty).
    /// Exceptions become failed(message); core::Cancelled becomes a quiet finish.
    using Work = std::function<std::function<void()>(JobContext&)>;

    explicit JobSlot(const QString& name, QObject* parent = nullptr);
    /// Stops the running job and waits for every worker to return.
    ~JobSlot() override;

    /// Starts work; a job already running is asked to stop and its results are dropped.
    quint64 start(const QString& what, Work work);
    /// Stops the current job; emits finished(true) at once. No-op when idle.
    void cancel();

    bool isBusy() const { return m_busy; }
    quint64 generation() const { return m_generation; }
    QString what() const { return m_what; }
    /// Blocks until every worker (running or stopping) has returned; for tests and shutdown.
    void waitForIdle();

signals:
    void started(const QString& what);
    void progress(double fraction, const QString& stage);
    /// The current job ended: cancelled (by cancel() or its stop token), or completed.
    void finished(bool cancelled);
    void failed(const QString& message);
    void busyChanged(bool busy);
    void staleResultDropped(quint64 generation);

protected:
    void customEvent(QEvent* event) override;

private:
    friend class JobContext;
    /// Worker thread: runs fn on the GUI thread (an event posted to this object).
    void postToGui(std::function<void()> fn);
    void deliver(quint64 generation, const std::function<void()>& fn, bool final, bool cancelled, const QString& error);
    void setBusy(bool busy);

    QThreadPool m_pool;
    quint64 m_generation = 0;
    bool m_busy = false;
    QString m_what;
    std::optional<std::stop_source> m_stop;
};

} // namespace elab::ui
