#include "core/model/sparse_rows.h"

namespace elab::core {

namespace {

using detail::rowAxpy;
using detail::rowDot;
using detail::Rows;

bool useScale(const Eigen::VectorXd* rowScale, const Rows& X) { return detail::useRowScale(rowScale, X); }

template <bool Binary, bool Plain>
void rowDots(const Rows& X, const double* a, const double* v, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        const double s = rowDot<Binary, Plain>(X, i, X.begin(i), X.end(i), v);
        out[i] = Binary ? a[i] * s : s;
    }
}

template <bool Binary, bool Plain>
void transposedProduct(const Rows& X, const double* a, const double* w, double* out) {
    for (Index i = 0; i < X.n; ++i) {
        rowAxpy<Binary, Plain>(X, i, X.begin(i), X.end(i), Binary ? w[i] * a[i] : w[i], out);
    }
}

template <bool Binary, bool Plain>
void weightedGramProduct(const Rows& X, const double* a, const double* weight, double factor, const double* v,
                         double* out) {
    for (Index i = 0; i < X.n; ++i) {
        if (weight[i] == 0.0)
            continue;
        const int k0 = X.begin(i), k1 = X.end(i);
        double t = rowDot<Binary, Plain>(X, i, k0, k1, v) * (weight[i] * factor);
        if constexpr (Binary)
            t *= a[i] * a[i];
        rowAxpy<Binary, Plain>(X, i, k0, k1, t, out);
    }
}

template <bool Binary, bool Plain>
void weightedGram(const Rows& X, const double* a, const double* weight, double factor, Index p, double* H) {
    for (Index i = 0; i < X.n; ++i) {
        double w = weight[i] * factor;
        if (w == 0.0)
            continue;
        if constexpr (Binary)
            w *= a[i] * a[i];
        const double f = Plain ? 1.0 : X.factor(i);
        const auto value = [&](int k) { // non-binary only
            if constexpr (Plain)
                return X.values[k];
            else
                return X.values[k] * f;
        };
        const int k0 = X.begin(i), k1 = X.end(i);
        bool sorted = true;
        for (int k = k0 + 1; k < k1 && sorted; ++k)
            sorted = X.inner[k - 1] <= X.inner[k];
        for (int l = k0; l < k1; ++l) {
            const int c = X.inner[l];
            const double wl = Binary ? w : w * value(l);
            if (sorted) {
                // Upper triangle: column c, rows r = inner[k] ≤ c for k ≤ l. The same additions
                // in the same order as below, without the per-entry test.
                double* column = H + static_cast<Index>(c) * p;
                for (int k = k0; k <= l; ++k) {
                    if constexpr (Binary)
                        column[X.inner[k]] += wl;
                    else
                        column[X.inner[k]] += wl * value(k);
                }
                continue;
            }
            for (int k = k0; k <= l; ++k) {
                const int r = X.inner[k];
                // Upper triangle (r ≤ c); CSR rows are usually sorted, but need not be.
                double& h = r <= c ? H[static_cast<Index>(c) * p + r] : H[static_cast<Index>(r) * p + c];
                h += Binary ? wl : wl * value(k);
            }
        }
        if (!Plain && X.intercept >= 0) {
            // The implicit last entry, in the last column (above every stored one): its column of
            // the upper triangle, as the loop above would add it as entry l = k1.
            const double vc = X.interceptValue * f;
            const double wl = Binary ? w : w * vc;
            double* column = H + static_cast<Index>(X.intercept) * p;
            for (int k = k0; k < k1; ++k) {
                if constexpr (Binary)
                    column[X.inner[k]] += wl;
                else
                    column[X.inner[k]] += wl * value(k);
            }
            column[X.intercept] += Binary ? wl : wl * vc;
        }
    }
}

} // namespace

std::size_t sparseRowPairs(const CsrRows& rows) {
    std::size_t pairs = 0;
    for (Index i = 0; i < rows.n; ++i) {
        const auto m = static_cast<std::size_t>(rows.length(i));
        pairs += m * (m + 1) / 2;
    }
    return pairs;
}

void sparseWeightedGram(const CsrRows& rows, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                        double factor, Eigen::MatrixXd& H) {
    const Index p = rows.cols;
    H.setZero(p, p);
    const bool binary = useScale(rowScale, rows);
    detail::dispatchRows(rows, binary, [&](auto b, auto plain) {
        weightedGram<decltype(b)::value, decltype(plain)::value>(rows, binary ? rowScale->data() : nullptr,
                                                                 weight.data(), factor, p, H.data());
    });
    H.triangularView<Eigen::StrictlyLower>() = H.transpose();
}

Eigen::VectorXd constantRowValues(const CsrRows& rows) {
    Eigen::VectorXd a(rows.n);
    for (Index i = 0; i < rows.n; ++i) {
        // The values as stored in the plain copy of the rows: stored·factor, the intercept last.
        const double f = rows.factor(i);
        const int k0 = rows.begin(i), k1 = rows.end(i);
        const double first = k0 < k1 ? rows.values[k0] * f : rows.intercept >= 0 ? rows.interceptValue * f : 0.0;
        for (int k = k0 + 1; k < k1; ++k)
            if (rows.values[k] * f != first)
                return {};
        if (rows.intercept >= 0 && rows.interceptValue * f != first)
            return {};
        a[i] = first;
    }
    return a;
}

void sparseRowDots(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    out.resize(X.n);
    const Rows& rows = X;
    const bool binary = useScale(rowScale, X);
    detail::dispatchRows(rows, binary, [&](auto b, auto plain) {
        rowDots<decltype(b)::value, decltype(plain)::value>(rows, binary ? rowScale->data() : nullptr, v.data(),
                                                            out.data());
    });
}

void sparseTransposedProduct(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& w,
                             Eigen::VectorXd& out) {
    out.setZero(X.cols);
    const Rows& rows = X;
    const bool binary = useScale(rowScale, X);
    detail::dispatchRows(rows, binary, [&](auto b, auto plain) {
        transposedProduct<decltype(b)::value, decltype(plain)::value>(rows, binary ? rowScale->data() : nullptr,
                                                                      w.data(), out.data());
    });
}

void sparseWeightedGramProduct(const CsrRows& X, const Eigen::VectorXd* rowScale, const Eigen::VectorXd& weight,
                               double factor, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    const Rows& rows = X;
    const bool binary = useScale(rowScale, X);
    detail::dispatchRows(rows, binary, [&](auto b, auto plain) {
        weightedGramProduct<decltype(b)::value, decltype(plain)::value>(rows, binary ? rowScale->data() : nullptr,
                                                                        weight.data(), factor, v.data(), out.data());
    });
}

} // namespace elab::core
