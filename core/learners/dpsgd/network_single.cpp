#include "core/learners/dpsgd/network_single.h"

#include "core/learners/dpsgd/unit_slices.h"
#include "core/optim/dense_products.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace elab::core {

namespace {

/// The products split over slices of kSingleUnitSlice units (core/learners/dpsgd/unit_slices.h).
template <typename F>
void forSingleUnitSlices(Index units, F&& f) {
    detail::forUnitSlices(units, std::forward<F>(f), detail::kSingleUnitSlice);
}

/// hiddenW[units, :] = float(W[units, :]) for the slice's units (W column-major, H × p).
void roundSlice(const Eigen::MatrixXd& W, Index begin, Index count, Eigen::MatrixXf& out) {
    out.middleRows(begin, count) = W.middleRows(begin, count).cast<float>();
}

/// product[:b, units] = batchᵀ · hiddenWᵀ[:, units]: the b × count block of X_B W_hᵀ.
void forwardSlice(const SingleWork& w, Index b, Index begin, Index count, Eigen::MatrixXf& product) {
    const Index p = w.batch.rows();
    denseProduct(true, true, b, count, p, 1.0f, w.batch.data(), p, w.hiddenW.data() + begin, w.hiddenW.rows(), 0.0f,
                 product.data() + begin * product.rows(), product.rows());
}

/// Row-wise softmax of the logits minus the one-hot labels, rows 0..b−1.
void softmaxMinusOneHot(const Eigen::MatrixXd& logits, Index b, const Eigen::VectorXi& y,
                        const std::vector<Index>& batch, Eigen::MatrixXd& out) {
    const Index K = logits.cols();
    for (Index i = 0; i < b; ++i) {
        double m = logits(i, 0);
        for (Index k = 1; k < K; ++k)
            m = std::max(m, logits(i, k));
        double z = 0.0;
        for (Index k = 0; k < K; ++k) {
            out(i, k) = std::exp(logits(i, k) - m);
            z += out(i, k);
        }
        for (Index k = 0; k < K; ++k)
            out(i, k) /= z;
        out(i, y(batch[static_cast<std::size_t>(i)])) -= 1.0;
    }
}

/// Σ_j v_ij² for rows 0..b−1 of a column-major matrix, in column order (double).
void rowSquaredNorms(const Eigen::MatrixXd& v, Index b, Eigen::VectorXd& out) {
    out.head(b).setZero();
    for (Index j = 0; j < v.cols(); ++j)
        for (Index i = 0; i < b; ++i)
            out(i) += v(i, j) * v(i, j);
}

} // namespace

SingleRows singleRows(const FeatureMatrix& X) {
    if (X.isSparse())
        throw std::invalid_argument("DP-SGD: the single-precision products need dense rows");
    SingleRows s;
    s.columns.resize(X.cols(), X.rows());
    s.squaredNorms.resize(X.rows());
    // By the blocks of DenseRows::forEachBlock, in parallel: each block's rows rounded and their
    // norms (those of FeatureMatrix::rowNorms, row by row) in one reading of the matrix.
    const DenseRows d = X.denseRows();
    const Index step = d.blockRows();
    const Index blocks = step > 0 ? (d.n + step - 1) / step : 0;
    tbb::parallel_for(Index(0), blocks, [&](Index k) {
        const Index begin = k * step;
        const Index m = std::min(step, d.n - begin);
        DenseMatrix buffer;
        if (!d.plain())
            d.copyBlock(begin, m, buffer);
        const Eigen::Map<const DenseMatrix, 0, Eigen::OuterStride<>> block(
            d.plain() ? d.data + begin : buffer.data(), m, d.cols, Eigen::OuterStride<>(d.plain() ? d.n : m));
        s.columns.middleCols(begin, m) = block.transpose().cast<float>();
        Eigen::VectorXd norms;
        blockRowNorms(block, norms);
        s.squaredNorms.segment(begin, m) = norms.array().square();
    });
    return s;
}

void SingleWork::reserve(Index rows, Index inputs, Index hiddenUnits, Index outputs) {
    if (hiddenW.rows() != hiddenUnits || hiddenW.cols() != inputs) {
        hiddenW.resize(hiddenUnits, inputs);
        gradient.resize(hiddenUnits, inputs);
        capacity = 0;
    }
    if (rows <= capacity && logits.cols() == outputs)
        return;
    capacity = std::max(rows, capacity + capacity / 4);
    batch.resize(inputs, capacity);
    product.resize(capacity, hiddenUnits);
    hiddenPre.resize(capacity, hiddenUnits);
    hidden.resize(capacity, hiddenUnits);
    logits.resize(capacity, outputs);
    deltaOut.resize(capacity, outputs);
    deltaHidden.resize(capacity, hiddenUnits);
    deltaFloat.resize(capacity, hiddenUnits);
    for (Eigen::VectorXd* v : {&inputSq, &sq0, &sq1, &factor0, &factor1})
        v->resize(capacity);
}

void clippedGradientSumSingle(const Network& net, const SingleRows& X, const std::vector<Index>& batch,
                              const Eigen::VectorXi& y, const Eigen::MatrixXd* mask, const ClipRule& rule,
                              SingleWork& w, Network& sum, Eigen::VectorXd* norms) {
    if (!net.hasHidden())
        throw std::invalid_argument("DP-SGD: the single-precision path needs a hidden layer");
    const auto b = static_cast<Index>(batch.size());
    const DenseLayer& h = net.layers[0];
    const DenseLayer& o = net.layers[1];
    const Index p = X.cols(), H = h.W.rows(), K = o.W.rows();
    sum.setZero();
    if (norms)
        norms->resize(b);
    if (b == 0)
        return;
    w.reserve(b, p, H, K);
    const Index ld = w.capacity;
    for (Index i = 0; i < b; ++i) {
        const Index row = batch[static_cast<std::size_t>(i)];
        std::memcpy(w.batch.col(i).data(), X.columns.col(row).data(), static_cast<std::size_t>(p) * sizeof(float));
        w.inputSq(i) = X.squaredNorms(row);
    }
    // Per-example squared norms in double, summed per slice of units (each slice its own column of
    // partial sums, added in slice order: the same for any thread count).
    const Index slices = (H + detail::kSingleUnitSlice - 1) / detail::kSingleUnitSlice;
    w.partialHidden.resize(ld, slices);
    w.partialDelta.resize(ld, slices);
    const auto slice = [](Index begin) { return begin / detail::kSingleUnitSlice; };
    // Forward: the large product in float, the bias, ReLU and mask in double.
    forSingleUnitSlices(H, [&](Index begin, Index count) {
        roundSlice(h.W, begin, count, w.hiddenW);
        forwardSlice(w, b, begin, count, w.product);
        double* sq = w.partialHidden.col(slice(begin)).data();
        std::fill(sq, sq + b, 0.0);
        for (Index u = begin; u < begin + count; ++u) {
            const float* product = w.product.col(u).data();
            double* hidden = w.hidden.col(u).data();
            const double bias = h.b(u);
            for (Index i = 0; i < b; ++i) {
                const double pre = static_cast<double>(product[i]) + bias;
                hidden[i] = pre > 0.0 ? pre : 0.0;
            }
            if (mask) { // the ReLU's derivative is read from hiddenPre: the mask may change signs
                double* pre = w.hiddenPre.col(u).data();
                for (Index i = 0; i < b; ++i) {
                    pre[i] = hidden[i];
                    hidden[i] *= (*mask)(i, u);
                }
            }
            for (Index i = 0; i < b; ++i)
                sq[i] += hidden[i] * hidden[i];
        }
    });
    // The output layer in double.
    denseProduct(false, true, b, K, H, 1.0, w.hidden.data(), ld, o.W.data(), K, 0.0, w.logits.data(), ld);
    for (Index k = 0; k < K; ++k)
        w.logits.col(k).head(b).array() += o.b(k);
    softmaxMinusOneHot(w.logits, b, y, batch, w.deltaOut);
    forSingleUnitSlices(H, [&](Index begin, Index count) { // Δ_h[:, units] = Δ_o · W_o[:, units], then mask and ReLU
        denseProduct(false, false, b, count, K, 1.0, w.deltaOut.data(), ld, o.W.data() + begin * K, K, 0.0,
                     w.deltaHidden.data() + begin * ld, ld);
        double* sq = w.partialDelta.col(slice(begin)).data();
        std::fill(sq, sq + b, 0.0);
        for (Index u = begin; u < begin + count; ++u) {
            // ReLU'(pre) = [pre > 0] = [ReLU(pre) > 0], read before the mask.
            const double* pre = mask ? w.hiddenPre.col(u).data() : w.hidden.col(u).data();
            double* delta = w.deltaHidden.col(u).data();
            if (mask)
                for (Index i = 0; i < b; ++i)
                    delta[i] *= (*mask)(i, u);
            for (Index i = 0; i < b; ++i) {
                delta[i] = pre[i] > 0.0 ? delta[i] : 0.0;
                sq[i] += delta[i] * delta[i];
            }
        }
    });
    // Per-example norms: ‖δ_i‖²(‖a_i‖² + 1) per layer.
    rowSquaredNorms(w.deltaOut, b, w.sq1);
    for (Index i = 0; i < b; ++i) {
        double hiddenSq = 0.0, deltaSq = 0.0;
        for (Index s = 0; s < slices; ++s) {
            hiddenSq += w.partialHidden(i, s);
            deltaSq += w.partialDelta(i, s);
        }
        w.sq1(i) *= hiddenSq + 1.0;
        w.sq0(i) = deltaSq * (w.inputSq(i) + 1.0);
        if (norms)
            (*norms)(i) = std::sqrt(w.sq0(i) + w.sq1(i));
    }
    for (Index i = 0; i < b; ++i) {
        if (!rule.clip) {
            w.factor0(i) = w.factor1(i) = 1.0;
        } else if (rule.mode == ClipMode::Total) {
            w.factor0(i) = w.factor1(i) = clipFactor(w.sq0(i) + w.sq1(i), rule.threshold, rule.margin);
        } else {
            w.factor0(i) = clipFactor(w.sq0(i), rule.threshold, rule.margin);
            w.factor1(i) = clipFactor(w.sq1(i), rule.threshold, rule.margin);
        }
    }
    for (Index k = 0; k < K; ++k)
        w.deltaOut.col(k).head(b).array() *= w.factor1.head(b).array();
    // The hidden layer's clipped sum: Σ_i c_i δ_i x_iᵀ in float, its bias Σ_i c_i δ_i in double.
    DenseLayer& g0 = sum.layers[0];
    forSingleUnitSlices(H, [&](Index begin, Index count) {
        const double* factor = w.factor0.data();
        for (Index u = begin; u < begin + count; ++u) {
            const double* delta = w.deltaHidden.col(u).data();
            float* rounded = w.deltaFloat.col(u).data();
            double bias = 0.0;
            for (Index i = 0; i < b; ++i) {
                const double d = delta[i] * factor[i];
                rounded[i] = static_cast<float>(d);
                bias += d;
            }
            g0.b(u) = bias;
        }
        denseProduct(true, true, count, p, b, 1.0f, w.deltaFloat.data() + begin * ld, ld, w.batch.data(), p, 0.0f,
                     w.gradient.data() + begin, H);
        g0.W.middleRows(begin, count) = w.gradient.middleRows(begin, count).cast<double>();
    });
    // The output layer's clipped sum in double.
    DenseLayer& g1 = sum.layers[1];
    denseProduct(true, false, K, H, b, 1.0, w.deltaOut.data(), ld, w.hidden.data(), ld, 0.0, g1.W.data(), K);
    for (Index k = 0; k < K; ++k)
        g1.b(k) = w.deltaOut.col(k).head(b).sum();
}

Eigen::MatrixXd networkLogitsSingle(const Network& net, const SingleRows& X) {
    if (!net.hasHidden())
        throw std::invalid_argument("DP-SGD: the single-precision path needs a hidden layer");
    const DenseLayer& h = net.layers[0];
    const DenseLayer& o = net.layers[1];
    const Index n = X.rows(), p = X.cols(), H = h.W.rows();
    Eigen::MatrixXf hiddenW(H, p);
    Eigen::MatrixXf product(n, H);
    forSingleUnitSlices(H, [&](Index begin, Index count) {
        roundSlice(h.W, begin, count, hiddenW);
        denseProduct(true, true, n, count, p, 1.0f, X.columns.data(), p, hiddenW.data() + begin, H, 0.0f,
                     product.data() + begin * n, n);
    });
    Eigen::MatrixXd hidden(n, H);
    for (Index u = 0; u < H; ++u)
        for (Index i = 0; i < n; ++i)
            hidden(i, u) = std::max(0.0, static_cast<double>(product(i, u)) + h.b(u));
    Eigen::MatrixXd logits(n, o.W.rows());
    denseProduct(false, true, n, o.W.rows(), H, 1.0, hidden.data(), n, o.W.data(), o.W.rows(), 0.0, logits.data(), n);
    logits.rowwise() += o.b.transpose();
    return logits;
}

} // namespace elab::core
