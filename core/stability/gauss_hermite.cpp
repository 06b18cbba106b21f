#include "core/stability/gauss_hermite.h"

#include <Eigen/Eigenvalues>

#include <cmath>
#include <stdexcept>

namespace elab::core {

GaussHermiteRule gaussHermiteRule(int nodes) {
    if (nodes < 1 || nodes > 200)
        throw std::invalid_argument("Gauss–Hermite needs 1 to 200 nodes");
    Eigen::MatrixXd jacobi = Eigen::MatrixXd::Zero(nodes, nodes);
    for (int k = 1; k < nodes; ++k)
        jacobi(k, k - 1) = jacobi(k - 1, k) = std::sqrt(0.5 * k);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(jacobi);
    GaussHermiteRule rule;
    double total = 0.0;
    for (int k = 0; k < nodes; ++k) {
        const double v0 = solver.eigenvectors()(0, k);
        rule.nodes.push_back(std::sqrt(2.0) * solver.eigenvalues()[k]);
        rule.weights.push_back(v0 * v0); // √π·v₀² for ∫e^{−t²}, divided by √π for N(0, 1)
        total += v0 * v0;
    }
    for (double& w : rule.weights)
        w /= total; // the eigenvectors are unit vectors: total = 1 up to rounding
    return rule;
}

} // namespace elab::core
