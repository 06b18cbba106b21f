// The decision-regions engine (core/regions/, docs/MATH.md §6): a known boundary recovered on the
// grid, agreement at ε = ∞ and at small ε, 1 vs 2 threads identical, cancel, the PCA plane,
// quadratic expansion, marching squares on a known field, bad input.

#include <tbb/task_arena.h> // before Qt: TBB uses the name "emit"

#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "core/regions/decision_regions.h"
#include "core/regions/marching_squares.h"
#include "resources/builtin_resources.h"

#include "tests/support/test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

using namespace elab::core;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Two classes split by the line x₂ = 0.5·x₁ (no noise), points uniform in [−1, 1]².
Dataset lineData(Index n, std::uint64_t seed) {
    Rng rng(seed);
    DenseMatrix X(n, 2);
    Eigen::VectorXi cls(n);
    for (Index i = 0; i < n; ++i) {
        X(i, 0) = 2.0 * uniform01(rng) - 1.0;
        X(i, 1) = 2.0 * uniform01(rng) - 1.0;
        cls(i) = X(i, 1) > 0.5 * X(i, 0) ? 1 : 0;
    }
    Dataset d;
    d.name = "line";
    d.features = FeatureMatrix(X);
    d.targets = Targets::classification(cls, {"below", "above"});
    d.featureNames = {"a", "b"};
    return d;
}

RegionsSpec baseSpec() {
    RegionsSpec s;
    s.mechanism.kind = MechanismKind::ObjPertGauss;
    s.mechanism.model.lambda = 1e-2;
    s.draws = 5;
    s.gridSize = 64;
    s.seed = 3;
    return s;
}

Dataset builtin(const std::string& name) {
    return loadDataset("builtin:" + name, LoadOptions{}, elab::resources::builtinBytesProvider());
}

} // namespace

class TestRegions : public QObject {
    Q_OBJECT

private slots:
    void knownLinearBoundaryIsRecovered() {
        RegionsSpec s = baseSpec();
        s.preparation.preprocess.norm = NormPolicy::None; // the plane as is: the boundary stays the line
        s.mechanism.kind = MechanismKind::NonPrivate;
        s.mechanism.model.lambda = 1e-4;
        const RegionsProblem problem(lineData(2000, 1), std::nullopt, s);
        const RegionsResult r = evaluateRegions(problem, kInf);
        QVERIFY(!r.stopped);
        QVERIFY(r.nonPrivate.trainAccuracy > 0.98);
        // Every cell at least 0.15 (in y) from the line has the line's class.
        const int G = s.gridSize;
        int checked = 0;
        for (int iy = 0; iy < G; ++iy)
            for (int ix = 0; ix < G; ++ix) {
                const double x = problem.x0() + (ix + 0.5) * (problem.x1() - problem.x0()) / G;
                const double y = problem.y0() + (iy + 0.5) * (problem.y1() - problem.y0()) / G;
                if (std::abs(y - 0.5 * x) < 0.15)
                    continue;
                ++checked;
                QCOMPARE(int(r.nonPrivate.cellClass[static_cast<std::size_t>(iy * G + ix)]), y > 0.5 * x ? 1 : 0);
            }
        QVERIFY(checked > G * G / 2);
        // The boundary polyline lies near the line, within the data's box.
        QVERIFY(!r.nonPrivate.boundaries.empty());
        for (const Polyline& chain : r.nonPrivate.boundaries)
            for (const auto& pt : chain)
                if (std::abs(pt[0]) < 0.9)
                    QVERIFY2(std::abs(pt[1] - 0.5 * pt[0]) < 0.1,
                             qPrintable(QString("(%1, %2)").arg(pt[0]).arg(pt[1])));
    }

    void agreementIsOneAtInfinityAndBelowOneAtSmallEps() {
        const RegionsSpec s = baseSpec();
        GeneratorOptions g;
        g.rows = 300;
        g.noise = 0.2;
        const RegionsProblem problem(generateDataset("moons", g), std::nullopt, s);
        const RegionsResult inf = evaluateRegions(problem, kInf);
        QVERIFY(inf.draws.empty());
        for (float a : inf.agreement)
            QCOMPARE(a, 1.0f);
        const RegionsResult small = evaluateRegions(problem, 0.01);
        QCOMPARE(small.draws.size(), std::size_t(5));
        QVERIFY(*std::min_element(small.agreement.begin(), small.agreement.end()) < 1.0f);
        const RegionsResult big = evaluateRegions(problem, 1e6);
        float lowest = 1.0f;
        for (float a : big.agreement)
            lowest = std::min(lowest, a);
        // At huge ε the draws are nearly the non-private model: disagreement only in a thin band.
        std::size_t disagree = 0;
        for (float a : big.agreement)
            disagree += a < 1.0f ? 1 : 0;
        QVERIFY2(disagree < big.agreement.size() / 50, qPrintable(QString::number(disagree)));
        QVERIFY(big.trainAccuracyMean > small.trainAccuracyMean);
        QCOMPARE(small.guarantee.epsilon, 0.01);
        QVERIFY(small.guarantee.isPrivate);
    }

    // A dataset over spec.maxRows is pictured on a seeded subsample of that many rows, logged;
    // below the limit nothing changes.
    void largeDataIsPicturedOnAStatedSubsample() {
        RegionsSpec s = baseSpec();
        s.preparation.testFraction = 0.3;
        s.maxRows = 400;
        GeneratorOptions g;
        g.rows = 3000;
        g.noise = 0.2;
        const Dataset data = generateDataset("moons", g);
        const RegionsProblem cut(data, std::nullopt, s);
        QCOMPARE(cut.trainPoints().rows() + cut.testPoints().rows(), Index(400));
        const auto& log = cut.log();
        const auto step = std::find_if(log.begin(), log.end(),
                                       [](const ProcessingStep& p) { return p.name == "subsample for the picture"; });
        QVERIFY(step != log.end());
        QVERIFY2(step->detail.find("400 of 3000 rows") != std::string::npos, step->detail.c_str());
        QVERIFY(!step->leaksPrivacy); // chosen without looking at the data
        const RegionsProblem again(data, std::nullopt, s);
        QVERIFY(cut.trainPoints() == again.trainPoints());
        QCOMPARE(evaluateRegions(cut, 1.0).trainAccuracyMean, evaluateRegions(again, 1.0).trainAccuracyMean);
        // Every pictured point is a row of the data (plane = the two features, no scaling yet).
        for (Index i = 0; i < cut.trainPoints().rows(); i += 37) {
            bool found = false;
            for (Index r = 0; r < data.rows() && !found; ++r)
                found = data.features.dense()(r, 0) == cut.trainPoints()(i, 0) &&
                        data.features.dense()(r, 1) == cut.trainPoints()(i, 1);
            QVERIFY(found);
        }
        s.maxRows = 3000;
        const RegionsProblem whole(data, std::nullopt, s);
        QCOMPARE(whole.trainPoints().rows() + whole.testPoints().rows(), Index(3000));
        QVERIFY(std::none_of(whole.log().begin(), whole.log().end(),
                             [](const ProcessingStep& p) { return p.name == "subsample for the picture"; }));
        s.maxRows = 5;
        QVERIFY(!s.validate().empty());
    }

    void sameResultForOneAndTwoThreads() {
        const RegionsSpec s = baseSpec();
        GeneratorOptions g;
        g.rows = 300;
        const RegionsProblem problem(generateDataset("blobs", g), std::nullopt, s);
        RegionsResult one, two;
        tbb::task_arena(1).execute([&] { one = evaluateRegions(problem, 0.5); });
        tbb::task_arena(2).execute([&] { two = evaluateRegions(problem, 0.5); });
        QVERIFY(one.majority == two.majority);
        QVERIFY(one.agreement == two.agreement);
        QCOMPARE(one.draws.size(), two.draws.size());
        for (std::size_t r = 0; r < one.draws.size(); ++r) {
            QVERIFY(one.draws[r].cellClass == two.draws[r].cellClass);
            QVERIFY(one.draws[r].boundaries == two.draws[r].boundaries);
            ELAB_EXACT(one.draws[r].trainAccuracy, two.draws[r].trainAccuracy);
        }
        QVERIFY(one.trainMisclassified == two.trainMisclassified);
        // A warm start gives the same classes (the minimiser is unique; ties aside).
        const RegionsResult warm = evaluateRegions(problem, 0.5, {}, &one);
        QVERIFY(warm.majority == one.majority);
    }

    void cancelGivesAStoppedResult() {
        const RegionsSpec s = baseSpec();
        GeneratorOptions g;
        g.rows = 200;
        const RegionsProblem problem(generateDataset("moons", g), std::nullopt, s);
        std::stop_source stop;
        stop.request_stop();
        const RegionsResult r = evaluateRegions(problem, 1.0, stop.get_token());
        QVERIFY(r.stopped);
    }

    void pcaPlaneOnIrisIsLabelledAndOrthonormal() {
        RegionsSpec s = baseSpec();
        s.plane.kind = PlaneKind::Pca;
        s.preparation.testFraction = 0.3;
        const RegionsProblem problem(builtin("iris"), std::nullopt, s);
        QCOMPARE(problem.classes(), 3);
        QVERIFY(QString::fromStdString(problem.axisName(0)).startsWith("PC1 ("));
        QVERIFY(QString::fromStdString(problem.axisName(1)).startsWith("PC2 ("));
        bool leaks = false;
        for (const ProcessingStep& step : problem.log())
            leaks = leaks || (step.name == "PCA plane" && step.leaksPrivacy);
        QVERIFY(leaks);
        QVERIFY(problem.testPoints().rows() > 0);
        // The projected training points are centred (the mean comes from them) and uncorrelated.
        const Eigen::MatrixX2d& P = problem.trainPoints();
        ELAB_FUZZY(P.col(0).mean(), 0.0, 1e-12);
        ELAB_FUZZY(P.col(0).dot(P.col(1)) / static_cast<double>(P.rows()), 0.0, 1e-10);
        QVERIFY(P.col(0).squaredNorm() >= P.col(1).squaredNorm());
        const RegionsResult r = evaluateRegions(problem, 5.0);
        QVERIFY(!r.stopped);
        QVERIFY(r.testAccuracyMean > 0.5);
        QVERIFY(std::isfinite(r.testAccuracySd));
    }

    void quadraticExpansionSeparatesCircles() {
        RegionsSpec s = baseSpec();
        s.mechanism.kind = MechanismKind::NonPrivate;
        GeneratorOptions g;
        g.rows = 400;
        g.noise = 0.05;
        const Dataset circles = generateDataset("circles", g);
        const RegionsResult linear = evaluateRegions(RegionsProblem(circles, std::nullopt, s), kInf);
        s.plane.quadratic = true;
        const RegionsProblem quadratic(circles, std::nullopt, s);
        const RegionsResult q = evaluateRegions(quadratic, kInf);
        QVERIFY2(q.nonPrivate.trainAccuracy > 0.95, qPrintable(QString::number(q.nonPrivate.trainAccuracy)));
        QVERIFY2(linear.nonPrivate.trainAccuracy < 0.75, qPrintable(QString::number(linear.nonPrivate.trainAccuracy)));
    }

    void marchingSquaresTraceACircle() {
        const int n = 101;
        const double x0 = -1.0, dx = 0.02, r = 0.6;
        std::vector<double> field(static_cast<std::size_t>(n * n));
        for (int iy = 0; iy < n; ++iy)
            for (int ix = 0; ix < n; ++ix) {
                const double x = x0 + ix * dx, y = x0 + iy * dx;
                field[static_cast<std::size_t>(iy * n + ix)] = x * x + y * y - r * r;
            }
        const auto chains = zeroContours(field, n, n, x0, x0, dx, dx);
        QCOMPARE(chains.size(), std::size_t(1));
        const Polyline& c = chains.front();
        QVERIFY(c.size() > 100);
        QCOMPARE(c.front(), c.back()); // closed
        for (const auto& pt : c)
            ELAB_FUZZY(std::hypot(pt[0], pt[1]), r, dx);
    }

    void simplifiedChainsStayWithinTheTolerance() {
        // A straight contour: one point per cell crossed, collinear; simplified, its two ends.
        const int n = 64;
        const double x0 = -1.0, dx = 2.0 / n, dy = 3.0 / n;
        std::vector<double> field(static_cast<std::size_t>(n * n));
        for (int iy = 0; iy < n; ++iy)
            for (int ix = 0; ix < n; ++ix)
                field[static_cast<std::size_t>(iy * n + ix)] = 0.3 * (x0 + ix * dx) - 0.7 * (x0 + iy * dy) + 0.05;
        const auto lines = zeroContours(field, n, n, x0, x0, dx, dy);
        QCOMPARE(lines.size(), std::size_t(1));
        QVERIFY(lines.front().size() > 20);
        const Polyline straight = simplifyChain(lines.front(), dx, dy, 0.02);
        QCOMPARE(straight.size(), std::size_t(2));
        QVERIFY(straight.front() == lines.front().front() && straight.back() == lines.front().back());

        // A circle: fewer points, still closed, the first point kept, and every dropped point
        // within the tolerance (in cells) of the simplified chain.
        const int m = 101;
        const double c0 = -1.0, cd = 0.02, r = 0.6, tolerance = 0.02;
        std::vector<double> circle(static_cast<std::size_t>(m * m));
        for (int iy = 0; iy < m; ++iy)
            for (int ix = 0; ix < m; ++ix) {
                const double x = c0 + ix * cd, y = c0 + iy * cd;
                circle[static_cast<std::size_t>(iy * m + ix)] = x * x + y * y - r * r;
            }
        const Polyline ring = zeroContours(circle, m, m, c0, c0, cd, cd).front();
        const Polyline simple = simplifyChain(ring, cd, cd, tolerance);
        QVERIFY2(simple.size() < ring.size() && simple.size() > 8,
                 qPrintable(QString("%1 of %2").arg(simple.size()).arg(ring.size())));
        QVERIFY(simple.front() == ring.front() && simple.back() == ring.back());
        auto toSegment = [](const std::array<double, 2>& p, const std::array<double, 2>& a,
                            const std::array<double, 2>& b) {
            const double bx = b[0] - a[0], by = b[1] - a[1], l2 = bx * bx + by * by;
            const double t = l2 > 0.0 ? std::clamp(((p[0] - a[0]) * bx + (p[1] - a[1]) * by) / l2, 0.0, 1.0) : 0.0;
            return std::hypot(p[0] - a[0] - t * bx, p[1] - a[1] - t * by);
        };
        double worst = 0.0;
        for (const auto& p : ring) {
            double nearest = std::numeric_limits<double>::infinity();
            for (std::size_t k = 0; k + 1 < simple.size(); ++k)
                nearest = std::min(nearest, toSegment(p, simple[k], simple[k + 1]));
            worst = std::max(worst, nearest / cd);
        }
        QVERIFY2(worst <= tolerance, qPrintable(QString::number(worst)));
        QVERIFY(worst > 0.0); // points were dropped that were not on the chain's segments
        // A smaller tolerance keeps more points; zero keeps every point off the chords.
        QVERIFY(simplifyChain(ring, cd, cd, 0.001).size() > simple.size());
        QVERIFY(simplifyChain(Polyline{{0.0, 0.0}, {1.0, 1.0}}, 1.0, 1.0, 0.5).size() == 2);
    }

    void badInputIsNamed() {
        GeneratorOptions g;
        g.rows = 100;
        const Dataset moons = generateDataset("moons", g);
        auto expectError = [&](const RegionsSpec& s, const Dataset& d, const char* words) {
            try {
                RegionsProblem problem(d, std::nullopt, s);
                QFAIL(qPrintable(QString("no error, expected one about: %1").arg(words)));
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QString::fromUtf8(words)), e.what());
            }
        };
        RegionsSpec s = baseSpec();
        s.plane.featureB = 5;
        expectError(s, moons, "out of range");
        s.plane.featureB = 0;
        expectError(s, moons, "must differ");
        s = baseSpec();
        s.draws = 0;
        expectError(s, moons, "draws");
        expectError(baseSpec(), builtin("diabetes"), "regression");
        Dataset one = moons;
        one.targets = Targets::classification(Eigen::VectorXi::Zero(moons.rows()), moons.targets.classNames);
        expectError(baseSpec(), one, "two classes");
    }
};

QTEST_GUILESS_MAIN(TestRegions)
#include "test_regions.moc"
