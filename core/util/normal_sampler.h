#pragma once
// Standard normal draws by Marsaglia's polar method (Marsaglia & Bray 1964) on uniform01:
// u, v ~ U(−1, 1) until 0 < s = u² + v² < 1, then u·√(−2 ln s / s) and v·√(−2 ln s / s)
// are independent N(0, 1). Only sqrt and log: no std::normal_distribution, so the sequence
// does not depend on the standard library.

#include "core/util/random.h"

#include <cmath>

namespace elab::core {

class NormalSampler {
public:
    explicit NormalSampler(Rng& rng) : m_rng(rng) {}

    double operator()() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u = 0.0, v = 0.0, s = 0.0;
        do {
            u = 2.0 * uniform01(m_rng) - 1.0;
            v = 2.0 * uniform01(m_rng) - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        const double f = std::sqrt(-2.0 * std::log(s) / s);
        m_spare = v * f;
        m_hasSpare = true;
        return u * f;
    }

private:
    Rng& m_rng;
    bool m_hasSpare = false;
    double m_spare = 0.0;
};

} // namespace elab::core
