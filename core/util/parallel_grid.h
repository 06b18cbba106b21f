#pragma once
// The one parallel-grid runner of every sweep (utility sweep, choose-ε, stability): a oneTBB
// arena of a chosen size, the run's stop token, throttled progress over finished work units
// and serialised delivery of streamed results (docs/STYLE.md §2).
//
// Determinism is the caller's half of the contract: a task's random streams come from its
// grid indices (deriveSeed(seed, g, r), docs/MATH.md §0.3), never from the thread, and each
// task writes only its own result slots. Then results are bit-identical for any thread count.
// Cancelling skips the tasks not yet started; finished slots keep their values.

#include "core/util/run_context.h"
#include "core/util/vector_state.h"
#include "core/util/worker_observer.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <atomic>
#include <cstddef>
#include <mutex>
#include <stop_token>
#include <string>
#include <utility>

namespace elab::core {

class ParallelGrid {
public:
    /// threads: arena size, 0 = all cores. ctx: stop token and progress sink (nullptr: neither).
    /// stage: the progress label. Construct and run on one thread (the caller's).
    ParallelGrid(int threads, RunContext* ctx, std::string stage)
        : m_arena(threads > 0 ? threads : tbb::task_arena::automatic), m_ctx(ctx),
          m_stop(ctx ? ctx->stopToken() : std::stop_token()), m_stage(std::move(stage)) {}

    const std::stop_token& stopToken() const { return m_stop; }
    bool stopped() const { return m_stop.stop_requested(); }

    /// The number of work units that make up 100 % (see unitDone); reset the count of finished ones.
    void setUnits(std::size_t total) {
        m_units = total;
        m_finished = 0;
    }

    /// Runs task(i) for i in [0, count) in parallel inside the arena and returns when all have
    /// returned. A task not yet started when stop is requested is skipped. Tasks may nest
    /// further TBB parallelism; it runs in the same arena.
    template <class Task>
    void run(std::size_t count, Task&& task) {
        m_arena.execute([&] {
            tbb::parallel_for(std::size_t(0), count, [&](std::size_t i) {
                if (m_stop.stop_requested())
                    return;
                clearUpperVectorState(); // a worker may start with a foreign thread's state
                task(i);
            });
        });
    }

    /// Runs body() (which may call run()) and, beside it in the arena, extra(): a serial piece
    /// of work that the grid does not read (a sweep's reference fit) takes a worker while the
    /// grid's tasks take the others, instead of running alone before them. Returns when both
    /// have returned; an exception from either is rethrown, after both have stopped.
    template <class Extra, class Body>
    void alongside(Extra&& extra, Body&& body) {
        m_arena.execute([&] {
            tbb::task_group group;
            group.run([&] {
                clearUpperVectorState();
                extra();
            });
            try {
                body();
            } catch (...) {
                group.wait();
                throw;
            }
            group.wait();
        });
    }

    /// One work unit finished: reports finished/total to the progress sink. Thread: any (serialised).
    void unitDone() {
        const std::size_t k = ++m_finished;
        if (!m_ctx || m_units == 0)
            return;
        const std::lock_guard lock(m_progressMutex);
        m_ctx->progress(static_cast<double>(k) / static_cast<double>(m_units), m_stage);
    }

    /// Calls deliver() under the sink lock, so that streamed results reach the sink one at a time.
    /// Thread: any.
    template <class Deliver>
    void stream(Deliver&& deliver) {
        const std::lock_guard lock(m_sinkMutex);
        deliver();
    }

private:
    tbb::task_arena m_arena;
    WorkerObserver m_workers{m_arena}; // after m_arena: each worker joining it runs the process's hook
    RunContext* m_ctx;
    std::stop_token m_stop;
    std::string m_stage;
    std::size_t m_units = 0;
    std::atomic<std::size_t> m_finished{0};
    std::mutex m_progressMutex, m_sinkMutex;
};

} // namespace elab::core
