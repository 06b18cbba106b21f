#pragma once
// Numbers in the engine's own words (guarantee notes, warnings): 4 significant digits.

#include <cstdio>
#include <string>

namespace elab::core {

inline std::string formatNumber(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.4g", v);
    return buffer;
}

} // namespace elab::core
