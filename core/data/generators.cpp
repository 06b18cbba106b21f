#include "core/data/generators.h"

#include "core/data/sparse_generator.h"

#include "core/util/normal_sampler.h"
#include "core/util/random.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace elab::core {

namespace {

constexpr std::uint64_t kGeneratorStream = 0x67656E6572617465ULL; // "generate"
constexpr std::array<const char*, 4> kNames = {"blobs", "moons", "xor", "circles"};
constexpr double kPi = std::numbers::pi;

/// Rows of class k when n rows are split as evenly as possible over C classes.
Index classRows(Index n, int classes, int k) { return n / classes + (k < n % classes ? 1 : 0); }

/// What every generator fills, rows in class order (shuffled afterwards).
struct Draw {
    DenseMatrix x;
    Eigen::VectorXi classIndex;
    std::vector<std::string> names;
    std::string shape; ///< one sentence for the log
    Index next = 0;

    void put(double x1, double x2, int c) {
        x(next, 0) = x1;
        x(next, 1) = x2;
        classIndex[next] = c;
        ++next;
    }
};

// Centres on the unit circle at angles 2πk/C; isotropic Gaussian spread
// sd = 2·noise·d with d = 2·sin(π/C) the distance between neighbouring centres, so
// neighbours are 1/(2·noise) sds apart whatever C (default noise 0.1: 5 sds).
void blobs(Draw& d, const GeneratorOptions& o, Rng&, NormalSampler& z) {
    const int classes = o.classes;
    const double sd = 2.0 * o.noise * 2.0 * std::sin(kPi / classes);
    for (int k = 0; k < classes; ++k) {
        d.names.push_back(std::string(1, static_cast<char>('A' + k)));
        const double angle = 2.0 * kPi * k / classes;
        const double cx = std::cos(angle), cy = std::sin(angle);
        for (Index i = 0; i < classRows(o.rows, classes, k); ++i) {
            const double dx = sd * z();
            d.put(cx + dx, cy + sd * z(), k);
        }
    }
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "%d classes, centres on the unit circle, Gaussian sd 2·noise·(centre spacing) = %.4g", classes, sd);
    d.shape = buf;
}

// scikit-learn's make_moons (evenly spaced angles t ∈ [0, π], Gaussian jitter sd = noise),
// translated by (−0.5, −0.25) so the figure is centred at the origin: the upper moon is
// (cos t, sin t) − c and the lower one (1 − cos t, 0.5 − sin t) − c with c = (0.5, 0.25).
void moons(Draw& d, const GeneratorOptions& o, Rng&, NormalSampler& z) {
    d.names = {"upper moon", "lower moon"};
    for (int k = 0; k < 2; ++k) {
        const Index m = classRows(o.rows, 2, k);
        for (Index i = 0; i < m; ++i) {
            const double t = m > 1 ? kPi * double(i) / double(m - 1) : 0.0;
            const double x1 = k == 0 ? std::cos(t) - 0.5 : 0.5 - std::cos(t);
            const double x2 = k == 0 ? std::sin(t) - 0.25 : 0.25 - std::sin(t);
            const double dx = o.noise * z();
            d.put(x1 + dx, x2 + o.noise * z(), k);
        }
    }
    d.shape = "two half-moons of radius 1 (scikit-learn's make_moons, centred at the origin), "
              "Gaussian jitter sd = noise";
}

// Uniform in [−1, 1]² given the class: class 1 "x1·x2 > 0" (quadrants I, III), class 0
// "x1·x2 < 0" (II, IV); the label is sign(x1·x2) before the Gaussian jitter (sd = noise).
void xorQuadrants(Draw& d, const GeneratorOptions& o, Rng& rng, NormalSampler& z) {
    d.names = {"x1·x2 < 0", "x1·x2 > 0"};
    for (int k = 0; k < 2; ++k)
        for (Index i = 0; i < classRows(o.rows, 2, k); ++i) {
            const double a = 1.0 - uniform01(rng), b = 1.0 - uniform01(rng); // in (0, 1]
            const double s = uniformIndex(rng, 2) ? 1.0 : -1.0;
            const double x1 = s * a, x2 = (k == 1 ? s : -s) * b;
            const double dx = o.noise * z();
            d.put(x1 + dx, x2 + o.noise * z(), k);
        }
    d.shape = "uniform in [−1, 1]², label sign(x1·x2) before a Gaussian jitter sd = noise";
}

// scikit-learn's make_circles with factor 0.5: evenly spaced angles 2πi/m, radius 1 (class 0)
// and 0.5 (class 1), Gaussian jitter sd = noise.
void circles(Draw& d, const GeneratorOptions& o, Rng&, NormalSampler& z) {
    d.names = {"outer", "inner"};
    for (int k = 0; k < 2; ++k) {
        const Index m = classRows(o.rows, 2, k);
        const double r = k == 0 ? 1.0 : 0.5;
        for (Index i = 0; i < m; ++i) {
            const double t = 2.0 * kPi * double(i) / double(m);
            const double dx = o.noise * z();
            d.put(r * std::cos(t) + dx, r * std::sin(t) + o.noise * z(), k);
        }
    }
    d.shape = "concentric circles of radius 1 and 0.5, Gaussian jitter sd = noise";
}

int generatorId(const std::string& name) {
    for (std::size_t k = 0; k < kNames.size(); ++k)
        if (name == kNames[k])
            return static_cast<int>(k);
    return -1;
}

} // namespace

bool isGeneratorName(const std::string& name) { return name == "sparse" || generatorId(name) >= 0; }

Dataset generateDataset(const std::string& name, const GeneratorOptions& options, RunContext* ctx) {
    if (name == "sparse")
        return generateSparse(options, ctx);
    const int id = generatorId(name);
    if (id < 0)
        throw std::invalid_argument("unknown generator '" + name + "' (blobs, moons, xor, circles, sparse)");
    const int classes = id == 0 ? options.classes : 2;
    if (classes < 2 || classes > 26)
        throw std::invalid_argument("blobs: classes must be in [2, 26], got " + std::to_string(classes));
    if (options.rows < 2 || options.rows < classes)
        throw std::invalid_argument(name + ": needs at least 2 rows and one per class, got " +
                                    std::to_string(options.rows));
    if (!(options.noise >= 0.0 && std::isfinite(options.noise)))
        throw std::invalid_argument(name + ": noise must be finite and ≥ 0");

    Rng rng(deriveSeed(options.seed, kGeneratorStream, static_cast<std::uint64_t>(id)));
    NormalSampler z(rng);
    Draw d;
    d.x.resize(options.rows, 2);
    d.classIndex.resize(options.rows);
    switch (id) {
    case 0: blobs(d, options, rng, z); break;
    case 1: moons(d, options, rng, z); break;
    case 2: xorQuadrants(d, options, rng, z); break;
    default: circles(d, options, rng, z); break;
    }

    // Shuffle the row order (a preview then shows every class), same stream: deterministic.
    // 32-bit positions: half the memory of Index for a million rows (the loader caps generated
    // sets at 5·10⁸ rows); the same Fisher–Yates swaps, so the same order.
    if (options.rows > std::numeric_limits<std::int32_t>::max())
        throw std::invalid_argument(name + ": at most 2^31 − 1 rows");
    std::vector<std::int32_t> order(static_cast<std::size_t>(options.rows));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<std::int32_t>(i);
    shuffleInPlace(order, rng);
    // Row i ← row order[i], in place by the permutation's cycles (a shuffled copy of a million
    // rows doubled the memory of the load: issue 15). order entries are marked done as −1.
    for (std::size_t start = 0; start < order.size(); ++start) {
        if (order[start] < 0)
            continue;
        const Eigen::RowVector2d first = d.x.row(static_cast<Index>(start));
        const int firstClass = d.classIndex[static_cast<Index>(start)];
        std::size_t i = start;
        while (static_cast<std::size_t>(order[i]) != start) {
            const auto from = static_cast<std::size_t>(order[i]);
            d.x.row(static_cast<Index>(i)) = d.x.row(static_cast<Index>(from));
            d.classIndex[static_cast<Index>(i)] = d.classIndex[static_cast<Index>(from)];
            order[i] = -1;
            i = from;
        }
        d.x.row(static_cast<Index>(i)) = first;
        d.classIndex[static_cast<Index>(i)] = firstClass;
        order[i] = -1;
    }

    Dataset data;
    data.name = name;
    data.features = FeatureMatrix(std::move(d.x));
    data.targets = Targets::classification(std::move(d.classIndex), d.names);
    data.featureNames = {"x1", "x2"};
    data.columns = {{"x1", ColumnKind::Numeric, 0, {}, 0, 1},
                    {"x2", ColumnKind::Numeric, 0, {}, 1, 1},
                    {"label", ColumnKind::Label, 0, {}, -1, 0}};
    data.provenance = {"builtin:" + name, "generated", false, {}, 0};
    std::string perClass;
    for (int k = 0; k < classes; ++k)
        perClass += (k ? ", " : "") + std::to_string(classRows(options.rows, classes, k)) + " " +
                    d.names[static_cast<std::size_t>(k)];
    char params[96];
    std::snprintf(params, sizeof params, "noise %g, seed %llu", options.noise,
                  static_cast<unsigned long long>(options.seed));
    data.log.push_back(
        {"generated",
         name + ": " + std::to_string(options.rows) + " rows (" + perClass + "), " + params + "; " + d.shape, false});
    return data;
}

} // namespace elab::core
