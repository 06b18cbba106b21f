#pragma once
// The interface optimisers see (docs/STYLE.md §1, after LIBLINEAR's newton.h): value,
// gradient and Hessian-vector product at a point. Never a p×p Hessian (a preconditioner may
// factorise one).

#include <Eigen/Core>

#include <functional>

namespace elab::core {

class Objective {
public:
    virtual ~Objective() = default;
    virtual Eigen::Index dimension() const = 0;
    /// J(θ). Also caches what gradient() and hessianVector() need at θ, so call it first.
    virtual double evaluate(const Eigen::VectorXd& theta) = 0;
    /// ∇J at the last evaluated θ.
    virtual void gradient(Eigen::VectorXd& g) const = 0;
    /// ∇²J · v at the last evaluated θ.
    virtual void hessianVector(const Eigen::VectorXd& v, Eigen::VectorXd& out) const = 0;
    /// M⁻¹ for M ≈ ∇²J at the last evaluated θ (valid until the next evaluate()), or an
    /// empty function for plain CG.
    virtual std::function<void(const Eigen::VectorXd&, Eigen::VectorXd&)> preconditioner() const { return {}; }
    /// True when the M of the last preconditioner() call is ∇²J at the last evaluated θ (up to
    /// rounding): the solver may then take M⁻¹(−∇J) as the Newton step without running CG.
    virtual bool preconditionerIsHessian() const { return false; }
    /// CG took `iterations` Hessian-vector products with the last preconditioner(). An objective
    /// may then form a new one at the next call, when that costs less than such a solve.
    virtual void cgIterationsTaken(int iterations) { (void)iterations; }
};

} // namespace elab::core
