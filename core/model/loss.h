#pragma once
// Per-example losses of docs/MATH.md §2, written in prediction form: p = θᵀx, label y.
// Margin losses (logistic, Huber SVM, smoothed hinge) have y ∈ {−1, +1} and ℓ(y·p), so
//   d/dp ℓ(y p) = y ℓ'(m),  d²/dp² = ℓ''(m),  d³/dp³ = y ℓ'''(m),  with m = y p.
// Squared loss (regression) is (p − y)².
// The bounds ζ (gradient) and λ (curvature) are per example for ‖x‖₂ ≤ 1 (docs/MATH.md §1).

#include "core/util/option_names.h"

#include <Eigen/Core>

#include <string>

namespace elab::core {

enum class LossKind { Logistic, HuberSvm, SmoothHinge, Squared };

const char* toString(LossKind kind);
const OptionNames<LossKind>& lossKindNames(); ///< the names toString / lossKindFromString use
/// "logistic", "huber", "smooth-hinge", "squared"; throws std::invalid_argument otherwise.
LossKind lossKindFromString(const std::string& name);

class Loss {
public:
    /// width: Huber h (default 0.1); temperature: smoothed-hinge t (default 1).
    explicit Loss(LossKind kind, double width = 0.1, double temperature = 1.0);

    LossKind kind() const { return m_kind; }
    bool isMargin() const { return m_kind != LossKind::Squared; }
    double huberWidth() const { return m_h; }
    double temperature() const { return m_t; }

    double value(double p, double y) const;
    double d1(double p, double y) const; ///< ∂ℓ/∂p
    double d2(double p, double y) const; ///< ∂²ℓ/∂p²
    double d3(double p, double y) const; ///< ∂³ℓ/∂p³ (0 at Huber's region edges)

    struct Derivatives {
        double value, d1, d2;
    };
    /// value, d1 and d2 together: one exp for the logistic loss instead of several
    /// (the objective's hot loop).
    Derivatives derivatives(double p, double y) const;
    /// Over all rows: d1_i, d2_i at (p_i, y_i) (resized), returns Σ_i ℓ(p_i, y_i) summed in
    /// row order. Same values as the scalar call; the loss is dispatched once, not per row.
    double derivatives(const Eigen::VectorXd& p, const Eigen::VectorXd& y, Eigen::VectorXd& d1,
                       Eigen::VectorXd& d2) const;

    /// ζ = max |ℓ'|: 1 for the margin losses; for squared loss it needs |y| ≤ B and is
    /// reported as NaN (no data-free bound).
    double gradientBound() const;
    /// λ = max ℓ'': 1/4 logistic, 1/(2h) Huber, 1/(4t) smoothed hinge, 2 squared.
    double curvatureBound() const;

    /// "" if the parameters are valid.
    std::string validate() const;

private:
    LossKind m_kind;
    double m_h;
    double m_t;
};

/// log(1 + e^z) without overflow.
double log1pExp(double z);
/// σ(z) = 1 / (1 + e^{−z}) without overflow.
double sigmoid(double z);

} // namespace elab::core
