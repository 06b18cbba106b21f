#pragma once
// Noise of the mechanisms (docs/MATH.md §3), drawn through standard variates so that one draw
// per repetition can be rescaled for every ε (reparameterisation, §3.1):
// - Gaussian: b = s(ε)·z with z ~ N(0, I_p);
// - "Gamma-norm": density ∝ exp(−‖b‖/scale) on R^p  ⇔  ‖b‖ ~ Gamma(p, scale) and a uniform
//   direction, so b = scale·g·u with g ~ Gamma(p, 1), u uniform on the unit sphere.

#include "core/util/random.h"

#include <Eigen/Core>

namespace elab::core {

/// z ~ N(0, I_p).
Eigen::VectorXd standardNormalVector(Eigen::Index p, Rng& rng);

/// A direction uniform on the unit sphere S^{p−1} (a normalised standard normal vector).
Eigen::VectorXd uniformDirection(Eigen::Index p, Rng& rng);

/// Gamma(shape, 1) by Marsaglia & Tsang (2000); shape < 1 via G(shape+1)·U^{1/shape}.
/// shape > 0.
double standardGamma(double shape, Rng& rng);

/// One draw of Laplace(0, b) (inverse CDF on a 53-bit uniform in (0, 1)): the noise of the
/// private bounds' sparse vector technique and of propose-test-release.
double laplaceNoise(double b, Rng& rng);

/// One repetition's standard noise, rescaled per ε by the mechanisms.
struct NoiseDraw {
    Eigen::VectorXd z;         ///< N(0, I_p) — Gaussian mechanisms
    Eigen::VectorXd direction; ///< uniform on the sphere — Gamma-norm mechanisms
    double gammaNorm = 0.0;    ///< Gamma(p, 1) — Gamma-norm mechanisms

    /// b with ‖b‖ ~ Gamma(p, scale), uniform direction.
    Eigen::VectorXd gammaVector(double scale) const { return (scale * gammaNorm) * direction; }
};

/// Draws z, a direction and a Gamma(p, 1) norm from one stream.
NoiseDraw drawNoise(Eigen::Index p, Rng& rng);

} // namespace elab::core
