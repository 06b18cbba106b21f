#include "core/data/schema_align.h"

#include "core/util/format_number.h"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace elab::core {

namespace {

const ColumnInfo* findColumn(const std::vector<ColumnInfo>& columns, const std::string& name) {
    for (const ColumnInfo& c : columns)
        if (c.name == name)
            return &c;
    return nullptr;
}

bool isFeatureColumn(const ColumnInfo& c) { return c.kind == ColumnKind::Numeric || c.kind == ColumnKind::Categorical; }

// test feature j → training feature map[j] (−1: dropped), for a training width of cols.
FeatureMatrix remapColumns(const FeatureMatrix& m, const std::vector<Index>& map, Index cols) {
    if (m.isSparse()) {
        const SparseMatrix& s = m.sparse();
        std::vector<Eigen::Triplet<double>> entries;
        entries.reserve(static_cast<std::size_t>(s.nonZeros()));
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                if (const Index j = map[static_cast<std::size_t>(it.col())]; j >= 0)
                    entries.emplace_back(static_cast<int>(i), static_cast<int>(j), it.value());
        SparseMatrix out(s.rows(), cols);
        out.setFromTriplets(entries.begin(), entries.end());
        out.makeCompressed();
        return FeatureMatrix(std::move(out));
    }
    const DenseMatrix& d = m.dense();
    DenseMatrix out = DenseMatrix::Zero(d.rows(), cols);
    for (Index j = 0; j < d.cols(); ++j)
        if (const Index t = map[static_cast<std::size_t>(j)]; t >= 0)
            out.col(t) = d.col(j);
    return FeatureMatrix(std::move(out));
}

std::vector<bool> rowsWithValueIn(const FeatureMatrix& m, const std::vector<bool>& marked) {
    std::vector<bool> rows(static_cast<std::size_t>(m.rows()), false);
    if (m.isSparse()) {
        const SparseMatrix& s = m.sparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                if (marked[static_cast<std::size_t>(it.col())] && it.value() != 0.0)
                    rows[static_cast<std::size_t>(i)] = true;
        return rows;
    }
    for (Index j = 0; j < m.cols(); ++j)
        if (marked[static_cast<std::size_t>(j)])
            for (Index i = 0; i < m.rows(); ++i)
                if (m.dense()(i, j) != 0.0)
                    rows[static_cast<std::size_t>(i)] = true;
    return rows;
}

Index countNonZerosIn(const FeatureMatrix& m, const std::vector<bool>& marked) {
    Index count = 0;
    if (m.isSparse()) {
        const SparseMatrix& s = m.sparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                count += marked[static_cast<std::size_t>(it.col())] && it.value() != 0.0 ? 1 : 0;
        return count;
    }
    for (Index j = 0; j < m.cols(); ++j)
        if (marked[static_cast<std::size_t>(j)])
            count += (m.dense().col(j).array() != 0.0).count();
    return count;
}

std::string formatName(const Dataset& d) {
    const std::string& f = d.provenance.format;
    return f == "csv" ? "CSV" : f == "libsvm" ? "LIBSVM" : f.empty() ? "data" : f;
}

void alignTargets(const Dataset& train, Dataset& test, SchemaAlignment& result) {
    const Targets& t = train.targets;
    Targets& u = test.targets;
    if (t.isClassification() != u.isClassification())
        throw std::invalid_argument(
            std::string("the training set has ") + (t.isClassification() ? "class labels" : "a regression target") +
            ", the test set " + (u.isClassification() ? "class labels" : "a regression target"));
    if (!t.isClassification() || u.classNames == t.classNames)
        return;
    std::vector<int> map(u.classNames.size(), -1);
    std::string unknown;
    for (std::size_t c = 0; c < u.classNames.size(); ++c) {
        for (std::size_t k = 0; k < t.classNames.size(); ++k)
            if (t.classNames[k] == u.classNames[c])
                map[c] = static_cast<int>(k);
        if (map[c] < 0)
            unknown += (unknown.empty() ? "'" : ", '") + u.classNames[c] + "'";
    }
    if (!unknown.empty())
        throw std::invalid_argument("the test set has label" +
                                    std::string(unknown.find(',') != std::string::npos ? "s " : " ") + unknown +
                                    " that the training set lacks (training classes: " +
                                    [&] {
                                        std::string s;
                                        for (std::size_t k = 0; k < t.classNames.size(); ++k)
                                            s += (k ? ", '" : "'") + t.classNames[k] + "'";
                                        return s;
                                    }() +
                                    ")");
    Eigen::VectorXi ci(u.size());
    for (Index i = 0; i < u.size(); ++i)
        ci[i] = map[static_cast<std::size_t>(u.classIndex[i])];
    // The training set's classes and kind (a forced multiclass task of two classes stays one).
    u = Targets::classification(std::move(ci), t.classNames, t.kind == TaskKind::Multiclass);
    result.changed = true;
}

} // namespace

SchemaAlignment alignToTrainingSchema(const Dataset& train, Dataset& test) {
    SchemaAlignment result;
    const bool trainCsv = !train.columns.empty(), testCsv = !test.columns.empty();
    if (trainCsv != testCsv)
        throw std::invalid_argument("the training set is " + formatName(train) + ", the test set " + formatName(test) +
                                    ": a test file must have the training file's format");
    alignTargets(train, test, result);
    const Index p = train.featureCount(), q = test.featureCount();
    std::vector<Index> map(static_cast<std::size_t>(q), -1);
    std::vector<bool> unseen(static_cast<std::size_t>(q), false), extra(static_cast<std::size_t>(q), false);
    std::vector<std::pair<std::string, Index>> unseenFeatures; // (name, test feature)
    if (trainCsv) {
        for (const ColumnInfo& c : train.columns) {
            if (!isFeatureColumn(c))
                continue;
            const ColumnInfo* tc = findColumn(test.columns, c.name);
            if (!tc || !isFeatureColumn(*tc))
                throw std::invalid_argument("column '" + c.name + "' of the training " + formatName(train) +
                                            " file is not a feature column of the test file");
            if (tc->kind != c.kind)
                throw std::invalid_argument("column '" + c.name + "' is " + toString(c.kind) +
                                            " in the training file and " + toString(tc->kind) + " in the test file");
            if (c.kind == ColumnKind::Numeric) {
                map[static_cast<std::size_t>(tc->firstFeature)] = c.firstFeature;
                continue;
            }
            for (std::size_t k = 0; k < tc->levels.size(); ++k) {
                const Index from = tc->firstFeature + static_cast<Index>(k);
                for (std::size_t l = 0; l < c.levels.size(); ++l)
                    if (c.levels[l] == tc->levels[k])
                        map[static_cast<std::size_t>(from)] = c.firstFeature + static_cast<Index>(l);
                if (map[static_cast<std::size_t>(from)] < 0) {
                    unseen[static_cast<std::size_t>(from)] = true;
                    unseenFeatures.emplace_back(c.name + "=" + tc->levels[k], from);
                }
            }
        }
        for (const ColumnInfo& tc : test.columns)
            if (isFeatureColumn(tc) && !findColumn(train.columns, tc.name))
                for (Index k = 0; k < tc.featureCount; ++k)
                    extra[static_cast<std::size_t>(tc.firstFeature + k)] = true;
    } else {
        for (Index j = 0; j < q && j < p; ++j)
            map[static_cast<std::size_t>(j)] = j;
        for (Index j = p; j < q; ++j)
            extra[static_cast<std::size_t>(j)] = true;
    }
    bool identity = p == q;
    for (Index j = 0; j < q && identity; ++j)
        identity = map[static_cast<std::size_t>(j)] == j;
    if (identity)
        return result;

    result.changed = true;
    if (!unseenFeatures.empty()) {
        const std::vector<bool> rows = rowsWithValueIn(test.features, unseen);
        for (bool r : rows)
            result.unseenLevelRows += r ? 1 : 0;
        for (std::size_t k = 0; k < unseenFeatures.size(); ++k) {
            std::vector<bool> one(static_cast<std::size_t>(q), false);
            one[static_cast<std::size_t>(unseenFeatures[k].second)] = true;
            if (k < 5)
                result.unseenLevels += (k ? ", " : "") + unseenFeatures[k].first + " (" +
                                       std::to_string(countNonZerosIn(test.features, one)) + " rows)";
        }
        if (unseenFeatures.size() > 5)
            result.unseenLevels += ", … (" + std::to_string(unseenFeatures.size()) + " levels)";
    }
    for (Index j = 0; j < q; ++j)
        result.droppedFeatures += extra[static_cast<std::size_t>(j)] ? 1 : 0;
    result.droppedValues = countNonZerosIn(test.features, extra);
    std::vector<bool> hit(static_cast<std::size_t>(p), false);
    for (Index t : map)
        if (t >= 0)
            hit[static_cast<std::size_t>(t)] = true;
    for (bool h : hit)
        result.paddedFeatures += h ? 0 : 1;

    test.features = remapColumns(test.features, map, p);
    test.featureNames = train.featureNames;
    std::vector<ColumnInfo> columns = train.columns;
    for (ColumnInfo& c : columns)
        if (const ColumnInfo* tc = findColumn(test.columns, c.name))
            c.missing = tc->missing;
    test.columns = std::move(columns);

    std::string detail =
        "encoded with the training " + formatName(train) + " schema (" + std::to_string(p) + " features)";
    if (result.unseenLevelRows > 0)
        detail += "; " + std::to_string(result.unseenLevelRows) +
                  " rows have a level the training file lacks, encoded as all-zero one-hot: " + result.unseenLevels;
    if (result.paddedFeatures > 0)
        detail +=
            "; " + std::to_string(result.paddedFeatures) + " training features absent from the test file read as 0";
    if (result.droppedFeatures > 0)
        detail += "; " + std::to_string(result.droppedFeatures) +
                  " test features beyond the training schema ignored (" + std::to_string(result.droppedValues) +
                  " non-zero values)";
    test.log.push_back({"test schema", detail, false});
    return result;
}

} // namespace elab::core
