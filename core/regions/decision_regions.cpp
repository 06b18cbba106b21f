#include "core/regions/decision_regions.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/regions/regions_impl.h"
#include "core/util/format_number.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

const OptionNames<PlaneKind>& planeKindNames() {
    static const OptionNames<PlaneKind> names{{PlaneKind::Features, "features"}, {PlaneKind::Pca, "pca"}};
    return names;
}

std::string RegionsSpec::validate() const {
    if (plane.kind == PlaneKind::Features && (plane.featureA < 0 || plane.featureB < 0))
        return "plane: feature indices must be ≥ 0";
    if (plane.kind == PlaneKind::Features && plane.featureA == plane.featureB)
        return "plane: the two features must differ";
    if (draws < 1 || draws > 20)
        return "draws must be in 1..20";
    if (gridSize < 16 || gridSize > 1024)
        return "grid size must be in 16..1024";
    if (!(margin >= 0.0 && margin <= 1.0))
        return "margin must be in [0, 1]";
    if (threads < 0)
        return "threads must be ≥ 0";
    if (maxRows != 0 && maxRows < 10)
        return "the picture's row limit must be 0 (all rows) or ≥ 10";
    if (std::string e = preparation.validate(); !e.empty())
        return e;
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    return solver.validate();
}

namespace {

constexpr Index kMaxPcaFeatures = 2000;

double column(const FeatureMatrix& X, Index i, Index j) { return X.value(i, j); }

Eigen::MatrixX2d featurePlane(const FeatureMatrix& X, Index a, Index b) {
    Eigen::MatrixX2d P(X.rows(), 2);
    for (Index i = 0; i < X.rows(); ++i) {
        P(i, 0) = column(X, i, a);
        P(i, 1) = column(X, i, b);
    }
    return P;
}

DenseMatrix denseOf(const FeatureMatrix& X) { return X.isSparse() ? DenseMatrix(X.sparse()) : X.dense(); }

/// The plane's coordinates: x ↦ (x − mean)ᵀ[v₁ v₂], from the training rows only (docs/MATH.md §6).
struct Pca {
    Eigen::RowVectorXd mean;
    Eigen::MatrixX2d axes;
    double explained[2] = {0, 0};
};

Pca pcaOf(const FeatureMatrix& X) {
    if (X.cols() > kMaxPcaFeatures)
        throw std::invalid_argument("PCA plane: " + std::to_string(X.cols()) + " features is more than " +
                                    std::to_string(kMaxPcaFeatures) +
                                    " (the covariance would be too large); choose two features");
    if (X.rows() < 3)
        throw std::invalid_argument("PCA plane: needs at least 3 training rows");
    const DenseMatrix D = denseOf(X);
    Pca pca;
    pca.mean = D.colwise().mean();
    const DenseMatrix C = D.rowwise() - pca.mean;
    const DenseMatrix cov = (C.transpose() * C) / static_cast<double>(D.rows() - 1);
    Eigen::SelfAdjointEigenSolver<DenseMatrix> eig(cov);
    const Index p = cov.rows();
    const double total = std::max(eig.eigenvalues().sum(), 1e-300);
    pca.axes.resize(p, 2);
    for (int k = 0; k < 2; ++k) {
        Eigen::VectorXd v = k < p ? Eigen::VectorXd(eig.eigenvectors().col(p - 1 - k)) : Eigen::VectorXd::Zero(p);
        Index big = 0; // sign fixed: the largest-magnitude component positive (deterministic)
        v.cwiseAbs().maxCoeff(&big);
        if (v(big) < 0)
            v = -v;
        pca.axes.col(k) = v;
        pca.explained[k] = k < p ? eig.eigenvalues()(p - 1 - k) / total : 0.0;
    }
    return pca;
}

Eigen::MatrixX2d project(const FeatureMatrix& X, const Pca& pca) {
    return (denseOf(X).rowwise() - pca.mean) * pca.axes;
}

/// (x₁, x₂) or (x₁, x₂, x₁², x₁x₂, x₂²).
DenseMatrix expand(const Eigen::MatrixX2d& P, bool quadratic) {
    DenseMatrix E(P.rows(), quadratic ? 5 : 2);
    E.leftCols(2) = P;
    if (quadratic) {
        E.col(2) = P.col(0).array().square();
        E.col(3) = P.col(0).array() * P.col(1).array();
        E.col(4) = P.col(1).array().square();
    }
    return E;
}

Dataset planeDataset(const std::string& name, const Eigen::MatrixX2d& P, bool quadratic, Targets targets,
                     const std::string axes[2]) {
    Dataset d;
    d.name = name;
    d.features = FeatureMatrix(expand(P, quadratic));
    d.targets = std::move(targets);
    d.featureNames = {axes[0], axes[1]};
    if (quadratic)
        d.featureNames.insert(d.featureNames.end(), {axes[0] + "²", axes[0] + "·" + axes[1], axes[1] + "²"});
    return d;
}

} // namespace

RegionsProblem::RegionsProblem(const Dataset& train, const std::optional<Dataset>& test, const RegionsSpec& spec)
    : m_impl(std::make_unique<Impl>()) {
    Impl& m = *m_impl;
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    m.spec = spec;
    if (!train.targets.isClassification())
        throw std::invalid_argument("decision regions need a class label; " + train.name + " has a regression target");

    // 1. Split / subsample / binarise as everywhere, but no feature scaling yet: that happens in the plane.
    DataPreparation raw = spec.preparation;
    raw.preprocess = PreprocessOptions{};
    raw.preprocess.norm = NormPolicy::None;
    raw.preprocess.positiveClass = spec.preparation.preprocess.positiveClass;
    // Bounds name the data's own columns: applied here, before a plane is chosen.
    raw.preprocess.bounds = spec.preparation.preprocess.bounds;
    raw.preprocess.privateBounds = spec.preparation.preprocess.privateBounds;
    // 0. A stated subsample for the picture, when the data is larger than the spec allows.
    auto cut = [&](const Dataset& d, const char* which, std::uint64_t stream) -> std::optional<Dataset> {
        if (spec.maxRows <= 0 || d.rows() <= spec.maxRows)
            return std::nullopt;
        m.log.push_back(
            {"subsample for the picture",
             std::string(which) + ": trained and drawn on " + std::to_string(spec.maxRows) + " of " +
                 std::to_string(d.rows()) +
                 " rows (those with the smallest seeded hashes of their content: one row changed, added or "
                 "removed replaces at most one of them); the mechanism's noise is scaled for these rows, so "
                 "the picture is that of a dataset of this size",
             false, true});
        return d.selectRows(contentRowSubset(d, spec.maxRows, deriveSeed(spec.seed, stream)));
    };
    std::optional<Dataset> cutTrain = cut(train, "training data", 0x7069637475726501ULL); // "picture"
    std::optional<Dataset> cutTest = test ? cut(*test, "test set", 0x7069637475726502ULL) : std::nullopt;
    PreparedData parts = prepareExperimentData(cutTrain ? std::move(*cutTrain) : train,
                                               cutTest ? std::move(cutTest) : test, raw, spec.seed);
    for (const ProcessingStep& step : parts.train.log)
        if (step.name != "no norm bound") // this "no norm" is temporary: the plane's own norm step follows
            m.log.push_back(step);
    const Targets& labels = parts.train.targets;
    const std::vector<Index> counts = labels.classCounts();
    if (std::count_if(counts.begin(), counts.end(), [](Index c) { return c > 0; }) < 2)
        throw std::invalid_argument("decision regions need at least two classes in the training rows");
    m.classNames = labels.classNames;

    // 2. The plane.
    const FeatureMatrix& X = parts.train.features;
    if (spec.plane.kind == PlaneKind::Features) {
        const Index p = X.cols();
        for (Index f : {spec.plane.featureA, spec.plane.featureB})
            if (f >= p)
                throw std::invalid_argument("plane: feature index " + std::to_string(f) +
                                            " is out of range (the data has " + std::to_string(p) +
                                            " features, numbered from 0)");
        m.axes[0] = parts.train.featureName(spec.plane.featureA);
        m.axes[1] = parts.train.featureName(spec.plane.featureB);
        m.trainPoints = featurePlane(X, spec.plane.featureA, spec.plane.featureB);
        if (parts.test)
            m.testPoints = featurePlane(parts.test->features, spec.plane.featureA, spec.plane.featureB);
        m.log.push_back({"feature plane", "features " + m.axes[0] + " and " + m.axes[1], false});
    } else {
        const Pca pca = pcaOf(X);
        for (int k = 0; k < 2; ++k)
            m.axes[k] = "PC" + std::to_string(k + 1) + " (" +
                        formatNumber(std::round(1000.0 * pca.explained[k]) / 10.0) + " % of variance)";
        m.trainPoints = project(X, pca);
        if (parts.test)
            m.testPoints = project(parts.test->features, pca);
        m.log.push_back({"PCA plane",
                         "first two principal components of the " + std::to_string(X.rows()) + " training rows' " +
                             std::to_string(X.cols()) + " features (" +
                             formatNumber(std::round(1000.0 * pca.explained[0]) / 10.0) + " % and " +
                             formatNumber(std::round(1000.0 * pca.explained[1]) / 10.0) +
                             " % of the variance): computed from the private data, not counted in ε",
                         true});
    }
    m.trainClass = labels.classIndex;
    if (parts.test)
        m.testClass = parts.test->targets.classIndex;
    if (spec.plane.quadratic)
        m.log.push_back({"quadratic expansion", "features (x₁, x₂, x₁², x₁x₂, x₂²) of the plane", false});

    // 3. The grid: the points' bounding box grown by the margin per side.
    Eigen::Vector2d lo = m.trainPoints.colwise().minCoeff(), hi = m.trainPoints.colwise().maxCoeff();
    if (m.testPoints.rows() > 0) {
        lo = lo.cwiseMin(Eigen::Vector2d(m.testPoints.colwise().minCoeff()));
        hi = hi.cwiseMax(Eigen::Vector2d(m.testPoints.colwise().maxCoeff()));
    }
    for (int k = 0; k < 2; ++k) {
        double extent = hi(k) - lo(k);
        if (!(extent > 0.0)) {
            lo(k) -= 1.0;
            hi(k) += 1.0;
            extent = 2.0;
        }
        lo(k) -= spec.margin * extent;
        hi(k) += spec.margin * extent;
    }
    m.x0 = lo(0), m.x1 = hi(0), m.y0 = lo(1), m.y1 = hi(1);
    const int G = spec.gridSize;
    Eigen::MatrixX2d cells(static_cast<Index>(G) * G, 2);
    for (int iy = 0; iy < G; ++iy)
        for (int ix = 0; ix < G; ++ix) {
            const Index c = static_cast<Index>(iy) * G + ix;
            cells(c, 0) = m.x0 + (ix + 0.5) * (m.x1 - m.x0) / G;
            cells(c, 1) = m.y0 + (iy + 0.5) * (m.y1 - m.y0) / G;
        }

    // 4. Expansion and the preparation, statistics from the training rows; the grid gets the same.
    PreprocessOptions prep = spec.preparation.preprocess;
    prep.positiveClass.reset(); // applied in step 1, like the bounds
    prep.bounds = PublicBounds{};
    prep.privateBounds.reset();
    m.train = planeDataset(parts.train.name, m.trainPoints, spec.plane.quadratic, labels, m.axes);
    m.train.preparationEpsilon = parts.train.preparationEpsilon;
    Dataset rawTrain = m.train;
    if (parts.test)
        m.test = planeDataset(parts.test->name, m.testPoints, spec.plane.quadratic, parts.test->targets, m.axes);
    preprocess(m.train, m.test ? &*m.test : nullptr, prep);
    m.log.insert(m.log.end(), m.train.log.begin(), m.train.log.end());
    Dataset grid = planeDataset("grid", cells, spec.plane.quadratic,
                                Targets::classification(Eigen::VectorXi::Zero(cells.rows()), m.classNames), m.axes);
    preprocess(rawTrain, &grid, prep);
    m.grid = std::move(grid.features);

    // 5. The learner in the plane and each draw's standard noise.
    // The guarantee is of the whole path from the file to the picture: every step of m.log counts
    // (a PCA plane, a data-derived schema), not only the plane's own preprocessing.
    SweepData data = sweepDataOf(m.train, m.test ? &*m.test : nullptr);
    data.pipeline = pipelineFacts(m.log, m.train.preparationEpsilon);
    m.prepared = prepareProblem(data, spec.mechanism, UtilityMetric::TrainAccuracy);
    for (int r = 0; r < spec.draws; ++r)
        m.noises.push_back(m.prepared->learner().drawNoise(spec.seed, r));
}

RegionsProblem::~RegionsProblem() = default;

const RegionsSpec& RegionsProblem::spec() const { return m_impl->spec; }
int RegionsProblem::classes() const { return static_cast<int>(m_impl->classNames.size()); }
const std::vector<std::string>& RegionsProblem::classNames() const { return m_impl->classNames; }
std::string RegionsProblem::axisName(int axis) const { return m_impl->axes[axis == 0 ? 0 : 1]; }
const std::vector<ProcessingStep>& RegionsProblem::log() const { return m_impl->log; }
double RegionsProblem::x0() const { return m_impl->x0; }
double RegionsProblem::x1() const { return m_impl->x1; }
double RegionsProblem::y0() const { return m_impl->y0; }
double RegionsProblem::y1() const { return m_impl->y1; }
const Eigen::MatrixX2d& RegionsProblem::trainPoints() const { return m_impl->trainPoints; }
const Eigen::VectorXi& RegionsProblem::trainClass() const { return m_impl->trainClass; }
const Eigen::MatrixX2d& RegionsProblem::testPoints() const { return m_impl->testPoints; }
const Eigen::VectorXi& RegionsProblem::testClass() const { return m_impl->testClass; }
const PreparedProblem& RegionsProblem::prepared() const { return *m_impl->prepared; }

} // namespace elab::core
