#include "core/model/merged_rows.h"

#include "core/model/sparse_rows.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace elab::core {

namespace {

std::uint64_t mix(std::uint64_t x) { // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// One multiply per value (a hash of a row, not a cryptographic one: equal hashes are checked
// with equalRows; a row's hash is mixed once at its end).
std::uint64_t combine(std::uint64_t h, std::uint64_t x) {
    return (h ^ x) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

std::vector<std::uint64_t> rowHashes(const FeatureMatrix& X) {
    const Index n = X.rows();
    std::vector<std::uint64_t> h(static_cast<std::size_t>(n), 0);
    if (X.isSparse()) {
        const CsrRows rows = X.csrRows();
        for (Index i = 0; i < n; ++i) {
            std::uint64_t hi = static_cast<std::uint64_t>(rows.length(i));
            rows.forEachEntry(i, [&hi](int c, double v) {
                hi = combine(combine(hi, static_cast<std::uint64_t>(c)), std::bit_cast<std::uint64_t>(v));
            });
            h[static_cast<std::size_t>(i)] = mix(hi);
        }
        return h;
    }
    // A view's values as its plain copy holds them, by blocks of rows (a clipped row's factor
    // is recomputed once per block, not per entry), column by column: X is column-major.
    X.denseRows().forEachBlock([&h](Index b, const auto& rows) {
        for (Index j = 0; j < rows.cols(); ++j)
            for (Index k = 0; k < rows.rows(); ++k) {
                std::uint64_t& hi = h[static_cast<std::size_t>(b + k)];
                hi = combine(hi, std::bit_cast<std::uint64_t>(rows(k, j)));
            }
    });
    for (std::uint64_t& hi : h)
        hi = mix(hi);
    return h;
}

bool equalRows(const FeatureMatrix& X, Index a, Index b) {
    if (X.isSparse()) {
        const CsrRows rows = X.csrRows();
        const int la = rows.end(a) - rows.begin(a), lb = rows.end(b) - rows.begin(b);
        if (la != lb)
            return false;
        const auto len = static_cast<std::size_t>(la);
        if (std::memcmp(rows.inner + rows.begin(a), rows.inner + rows.begin(b), len * sizeof(int)) != 0)
            return false;
        // The values as in the plain copy (stored·factor; the implicit entry's too), bit for bit.
        const double fa = rows.factor(a), fb = rows.factor(b);
        const auto same = [](double x, double y) {
            return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
        };
        for (std::size_t k = 0; k < len; ++k)
            if (!same(rows.values[rows.begin(a) + static_cast<int>(k)] * fa,
                      rows.values[rows.begin(b) + static_cast<int>(k)] * fb))
                return false;
        return rows.intercept < 0 || same(rows.interceptValue * fa, rows.interceptValue * fb);
    }
    const DenseRows d = X.denseRows();
    const double fa = d.factor(a), fb = d.factor(b); // once per row (O(cols) for clipped rows)
    for (Index j = 0; j < d.cols; ++j)
        if (std::bit_cast<std::uint64_t>(d.unscaled(a, j) * fa) != std::bit_cast<std::uint64_t>(d.unscaled(b, j) * fb))
            return false;
    return true;
}

} // namespace

Eigen::VectorXd MergedRows::countWhere(Labels y, double label) const {
    if (rowOf.size() != static_cast<std::size_t>(y.size()))
        throw std::invalid_argument("merged rows: one label per original row (and the row map kept)");
    Eigen::VectorXd c = Eigen::VectorXd::Zero(X.rows());
    for (std::size_t i = 0; i < rowOf.size(); ++i)
        if (y[static_cast<Index>(i)] == label)
            c[rowOf[i]] += 1.0;
    return c;
}

void MergedRows::reorder(const std::vector<int>& order) {
    const Index rows = X.rows();
    if (static_cast<Index>(order.size()) != rows)
        throw std::invalid_argument("merged rows: the new order must list every distinct row once");
    std::vector<Index> selected(order.size()), newIndex(order.size(), -1);
    for (std::size_t u = 0; u < order.size(); ++u) {
        const Index old = order[u];
        if (old < 0 || old >= rows || newIndex[static_cast<std::size_t>(old)] >= 0)
            throw std::invalid_argument("merged rows: the new order must list every distinct row once");
        selected[u] = old;
        newIndex[static_cast<std::size_t>(old)] = static_cast<Index>(u);
    }
    X = X.selectRows(selected);
    Eigen::VectorXd newCount(rows);
    for (Index u = 0; u < rows; ++u)
        newCount[u] = count[selected[static_cast<std::size_t>(u)]];
    count = std::move(newCount);
    for (Index& u : rowOf)
        u = newIndex[static_cast<std::size_t>(u)];
}

std::optional<MergedRows> mergeEqualRows(const FeatureMatrix& X, double minShare) {
    const Index n = X.rows();
    if (n < 2)
        return std::nullopt;
    const auto enough = [&](Index distinct) {
        return static_cast<double>(n - distinct) >= minShare * static_cast<double>(n);
    };
    std::vector<std::uint64_t> h = rowHashes(X);
    // Distinct hashes bound the distinct rows from below: stop early if too few rows merge
    // (continuous features), counted on the hashes sorted in place — one n-vector, where the
    // (hash, row) pairs below are two (a million rows: 8 MB instead of 24 MB at the peak).
    std::sort(h.begin(), h.end());
    Index distinctHashes = 0;
    for (std::size_t k = 0; k < h.size(); ++k)
        distinctHashes += k == 0 || h[k] != h[k - 1];
    if (!enough(distinctHashes))
        return std::nullopt;
    h = rowHashes(X); // in row order again
    // Rows by hash (ties by index): equal rows are neighbours, the first of each group first.
    // Sorted as (hash, row) pairs, not rows compared through the hash array.
    std::vector<std::pair<std::uint64_t, Index>> byHash(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
        byHash[static_cast<std::size_t>(i)] = {h[static_cast<std::size_t>(i)], i};
    std::sort(byHash.begin(), byHash.end());
    std::vector<Index> order(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < byHash.size(); ++k)
        order[k] = byHash[k].second;
    byHash = {};
    // first[i]: the first row equal to row i (itself if none before it). Within a run of equal
    // hashes, compare with the run's representatives (more than one only on a hash collision).
    std::vector<Index> first(static_cast<std::size_t>(n));
    std::vector<Index> representatives;
    for (std::size_t k = 0; k < order.size();) {
        std::size_t end = k + 1;
        while (end < order.size() && h[static_cast<std::size_t>(order[end])] == h[static_cast<std::size_t>(order[k])])
            ++end;
        representatives.clear();
        for (std::size_t m = k; m < end; ++m) {
            const Index i = order[m];
            Index found = i;
            for (Index r : representatives)
                if (equalRows(X, r, i)) {
                    found = r;
                    break;
                }
            if (found == i)
                representatives.push_back(i);
            first[static_cast<std::size_t>(i)] = found;
        }
        k = end;
    }
    MergedRows merged;
    merged.originalRows = n;
    merged.rowOf.resize(static_cast<std::size_t>(n));
    std::vector<Index> distinctRows;
    for (Index i = 0; i < n; ++i) {
        const auto ii = static_cast<std::size_t>(i);
        if (first[ii] == i) {
            merged.rowOf[ii] = static_cast<Index>(distinctRows.size());
            distinctRows.push_back(i);
        } else {
            merged.rowOf[ii] = merged.rowOf[static_cast<std::size_t>(first[ii])];
        }
    }
    if (!enough(static_cast<Index>(distinctRows.size())))
        return std::nullopt;
    merged.X = X.selectRows(distinctRows);
    merged.count = Eigen::VectorXd::Zero(static_cast<Index>(distinctRows.size()));
    for (Index u : merged.rowOf)
        merged.count[u] += 1.0;
    return merged;
}

} // namespace elab::core
