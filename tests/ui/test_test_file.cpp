// A test file in the GUI: the load controller reads it beside the dataset, the views measure
// their test metrics on it (every dataset row trains, no fraction is held out) with the
// training file's encoding, the dataset panel asks for it and sessions keep it.

#include "tests/support/gui_test_support.h"
#include "tests/ui/gui_test_support.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/load_controller.h"
#include "ui/session/session.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/stability/stability_controller.h"
#include "ui/views/utility/utility_controller.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace elab;
using elab::test::waitIdle;
using elab::test::writeFile;

namespace {

constexpr int kTrainRows = 240;
constexpr int kTestRows = 77;

// Two numeric features and a categorical one; the training file has the levels red, green and
// blue, the test file only blue and red (its own encoding would give two indicator columns).
QByteArray csvRows(int rows, int offset, bool testLevels) {
    QByteArray bytes = "x1,x2,colour,label\n";
    for (int i = 0; i < rows; ++i) {
        const int k = i + offset;
        const bool positive = k % 2 == 0;
        const double x1 = (positive ? 1.0 : -1.0) + 0.37 * std::sin(1.7 * k);
        const double x2 = 0.5 * std::cos(0.9 * k);
        const char* colour = testLevels ? (k % 3 == 0 ? "blue" : "red")
                                        : (k % 3 == 0   ? "red"
                                           : k % 3 == 1 ? "green"
                                                        : "blue");
        bytes += QByteArray::number(x1) + ',' + QByteArray::number(x2) + ',' + colour + ',' +
                 (positive ? "yes" : "no") + '\n';
    }
    return bytes;
}

} // namespace

class TestTestFile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<ui::LoadedDataset>();
        qRegisterMetaType<ui::LoadRequest>();
        QVERIFY(m_dir.isValid());
        m_train = writeFile(m_dir, QStringLiteral("train.csv"), csvRows(kTrainRows, 0, false));
        m_test = writeFile(m_dir, QStringLiteral("test.csv"), csvRows(kTestRows, 1000, true));
        ui::LoadRequest request = test::request(m_train);
        request.testSpec = m_test;
        m_loaded = load(request);
        QVERIFY(m_loaded.isValid());
    }

    void theLoadControllerReadsTheTestFile() {
        QVERIFY(m_loaded.test);
        QCOMPARE(m_loaded.data->rows(), kTrainRows);
        QCOMPARE(m_loaded.test->rows(), kTestRows);
        QCOMPARE(m_loaded.request.testSpec, m_test);
    }

    void aBadTestFileIsNamedInTheError() {
        ui::LoadRequest request = test::request(m_train);
        request.testSpec = writeFile(m_dir, QStringLiteral("broken.csv"), "x1,x2,colour,label\n1,2\n");
        ui::LoadController controller;
        QSignalSpy failed(&controller, &ui::LoadController::failed);
        controller.load(request);
        QVERIFY(failed.wait(30000));
        const QString message = failed.front().front().toString();
        QVERIFY2(message.contains(QStringLiteral("broken.csv")), qPrintable(message));
    }

    void utilityMeasuresOnTheTestFileWithTheTrainingEncoding() {
        ui::UtilityController c;
        ui::UtilitySettings s = c.settings();
        s.testFraction = 0.3; // ignored with a test file
        s.metric = core::UtilityMetric::TestAccuracy;
        s.epsMin = 0.5;
        s.epsMax = 5.0;
        s.gridPoints = 2;
        s.repeats = 2;
        c.setSettings(s);
        c.setDataset(m_loaded.data, m_loaded.test);
        QVERIFY(waitIdle(c, 120000));
        QVERIFY2(c.lastError().isEmpty(), qPrintable(c.lastError()));
        const auto& data = c.state().data;
        QVERIFY(data && data->test);
        QCOMPARE(data->train.rows(), kTrainRows); // nothing held out
        QCOMPARE(data->test->rows(), kTestRows);
        // The test rows are encoded with the training file's levels (red, green, blue).
        QCOMPARE(data->test->featureCount(), data->train.featureCount());

        // Without the test file, the same settings hold out about 30 % of the rows.
        ui::UtilityController split;
        split.setSettings(s);
        split.setDataset(m_loaded.data);
        QVERIFY(waitIdle(split, 120000));
        QVERIFY(split.state().data && split.state().data->test);
        QVERIFY(split.state().data->train.rows() < kTrainRows);
        QCOMPARE(split.state().data->train.rows() + split.state().data->test->rows(), kTrainRows);
    }

    void stabilityAndRegionsUseTheTestFile() {
        ui::StabilityController stability;
        stability.setDataset(m_loaded.data, m_loaded.test);
        QVERIFY(waitIdle(stability, 300000));
        QVERIFY2(stability.lastError().isEmpty(), qPrintable(stability.lastError()));
        QVERIFY(stability.state().data && stability.state().data->test);
        QCOMPARE(stability.state().data->test->rows(), kTestRows);
        QCOMPARE(stability.state().data->train.rows(), kTrainRows);

        ui::RegionsController regions;
        regions.setDataset(m_loaded.data, m_loaded.test);
        QVERIFY(waitIdle(regions, 120000));
        QVERIFY2(regions.lastError().isEmpty(), qPrintable(regions.lastError()));
        QVERIFY(regions.state().problem);
        QCOMPARE(regions.state().problem->testPoints().rows(), kTestRows);
        QCOMPARE(regions.state().problem->trainPoints().rows(), kTrainRows);
    }

    void theDatasetPanelRequestsAndClearsTheTestFile() {
        ui::DatasetPanel panel;
        panel.setShown(m_loaded);
        QSignalSpy requested(&panel, &ui::DatasetPanel::loadRequested);
        panel.chooseTestFile({});
        QCOMPARE(requested.size(), 1);
        auto request = requested.takeFirst().front().value<ui::LoadRequest>();
        QCOMPARE(request.spec, m_train);
        QVERIFY(request.testSpec.isEmpty());
        panel.chooseTestFile(m_test);
        request = requested.takeFirst().front().value<ui::LoadRequest>();
        QCOMPARE(request.testSpec, m_test);
    }

    void sessionsKeepTheTestFile() {
        ui::Session s;
        s.dataset = m_loaded.request;
        s.sha256 = QString::fromStdString(m_loaded.data->provenance.sha256);
        s.testSha256 = QString::fromStdString(m_loaded.test->provenance.sha256);
        QVERIFY(!s.testSha256.isEmpty());
        const QString path = m_dir.filePath(QStringLiteral("pair.json"));
        QString error;
        QVERIFY2(ui::writeSessionFile(path, s, &error), qPrintable(error));
        const std::optional<ui::Session> back = ui::readSessionFile(path, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->dataset.testSpec, m_test);
        QCOMPARE(back->testSha256, s.testSha256);

        s.dataset.testSpec.clear(); // no test file: no key, and none read back
        QVERIFY(ui::writeSessionFile(path, s, &error));
        QVERIFY(ui::readSessionFile(path, &error)->dataset.testSpec.isEmpty());
    }

private:
    static ui::LoadedDataset load(const ui::LoadRequest& request) {
        ui::LoadController controller;
        QSignalSpy loaded(&controller, &ui::LoadController::loaded);
        QSignalSpy failed(&controller, &ui::LoadController::failed);
        controller.load(request);
        if (!loaded.wait(30000)) {
            if (!failed.isEmpty())
                qWarning("%s", qPrintable(failed.front().front().toString()));
            return {};
        }
        return loaded.front().front().value<ui::LoadedDataset>();
    }

    QTemporaryDir m_dir;
    QString m_train, m_test;
    ui::LoadedDataset m_loaded;
};

QTEST_MAIN(TestTestFile)
#include "test_test_file.moc"
