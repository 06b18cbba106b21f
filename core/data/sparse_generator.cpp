#include "core/data/sparse_generator.h"

#include "core/util/normal_sampler.h"
#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace elab::core {

namespace {

constexpr std::uint64_t kSparseStream = 0x7370617273650001ULL; // "sparse"

/// Cumulative Zipf(1) weights 1/(j+1), normalised: a draw is the first index whose cumulative
/// weight exceeds a uniform number.
std::vector<double> zipfCumulative(Index features) {
    std::vector<double> cdf(static_cast<std::size_t>(features));
    double total = 0.0;
    for (Index j = 0; j < features; ++j)
        cdf[static_cast<std::size_t>(j)] = total += 1.0 / static_cast<double>(j + 1);
    for (double& c : cdf)
        c /= total;
    cdf.back() = 1.0;
    return cdf;
}

Index zipfDraw(const std::vector<double>& cdf, Rng& rng) {
    const double u = uniform01(rng);
    return static_cast<Index>(std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin());
}

} // namespace

Dataset generateSparse(const GeneratorOptions& o, RunContext* ctx) {
    if (o.rows < 2)
        throw std::invalid_argument("sparse: needs at least 2 rows, got " + std::to_string(o.rows));
    if (o.features < 2)
        throw std::invalid_argument("sparse: features must be ≥ 2, got " + std::to_string(o.features));
    if (o.active < 1 || o.active > o.features)
        throw std::invalid_argument("sparse: active must be in [1, features = " + std::to_string(o.features) +
                                    "], got " + std::to_string(o.active));
    if (!(o.noise >= 0.0 && std::isfinite(o.noise)))
        throw std::invalid_argument("sparse: noise must be finite and ≥ 0");

    Rng rng(deriveSeed(o.seed, kSparseStream, 0));
    NormalSampler z(rng);
    Eigen::VectorXd w(o.features);
    for (Index j = 0; j < o.features; ++j)
        w[j] = z();
    const std::vector<double> cdf = zipfCumulative(o.features);
    const double scale = 1.0 / std::sqrt(static_cast<double>(o.active));

    const Index nnz = o.rows * o.active;
    SparseMatrix x(o.rows, o.features);
    x.resizeNonZeros(nnz);
    double* values = x.valuePtr();
    SparseMatrix::StorageIndex* inner = x.innerIndexPtr();
    SparseMatrix::StorageIndex* outer = x.outerIndexPtr();
    Eigen::VectorXi label(o.rows);
    Eigen::VectorXd score(o.rows), jitter(o.rows);
    std::vector<Index> row(static_cast<std::size_t>(o.active));
    Index positives = 0;
    const Index chunk = std::max<Index>(1, o.rows / 100);
    for (Index i = 0; i < o.rows; ++i) {
        if (ctx && i % chunk == 0) {
            ctx->throwIfStopped();
            ctx->progress(static_cast<double>(i) / static_cast<double>(o.rows), "generate");
        }
        for (Index k = 0; k < o.active; ++k) { // distinct features: redraw a repeat
            Index j = 0;
            do
                j = zipfDraw(cdf, rng);
            while (std::find(row.begin(), row.begin() + k, j) != row.begin() + k);
            row[static_cast<std::size_t>(k)] = j;
        }
        std::sort(row.begin(), row.end());
        double s = 0.0;
        outer[i] = static_cast<SparseMatrix::StorageIndex>(i * o.active);
        for (Index k = 0; k < o.active; ++k) {
            const Index j = row[static_cast<std::size_t>(k)];
            inner[i * o.active + k] = static_cast<SparseMatrix::StorageIndex>(j);
            values[i * o.active + k] = 1.0;
            s += w[j];
        }
        score[i] = s * scale;
        jitter[i] = o.noise * z();
    }
    // Centred: the common features would otherwise push most scores to one side.
    const double centre = score.mean();
    for (Index i = 0; i < o.rows; ++i) {
        label[i] = score[i] - centre + jitter[i] > 0.0 ? 1 : 0;
        positives += label[i];
    }
    outer[o.rows] = static_cast<SparseMatrix::StorageIndex>(nnz);
    if (ctx)
        ctx->progress(1.0, "generate");
    if (positives == 0 || positives == o.rows)
        throw std::invalid_argument("sparse: every row got the same label; use more rows");

    Dataset data;
    data.name = "sparse";
    data.features = FeatureMatrix(std::move(x));
    data.targets = Targets::classification(std::move(label), {"negative", "positive"});
    data.provenance = {"builtin:sparse", "generated", false, {}, 0};
    char text[320];
    std::snprintf(text, sizeof text,
                  "sparse: %lld rows (%lld positive) × %lld binary features, %lld on per row (Zipf(1) "
                  "frequencies); label = [Σ w_j/√%lld − (its mean) + %g·z > 0], w_j ~ N(0, 1); seed %llu",
                  static_cast<long long>(o.rows), static_cast<long long>(positives), static_cast<long long>(o.features),
                  static_cast<long long>(o.active), static_cast<long long>(o.active), o.noise,
                  static_cast<unsigned long long>(o.seed));
    data.log.push_back({"generated", text, false});
    return data;
}

} // namespace elab::core
