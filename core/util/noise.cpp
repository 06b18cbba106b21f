#include "core/util/noise.h"

#include "core/util/normal_sampler.h"

#include <cmath>

namespace elab::core {

Eigen::VectorXd standardNormalVector(Eigen::Index p, Rng& rng) {
    NormalSampler normal(rng);
    Eigen::VectorXd z(p);
    for (Eigen::Index j = 0; j < p; ++j)
        z[j] = normal();
    return z;
}

Eigen::VectorXd uniformDirection(Eigen::Index p, Rng& rng) {
    for (;;) {
        Eigen::VectorXd u = standardNormalVector(p, rng);
        const double norm = u.norm();
        if (norm > 0.0)
            return u / norm;
    }
}

double laplaceNoise(double b, Rng& rng) {
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; // in (0, 1)
    return u < 0.5 ? b * std::log(2.0 * u) : -b * std::log(2.0 * (1.0 - u));
}

double standardGamma(double shape, Rng& rng) {
    if (shape < 1.0) {
        double u = uniform01(rng);
        while (u == 0.0)
            u = uniform01(rng);
        return standardGamma(shape + 1.0, rng) * std::pow(u, 1.0 / shape);
    }
    // Marsaglia & Tsang, "A simple method for generating gamma variables" (2000).
    NormalSampler normal(rng);
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0.0, v = 0.0;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0.0);
        v = v * v * v;
        const double u = uniform01(rng);
        if (u < 1.0 - 0.0331 * x * x * x * x)
            return d * v;
        if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v;
    }
}

NoiseDraw drawNoise(Eigen::Index p, Rng& rng) {
    NoiseDraw draw;
    draw.z = standardNormalVector(p, rng);
    draw.direction = uniformDirection(p, rng);
    draw.gammaNorm = standardGamma(static_cast<double>(p), rng);
    return draw;
}

} // namespace elab::core
