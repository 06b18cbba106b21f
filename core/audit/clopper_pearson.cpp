#include "core/audit/clopper_pearson.h"

#include <boost/math/special_functions/beta.hpp>

#include <stdexcept>

namespace elab::core {

namespace {
void check(long long k, long long n, double a) {
    if (n < 1 || k < 0 || k > n)
        throw std::invalid_argument("Clopper–Pearson needs 0 ≤ k ≤ n and n ≥ 1");
    if (!(a > 0.0 && a < 1.0))
        throw std::invalid_argument("Clopper–Pearson needs a confidence level in (0, 1)");
}
} // namespace

double clopperPearsonUpper(long long k, long long n, double a) {
    check(k, n, a);
    if (k == n)
        return 1.0;
    return boost::math::ibeta_inv(static_cast<double>(k + 1), static_cast<double>(n - k), 1.0 - a);
}

double clopperPearsonLower(long long k, long long n, double a) {
    check(k, n, a);
    if (k == 0)
        return 0.0;
    return boost::math::ibeta_inv(static_cast<double>(k), static_cast<double>(n - k + 1), a);
}

} // namespace elab::core
