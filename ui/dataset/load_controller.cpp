#include "ui/dataset/load_controller.h"

#include "ui/dataset/dataset_statistics.h"

#include "core/data/load_error.h"
#include "core/util/run_context.h"
#include "resources/builtin_resources.h"

#include <chrono>
#include <new>
#include <stdexcept>

namespace elab::ui {

namespace {

/// The request's test file, read with the training file's options except a LIBSVM width (its
/// own; features beyond the training width are ignored when the views prepare the data).
/// Failures name the test file.
std::shared_ptr<core::Dataset> loadTestFile(const LoadRequest& request, const core::BuiltinBytes& bytes,
                                            core::RunContext& ctx) {
    const std::string spec = request.testSpec.toStdString();
    core::LoadOptions options = request.options;
    options.libsvm.featureCount = 0;
    try {
        auto test = std::make_shared<core::Dataset>(core::loadDataset(spec, options, bytes, &ctx));
        if (const std::string problem = test->validate(); !problem.empty())
            throw core::LoadError(spec, 0, 0, problem);
        return test;
    } catch (const core::LoadError&) {
        throw;
    } catch (const core::Cancelled&) {
        throw;
    } catch (const std::bad_alloc&) {
        throw core::LoadError(spec, 0, 0, "out of memory while loading the test file");
    } catch (const std::exception& e) {
        throw core::LoadError(spec, 0, 0, std::string("test file: ") + e.what());
    }
}

} // namespace

LoadController::LoadController(QObject* parent) : LoadController(resources::builtinBytesProvider(), parent) {}

LoadController::LoadController(core::BuiltinBytes builtinBytes, QObject* parent)
    : QObject(parent), m_builtinBytes(std::move(builtinBytes)), m_slot(QStringLiteral("LoadController")) {
    connect(&m_slot, &JobSlot::progress, this, &LoadController::progress);
    connect(&m_slot, &JobSlot::busyChanged, this, &LoadController::busyChanged);
    connect(&m_slot, &JobSlot::staleResultDropped, this, &LoadController::staleResultDropped);
    connect(&m_slot, &JobSlot::failed, this,
            [this](const QString& message) { emit failed(message, m_pendingRequest); });
    connect(&m_slot, &JobSlot::finished, this, [this](bool wasCancelled) {
        if (wasCancelled)
            emit cancelled(m_pendingRequest);
    });
}

// m_slot's destructor stops the running job and waits for its workers.
LoadController::~LoadController() = default;

void LoadController::waitForIdle() { m_slot.waitForIdle(); }

void LoadController::load(const LoadRequest& request) {
    m_pendingRequest = request;
    emit started(request);
    // Everything the worker needs is copied in: the request and the byte provider.
    m_slot.start(request.spec, [this, request, bytes = m_builtinBytes](JobContext& job) -> std::function<void()> {
        using Clock = std::chrono::steady_clock;
        const auto t0 = Clock::now();
        core::RunContext& ctx = job.run();
        LoadedDataset result;
        try {
            auto data = std::make_shared<core::Dataset>(
                core::loadDataset(request.spec.toStdString(), request.options, bytes, &ctx));
            ctx.throwIfStopped();
            if (const std::string problem = data->validate(); !problem.empty())
                throw core::LoadError(request.spec.toStdString(), 0, 0, problem);
            std::shared_ptr<core::Dataset> test;
            if (!request.testSpec.isEmpty())
                test = loadTestFile(request, bytes, ctx);
            // Bounds map each value by a public rule (or privately estimated ranges whose ε the
            // dataset carries): applied once here, every view prepares the bounded values.
            core::applyBounds(*data, test.get(), request.bounds, request.privateBounds);
            if (!request.privateBounds)
                result.boundsHint = core::boundsHint(*data, request.bounds);
            result.summary = core::summarize(*data);
            result.targetHistogram = targetHistogram(data->targets, 30);
            result.logNormHistogram = log10NormHistogram(data->features.rowNorms(), 30);
            ctx.throwIfStopped();
            result.data = std::move(data);
            result.test = std::move(test);
        } catch (const core::Cancelled&) {
            throw;
        } catch (const core::LoadError& e) {
            throw std::runtime_error(e.what()); // "file:line:column: message" already names where
        } catch (const std::bad_alloc&) {
            throw std::runtime_error(request.spec.toStdString() + ": out of memory while loading");
        } catch (const std::exception& e) {
            throw std::runtime_error(request.spec.toStdString() + ": " + e.what());
        }
        result.request = request;
        result.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
        return [this, result = std::move(result)] { emit loaded(result); };
    });
}

void LoadController::cancel() { m_slot.cancel(); }

} // namespace elab::ui
