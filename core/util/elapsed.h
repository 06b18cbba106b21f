#pragma once

#include <chrono>

namespace elab::core {

/// Seconds of the steady clock since `start` (the reports' timing fields).
inline double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace elab::core
