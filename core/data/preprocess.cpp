#include "core/data/preprocess.h"

#include "core/data/processing_log.h"
#include "core/util/format_number.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace elab::core {

const OptionNames<NormPolicy>& normPolicyNames() {
    static const OptionNames<NormPolicy> names{
        {NormPolicy::ClipRows, "clip"}, {NormPolicy::ScaleByMaxNorm, "max"}, {NormPolicy::None, "none"}};
    return names;
}

namespace {

std::string count(Index v) { return std::to_string(v); }

std::string joinedUpTo(const std::vector<std::string>& names, std::size_t maxShown = 6) {
    std::string out;
    for (std::size_t k = 0; k < names.size() && k < maxShown; ++k)
        out += (k ? ", " : "") + names[k];
    if (names.size() > maxShown)
        out += ", … (" + std::to_string(names.size()) + " in all)";
    return out;
}

using detail::appendStep;

int findClass(const Targets& t, const std::string& name) {
    for (int c = 0; c < t.classCount(); ++c)
        if (t.classNames[static_cast<std::size_t>(c)] == name)
            return c;
    return -1;
}

// That class → class index 1 (+1), every other → 0 (−1). Returns the positive count.
Index binarise(Targets& t, int positive, const std::string& name) {
    Eigen::VectorXi ci(t.size());
    for (Index i = 0; i < t.size(); ++i)
        ci[i] = t.classIndex[i] == positive ? 1 : 0;
    const Index positives = ci.sum();
    t = Targets::classification(std::move(ci), {"not " + name, name});
    return positives;
}

void binariseStep(Dataset& train, Dataset* test, const std::string& name) {
    if (!train.targets.isClassification())
        throw std::invalid_argument("positive class '" + name + "' given, but the target is a regression target");
    const int positive = findClass(train.targets, name);
    if (positive < 0)
        throw std::invalid_argument("unknown class '" + name +
                                    "' (classes: " + joinedUpTo(train.targets.classNames, 1000) + ")");
    const int others = train.targets.classCount() - 1;
    const Index n = train.rows();
    const Index trainPos = binarise(train.targets, positive, name);
    std::string detail = "'" + name + "' → +1 (class 1), the other " + std::to_string(others) +
                         (others == 1 ? " class" : " classes") + " → −1 (class 0): train " + count(trainPos) +
                         " positive / " + count(n - trainPos) + " negative";
    if (test) {
        if (!test->targets.isClassification())
            throw std::invalid_argument("test set has a regression target, train a class target");
        // Looked up by name: a test set may lack the class, then all its rows are negative.
        const Index testPos = binarise(test->targets, findClass(test->targets, name), name);
        detail += "; test " + count(testPos) + " / " + count(test->rows() - testPos);
    }
    appendStep(train, test, {"binarise labels", detail, false});
}

struct ColumnStats {
    Eigen::VectorXd mean;
    Eigen::VectorXd sd; // population sd (divide by n); 0 for a constant column
    std::vector<std::string> constant;
    Index constantCount = 0;
};

// Corrected two-pass mean and population sd per column (Chan, Golub & LeVeque 1983):
// with m = Σx/n and r = Σ(x − m), mean = m + r/n and sd² = (Σ(x − m)² − r²/n)/n.
// A column is constant when min == max; its mean is then that value exactly, so centring
// gives exact zeros.
ColumnStats columnStats(const Dataset& data) {
    const FeatureMatrix& x = data.features;
    const Index n = x.rows(), p = x.cols();
    ColumnStats s;
    s.mean = Eigen::VectorXd::Zero(p);
    s.sd = Eigen::VectorXd::Zero(p);
    Eigen::VectorXd lo, hi;
    if (!x.isSparse()) {
        const DenseMatrix& d = x.dense();
        s.mean = d.colwise().mean().transpose();
        lo = d.colwise().minCoeff().transpose();
        hi = d.colwise().maxCoeff().transpose();
        for (Index j = 0; j < p; ++j) {
            const auto dev = d.col(j).array() - s.mean[j];
            const double r = dev.sum();
            s.sd[j] = std::sqrt(std::max(0.0, (dev.square().sum() - r * r / double(n)) / double(n)));
            s.mean[j] += r / double(n);
        }
    } else {
        const SparseMatrix& m = x.sparse();
        Eigen::VectorXd sum = Eigen::VectorXd::Zero(p), sq = Eigen::VectorXd::Zero(p);
        Eigen::VectorXi stored = Eigen::VectorXi::Zero(p);
        lo = Eigen::VectorXd::Constant(p, HUGE_VAL);
        hi = Eigen::VectorXd::Constant(p, -HUGE_VAL);
        for (Index i = 0; i < n; ++i)
            for (SparseMatrix::InnerIterator it(m, i); it; ++it) {
                sum[it.col()] += it.value();
                ++stored[it.col()];
                lo[it.col()] = std::min(lo[it.col()], it.value());
                hi[it.col()] = std::max(hi[it.col()], it.value());
            }
        s.mean = sum / double(n);
        Eigen::VectorXd r = Eigen::VectorXd::Zero(p);
        for (Index i = 0; i < n; ++i)
            for (SparseMatrix::InnerIterator it(m, i); it; ++it) {
                const double dev = it.value() - s.mean[it.col()];
                r[it.col()] += dev;
                sq[it.col()] += dev * dev;
            }
        for (Index j = 0; j < p; ++j) {
            const auto zeros = double(n - stored[j]);
            if (zeros > 0) {
                lo[j] = std::min(lo[j], 0.0);
                hi[j] = std::max(hi[j], 0.0);
            }
            r[j] -= zeros * s.mean[j];
            sq[j] += zeros * s.mean[j] * s.mean[j];
            s.sd[j] = std::sqrt(std::max(0.0, (sq[j] - r[j] * r[j] / double(n)) / double(n)));
            s.mean[j] += r[j] / double(n);
        }
    }
    for (Index j = 0; j < p; ++j)
        if (lo[j] == hi[j]) {
            s.mean[j] = lo[j];
            s.sd[j] = 0.0;
            ++s.constantCount;
            s.constant.push_back(data.featureName(j));
        }
    return s;
}

// Dense: x_j ← (x_j − mean_j)/sd_j, constant columns only centred.
// Sparse: x_j ← x_j/sd_j (not centred: that would densify), constant columns unchanged.
void applyStandardise(FeatureMatrix& x, const ColumnStats& s) {
    if (!x.isSparse()) {
        DenseMatrix& d = x.mutableDense();
        for (Index j = 0; j < d.cols(); ++j) {
            d.col(j).array() -= s.mean[j];
            if (s.sd[j] > 0.0)
                d.col(j) /= s.sd[j];
        }
        return;
    }
    SparseMatrix& m = x.mutableSparse();
    for (Index i = 0; i < m.outerSize(); ++i)
        for (SparseMatrix::InnerIterator it(m, i); it; ++it)
            if (s.sd[it.col()] > 0.0)
                it.valueRef() /= s.sd[it.col()];
}

void standardiseStep(Dataset& train, Dataset* test) {
    const Index n = train.rows(), p = train.featureCount();
    if (n == 0)
        throw std::invalid_argument("standardise needs at least one training row");
    const ColumnStats s = columnStats(train);
    applyStandardise(train.features, s);
    if (test)
        applyStandardise(test->features, s);
    const bool sparse = train.features.isSparse();
    std::string detail = sparse ? std::to_string(p) + " sparse columns divided by their training sd, not centred "
                                                      "(centring would make the matrix dense)"
                                : std::to_string(p) + " columns centred and divided by their training sd";
    detail += "; sd is the population sd (divide by n = " + count(n) + ")";
    if (p > s.constantCount) {
        double sdMin = HUGE_VAL, sdMax = 0.0;
        for (Index j = 0; j < p; ++j)
            if (s.sd[j] > 0.0) {
                sdMin = std::min(sdMin, s.sd[j]);
                sdMax = std::max(sdMax, s.sd[j]);
            }
        detail += ", sds " + formatNumber(sdMin) + " … " + formatNumber(sdMax);
    }
    if (s.constantCount > 0)
        detail += "; " + count(s.constantCount) + " constant column(s) (sd 0) " +
                  (sparse ? "left unchanged" : "centred only, not divided") + ": " + joinedUpTo(s.constant);
    if (test)
        detail += "; the test set uses the training means and sds";
    detail += ". Leaks: uses the private data's column means and sds";
    appendStep(train, test, {"standardise", detail, true});
}

void interceptStep(Dataset& train, Dataset* test) {
    const Index p = train.featureCount();
    for (Dataset* d : {&train, test}) {
        if (!d)
            continue;
        const bool named = static_cast<Index>(d->featureNames.size()) == d->featureCount();
        d->features.appendConstantColumn(1.0);
        if (named)
            d->featureNames.push_back("intercept");
    }
    appendStep(train, test,
               {"intercept",
                "appended a constant-1 feature 'intercept' (column " + std::to_string(p + 1) +
                    ") before the norm step, so it is bounded with the row and penalised like "
                    "any weight",
                false});
}

struct ClipCount {
    Index clipped = 0;
    double maxNorm = 0.0;
};

// x ← x / max(1, ‖x‖₂) per row (docs/MATH.md §1): rows inside the unit ball are left bit-identical.
// The count and the largest norm come from one pass without an n-vector of norms.
ClipCount clipRows(FeatureMatrix& x) {
    const FeatureMatrix::NormsAbove above = x.rowNormsAbove(1.0);
    if (above.count > 0)
        x.clipRows();
    return {above.count, above.largest};
}

Index rowsAbove(const Eigen::VectorXd& norms, double bound) {
    return static_cast<Index>((norms.array() > bound).count());
}

double maxOf(const Eigen::VectorXd& v) { return v.size() ? v.maxCoeff() : 0.0; }

void normStep(Dataset& train, Dataset* test, NormPolicy policy) {
    const Index n = train.rows();
    if (policy == NormPolicy::ClipRows) {
        const ClipCount tr = clipRows(train.features);
        const std::string detail = "x ← x / max(1, ‖x‖₂): clipped " + count(tr.clipped) + " of " + count(n) +
                                   " training rows (largest norm " + formatNumber(tr.maxNorm) + ") to ‖x‖₂ ≤ 1";
        std::string testDetail;
        if (test) {
            const ClipCount te = clipRows(test->features);
            testDetail = "x ← x / max(1, ‖x‖₂): clipped " + count(te.clipped) + " of " + count(test->rows()) +
                         " test rows (largest norm " + formatNumber(te.maxNorm) + ") to ‖x‖₂ ≤ 1";
        }
        appendStep(train, test, {"clip rows", detail, false}, testDetail);
        return;
    }
    const Eigen::VectorXd norms = train.features.rowNorms();
    const double maxNorm = maxOf(norms);
    if (policy == NormPolicy::ScaleByMaxNorm) {
        std::string detail;
        if (maxNorm > 0.0) {
            const double factor = 1.0 / maxNorm;
            train.features.scaleRows(Eigen::VectorXd::Constant(n, factor));
            detail = "divided every row by the largest training row norm " + formatNumber(maxNorm);
            if (test) {
                test->features.scaleRows(Eigen::VectorXd::Constant(test->rows(), factor));
                const Eigen::VectorXd testNorms = test->features.rowNorms();
                detail += " (test rows too: " + count(rowsAbove(testNorms, 1.0)) +
                          " of them still have ‖x‖₂ > 1, largest " + formatNumber(maxOf(testNorms)) + ")";
            }
        } else {
            detail = "all training rows are zero: nothing to scale";
        }
        appendStep(train, test,
                   {"scale by max norm", detail + ". Leaks: the scale is the private data's max norm", true});
        return;
    }
    if (policy != NormPolicy::None)
        throw std::invalid_argument("unknown norm policy");
    std::string detail = "rows left as they are: " + count(rowsAbove(norms, 1.0)) + " of " + count(n) +
                         " training rows have ‖x‖₂ > 1 (largest " + formatNumber(maxNorm) + ")";
    if (test)
        detail += ", " + count(rowsAbove(test->features.rowNorms(), 1.0)) + " of " + count(test->rows()) + " test rows";
    detail += ". Every privacy guarantee assumes ‖x‖₂ ≤ 1; nothing enforces it, so the "
              "reported ε does not hold";
    appendStep(train, test, {"no norm bound", detail, true});
}

} // namespace

std::vector<std::string> plannedLeaks(const PreprocessOptions& options) {
    std::vector<std::string> out;
    if (options.standardise)
        out.push_back("standardise: columns scaled by the private data's own means and sds");
    if (options.norm == NormPolicy::ScaleByMaxNorm)
        out.push_back("scale by max norm: rows divided by the private data's largest row norm");
    else if (options.norm == NormPolicy::None)
        out.push_back("no norm bound: rows may have ‖x‖₂ > 1, which every guarantee assumes away");
    return out;
}

std::string PreprocessOptions::validate() const {
    std::string problems;
    auto add = [&problems](const std::string& m) { problems += (problems.empty() ? "" : "; ") + m; };
    if (positiveClass && positiveClass->empty())
        add("the positive class name is empty (leave it unset to keep the labels)");
    if (norm != NormPolicy::ClipRows && norm != NormPolicy::ScaleByMaxNorm && norm != NormPolicy::None)
        add("unknown norm policy");
    if (std::string b = bounds.validate(); !b.empty())
        add(b);
    if (privateBounds)
        if (std::string b = privateBounds->validate(); !b.empty())
            add(b);
    return problems;
}

void preprocess(Dataset& train, Dataset* test, const PreprocessOptions& options) {
    if (const std::string problem = options.validate(); !problem.empty())
        throw std::invalid_argument(problem);
    if (test && test->featureCount() != train.featureCount())
        throw std::invalid_argument("test set has " + std::to_string(test->featureCount()) +
                                    " features, training set " + std::to_string(train.featureCount()));
    if (options.positiveClass)
        binariseStep(train, test, *options.positiveClass);
    applyBounds(train, test, options.bounds, options.privateBounds);
    if (options.standardise)
        standardiseStep(train, test);
    if (options.intercept)
        interceptStep(train, test);
    normStep(train, test, options.norm);
}

bool sameFormSteps(const PreprocessOptions& a, const PreprocessOptions& b) {
    return a.standardise == b.standardise && a.intercept == b.intercept && a.norm == b.norm &&
           a.positiveClass == b.positiveClass;
}

} // namespace elab::core
