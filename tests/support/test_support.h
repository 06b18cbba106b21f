#pragma once
// Helpers shared by the tests: comparisons that print expected, actual and difference
// (docs/STYLE.md §5) — absolute (ELAB_FUZZY), relative (ELAB_RELATIVE) and exact, bit for bit
// (ELAB_EXACT: QCOMPARE on doubles is fuzzy, so it cannot check "bit-identical") — and a
// seeded synthetic binary problem, and the message of a thrown error (errorOf).

#include "core/data/feature_matrix.h"
#include "core/util/random.h"

#include <QFileInfo>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <vector>

// Fuzzy compare printing expected, actual, difference and tolerance.
#define ELAB_FUZZY(actual, expected, tol)                                                                              \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        QVERIFY2(std::abs(a_ - e_) <= (tol),                                                                           \
                 qPrintable(QStringLiteral(#actual ": expected %1, actual %2, difference %3 > %4")                     \
                                .arg(e_, 0, 'g', 17)                                                                   \
                                .arg(a_, 0, 'g', 17)                                                                   \
                                .arg(a_ - e_, 0, 'g', 3)                                                               \
                                .arg(double(tol), 0, 'g', 3)));                                                        \
    } while (false)

// |actual − expected| ≤ rel · max(|actual|, |expected|), printing both, the relative difference
// and the tolerance.
#define ELAB_RELATIVE(actual, expected, rel)                                                                           \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected), r_ = (rel);                                                       \
        const double d_ = std::abs(a_ - e_) / std::max(std::abs(a_), std::abs(e_));                                    \
        QVERIFY2(std::abs(a_ - e_) <= r_ * std::max(std::abs(a_), std::abs(e_)),                                       \
                 qPrintable(QStringLiteral(#actual ": expected %1, actual %2, relative difference %3 > %4")            \
                                .arg(e_, 0, 'g', 17)                                                                   \
                                .arg(a_, 0, 'g', 17)                                                                   \
                                .arg(d_, 0, 'g', 3)                                                                    \
                                .arg(r_, 0, 'g', 3)));                                                                 \
    } while (false)

// Bit-identical doubles (two NaNs count as equal), printing both with 17 digits and the difference.
#define ELAB_EXACT(actual, expected)                                                                                   \
    do {                                                                                                               \
        const double a_ = (actual), e_ = (expected);                                                                   \
        QVERIFY2(a_ == e_ || (std::isnan(a_) && std::isnan(e_)),                                                       \
                 qPrintable(QStringLiteral(#actual ": expected exactly %1, actual %2, difference %3")                  \
                                .arg(e_, 0, 'g', 17)                                                                   \
                                .arg(a_, 0, 'g', 17)                                                                   \
                                .arg(a_ - e_, 0, 'g', 3)));                                                            \
    } while (false)

// Skips the current test when ../shared/datasets (beside the repository, not in a user's
// clone) is absent: tests on the real datasets run in CI and are skipped on a bare clone.
#define ELAB_REQUIRE_SHARED_DATASETS()                                                                                 \
    do {                                                                                                               \
        if (!QFileInfo::exists(QStringLiteral(EPSILONLAB_SHARED_DIR "/datasets")))                                     \
            QSKIP("../shared/datasets is not present beside this checkout");                                           \
    } while (false)

namespace elab::test {

struct BinaryProblem {
    core::FeatureMatrix X;
    Eigen::VectorXd y;
};

/// n rows uniform in [−½, ½]^p; y = sign(wᵀx + noise·(u − ½)) with u ~ U(0, 1), drawn row by
/// row from Rng(seed). With clip, rows are scaled to ‖x‖ ≤ 1 (the privacy precondition).
inline BinaryProblem syntheticBinary(core::Index n, core::Index p, std::uint64_t seed, const std::vector<double>& w,
                                     double noise, bool clip = false) {
    core::Rng rng(seed);
    core::DenseMatrix X(n, p);
    Eigen::VectorXd y(n);
    for (core::Index i = 0; i < n; ++i) {
        for (core::Index j = 0; j < p; ++j)
            X(i, j) = core::uniform01(rng) - 0.5;
        double score = noise * (core::uniform01(rng) - 0.5);
        for (std::size_t j = 0; j < w.size(); ++j)
            score += w[j] * X(i, static_cast<core::Index>(j));
        y[i] = score > 0 ? 1.0 : -1.0;
    }
    if (clip)
        X = (1.0 / X.rowwise().norm().array().max(1.0)).matrix().asDiagonal() * X;
    return {core::FeatureMatrix(X), y};
}

/// The message of what f throws ("" if it throws nothing), for checks of located errors.
template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace elab::test
