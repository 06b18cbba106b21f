#include "core/learners/linear_erm/one_vs_rest.h"

#include "core/learners/linear_erm/erm_mechanisms.h"
#include "core/model/linear_objective.h"
#include "core/model/sparse_rows.h"
#include "core/util/format_number.h"
#include "core/util/random.h"

#include <tbb/parallel_for.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace elab::core {

namespace {

// The prefix tree costs ≈ 6 ints per non-zero of the fitted rows: built up to this size only
// (a9a's distinct rows: 0.37 M non-zeros).
constexpr Eigen::Index kMaxPrefixTreeNonZeros = 5'000'000;
// Dense training rows with at most this share of non-zeros, and at least kMinSparseCopyCells
// entries, are fitted from a CSR copy (FeatureMatrix::sparseCopy): MNIST (60,000 × 784, 19 %
// non-zero) is 376 MB dense and 108 MB as CSR, and its passes read the matrix once each.
// Small dense sets (every built-in one) keep their dense fits.
constexpr double kMaxSparseCopyDensity = 0.3;
constexpr double kMinSparseCopyCells = 1 << 20;

// Throws unless every label is a class index < K (model k reads y_k = +1 where it is k, −1
// elsewhere: Labels::oneVsRest, no K label vectors).
void requireClassIndices(const Labels labels, int classes, const char* set) {
    for (Index i = 0; i < labels.size(); ++i)
        if (!(labels[i] >= 0.0 && labels[i] < classes && labels[i] == std::floor(labels[i])))
            throw std::invalid_argument(std::string("one-vs-rest over ") + std::to_string(classes) +
                                        " classes needs class indices 0.." + std::to_string(classes - 1) + " as " +
                                        set + " labels; row " + std::to_string(i) + " has " + formatNumber(labels[i]));
}

void requirePlusMinusOne(const Labels labels, const char* set) {
    for (Index i = 0; i < labels.size(); ++i)
        if (labels[i] != 1.0 && labels[i] != -1.0)
            throw std::invalid_argument(std::string("a margin loss needs ±1 ") + set + " labels; row " +
                                        std::to_string(i) + " has " + formatNumber(labels[i]) +
                                        " (multiclass data: give the class count for one-vs-rest, or binarise)");
}

} // namespace

OneVsRest::OneVsRest(const SweepData& data, const MechanismSpec& spec, UtilityMetric metric)
    : m_data(data), m_spec(spec), m_modelSpec(spec), m_metric(metric) {
    if (std::string e = validateLinearErm(spec); !e.empty())
        throw std::invalid_argument(e);
    if (usesTestSet(metric) && (!data.testX || !data.testY))
        throw std::invalid_argument(std::string("metric ") + toString(metric) + " needs a test set");
    if (data.classes == 1 || data.classes < 0)
        throw std::invalid_argument("the class count must be 0 (binary labels) or ≥ 2 (one-vs-rest)");
    const bool testUsed = usesTestSet(metric);
    if (data.classes >= 2 && !spec.model.loss.isMargin())
        throw std::invalid_argument("one-vs-rest trains binary classifiers: use a margin loss (logistic, huber, "
                                    "smooth-hinge), not the squared loss");
    if (spec.model.loss.isMargin())
        m_merged = mergeEqualRows(data.trainX);
    if (data.classes >= 2) {
        m_models = data.classes;
        m_modelSpec.privacy.delta = spec.privacy.delta / m_models;
        requireClassIndices(data.trainY, data.classes, "training");
        if (testUsed)
            requireClassIndices(*data.testY, data.classes, "test");
    } else if (spec.model.loss.isMargin()) {
        requirePlusMinusOne(data.trainY, "training");
        if (testUsed)
            requirePlusMinusOne(*data.testY, "test");
    }
    m_gram = gramMatrix(data.trainX);
    if (m_merged) {
        for (int k = 0; k < m_models; ++k)
            m_mergedPlus.push_back(m_merged->countWhere(trainLabels(k), 1.0));
        m_merged->rowOf = {}; // the counts are all the fits need
    }
    if (const FeatureMatrix& rows = m_merged ? m_merged->X : m_data.trainX;
        !rows.isSparse() &&
        static_cast<double>(rows.rows()) * static_cast<double>(rows.cols()) >= kMinSparseCopyCells) {
        if (std::optional<FeatureMatrix> copy = rows.sparseCopy(kMaxSparseCopyDensity)) {
            if (m_merged)
                m_merged->X = std::move(*copy);
            else
                m_fittedX = std::move(*copy);
        }
    }
    const FeatureMatrix& fitted = m_merged ? m_merged->X : fittedX();
    if (fitted.isSparse())
        m_rowScale = constantRowValues(fitted.csrRows());
    if (fitted.isSparse() && m_rowScale.size() > 0 && m_gram.size() > 0 &&
        fitted.storedEntries() <= static_cast<std::size_t>(kMaxPrefixTreeNonZeros)) {
        m_prefixTree.emplace(fitted.csrRows());
        if (!m_prefixTree->gramPays() && !m_prefixTree->passesPay())
            m_prefixTree.reset();
        else if (m_merged)
            mergedRowsInWalkOrder();
    }
}

void OneVsRest::mergedRowsInWalkOrder() {
    // The distinct rows have no order of their own (first occurrence): put them in the tree's
    // walk order, in which the passes visit them. The passes then read c⁺, c and the row scales
    // and write ℓ'' in sequence instead of scattered, and give the same values bit for bit (the
    // same rows in the same order; sums over the rows outside the tree run in the new order).
    const std::vector<int> order = m_prefixTree->walkOrder();
    m_merged->reorder(order);
    const auto permuted = [&order](const Eigen::VectorXd& v) {
        Eigen::VectorXd out(v.size());
        for (std::size_t u = 0; u < order.size(); ++u)
            out[static_cast<Index>(u)] = v[order[u]];
        return out;
    };
    for (Eigen::VectorXd& plus : m_mergedPlus)
        plus = permuted(plus);
    m_rowScale = permuted(m_rowScale);
    m_prefixTree->renumberRowsInWalkOrder();
}

PrivateFit OneVsRest::fitModel(int k, const MechanismSpec& spec, double eps, const NoiseDraw& noise,
                               const Eigen::VectorXd* warm, std::stop_token stop,
                               const NewtonCgOptions& options) const {
    const PrefixTree* prefixTree = m_prefixTree ? &*m_prefixTree : nullptr;
    if (m_merged)
        return fitPrivate(*m_merged, m_mergedPlus[static_cast<std::size_t>(k)], spec, eps, noise, warm, std::move(stop),
                          options, &m_gram, &m_rowScale, prefixTree);
    return fitPrivate(fittedX(), trainLabels(k), spec, eps, noise, warm, std::move(stop), options, &m_gram, &m_rowScale,
                      prefixTree);
}

Labels OneVsRest::trainLabels(int model) const {
    return m_models == 1 ? m_data.trainY : m_data.trainY.oneVsRest(model);
}

const FeatureMatrix& OneVsRest::metricX() const { return usesTestSet(m_metric) ? *m_data.testX : m_data.trainX; }

Labels OneVsRest::metricLabels(int model) const {
    const Labels labels = usesTestSet(m_metric) ? *m_data.testY : m_data.trainY;
    return m_models > 1 ? labels.oneVsRest(model) : labels;
}

std::vector<NoiseDraw> OneVsRest::drawNoise(std::uint64_t seed, int repetition) const {
    std::vector<NoiseDraw> noise;
    for (int k = 0; k < m_models; ++k) {
        Rng rng(deriveSeed(seed, static_cast<std::uint64_t>(repetition), static_cast<std::uint64_t>(k)));
        noise.push_back(core::drawNoise(m_data.trainX.cols(), rng));
    }
    return noise;
}

PrivacyGuarantee OneVsRest::guarantee(double eps) const {
    return oneVsRestGuarantee(m_spec, m_data.trainX.rows(), m_models, eps);
}

PrivacyGuarantee oneVsRestGuarantee(const MechanismSpec& spec, Index n, int models, double eps) {
    MechanismSpec modelSpec = spec;
    if (models > 1)
        modelSpec.privacy.delta = spec.privacy.delta / models;
    const double modelEps = eps / models;
    PrivacyGuarantee g = perturbedProblem(modelSpec, n, modelEps, NoiseDraw{}).guarantee;
    if (models == 1 || !g.isPrivate)
        return g;
    const std::string K = std::to_string(models);
    // K·(ε/K) may differ from ε in the last bit; the composed budget is the one asked for.
    g.epsilon = g.epsilon == modelEps ? eps : g.epsilon * models;
    g.delta = g.delta == modelSpec.privacy.delta ? spec.privacy.delta : g.delta * models;
    g.source += "; one-vs-rest by basic sequential composition (Dwork & Roth 2014, Thm 3.16)";
    for (std::string& note : g.notes)
        note = "each model: " + note;
    std::string split = "one-vs-rest over " + K + " classes: each model gets ε/K = " + formatNumber(modelEps);
    if (g.delta > 0.0)
        split += ", δ/K = " + formatNumber(modelSpec.privacy.delta);
    split += " (basic composition: every row is used by all " + K + " models)";
    g.notes.insert(g.notes.begin(), split);
    g.assumptions.push_back("the " + K +
                            " one-vs-rest models are released together; the (ε, δ) stated is for all of "
                            "them, each trained at (ε/K, δ/K)");
    return g;
}

OneVsRest::Models OneVsRest::fit(double eps, const std::vector<NoiseDraw>& noise,
                                 const std::vector<Eigen::VectorXd>* warm, std::stop_token stop,
                                 const NewtonCgOptions& options) const {
    Models fits(static_cast<std::size_t>(m_models));
    const auto fitOne = [&](int k) {
        const auto kk = static_cast<std::size_t>(k);
        fits[kk] = fitModel(k, m_modelSpec, modelEps(eps), noise[kk], warm ? &(*warm)[kk] : nullptr, stop, options);
    };
    if (m_models == 1)
        fitOne(0);
    else
        tbb::parallel_for(0, m_models, fitOne);
    return fits;
}

OneVsRest::Models OneVsRest::fitNonPrivate(std::stop_token stop, const NewtonCgOptions& options) const {
    MechanismSpec nonPrivate = m_modelSpec;
    nonPrivate.kind = MechanismKind::NonPrivate;
    Models fits;
    for (int k = 0; k < m_models; ++k)
        fits.push_back(fitModel(k, nonPrivate, 1.0, NoiseDraw{}, nullptr, stop, options));
    return fits;
}

double OneVsRest::utility(const Models& fits) const {
    if (m_metric == UtilityMetric::TrainLoss) {
        // Released θ = minimisers: the solvers' data terms are the metric (the same sums up to
        // rounding: (1/K) Σ_k (1/n) Σ_i ℓ), no pass over X.
        double sum = 0.0;
        for (const PrivateFit& f : fits)
            sum += f.trainLoss;
        if (std::isfinite(sum))
            return m_models == 1 ? sum : sum / m_models;
    }
    if (m_models == 1)
        return evaluateUtility(m_metric, m_spec.model.loss, metricX(), metricLabels(0), fits.front().theta);
    std::vector<Eigen::VectorXd> thetas;
    for (const PrivateFit& f : fits)
        thetas.push_back(f.theta);
    return evaluateOneVsRest(m_metric, m_spec.model.loss, metricX(),
                             usesTestSet(m_metric) ? *m_data.testY : m_data.trainY, thetas);
}

double OneVsRest::trainLossBound(double eps, const Models& nonPrivate) const {
    const Eigen::Index n = m_data.trainX.rows(), p = m_data.trainX.cols();
    const double mu0 = m_spec.model.lambda / static_cast<double>(n);
    const double maxNorm = m_data.trainX.maxRowNorm();
    const double rowNormSq = maxNorm * maxNorm;
    const double smoothness = m_spec.model.loss.curvatureBound() * rowNormSq + mu0; // of J, for output noise
    double sum = 0.0;
    for (int k = 0; k < m_models; ++k) {
        const auto moments = noiseMoments(m_modelSpec, n, p, modelEps(eps));
        if (!moments)
            return std::numeric_limits<double>::quiet_NaN();
        const Eigen::VectorXd& theta = nonPrivate[static_cast<std::size_t>(k)].minimiser;
        const double thetaSq = theta.squaredNorm();
        const double objective =
            evaluateUtility(UtilityMetric::TrainLoss, m_spec.model.loss, m_data.trainX, trainLabels(k), theta) +
            0.5 * mu0 * thetaSq;
        const double a = moments->extraRidge;
        const double energy = moments->linearEnergy + a * a * thetaSq;
        const double denominator = 2.0 * (2.0 * a + mu0);
        const double perturbed = energy == 0.0       ? 0.0
                                 : denominator > 0.0 ? energy / denominator
                                                     : std::numeric_limits<double>::infinity();
        sum += objective + perturbed + 0.5 * smoothness * moments->outputEnergy;
    }
    return sum / m_models;
}

TaylorPoint OneVsRest::taylorPoint(double eps, const std::vector<NoiseDraw>& noise, const Models& fits,
                                   bool secondOrder, std::vector<TaylorPoint>* perModel) const {
    std::vector<TaylorPoint> points;
    for (int k = 0; k < m_models; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        points.push_back(core::taylorPoint(m_data.trainX, trainLabels(k), m_modelSpec, modelEps(eps), noise[kk].z,
                                           fits[kk].minimiser, UtilityData{metricX(), metricLabels(k)}, secondOrder,
                                           &m_gram, trainRowScale()));
    }
    if (m_models == 1)
        return points.front();
    TaylorPoint combined = combine(points, eps);
    if (perModel)
        *perModel = std::move(points);
    return combined;
}

TaylorAnchor OneVsRest::taylorAnchor(const std::vector<NoiseDraw>& noise, const Models& nonPrivate,
                                     std::vector<TaylorAnchor>* perModel) const {
    std::vector<TaylorAnchor> anchors;
    for (int k = 0; k < m_models; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        anchors.push_back(core::taylorAnchor(m_data.trainX, trainLabels(k), m_modelSpec, nonPrivate[kk].minimiser,
                                             noise[kk].z, UtilityData{metricX(), metricLabels(k)}, &m_gram,
                                             trainRowScale()));
    }
    if (m_models == 1)
        return anchors.front();
    TaylorAnchor combined = combine(anchors);
    if (perModel)
        *perModel = std::move(anchors);
    return combined;
}

std::vector<NoiseExpansion> OneVsRest::noiseExpansions(const Models& nonPrivate) const {
    std::vector<NoiseExpansion> expansions;
    for (int k = 0; k < m_models; ++k)
        expansions.push_back(core::noiseExpansion(m_data.trainX, trainLabels(k), m_modelSpec,
                                                  nonPrivate[static_cast<std::size_t>(k)].minimiser,
                                                  UtilityData{metricX(), metricLabels(k)}));
    return expansions;
}

void OneVsRest::record(SolverSummary& summary, const Models& fits, double eps, int repetition) const {
    for (int k = 0; k < m_models; ++k)
        summary.add(solverRecord(fits[static_cast<std::size_t>(k)].solver, eps, repetition, m_models == 1 ? -1 : k));
}

bool OneVsRest::stopped(const Models& fits) {
    for (const PrivateFit& f : fits)
        if (f.solver.status == NewtonCgStatus::Stopped)
            return true;
    return false;
}

std::vector<Eigen::VectorXd> OneVsRest::minimisers(const Models& fits) {
    std::vector<Eigen::VectorXd> out;
    for (const PrivateFit& f : fits)
        out.push_back(f.minimiser);
    return out;
}

TaylorPoint OneVsRest::combine(const std::vector<TaylorPoint>& perModel, double eps) {
    const auto K = static_cast<double>(perModel.size());
    TaylorPoint c;
    c.eps = eps;
    Index p = 0;
    for (const TaylorPoint& t : perModel) {
        c.value += t.value;
        c.d1 += t.d1;
        c.d2 += t.d2;
        c.cgIterations += t.cgIterations;
        p += t.thetaD1.size();
    }
    c.value /= K;
    c.d1 /= K * K;     // (1/K) Σ F_k′(ε/K) · d(ε/K)/dε
    c.d2 /= K * K * K; // (1/K) Σ F_k″(ε/K) · (d(ε/K)/dε)²
    // dθ_k/dε = θ_k′(ε/K)/K, the models' derivatives stacked in class order.
    c.thetaD1.resize(p);
    Index offset = 0;
    for (const TaylorPoint& t : perModel) {
        c.thetaD1.segment(offset, t.thetaD1.size()) = t.thetaD1 / K;
        offset += t.thetaD1.size();
    }
    return c;
}

TaylorAnchor OneVsRest::combine(const std::vector<TaylorAnchor>& perModel) {
    const auto K = static_cast<double>(perModel.size());
    TaylorAnchor c;
    for (const TaylorAnchor& a : perModel) {
        c.value += a.value;
        c.slopeV += a.slopeV;
    }
    c.value /= K;
    c.slopeV /= std::sqrt(K); // model k sees v_k = √K·v: (1/K) Σ √K·dF_k/dv_k
    return c;
}

} // namespace elab::core
