#include "core/model/loss.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

double log1pExp(double z) {
    // For z > 0: z + log(1 + e^{−z}); e^{−z} ≤ 1 cannot overflow.
    return z > 0.0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

double sigmoid(double z) {
    if (z >= 0.0)
        return 1.0 / (1.0 + std::exp(-z));
    const double e = std::exp(z);
    return e / (1.0 + e);
}

const OptionNames<LossKind>& lossKindNames() {
    static const OptionNames<LossKind> names{{LossKind::Logistic, "logistic"},
                                             {LossKind::HuberSvm, "huber"},
                                             {LossKind::SmoothHinge, "smooth-hinge"},
                                             {LossKind::Squared, "squared"}};
    return names;
}

const char* toString(LossKind value) { return optionName(lossKindNames(), value); }

LossKind lossKindFromString(const std::string& name) { return parseOptionName(lossKindNames(), name, "loss"); }

Loss::Loss(LossKind kind, double width, double temperature) : m_kind(kind), m_h(width), m_t(temperature) {}

std::string Loss::validate() const {
    if (m_kind == LossKind::HuberSvm && !(m_h > 0.0 && m_h < 1.0))
        return "Huber width h must be in (0, 1)";
    if (m_kind == LossKind::SmoothHinge && !(m_t > 0.0 && std::isfinite(m_t)))
        return "smoothed-hinge temperature t must be positive";
    return {};
}

namespace {

// Margin-form derivatives ℓ(m), ℓ'(m), ℓ''(m), ℓ'''(m) of docs/MATH.md §2.
struct MarginDerivatives {
    double l0, l1, l2, l3;
};

MarginDerivatives marginDerivatives(LossKind kind, double m, double h, double t) {
    switch (kind) {
    case LossKind::Logistic: {
        // ℓ = log(1+e^{−m}); ℓ' = −σ(−m); ℓ'' = σ(m)σ(−m); ℓ''' = ℓ''·(σ(−m) − σ(m)).
        const double sp = sigmoid(m), sn = sigmoid(-m);
        return {log1pExp(-m), -sn, sp * sn, sp * sn * (sn - sp)};
    }
    case LossKind::HuberSvm: {
        if (m > 1.0 + h)
            return {0.0, 0.0, 0.0, 0.0};
        if (m < 1.0 - h)
            return {1.0 - m, -1.0, 0.0, 0.0};
        const double r = 1.0 + h - m;
        return {r * r / (4.0 * h), -r / (2.0 * h), 1.0 / (2.0 * h), 0.0};
    }
    case LossKind::SmoothHinge: {
        // ℓ = t·log(1+e^{u}), u = (1−m)/t; ℓ' = −σ(u); ℓ'' = σ(u)σ(−u)/t;
        // ℓ''' = −σ(u)σ(−u)(σ(−u) − σ(u))/t².
        const double u = (1.0 - m) / t;
        const double su = sigmoid(u), sn = sigmoid(-u);
        return {t * log1pExp(u), -su, su * sn / t, -su * sn * (sn - su) / (t * t)};
    }
    case LossKind::Squared: break;
    }
    return {0.0, 0.0, 0.0, 0.0};
}

} // namespace

double Loss::value(double p, double y) const {
    if (m_kind == LossKind::Squared)
        return (p - y) * (p - y);
    if (m_kind == LossKind::Logistic) // ℓ alone: marginDerivatives(…).l0 without its two sigmoids
        return log1pExp(-(y * p));
    return marginDerivatives(m_kind, y * p, m_h, m_t).l0;
}

double Loss::d1(double p, double y) const {
    if (m_kind == LossKind::Squared)
        return 2.0 * (p - y);
    return y * marginDerivatives(m_kind, y * p, m_h, m_t).l1;
}

double Loss::d2(double p, double y) const {
    if (m_kind == LossKind::Squared)
        return 2.0;
    return marginDerivatives(m_kind, y * p, m_h, m_t).l2;
}

double Loss::d3(double p, double y) const {
    if (m_kind == LossKind::Squared)
        return 0.0;
    return y * marginDerivatives(m_kind, y * p, m_h, m_t).l3;
}

namespace {

// Logistic value, ℓ' and ℓ'' from e = exp(−|m|): σ(|m|) = 1/(1+e), σ(−|m|) = e/(1+e) and
// log(1 + e^{−m}) = log1p(e) + max(−m, 0), without overflow; one division.
inline Loss::Derivatives logisticDerivatives(double p, double y) {
    const double m = y * p;
    const double e = std::exp(-std::abs(m));
    const double big = 1.0 / (1.0 + e), small = e * big;
    const double sp = m >= 0.0 ? big : small, sn = m >= 0.0 ? small : big;
    return {std::log1p(e) + std::max(-m, 0.0), -y * sn, sp * sn};
}

} // namespace

Loss::Derivatives Loss::derivatives(double p, double y) const {
    switch (m_kind) {
    case LossKind::Logistic: return logisticDerivatives(p, y);
    case LossKind::Squared: return {(p - y) * (p - y), 2.0 * (p - y), 2.0};
    case LossKind::HuberSvm:
    case LossKind::SmoothHinge: {
        const MarginDerivatives d = marginDerivatives(m_kind, y * p, m_h, m_t);
        return {d.l0, y * d.l1, d.l2};
    }
    }
    return {0.0, 0.0, 0.0};
}

double Loss::derivatives(const Eigen::VectorXd& p, const Eigen::VectorXd& y, Eigen::VectorXd& d1,
                         Eigen::VectorXd& d2) const {
    const Eigen::Index n = p.size();
    d1.resize(n);
    d2.resize(n);
    double sum = 0.0;
    if (m_kind == LossKind::Logistic) { // the hot case: no per-row dispatch, inlined
        for (Eigen::Index i = 0; i < n; ++i) {
            const Derivatives d = logisticDerivatives(p[i], y[i]);
            sum += d.value;
            d1[i] = d.d1;
            d2[i] = d.d2;
        }
        return sum;
    }
    for (Eigen::Index i = 0; i < n; ++i) {
        const Derivatives d = derivatives(p[i], y[i]);
        sum += d.value;
        d1[i] = d.d1;
        d2[i] = d.d2;
    }
    return sum;
}

double Loss::gradientBound() const {
    return m_kind == LossKind::Squared ? std::numeric_limits<double>::quiet_NaN() : 1.0;
}

double Loss::curvatureBound() const {
    switch (m_kind) {
    case LossKind::Logistic: return 0.25;
    case LossKind::HuberSvm: return 1.0 / (2.0 * m_h);
    case LossKind::SmoothHinge: return 1.0 / (4.0 * m_t);
    case LossKind::Squared: return 2.0;
    }
    return 0.0;
}

} // namespace elab::core
