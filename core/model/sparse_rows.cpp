#include "core/model/sparse_rows.h"

namespace elab::core {

namespace {

// Row i's stored entries are [begin(i), end(i)); an uncompressed matrix (after insert()) has
// free slots after each row's live entries.
struct Rows {
    const int* outer;
    const int* counts; // nullptr when compressed
    const int* inner;
    const double* values;
    Index n;
    explicit Rows(const SparseMatrix& X)
        : outer(X.outerIndexPtr()), counts(X.isCompressed() ? nullptr : X.innerNonZeroPtr()),
          inner(X.innerIndexPtr()), values(X.valuePtr()), n(X.outerSize()) {}
    int begin(Index i) const { return outer[i]; }
    int end(Index i) const { return counts ? outer[i] + counts[i] : outer[i + 1]; }
};

bool useScale(const Eigen::VectorXd* rowScale, const SparseMatrix& X) {
    return rowScale && rowScale->size() == X.rows() && X.rows() > 0;
}

// Σ_k x_k v_k over [k0, k1) (Binary: Σ v_k, the caller multiplies by a_i). One running sum:
// measured faster on a9a than four partial sums (≈ 14 non-zeros per row; the loop is bound by
// the scatter that follows, not by the additions).
template <bool Binary>
inline double rowDot(const Rows& X, int k0, int k1, const double* v) {
    double s = 0.0;
    for (int k = k0; k < k1; ++k) {
        if constexpr (Binary)
            s += v[X.inner[k]];
        else
            s += X.values[k] * v[X.inner[k]];
    }
    return s;
}

// out_j += t x_ij over [k0, k1) (Binary: out_j += t).
template <bool Binary>
inline void rowAxpy(const Rows& X, int k0, int k1, double t, double* out) {
    for (int k = k0; k < k1; ++k) {
        if constexpr (Binary)
            out[X.inner[k]] += t;
        else
            out[X.inner[k]] += t * X.values[k];
    }
}

template <bool Binary>
void rowDots(const Rows& X, const double* a, const double* v, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        const double s = rowDot<Binary>(X, X.begin(i), X.end(i), v);
        out[i] = Binary ? a[i] * s : s;
    }
}

template <bool Binary>
void transposedProduct(const Rows& X, const double* a, const double* w, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        rowAxpy<Binary>(X, X.begin(i), X.end(i), Binary ? w[i] * a[i] : w[i], out);
    }
}

template <bool Binary>
void weightedGramProduct(const Rows& X, const double* a, const double* weight, double factor, const double* v,
                         double* out) {
    for (Index i = 0; i < X.n; ++i) {
        if (weight[i] == 0.0)
            continue;
        const int k0 = X.begin(i), k1 = X.end(i);
        double t = rowDot<Binary>(X, k0, k1, v) * (weight[i] * factor);
        if constexpr (Binary)
            t *= a[i] * a[i];
        rowAxpy<Binary>(X, k0, k1, t, out);
    }
}

template <bool Binary>
void weightedGram(const Rows& X, const double* a, const double* weight, double factor, Index p, double* H) {
    for (Index i = 0; i < X.n; ++i) {
        double w = weight[i] * factor;
        if (w == 0.0)
            continue;
        if constexpr (Binary)
            w *= a[i] * a[i];
        const int k0 = X.begin(i), k1 = X.end(i);
        for (int l = k0; l < k1; ++l) {
            const int c = X.inner[l];
            const double wl = Binary ? w : w * X.values[l];
            for (int k = k0; k <= l; ++k) {
                const int r = X.inner[k];
                // Upper triangle (r ≤ c); CSR rows are usually sorted, but need not be.
                double& h = r <= c ? H[static_cast<Index>(c) * p + r] : H[static_cast<Index>(r) * p + c];
                h += Binary ? wl : wl * X.values[k];
            }
        }
    }
}

} // namespace

std::size_t sparseRowPairs(const SparseMatrix& X) {
    const Rows rows(X);
    std::size_t pairs = 0;
    for (Index i = 0; i < rows.n; ++i) {
        const auto m = static_cast<std::size_t>(rows.end(i) - rows.begin(i));
        pairs += m * (m + 1) / 2;
    }
    return pairs;
}

void sparseWeightedGram(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                        double factor, Eigen::MatrixXd& H) {
    const Index p = X.cols();
    H.setZero(p, p);
    const Rows rows(X);
    if (useScale(rowScale, X))
        weightedGram<true>(rows, rowScale->data(), weight.data(), factor, p, H.data());
    else
        weightedGram<false>(rows, nullptr, weight.data(), factor, p, H.data());
    H.triangularView<Eigen::StrictlyLower>() = H.transpose();
}

Eigen::VectorXd constantRowValues(const SparseMatrix& X) {
    const Rows rows(X);
    Eigen::VectorXd a(X.rows());
    for (Index i = 0; i < rows.n; ++i) {
        const int k0 = rows.begin(i), k1 = rows.end(i);
        const double first = k0 < k1 ? rows.values[k0] : 0.0;
        for (int k = k0 + 1; k < k1; ++k)
            if (rows.values[k] != first)
                return {};
        a[i] = first;
    }
    return a;
}

void sparseRowDots(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v,
                   Eigen::VectorXd& out) {
    out.resize(X.rows());
    const Rows rows(X);
    if (useScale(rowScale, X))
        rowDots<true>(rows, rowScale->data(), v.data(), out.data());
    else
        rowDots<false>(rows, nullptr, v.data(), out.data());
}

void sparseTransposedProduct(const SparseMatrix& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& w,
                             Eigen::VectorXd& out) {
    out.setZero(X.cols());
    const Rows rows(X);
    if (useScale(rowScale, X))
        transposedProduct<true>(rows, rowScale->data(), w.data(), out.data());
    else
        transposedProduct<false>(rows, nullptr, w.data(), out.data());
}

void sparseWeightedGramProduct(const SparseMatrix& X, const Eigen::VectorXd* rowScale,
                               const Eigen::VectorXd& weight, double factor, const Eigen::VectorXd& v,
                               Eigen::VectorXd& out) {
    const Rows rows(X);
    if (useScale(rowScale, X))
        weightedGramProduct<true>(rows, rowScale->data(), weight.data(), factor, v.data(), out.data());
    else
        weightedGramProduct<false>(rows, nullptr, weight.data(), factor, v.data(), out.data());
}

} // namespace elab::core
