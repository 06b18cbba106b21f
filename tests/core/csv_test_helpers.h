#pragma once
// Helpers shared by the CSV loader tests (valid inputs in test_csv_loader.cpp; malformed
// inputs and real files in test_csv_malformed.cpp).

#include "core/data/csv_loader.h"
#include "core/data/load_error.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <stop_token>

namespace elab::test::csv {

using namespace elab::core;

inline Dataset load(const QByteArray& text, const CsvOptions& options = {}, RunContext* ctx = nullptr) {
    return loadCsv(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), "test.csv", options, ctx);
}

inline CsvOptions opts(const std::string& label = {}) {
    CsvOptions o;
    o.labelColumn = label;
    return o;
}

inline CsvOptions withTask(TaskKind task, const std::string& label = {}) {
    CsvOptions o = opts(label);
    o.task = task;
    return o;
}

inline CsvOptions delim(char delimiter) {
    CsvOptions o;
    o.delimiter = delimiter;
    return o;
}

inline CsvOptions withPolicy(MissingPolicy policy) {
    CsvOptions o;
    o.missing = policy;
    return o;
}

inline CsvOptions categorical(std::vector<std::string> names) {
    CsvOptions o;
    o.categoricalColumns = std::move(names);
    return o;
}

inline CsvOptions ignored(std::vector<std::string> names) {
    CsvOptions o;
    o.ignoredColumns = std::move(names);
    return o;
}

inline QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const std::string& s : v)
        out << QString::fromStdString(s);
    return out;
}

// Features row by row.
inline QVector<double> values(const Dataset& d) {
    QVector<double> out;
    for (Index i = 0; i < d.rows(); ++i)
        for (Index j = 0; j < d.featureCount(); ++j)
            out << d.features.value(i, j);
    return out;
}

// The labels as the engine reads them: the values, or a multiclass set's class indices (it
// stores no second copy of them as doubles).
inline QVector<double> targetValues(const Dataset& d) {
    if (d.targets.kind == TaskKind::Multiclass)
        return QVector<double>(d.targets.classIndex->data(),
                               d.targets.classIndex->data() + d.targets.classIndex.size());
    return QVector<double>(d.targets.values->data(), d.targets.values->data() + d.targets.values.size());
}

// |actual − expected| ≤ tol · max(1, |expected|): relative for large values, absolute near 0.
inline void compareClose(const QVector<double>& actual, const QVector<double>& expected, double tol) {
    QCOMPARE(actual.size(), expected.size());
    for (qsizetype i = 0; i < actual.size(); ++i)
        if (!(std::abs(actual[i] - expected[i]) <= tol * std::max(1.0, std::abs(expected[i]))))
            QFAIL(qPrintable(QString("entry %1: expected %2, actual %3, difference %4 > %5")
                                 .arg(i)
                                 .arg(expected[i], 0, 'g', 17)
                                 .arg(actual[i], 0, 'g', 17)
                                 .arg(actual[i] - expected[i])
                                 .arg(tol)));
}

// A LoadError where none is expected fails the row with its message instead of aborting the run.
#define LOAD_OR_FAIL(dataset, ...)                                                                                     \
    Dataset dataset;                                                                                                   \
    try {                                                                                                              \
        dataset = load(__VA_ARGS__);                                                                                   \
    } catch (const LoadError& e) {                                                                                     \
        QFAIL(e.what());                                                                                               \
    }

inline const std::string kShared = EPSILONLAB_SHARED_DIR;

inline QByteArray readShared(const QString& relative) {
    QFile f(QString::fromStdString(kShared) + "/datasets/" + relative);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

} // namespace elab::test::csv
