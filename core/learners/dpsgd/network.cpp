#include "core/learners/dpsgd/network.h"

#include "core/learners/dpsgd/unit_slices.h"
#include "core/optim/dense_products.h"

#include "core/util/normal_sampler.h"
#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace elab::core {

namespace {

using detail::forUnitSlices;

/// out[:, units] = A · W[units, :]ᵀ for dense A (n × p), column-major throughout.
void denseAffineSlice(const Eigen::MatrixXd& A, const Eigen::MatrixXd& W, Index begin, Index count,
                      Eigen::MatrixXd& out) {
    denseProduct(false, true, A.rows(), count, A.cols(), 1.0, A.data(), A.rows(), W.data() + begin, W.rows(), 0.0,
                 out.data() + begin * out.rows(), out.rows());
}

/// out = X · Wᵀ (+ b per row), dense or sparse X; split over the output units.
void affine(const FeatureMatrix& X, const DenseLayer& layer, Eigen::MatrixXd& out) {
    out.resize(X.rows(), layer.W.rows());
    forUnitSlices(layer.W.rows(), [&](Index begin, Index count) {
        if (X.isSparse())
            out.middleCols(begin, count).noalias() = X.sparse() * layer.W.middleRows(begin, count).transpose();
        else
            denseAffineSlice(X.dense(), layer.W, begin, count, out);
    });
    out.rowwise() += layer.b.transpose();
}

void affine(const Eigen::MatrixXd& A, const DenseLayer& layer, Eigen::MatrixXd& out) {
    out.resize(A.rows(), layer.W.rows());
    forUnitSlices(layer.W.rows(), [&](Index begin, Index count) { denseAffineSlice(A, layer.W, begin, count, out); });
    out.rowwise() += layer.b.transpose();
}

/// G[units, :] += D[:, units]ᵀ · A for dense A (n × p).
void denseOuterSlice(const Eigen::MatrixXd& D, const Eigen::MatrixXd& A, Index begin, Index count, Eigen::MatrixXd& G) {
    denseProduct(true, false, count, A.cols(), A.rows(), 1.0, D.data() + begin * D.rows(), D.rows(), A.data(), A.rows(),
                 1.0, G.data() + begin, G.rows());
}

/// G += Dᵀ X (D: b × out), dense or sparse X; split over the output units (rows of G).
void addOuter(const Eigen::MatrixXd& D, const FeatureMatrix& X, Eigen::MatrixXd& G) {
    forUnitSlices(G.rows(), [&](Index begin, Index count) {
        if (X.isSparse())
            G.middleRows(begin, count).noalias() += (X.sparse().transpose() * D.middleCols(begin, count)).transpose();
        else
            denseOuterSlice(D, X.dense(), begin, count, G);
    });
}

void addOuter(const Eigen::MatrixXd& D, const Eigen::MatrixXd& A, Eigen::MatrixXd& G) {
    forUnitSlices(G.rows(), [&](Index begin, Index count) { denseOuterSlice(D, A, begin, count, G); });
}

/// Row-wise softmax of logits minus the one-hot labels: ∂(cross-entropy)/∂(logits).
void softmaxMinusOneHot(const Eigen::MatrixXd& logits, const Eigen::VectorXi& y, Eigen::MatrixXd& out) {
    out.resize(logits.rows(), logits.cols());
    for (Index i = 0; i < logits.rows(); ++i) {
        const double m = logits.row(i).maxCoeff();
        double z = 0.0;
        for (Index k = 0; k < logits.cols(); ++k) {
            out(i, k) = std::exp(logits(i, k) - m);
            z += out(i, k);
        }
        out.row(i) /= z;
        out(i, y(i)) -= 1.0;
    }
}

/// Clip factors for the squared norms sq (clipFactor).
void clipFactors(const Eigen::VectorXd& sq, double threshold, double margin, Eigen::VectorXd& out) {
    out.resize(sq.size());
    for (Index i = 0; i < sq.size(); ++i)
        out(i) = clipFactor(sq(i), threshold, margin);
}

} // namespace

double clipFactor(double squaredNorm, double threshold, double margin) {
    const double norm = std::sqrt(squaredNorm) * (1.0 + margin);
    return norm > threshold ? threshold / norm : 1.0;
}

Index Network::parameterCount() const {
    Index n = 0;
    for (const DenseLayer& l : layers)
        n += l.W.size() + l.b.size();
    return n;
}

void Network::addScaled(const Network& other, double scale) {
    for (std::size_t l = 0; l < layers.size(); ++l) {
        layers[l].W += scale * other.layers[l].W;
        layers[l].b += scale * other.layers[l].b;
    }
}

void Network::setZero() {
    for (DenseLayer& l : layers) {
        l.W.setZero();
        l.b.setZero();
    }
}

Network initialNetwork(Index inputs, int hidden, int classes, std::uint64_t seed) {
    Network net;
    if (hidden <= 0) {
        net.layers.push_back({Eigen::MatrixXd::Zero(classes, inputs), Eigen::VectorXd::Zero(classes)});
        return net;
    }
    Rng rng(seed);
    NormalSampler normal(rng);
    DenseLayer h{Eigen::MatrixXd(hidden, inputs), Eigen::VectorXd::Zero(hidden)};
    const double sdHidden = std::sqrt(2.0 / static_cast<double>(std::max<Index>(1, inputs)));
    for (Index j = 0; j < h.W.cols(); ++j)
        for (Index i = 0; i < h.W.rows(); ++i)
            h.W(i, j) = sdHidden * normal();
    DenseLayer o{Eigen::MatrixXd(classes, hidden), Eigen::VectorXd::Zero(classes)};
    const double sdOut = std::sqrt(1.0 / hidden);
    for (Index j = 0; j < o.W.cols(); ++j)
        for (Index i = 0; i < o.W.rows(); ++i)
            o.W(i, j) = sdOut * normal();
    net.layers = {std::move(h), std::move(o)};
    return net;
}

Eigen::MatrixXd networkLogits(const Network& net, const FeatureMatrix& X) {
    Eigen::MatrixXd out;
    if (!net.hasHidden()) {
        affine(X, net.layers[0], out);
        return out;
    }
    Eigen::MatrixXd hidden;
    affine(X, net.layers[0], hidden);
    hidden = hidden.cwiseMax(0.0);
    affine(hidden, net.layers[1], out);
    return out;
}

ClassificationMetrics classificationMetrics(const Eigen::MatrixXd& logits, const Eigen::VectorXi& classes) {
    ClassificationMetrics m;
    const Index n = logits.rows();
    if (n == 0)
        return {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN()};
    double loss = 0.0;
    Index correct = 0;
    for (Index i = 0; i < n; ++i) {
        Index best = 0;
        const double top = logits.row(i).maxCoeff(&best);
        const double lse = top + std::log((logits.row(i).array() - top).exp().sum());
        loss += lse - logits(i, classes(i));
        // Strictly the largest: ties count as wrong, as everywhere (core/learner/prediction.h).
        bool unique = true;
        for (Index k = 0; k < logits.cols(); ++k)
            if (k != best && logits(i, k) == top)
                unique = false;
        if (best == classes(i) && unique)
            ++correct;
    }
    m.loss = loss / static_cast<double>(n);
    m.accuracy = static_cast<double>(correct) / static_cast<double>(n);
    return m;
}

void clippedGradientSum(const Network& net, const FeatureMatrix& X, const Eigen::VectorXi& y,
                        const Eigen::MatrixXd* mask, const ClipRule& rule, BatchWork& w, Network& sum,
                        Eigen::VectorXd* norms) {
    const Index b = X.rows();
    sum.setZero();
    if (b == 0) {
        if (norms)
            norms->resize(0);
        return;
    }
    w.inputSqNorm = X.rowNorms().array().square();
    if (!net.hasHidden()) {
        affine(X, net.layers[0], w.logits);
        softmaxMinusOneHot(w.logits, y, w.deltaOut);
        // ‖δ_i‖²(‖x_i‖² + 1)
        w.layerSqNorm0 = w.deltaOut.rowwise().squaredNorm().cwiseProduct((w.inputSqNorm.array() + 1.0).matrix());
        if (norms)
            *norms = w.layerSqNorm0.cwiseSqrt();
        if (rule.clip) {
            clipFactors(w.layerSqNorm0, rule.threshold, rule.margin, w.factor0);
            w.deltaOut.array().colwise() *= w.factor0.array();
        }
        addOuter(w.deltaOut, X, sum.layers[0].W);
        sum.layers[0].b = w.deltaOut.colwise().sum().transpose();
        return;
    }
    const DenseLayer& h = net.layers[0];
    const DenseLayer& o = net.layers[1];
    affine(X, h, w.hiddenPre);
    w.hidden = w.hiddenPre.cwiseMax(0.0);
    if (mask)
        w.hidden.array() *= mask->array();
    affine(w.hidden, o, w.logits);
    softmaxMinusOneHot(w.logits, y, w.deltaOut);
    // Back through the output layer, the dropout mask and the ReLU.
    w.deltaHidden.resize(w.deltaOut.rows(), o.W.cols());
    forUnitSlices(o.W.cols(), [&](Index begin, Index count) { // Δ_h[:, units] = Δ_o · W_o[:, units]
        denseProduct(false, false, w.deltaOut.rows(), count, o.W.rows(), 1.0, w.deltaOut.data(), w.deltaOut.rows(),
                     o.W.data() + begin * o.W.rows(), o.W.rows(), 0.0,
                     w.deltaHidden.data() + begin * w.deltaHidden.rows(), w.deltaHidden.rows());
    });
    if (mask)
        w.deltaHidden.array() *= mask->array();
    w.deltaHidden.array() *= (w.hiddenPre.array() > 0.0).cast<double>();
    const Eigen::VectorXd hiddenSq = w.hidden.rowwise().squaredNorm();
    w.layerSqNorm1 = w.deltaOut.rowwise().squaredNorm().cwiseProduct((hiddenSq.array() + 1.0).matrix());
    w.layerSqNorm0 = w.deltaHidden.rowwise().squaredNorm().cwiseProduct((w.inputSqNorm.array() + 1.0).matrix());
    if (norms)
        *norms = (w.layerSqNorm0 + w.layerSqNorm1).cwiseSqrt();
    if (rule.clip) {
        if (rule.mode == ClipMode::Total) {
            clipFactors(w.layerSqNorm0 + w.layerSqNorm1, rule.threshold, rule.margin, w.factor0);
            w.factor1 = w.factor0;
        } else {
            clipFactors(w.layerSqNorm0, rule.threshold, rule.margin, w.factor0);
            clipFactors(w.layerSqNorm1, rule.threshold, rule.margin, w.factor1);
        }
        w.deltaHidden.array().colwise() *= w.factor0.array();
        w.deltaOut.array().colwise() *= w.factor1.array();
    }
    addOuter(w.deltaHidden, X, sum.layers[0].W);
    sum.layers[0].b = w.deltaHidden.colwise().sum().transpose();
    addOuter(w.deltaOut, w.hidden, sum.layers[1].W);
    sum.layers[1].b = w.deltaOut.colwise().sum().transpose();
}

} // namespace elab::core
