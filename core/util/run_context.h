#pragma once
// Run context for every long core call (docs/STYLE.md §1): a cooperative stop token, a
// throttled progress sink and a seed. A RunContext belongs to one call; it is not shared
// between threads except through its stop token, which is safe to request from any thread.

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>

namespace elab::core {

/// Thrown by long calls when their stop token was triggered. Carries no partial result;
/// callers that stream results keep what was delivered before.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

/// Progress sink: fraction in [0, 1] and a short stage label. Called on the worker thread.
using ProgressSink = std::function<void(double fraction, std::string_view stage)>;

class RunContext {
public:
    RunContext() = default;
    RunContext(std::stop_token stop, ProgressSink progress, std::uint64_t seed = 0)
        : m_stop(std::move(stop)), m_progress(std::move(progress)), m_seed(seed) {}

    bool stopRequested() const { return m_stop.stop_requested(); }
    void throwIfStopped() const {
        if (m_stop.stop_requested())
            throw Cancelled();
    }
    /// Reports progress, throttled to steps of 1 % within a stage (and always the final
    /// 1.0); a new stage label starts a new throttle.
    void progress(double fraction, std::string_view stage = {}) {
        if (!m_progress)
            return;
        if (stage != m_lastStage) {
            m_lastStage.assign(stage);
            m_lastReported = -1.0;
        }
        if (fraction < 1.0 && fraction - m_lastReported < 0.01)
            return;
        m_lastReported = fraction;
        m_progress(fraction, stage);
    }
    std::uint64_t seed() const { return m_seed; }
    const std::stop_token& stopToken() const { return m_stop; }

private:
    std::stop_token m_stop;
    ProgressSink m_progress;
    std::uint64_t m_seed = 0;
    double m_lastReported = -1.0;
    std::string m_lastStage;
};

} // namespace elab::core
