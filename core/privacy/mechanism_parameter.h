#pragma once
// A constant a mechanism or accountant used, by name, symbol and value.

#include <string>

namespace elab::core {

/// One constant a mechanism used at this ε (e.g. ε', the extra ridge Δ, the noise scale), so that
/// every number behind a guarantee can be shown and checked (docs/MATH.md §3).
struct MechanismParameter {
    std::string name;   ///< stable identifier, e.g. "eps_prime" (JSON / CSV column name)
    std::string symbol; ///< as written in docs/MATH.md, e.g. "ε'"
    double value = 0.0;
};

} // namespace elab::core
