// The paged preview and column models over in-memory datasets: paging arithmetic, cell
// values, sparse blanks, and sizes that must not create per-cell objects (500k rows,
// 100k sparse columns).

#include "core/data/dataset.h"
#include "ui/views/data/column_table_model.h"
#include "ui/views/data/dataset_table_model.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using elab::core::Dataset;
using elab::core::Index;
using elab::ui::ColumnTableModel;
using elab::ui::DatasetTableModel;

namespace {

std::shared_ptr<const Dataset> denseDataset(Index rows, Index cols) {
    auto data = std::make_shared<Dataset>();
    data->name = "dense";
    elab::core::DenseMatrix m(rows, cols);
    for (Index i = 0; i < rows; ++i)
        for (Index j = 0; j < cols; ++j)
            m(i, j) = static_cast<double>(i) + 0.25 * static_cast<double>(j);
    data->features = elab::core::FeatureMatrix(std::move(m));
    Eigen::VectorXi cls(rows);
    for (Index i = 0; i < rows; ++i)
        cls[i] = static_cast<int>(i % 2);
    data->targets = elab::core::Targets::classification(cls, {"neg", "pos"});
    for (Index j = 0; j < cols; ++j)
        data->featureNames.push_back("x" + std::to_string(j));
    return data;
}

std::shared_ptr<const Dataset> sparseDataset(Index rows, Index cols) {
    auto data = std::make_shared<Dataset>();
    data->name = "sparse";
    elab::core::SparseMatrix m(rows, cols);
    std::vector<Eigen::Triplet<double>> entries;
    for (Index i = 0; i < rows; ++i) {
        entries.emplace_back(static_cast<int>(i), 0, 1.5);
        entries.emplace_back(static_cast<int>(i), static_cast<int>(cols - 1), 7.0);
    }
    m.setFromTriplets(entries.begin(), entries.end());
    data->features = elab::core::FeatureMatrix(std::move(m));
    data->targets = elab::core::Targets::regression(Eigen::VectorXd::Constant(rows, 2.5));
    return data;
}

} // namespace

class TestDatasetTableModel : public QObject {
    Q_OBJECT
private slots:
    void emptyModelHasNoCells() {
        DatasetTableModel model;
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), 0);
        QCOMPARE(model.rowPageCount(), 1);
    }

    void paging_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("page");
        QTest::addColumn<int>("expectedRowCount");
        QTest::addColumn<int>("expectedPages");
        QTest::addColumn<QString>("firstHeader");
        QTest::newRow("150 rows, page 1") << 150 << 0 << 100 << 2 << QStringLiteral("1");
        QTest::newRow("150 rows, page 2 is partial") << 150 << 1 << 50 << 2 << QStringLiteral("101");
        QTest::newRow("exactly one page") << 100 << 0 << 100 << 1 << QStringLiteral("1");
        QTest::newRow("page past the end is clamped") << 150 << 7 << 50 << 2 << QStringLiteral("101");
        QTest::newRow("500k rows, last page") << 500000 << 4999 << 100 << 5000 << QStringLiteral("499901");
    }
    void paging() {
        QFETCH(int, rows);
        QFETCH(int, page);
        QFETCH(int, expectedRowCount);
        QFETCH(int, expectedPages);
        QFETCH(QString, firstHeader);
        DatasetTableModel model;
        model.setDataset(denseDataset(rows, 3));
        QSignalSpy pageChanged(&model, &DatasetTableModel::pageChanged);
        model.setRowPage(page);
        QCOMPARE(model.rowPageCount(), expectedPages);
        QCOMPARE(model.rowCount(), expectedRowCount);
        QCOMPARE(model.columnCount(), 4); // label + 3 features
        QCOMPARE(model.headerData(0, Qt::Vertical).toString(), firstHeader);
        QCOMPARE(pageChanged.count(), page == 0 ? 0 : 1);
    }

    void denseCellsShowValuesAndClassNames() {
        DatasetTableModel model;
        model.setDataset(denseDataset(250, 3));
        model.setRowPage(2); // rows 201..250
        // Row 201 is index 200: x_j = 200 + 0.25 j; class 200 % 2 = 0 → "neg".
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("neg"));
        QCOMPARE(model.data(model.index(0, 1)).toString(), QStringLiteral("200"));
        QCOMPARE(model.data(model.index(0, 3)).toString(), QStringLiteral("200.5"));
        QCOMPARE(model.data(model.index(1, 0)).toString(), QStringLiteral("pos"));
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("label"));
        QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("x1"));
    }

    void sparseWideDatasetPagesColumns() {
        DatasetTableModel model;
        model.setDataset(sparseDataset(10, 100000));
        QCOMPARE(model.columnPageCount(), 500);
        QCOMPARE(model.columnCount(), 201);
        QCOMPARE(model.data(model.index(0, 0)).toString(), QStringLiteral("2.5"));
        QCOMPARE(model.data(model.index(0, 1)).toString(), QStringLiteral("1.5"));
        QCOMPARE(model.data(model.index(0, 2)).toString(), QString()); // structural zero
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("f1"));
        model.setColumnPage(499);
        QCOMPARE(model.firstFeature(), 99800);
        QCOMPARE(model.columnCount(), 201);
        QCOMPARE(model.data(model.index(3, 200)).toString(), QStringLiteral("7"));
        QCOMPARE(model.headerData(200, Qt::Horizontal).toString(), QStringLiteral("f100000"));
    }

    void newDatasetResetsPages() {
        DatasetTableModel model;
        model.setDataset(denseDataset(1000, 2));
        model.setRowPage(5);
        QCOMPARE(model.rowPage(), 5);
        model.setDataset(denseDataset(10, 2));
        QCOMPARE(model.rowPage(), 0);
        QCOMPARE(model.rowCount(), 10);
    }

    void columnModelWithoutSchemaListsFeatures() {
        ColumnTableModel model;
        model.setDataset(sparseDataset(4, 100000));
        QCOMPARE(model.rowCount(), 100000);
        QCOMPARE(model.columnCount(), int(ColumnTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(99999, ColumnTableModel::Name)).toString(), QStringLiteral("f100000"));
        QCOMPARE(model.data(model.index(0, ColumnTableModel::Kind)).toString(), QStringLiteral("numeric (sparse)"));
    }

    void columnModelWithSchema() {
        auto data = std::make_shared<Dataset>(*denseDataset(5, 3));
        data->columns = {
            {"age", elab::core::ColumnKind::Numeric, 2, {}, 0, 1},
            {"colour", elab::core::ColumnKind::Categorical, 0, {"blue", "red"}, 1, 2},
            {"y", elab::core::ColumnKind::Label, 1, {}, -1, 0},
        };
        ColumnTableModel model;
        model.setDataset(data);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.data(model.index(0, ColumnTableModel::Missing)).toString(), QStringLiteral("2"));
        QCOMPARE(model.data(model.index(1, ColumnTableModel::Kind)).toString(), QStringLiteral("categorical"));
        QCOMPARE(model.data(model.index(1, ColumnTableModel::Levels)).toString(), QStringLiteral("2"));
        QCOMPARE(model.data(model.index(1, ColumnTableModel::Levels), Qt::ToolTipRole).toString(),
                 QStringLiteral("blue, red"));
        QCOMPARE(model.data(model.index(2, ColumnTableModel::Kind)).toString(), QStringLiteral("label"));
        QCOMPARE(model.data(model.index(2, ColumnTableModel::Features)).toString(), QStringLiteral("–"));
    }
};

QTEST_MAIN(TestDatasetTableModel)
#include "test_dataset_table_model.moc"
