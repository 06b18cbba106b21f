// The CSV loader's second pass on several threads (core/data/csv_encode.h): a dense file of more
// records than one stretch (csv_scan.h's marks every 8,192 records) is filled from several record
// marks at once. The matrix must hold every kept row's values at its row, whatever the split:
// checked against the values the file was written from, with blank lines, CRLF, quoted fields
// holding newlines, and dropped rows (missing values) spread over the whole file, on 1, 2 and 4
// threads; a ragged row late in a long file is still refused.

#include "tests/core/csv_test_helpers.h"

#include <tbb/task_arena.h>

#include <QtTest>

#include <cmath>
#include <string>

using namespace elab::core;
using elab::test::csv::load;
using elab::test::csv::opts;

namespace {

constexpr int kRecords = 30000;

/// Entry j of record i, written with three decimals (and read back by strtod for the expectation).
double valueOf(int i, int j) { return (i * 7 + j * 13) % 1000 / 8.0 - 17.25 + j * 0.001; }

bool dropped(int i) { return i % 997 == 5; } // a missing cell: the row is dropped

QByteArray file(const char* newline) {
    std::string text = std::string("a,b,\"c\",note,label") + newline;
    char cell[64];
    for (int i = 0; i < kRecords; ++i) {
        if (i % 1500 == 0)
            text += newline; // blank lines are skipped
        for (int j = 0; j < 3; ++j) {
            if (j == 1 && dropped(i)) {
                text += "NA,";
                continue;
            }
            std::snprintf(cell, sizeof cell, j == 2 && i % 211 == 0 ? "\"%.3f\"," : "%.3f,", valueOf(i, j));
            text += cell;
        }
        // An ignored text column, quoted with a newline inside every 4,099 records: records are
        // not lines.
        text += i % 4099 == 0 ? "\"two\nlines\"," : "x,";
        text += i % 2 ? "1" : "0";
        text += newline;
    }
    return QByteArray::fromStdString(text);
}

} // namespace

class TestCsvParallelEncode : public QObject {
    Q_OBJECT

private slots:
    void everyRowLandsAtItsPlace_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<QString>("newline");
        for (int threads : {1, 2, 4})
            for (const char* nl : {"\n", "\r\n"})
                QTest::newRow(qPrintable(QString("%1 threads, %2").arg(threads).arg(nl[0] == '\r' ? "CRLF" : "LF")))
                    << threads << QString::fromLatin1(nl);
    }
    void everyRowLandsAtItsPlace() {
        QFETCH(int, threads);
        QFETCH(QString, newline);
        const QByteArray text = file(newline.toLatin1().constData());
        Dataset d;
        tbb::task_arena arena(threads);
        CsvOptions options = opts("label");
        options.ignoredColumns = {"note"};
        arena.execute([&] { d = load(text, options); });
        int expectedRows = 0;
        for (int i = 0; i < kRecords; ++i)
            expectedRows += dropped(i) ? 0 : 1;
        QCOMPARE(d.rows(), static_cast<Index>(expectedRows));
        QCOMPARE(d.featureCount(), static_cast<Index>(3));
        QVERIFY(!d.features.isSparse());
        const DenseMatrix& X = d.features.dense();
        Index row = 0;
        int wrong = 0;
        for (int i = 0; i < kRecords; ++i) {
            if (dropped(i))
                continue;
            for (int j = 0; j < 3; ++j) {
                char cell[64];
                std::snprintf(cell, sizeof cell, "%.3f", valueOf(i, j));
                if (X(row, j) != std::strtod(cell, nullptr))
                    ++wrong;
            }
            ++row;
        }
        QCOMPARE(wrong, 0);
    }

    void aRaggedRowLateInTheFileIsStillRefused() {
        QByteArray text = file("\n");
        text += "1.0,2.0\n";
        try {
            CsvOptions options = opts("label");
            options.ignoredColumns = {"note"};
            load(text, options);
            QFAIL("a ragged last row was accepted");
        } catch (const LoadError& e) {
            QVERIFY2(std::string(e.what()).find("expected 5 fields") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCsvParallelEncode)
#include "test_csv_parallel_encode.moc"
