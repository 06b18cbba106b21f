#pragma once
// Loads datasets off the GUI thread (docs/STYLE.md §2) through one JobSlot (ui/jobs/job_slot.h):
// latest request wins, a stop token per job, stale results dropped, progress throttled to
// ~20/s. This class adds the load itself and the request each signal is about.
//
// Threads: every public function is for the GUI thread (the thread that owns the object);
// every signal is emitted on that thread. The worker never touches widgets or members other
// than through queued calls back to this object.

#include "core/data/dataset_loader.h"
#include "ui/dataset/load_request.h"
#include "ui/dataset/loaded_dataset.h"
#include "ui/jobs/job_slot.h"

#include <QObject>
#include <QString>

namespace elab::ui {

class LoadController : public QObject {
    Q_OBJECT
public:
    /// builtinBytes defaults to the embedded resources (resources::builtinBytesProvider()).
    explicit LoadController(QObject* parent = nullptr);
    LoadController(core::BuiltinBytes builtinBytes, QObject* parent);
    /// Asks running jobs to stop and waits for them, so that no worker outlives the object.
    ~LoadController() override;

    /// Starts loading. A load already running is asked to stop and its result is dropped.
    void load(const LoadRequest& request);
    /// Asks the current load to stop; emits cancelled() at once, and whatever the job still
    /// returns is dropped. No-op when idle.
    void cancel();

    bool isBusy() const { return m_slot.isBusy(); }
    /// The spec of the load in flight (empty when idle).
    QString pendingSpec() const { return isBusy() ? m_pendingRequest.spec : QString(); }
    /// Number of the latest request; results of older ones are stale.
    quint64 generation() const { return m_slot.generation(); }
    /// Waits for every worker (running or stopping) to return; for tests and shutdown.
    void waitForIdle();

signals:
    void started(const elab::ui::LoadRequest& request);
    /// fraction in [0, 1]; stage is a short label from the loader ("parse", "gunzip", …).
    void progress(double fraction, const QString& stage);
    /// Emitted while isBusy() is still true (busyChanged(false) follows), as JobSlot delivers.
    void loaded(const elab::ui::LoadedDataset& result);
    /// message is the loader's error, "file:line:column: message" for bad input.
    void failed(const QString& message, const elab::ui::LoadRequest& request);
    void cancelled(const elab::ui::LoadRequest& request);
    void busyChanged(bool busy);
    /// A result arrived for a request that was superseded or cancelled, and was dropped.
    void staleResultDropped(quint64 generation);

private:
    core::BuiltinBytes m_builtinBytes;
    JobSlot m_slot;
    LoadRequest m_pendingRequest;
};

} // namespace elab::ui
