// GUI smoke test of the main window, offscreen: a built-in shows its rows, columns and
// classes; a bad file fails with file:line and the old dataset stays; cancel keeps the old
// dataset; a quick second request wins; the label-column and missing-value choices reload.

#include "app/gui/batch_runner.h"
#include "core/data/dataset_summary.h"
#include "tests/ui/gui_test_support.h"
#include "ui/charts/label_balance_chart.h"
#include "ui/charts/norm_histogram_chart.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/dataset_statistics.h"
#include "ui/dataset/load_controller.h"
#include "ui/shell/job_indicator.h"
#include "ui/shell/main_window.h"
#include "ui/views/data/bounds_panel.h"
#include "ui/views/data/column_table_model.h"
#include "ui/views/data/data_preview.h"
#include "ui/views/data/data_view.h"
#include "ui/views/data/dataset_table_model.h"
#include "ui/views/data/processing_log_view.h"
#include "ui/views/data/schema_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace elab::ui;

namespace {

constexpr int kTimeout = 60000;

using elab::test::request;
using elab::test::writeFile;

QString cell(MainWindow& w, int row, int column) {
    DatasetTableModel* m = w.dataView()->preview()->model();
    return m->data(m->index(row, column)).toString();
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<LoadedDataset>();
        qRegisterMetaType<LoadRequest>();
        QVERIFY(m_dir.isValid());
    }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        m_window->show();
    }

    void cleanup() { m_window.reset(); }

    void showsBuiltin_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("features");
        QTest::addColumn<QString>("firstLabel");
        QTest::addColumn<QString>("firstValue"); // row 1, first feature
        QTest::addColumn<QStringList>("classes");
        QTest::addColumn<int>("sourceColumns");
        QTest::newRow("iris") << "builtin:iris" << 150 << 4 << "setosa"
                              << "5.1" << QStringList{"setosa", "versicolor", "virginica"} << 5;
        QTest::newRow("breast cancer") << "builtin:breast_cancer" << 569 << 30 << "malignant"
                                       << "17.99" << QStringList{"malignant", "benign"} << 31;
        QTest::newRow("wine") << "builtin:wine" << 178 << 13 << "cultivar_0"
                              << "14.23" << QStringList{"cultivar_0", "cultivar_1", "cultivar_2"} << 14;
        // 11 of 344 rows have a missing value and are dropped by default; island one-hot
        // (Biscoe, Dream, Torgersen) comes first, and row 1 is on Torgersen.
        QTest::newRow("penguins, rows with NA dropped") << "builtin:penguins" << 333 << 10 << "Adelie"
                                                        << "0" << QStringList{"Adelie", "Chinstrap", "Gentoo"} << 8;
    }
    void showsBuiltin() {
        QFETCH(QString, spec);
        QFETCH(int, rows);
        QFETCH(int, features);
        QFETCH(QString, firstLabel);
        QFETCH(QString, firstValue);
        QFETCH(QStringList, classes);
        QFETCH(int, sourceColumns);

        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(spec));
        QVERIFY(shown.wait(kTimeout));

        DatasetTableModel* model = m_window->dataView()->preview()->model();
        QCOMPARE(model->totalRows(), rows);
        QCOMPARE(model->rowCount(), std::min(rows, 100));
        QCOMPARE(model->columnCount(), features + 1);
        QCOMPARE(cell(*m_window, 0, 0), firstLabel);
        QCOMPARE(cell(*m_window, 0, 1), firstValue);
        QCOMPARE(m_window->dataView()->preview()->rowRangeText(),
                 QStringLiteral("rows 1–100 of %1").arg(QLocale().toString(rows)));
        QCOMPARE(m_window->dataView()->columnModel()->rowCount(), sourceColumns);
        QCOMPARE(m_window->dataView()->labelChart()->categories(), classes);
        QVERIFY(m_window->dataView()->normChart()->clipText().contains(QStringLiteral("rows clipped (norm > 1)")));
        QVERIFY(m_window->dataView()->provenanceText().contains(spec));
        QVERIFY(m_window->dataView()->provenanceText().contains(QStringLiteral("sha256")));
        QVERIFY2(m_window->datasetStatusText().contains(
                     QStringLiteral("%1 × %2").arg(QLocale().toString(rows)).arg(features)),
                 qPrintable(m_window->datasetStatusText()));
        QVERIFY(!m_window->jobIndicator()->isRunning());
    }

    // A dataset loaded while another tab is current reaches the Data page when it is shown (or
    // first read), not in the same turn of the event loop as the current view's.
    void hiddenDataPageIsFilledWhenShown() {
        m_window->showView(QStringLiteral("utility"));
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(m_window->dataView()->hasDeferredDataset());
        m_window->showView(QStringLiteral("data"));
        QVERIFY(!m_window->dataView()->hasDeferredDataset());
        QVERIFY(m_window->dataView()->provenanceText().contains(QStringLiteral("builtin:iris")));
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 150);

        // Shown: filled at once. Hidden again, then read before it is shown: filled on reading.
        m_window->load(request(QStringLiteral("builtin:wine")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(!m_window->dataView()->hasDeferredDataset());
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 178);
        m_window->showView(QStringLiteral("regions"));
        m_window->load(request(QStringLiteral("builtin:breast_cancer")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(m_window->dataView()->hasDeferredDataset());
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 569);
        QVERIFY(!m_window->dataView()->hasDeferredDataset());
        QVERIFY(m_window->dataView()->provenanceText().contains(QStringLiteral("builtin:breast_cancer")));
    }

    void badFileKeepsPreviousDataset() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        const QString status = m_window->datasetStatusText();

        const QString bad = writeFile(m_dir, QStringLiteral("ragged.csv"), "a,b,label\n1,2,0\n3,4\n5,6,1\n");
        QSignalSpy failed(m_window.get(), &MainWindow::loadFailed);
        m_window->load(request(bad));
        QVERIFY(failed.wait(kTimeout));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.startsWith(bad + QStringLiteral(":3")), qPrintable(message));

        QCOMPARE(shown.count(), 1);
        QCOMPARE(m_window->current().data->name, std::string("iris"));
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 150);
        QCOMPARE(cell(*m_window, 0, 1), QStringLiteral("5.1"));
        QCOMPARE(m_window->datasetStatusText(), status);
        QCOMPARE(m_window->datasetPanel()->shownRequest().spec, QStringLiteral("builtin:iris"));
        QCOMPARE(m_window->datasetPanel()->builtinCombo()->currentData().toString(), QStringLiteral("iris"));
        QVERIFY2(m_window->jobIndicator()->text().contains(QStringLiteral("failed")),
                 qPrintable(m_window->jobIndicator()->text()));
        QCOMPARE(QApplication::activeModalWidget(), nullptr); // dialogs off: nothing blocks
    }

    void errorDialogNamesFileAndLine() {
        m_window->setErrorDialogsEnabled(true);
        const QString bad = writeFile(m_dir, QStringLiteral("long_row.csv"), "x,y,label\n1,2,0\n1,2,0,9\n2,3,1\n");
        QSignalSpy failed(m_window.get(), &MainWindow::loadFailed);
        m_window->load(request(bad));
        QVERIFY(failed.wait(kTimeout));
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = m_window->findChild<QMessageBox*>()) != nullptr);
        QVERIFY(box->isVisible());
        QVERIFY2(box->informativeText().contains(bad + QStringLiteral(":3")), qPrintable(box->informativeText()));
        box->close(); // non-blocking (open(), not exec()), deleted on close
        QTRY_COMPARE(m_window->findChild<QMessageBox*>(), nullptr);
    }

    void cancelKeepsPreviousDataset() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(QStringLiteral("builtin:wine")));
        QVERIFY(shown.wait(kTimeout));

        QByteArray big = "a,b,c,d,label\n";
        for (int i = 0; i < 250000; ++i)
            big += QByteArray::number(i % 101) + ",2.5,3.25," + QByteArray::number(i % 7) + ',' +
                   QByteArray::number(i % 2) + '\n';
        const QString path = writeFile(m_dir, QStringLiteral("big.csv"), big);

        LoadController* controller = m_window->loadController();
        QSignalSpy progress(controller, &LoadController::progress);
        QSignalSpy cancelled(controller, &LoadController::cancelled);
        QSignalSpy stale(controller, &LoadController::staleResultDropped);
        m_window->load(request(path));
        QVERIFY(m_window->jobIndicator()->isRunning());
        QVERIFY(m_window->jobIndicator()->cancelButton()->isVisible());
        QVERIFY(progress.wait(kTimeout));
        QVERIFY2(m_window->jobIndicator()->text().contains(QLatin1Char('%')),
                 qPrintable(m_window->jobIndicator()->text()));
        QTest::mouseClick(m_window->jobIndicator()->cancelButton(), Qt::LeftButton);
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!m_window->jobIndicator()->isRunning());
        QVERIFY(m_window->jobIndicator()->text().contains(QStringLiteral("cancelled")));

        // The stopped job's one delivery (its result) arrives and is dropped: nothing more comes.
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 1, kTimeout);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(m_window->current().data->name, std::string("wine"));
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 178);
    }

    void latestRequestWins() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        QSignalSpy stale(m_window->loadController(), &LoadController::staleResultDropped);
        m_window->load(request(QStringLiteral("builtin:breast_cancer")));
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 1, kTimeout);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(m_window->current().data->name, std::string("iris"));
        QCOMPARE(m_window->dataView()->labelChart()->categoryCount(), 3);
    }

    void labelColumnChoiceReloads() {
        const QString path = writeFile(m_dir, QStringLiteral("shapes.csv"),
                                       "colour,size,weight\nred,1,0.5\nblue,2,0.7\nred,3,0.1\n"
                                       "green,4,0.9\nblue,5,0.3\n");
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(path));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(m_window->dataView()->labelChart()->showsHistogram()); // weight: regression
        QComboBox* label = m_window->datasetPanel()->labelCombo();
        QCOMPARE(label->currentText(), QStringLiteral("weight"));
        QCOMPARE(label->count(), 3);

        m_window->datasetPanel()->chooseLabelColumn(QStringLiteral("colour"));
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(label->currentText(), QStringLiteral("colour"));
        QStringList classes = m_window->dataView()->labelChart()->categories();
        classes.sort();
        QCOMPARE(classes, (QStringList{"blue", "green", "red"}));
        QCOMPARE(m_window->dataView()->preview()->model()->columnCount(), 3); // label, size, weight
    }

    void typedBoundsReloadTheDataset() {
        // Issue 13: a range typed in the column table reloads the dataset with the values
        // mapped to [0, 1]; the log says so (not leaking); a half-typed or inverted range waits.
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        ColumnTableModel* columns = m_window->dataView()->columnModel();
        QVERIFY(!m_window->dataView()->boundsPanel()->hintLabel()->text().isEmpty()); // iris values exceed 1
        const QModelIndex lo = columns->index(0, ColumnTableModel::Lower),
                          hi = columns->index(0, ColumnTableModel::Upper);
        QVERIFY(columns->flags(lo) & Qt::ItemIsEditable);
        QVERIFY(!(columns->flags(columns->index(4, ColumnTableModel::Lower)) & Qt::ItemIsEditable)); // the label
        QSignalSpy messages(m_window->dataView(), &DataView::message);
        QVERIFY(columns->setData(lo, QStringLiteral("9")));
        QVERIFY(columns->setData(hi, QStringLiteral("8")));
        QVERIFY(!messages.isEmpty());
        QVERIFY2(messages.last().at(0).toString().contains(QStringLiteral("lo (9) must be below hi (8)")),
                 qPrintable(messages.last().at(0).toString()));
        QVERIFY(!columns->setData(lo, QStringLiteral("four")));
        QCOMPARE(shown.count(), 1); // nothing reloaded yet
        QVERIFY(columns->setData(lo, QStringLiteral("4")));
        QVERIFY(shown.wait(kTimeout));
        const LoadedDataset& now = m_window->current();
        QCOMPARE(now.request.bounds.columns.size(), std::size_t(1));
        QCOMPARE(now.request.bounds.columns[0].column, std::string("sepal_length_cm"));
        QCOMPARE(cell(*m_window, 0, 1), QStringLiteral("0.275")); // (5.1 − 4)/(8 − 4)
        QCOMPARE(columns->data(hi).toString(), QStringLiteral("8"));
        ProcessingLogView* log = m_window->dataView()->logView();
        QVERIFY(log->toPlainText().contains(QStringLiteral("public bounds")));
        QCOMPARE(log->leakingStepCount(), 0);
        // A private estimate of the other three columns: its ε is carried by the dataset.
        QCheckBox* estimate = m_window->dataView()->boundsPanel()->estimateCheck();
        estimate->setChecked(true);
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(m_window->current().data->preparationEpsilon > 0.0);
        QVERIFY(m_window->dataView()->boundsPanel()->summaryLabel()->text().contains(
            QStringLiteral("estimated privately")));
        // The documented-ranges button is for built-ins that have them: iris has its petal ranges.
        QVERIFY(m_window->dataView()
                    ->boundsPanel()
                    ->findChild<QPushButton*>(QStringLiteral("documentedBoundsButton"))
                    ->isEnabled());
    }

    void aColumnUntickedInTheDataTabIsLeftOut() {
        // Adult-like: a sampling weight beside two features; unticking it loads the file again
        // without it (the CLI's --ignore), and ticking it brings it back.
        const QString path = writeFile(m_dir, QStringLiteral("weights.csv"),
                                       "age,fnlwgt,hours,label\n25,226802,40,a\n38,89814,50,b\n28,336951,40,a\n"
                                       "44,160323,40,b\n18,103497,30,a\n34,198693,30,b\n");
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(path));
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(m_window->current().data->featureCount(), 3);
        ColumnTableModel* columns = m_window->dataView()->columnModel();
        const QModelIndex weight = columns->index(1, ColumnTableModel::Name);
        QCOMPARE(columns->data(weight).toString(), QStringLiteral("fnlwgt"));
        QVERIFY(columns->flags(weight) & Qt::ItemIsUserCheckable);
        QCOMPARE(columns->data(weight, Qt::CheckStateRole).toInt(), int(Qt::Checked));
        QVERIFY(!(columns->flags(columns->index(3, ColumnTableModel::Name)) & Qt::ItemIsUserCheckable)); // the label
        QVERIFY(columns->setData(weight, Qt::Unchecked, Qt::CheckStateRole));
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(m_window->current().data->featureCount(), 2);
        QVERIFY(m_window->current().request.options.csv.ignoredColumns == std::vector<std::string>{"fnlwgt"});
        columns = m_window->dataView()->columnModel(); // the table of the dataset loaded again
        QCOMPARE(columns->rowCount(), 4);              // the column stays listed, unticked
        QCOMPARE(columns->data(columns->index(1, ColumnTableModel::Name)).toString(), QStringLiteral("fnlwgt"));
        QCOMPARE(columns->data(columns->index(1, ColumnTableModel::Name), Qt::CheckStateRole).toInt(),
                 int(Qt::Unchecked));
        QVERIFY(columns->setData(columns->index(1, ColumnTableModel::Name), Qt::Checked, Qt::CheckStateRole));
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(m_window->current().data->featureCount(), 3);
        QVERIFY(m_window->current().request.options.csv.ignoredColumns.empty());
    }

    void imputationIsMarkedAsLeaking() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        LoadRequest r = request(QStringLiteral("builtin:penguins"));
        r.options.csv.missing = elab::core::MissingPolicy::ImputeMean;
        m_window->load(r);
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(m_window->dataView()->preview()->model()->totalRows(), 344);
        ProcessingLogView* log = m_window->dataView()->logView();
        QVERIFY(log->leakingStepCount() >= 1);
        QVERIFY(log->stepCount() > log->leakingStepCount());
        QVERIFY(log->toPlainText().contains(QStringLiteral("leaks privacy")));
        QVERIFY(log->toPlainText().contains(QStringLiteral("impute (mean)")));
        QCOMPARE(m_window->datasetPanel()->missingCombo()->currentData().toInt(),
                 int(elab::core::MissingPolicy::ImputeMean));
    }

    void wideSparseFilePagesColumns() {
        const QString path =
            writeFile(m_dir, QStringLiteral("wide.libsvm"), "+1 1:0.5 100000:2\n-1 3:1\n+1 2:0.25 99999:1\n");
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(path));
        QVERIFY(shown.wait(kTimeout));
        DatasetTableModel* model = m_window->dataView()->preview()->model();
        QCOMPARE(model->totalFeatures(), 100000);
        QCOMPARE(model->columnCount(), 201);
        QCOMPARE(model->columnPageCount(), 500);
        QCOMPARE(cell(*m_window, 0, 1), QStringLiteral("0.5"));
        QCOMPARE(cell(*m_window, 0, 2), QString());
        QCOMPARE(m_window->dataView()->normChart()->clipText(), QStringLiteral("2 of 3 rows clipped (norm > 1)"));
        QVERIFY(!m_window->datasetPanel()->labelCombo()->isEnabled());
    }

    // Showing a dataset is GUI-thread work: it must not grow with rows × features.
    // "Rows (generated)": resizes a generated set, keeps its other options, off for the others.
    void rowsChoiceResizesGeneratedSets() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        DatasetPanel* panel = m_window->datasetPanel();
        m_window->load(request(QStringLiteral("builtin:moons?seed=3")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(panel->rowsCombo()->isEnabled());
        QCOMPARE(panel->rowsCombo()->currentData().toLongLong(), 0LL); // the default size
        panel->chooseRows(10'000);
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(panel->shownRequest().spec, QStringLiteral("builtin:moons?rows=10000&seed=3"));
        QCOMPARE(m_window->current().data->rows(), elab::core::Index(10'000));
        QCOMPARE(panel->rowsCombo()->currentData().toLongLong(), 10'000LL);
        panel->chooseRows(0);
        QVERIFY(shown.wait(kTimeout));
        QCOMPARE(panel->shownRequest().spec, QStringLiteral("builtin:moons?seed=3"));
        QCOMPARE(m_window->current().data->rows(), elab::core::Index(400));
        m_window->load(request(QStringLiteral("builtin:sparse?rows=777&features=50")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(m_window->current().data->features.isSparse());
        QCOMPARE(panel->rowsCombo()->currentText(), QLocale().toString(777)); // a size not offered is shown
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(!panel->rowsCombo()->isEnabled());
    }

    void largeDatasetIsShownWithoutPerCellWork() {
        constexpr elab::core::Index rows = 500000;
        constexpr elab::core::Index cols = 20;
        auto data = std::make_shared<elab::core::Dataset>();
        data->name = "large";
        data->features =
            elab::core::FeatureMatrix(elab::core::DenseMatrix(elab::core::DenseMatrix::Constant(rows, cols, 0.5)));
        Eigen::VectorXi cls = Eigen::VectorXi::Zero(rows);
        cls.tail(rows / 4).setOnes();
        data->targets = elab::core::Targets::classification(cls, {"a", "b"});
        LoadedDataset loaded;
        loaded.data = data;
        loaded.summary = elab::core::summarize(*data);
        loaded.logNormHistogram = log10NormHistogram(data->features.rowNorms(), 30);

        QElapsedTimer timer;
        timer.start();
        m_window->dataView()->setDataset(loaded);
        qInfo("DataView::setDataset(500k x 20): %lld ms", timer.elapsed()); // a figure, not a limit (STYLE.md)
        DatasetTableModel* model = m_window->dataView()->preview()->model();
        QCOMPARE(model->rowPageCount(), 5000);
        QCOMPARE(model->rowCount(), 100);
        QCOMPARE(m_window->dataView()->labelChart()->categories(), (QStringList{"a", "b"}));
        // Every row has norm sqrt(20 * 0.25) ≈ 2.24.
        QCOMPARE(m_window->dataView()->normChart()->clipText(),
                 QStringLiteral("%1 of %1 rows clipped (norm > 1)").arg(QLocale().toString(rows)));
    }

    void declaringTheSchemaWritesItAndReloads() {
        // Levels and classes read from a file's rows leak (the schema panel says which);
        // ticking the declaration writes FILE.schema beside the file and loads it again: the
        // encoding is then the schema's, and nothing in the log leaks.
        const QString path = writeFile(m_dir, QStringLiteral("people.csv"),
                                       "age,job,y\n30,clerk,no\n41,nurse,yes\n52,clerk,no\n23,pilot,yes\n");
        const QString schemaPath = path + QStringLiteral(".schema");
        QFile::remove(schemaPath);
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(request(path));
        QVERIFY(shown.wait(kTimeout));
        SchemaPanel* panel = m_window->dataView()->schemaPanel();
        QVERIFY(!panel->isHidden());
        QVERIFY(panel->leaks());
        QVERIFY2(panel->summaryLabel()->text().contains(QStringLiteral("the levels of job")),
                 qPrintable(panel->summaryLabel()->text()));
        QCheckBox* declare = panel->declareCheck();
        QVERIFY(declare->isEnabled());
        QVERIFY(!declare->isChecked());
        QVERIFY(m_window->dataView()->logView()->leakingStepCount() >= 1);
        declare->setChecked(true);
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(QFile::exists(schemaPath));
        const elab::core::PublicSchema written = elab::core::loadSchemaFile(schemaPath.toStdString());
        QCOMPARE(written.classes, (std::vector<std::string>{"no", "yes"}));
        QVERIFY(written.find("job"));
        QCOMPARE(written.find("job")->levels, (std::vector<std::string>{"clerk", "nurse", "pilot"}));
        panel = m_window->dataView()->schemaPanel(); // shows the new dataset (a hidden page fills when read)
        QVERIFY2(!panel->leaks(), qPrintable(panel->summaryLabel()->text()));
        QVERIFY(declare->isChecked());
        QVERIFY(!declare->isEnabled());
        QVERIFY2(panel->summaryLabel()->text().contains(QStringLiteral("public schema (") + schemaPath +
                                                        QStringLiteral(")")),
                 qPrintable(panel->summaryLabel()->text()));
        QCOMPARE(m_window->dataView()->logView()->leakingStepCount(), 0);
        // A built-in's documented schema: nothing to declare.
        m_window->load(request(QStringLiteral("builtin:penguins")));
        QVERIFY(shown.wait(kTimeout));
        panel = m_window->dataView()->schemaPanel();
        QVERIFY(!panel->leaks());
        QVERIFY(panel->summaryLabel()->text().contains(QStringLiteral("documented schema of builtin:penguins")));
        QFile::remove(schemaPath);
    }

    void screenshotWritesWindowSizedPng() {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->resize(1200, 800);
        m_window->load(request(QStringLiteral("builtin:iris")));
        QVERIFY(shown.wait(kTimeout));
        const QString png = m_dir.filePath(QStringLiteral("shots/window.png"));
        {
            BatchRunner runner(m_window.get(), {});
            QVERIFY(runner.captureWindow(png));
        }
        const QImage image(png);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
