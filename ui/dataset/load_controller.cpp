#include "ui/dataset/load_controller.h"

#include "ui/dataset/dataset_statistics.h"

#include "core/data/load_error.h"
#include "core/util/run_context.h"
#include "resources/builtin_resources.h"

#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <new>

namespace elab::ui {

struct LoadController::Outcome {
    enum class Kind { Loaded, Failed, Cancelled };
    Kind kind = Kind::Failed;
    LoadedDataset result;
    QString message;
};

namespace {
using Clock = std::chrono::steady_clock;
}

LoadController::LoadController(QObject* parent)
    : LoadController(resources::builtinBytesProvider(), parent) {}

LoadController::LoadController(core::BuiltinBytes builtinBytes, QObject* parent)
    : QObject(parent), m_builtinBytes(std::move(builtinBytes)) {
    // Two threads: the current job plus one that is still winding down after a stop.
    m_pool.setMaxThreadCount(2);
    m_pool.setObjectName(QStringLiteral("LoadController"));
}

LoadController::~LoadController() {
    if (m_stop)
        m_stop->request_stop();
    // Workers post queued calls to this object; they must all have returned before the
    // QObject part is destroyed (pending posted events are then discarded by Qt).
    m_pool.waitForDone();
}

void LoadController::waitForIdle() { m_pool.waitForDone(); }

void LoadController::load(const LoadRequest& request) {
    if (m_stop)
        m_stop->request_stop();
    const quint64 generation = ++m_generation;
    std::stop_source stop;
    m_stop = stop;
    m_pendingRequest = request;
    setPending(true);
    emit started(request);

    // Everything the worker needs is copied in: the request, the byte provider, the token.
    auto job = [this, generation, request, bytes = m_builtinBytes,
                token = stop.get_token()]() {
        Clock::time_point lastPost{};
        core::ProgressSink sink = [this, generation, lastPost](double fraction,
                                                               std::string_view stage) mutable {
            const auto now = Clock::now();
            if (fraction < 1.0 && now - lastPost < std::chrono::milliseconds(50))
                return;
            lastPost = now;
            postProgress(generation, fraction,
                         QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size())));
        };
        Outcome out;
        const auto t0 = Clock::now();
        try {
            core::RunContext ctx(token, sink);
            ctx.throwIfStopped(); // superseded while it waited for a pool thread
            auto data = std::make_shared<core::Dataset>(
                core::loadDataset(request.spec.toStdString(), request.options, bytes, &ctx));
            ctx.throwIfStopped();
            if (const std::string problem = data->validate(); !problem.empty())
                throw core::LoadError(request.spec.toStdString(), 0, 0, problem);
            out.result.summary = core::summarize(*data);
            out.result.targetHistogram = targetHistogram(data->targets, 30);
            out.result.logNormHistogram = log10NormHistogram(data->features.rowNorms(), 30);
            ctx.throwIfStopped();
            out.result.data = std::move(data);
            out.result.request = request;
            out.kind = Outcome::Kind::Loaded;
        } catch (const core::Cancelled&) {
            out.kind = Outcome::Kind::Cancelled;
        } catch (const core::LoadError& e) {
            out.message = QString::fromStdString(e.what());
        } catch (const std::bad_alloc&) {
            out.message = request.spec + QStringLiteral(": out of memory while loading");
        } catch (const std::exception& e) {
            out.message = request.spec + QStringLiteral(": ") + QString::fromStdString(e.what());
        } catch (...) {
            // Nothing may escape: the job must always deliver, or the controller stays busy.
            out.message = request.spec + QStringLiteral(": unexpected error while loading");
        }
        out.result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        QMetaObject::invokeMethod(
            this, [this, generation, out] { deliver(generation, out); }, Qt::QueuedConnection);
    };
    // QtConcurrent::run's future is not needed: delivery is the queued call above, and
    // the destructor waits on the pool.
    (void)QtConcurrent::run(&m_pool, std::move(job));
}

void LoadController::cancel() {
    if (!m_pending)
        return;
    if (m_stop)
        m_stop->request_stop();
    m_stop.reset();
    ++m_generation; // whatever the stopped job still returns is now stale
    const LoadRequest request = m_pendingRequest;
    setPending(false);
    emit cancelled(request);
}

void LoadController::postProgress(quint64 generation, double fraction, const QString& stage) {
    // Worker thread: only a queued call; the generation is compared on the GUI thread.
    QMetaObject::invokeMethod(
        this,
        [this, generation, fraction, stage] {
            if (generation == m_generation && m_pending)
                emit progress(fraction, stage);
        },
        Qt::QueuedConnection);
}

void LoadController::deliver(quint64 generation, const Outcome& outcome) {
    if (generation != m_generation || !m_pending) {
        emit staleResultDropped(generation);
        return;
    }
    m_stop.reset();
    const LoadRequest request = m_pendingRequest;
    setPending(false);
    switch (outcome.kind) {
    case Outcome::Kind::Loaded:
        emit loaded(outcome.result);
        break;
    case Outcome::Kind::Failed:
        emit failed(outcome.message, request);
        break;
    case Outcome::Kind::Cancelled:
        emit cancelled(request);
        break;
    }
}

void LoadController::setPending(bool pending) {
    if (m_pending == pending)
        return;
    m_pending = pending;
    emit busyChanged(pending);
}

} // namespace elab::ui
