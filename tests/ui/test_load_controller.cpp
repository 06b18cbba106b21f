// LoadController: results arrive on the GUI thread, errors carry file:line, stale results
// are dropped, cancel stops the job and nothing is delivered for it (STYLE.md §2, §5).

#include "tests/ui/gui_test_support.h"
#include "ui/dataset/load_controller.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using elab::ui::LoadController;
using elab::ui::LoadedDataset;
using elab::ui::LoadRequest;

namespace {

using elab::test::request;
using elab::test::writeFile;

// A CSV large enough that loading takes a noticeable time (~15 MB, 300k rows).
QString writeBigCsv(const QTemporaryDir& dir) {
    QByteArray bytes = "a,b,c,d,e,f,g,label\n";
    bytes.reserve(16 << 20);
    for (int i = 0; i < 300000; ++i) {
        const QByteArray v = QByteArray::number(i % 997) + '.' + QByteArray::number(i % 89);
        for (int c = 0; c < 7; ++c)
            bytes += v + ',';
        bytes += QByteArray::number(i % 2) + '\n';
    }
    return writeFile(dir, QStringLiteral("big.csv"), bytes);
}

} // namespace

class TestLoadController : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qRegisterMetaType<LoadedDataset>();
        qRegisterMetaType<LoadRequest>();
        QVERIFY(m_dir.isValid());
    }

    void loadsBuiltinAndDeliversOnGuiThread() {
        LoadController controller;
        QThread* const gui = QThread::currentThread();
        bool loadedOnGui = false;
        bool progressOffGui = false;
        QString name;
        // Direct connections: the slots run on whatever thread emits.
        connect(
            &controller, &LoadController::loaded, &controller,
            [&](const LoadedDataset& loaded) {
                loadedOnGui = QThread::currentThread() == gui;
                name = QString::fromStdString(loaded.data->name);
            },
            Qt::DirectConnection);
        connect(
            &controller, &LoadController::progress, &controller,
            [&](double, const QString&) { progressOffGui |= QThread::currentThread() != gui; }, Qt::DirectConnection);
        QSignalSpy loaded(&controller, &LoadController::loaded);
        QSignalSpy busy(&controller, &LoadController::busyChanged);
        controller.load(request(QStringLiteral("builtin:breast_cancer")));
        QVERIFY(controller.isBusy());
        QVERIFY(loaded.wait(30000));
        QVERIFY(loadedOnGui);
        QVERIFY(!progressOffGui);
        QCOMPARE(name, QStringLiteral("breast_cancer"));
        QVERIFY(!controller.isBusy());
        QCOMPARE(busy.count(), 2); // true, then false

        const auto result = loaded.at(0).at(0).value<LoadedDataset>();
        QCOMPARE(result.data->rows(), 569);
        QCOMPARE(result.data->featureCount(), 30);
        QCOMPARE(result.summary.rows, 569);
        QCOMPARE(int(result.summary.classes.size()), 2);
        QCOMPARE(result.summary.classes[0].count + result.summary.classes[1].count, 569);
        QCOMPARE(result.request.spec, QStringLiteral("builtin:breast_cancer"));
        QCOMPARE(int(result.data->provenance.sha256.size()), 64);
    }

    void regressionGetsTargetHistogram() {
        LoadController controller;
        QSignalSpy loaded(&controller, &LoadController::loaded);
        controller.load(request(QStringLiteral("builtin:diabetes")));
        QVERIFY(loaded.wait(30000));
        const auto result = loaded.at(0).at(0).value<LoadedDataset>();
        QCOMPARE(result.summary.task, elab::core::TaskKind::Regression);
        QCOMPARE(int(result.targetHistogram.counts.size()), 30);
        qint64 total = 0;
        for (auto c : result.targetHistogram.counts)
            total += c;
        QCOMPARE(total, 442);
        QCOMPARE(result.targetHistogram.lo, result.data->targets.values->minCoeff());
    }

    void malformedFileFailsWithLineNumber() {
        const QString path = writeFile(m_dir, QStringLiteral("ragged.csv"), "a,b,label\n1,2,0\n3,4\n5,6,1\n");
        LoadController controller;
        QSignalSpy failed(&controller, &LoadController::failed);
        QSignalSpy loaded(&controller, &LoadController::loaded);
        controller.load(request(path));
        QVERIFY(failed.wait(30000));
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.startsWith(path + QStringLiteral(":3")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("expected 3")), qPrintable(message));
        QCOMPARE(loaded.count(), 0);
        QVERIFY(!controller.isBusy());
    }

    void missingFileFails() {
        LoadController controller;
        QSignalSpy failed(&controller, &LoadController::failed);
        controller.load(request(m_dir.filePath(QStringLiteral("no-such-file.csv"))));
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("no-such-file.csv")));
    }

    void staleResultIsDropped() {
        LoadController controller;
        QSignalSpy loaded(&controller, &LoadController::loaded);
        QSignalSpy stale(&controller, &LoadController::staleResultDropped);
        controller.load(request(QStringLiteral("builtin:breast_cancer")));
        const quint64 first = controller.generation();
        controller.load(request(QStringLiteral("builtin:iris")));
        QVERIFY(loaded.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 1, 30000);
        QCOMPARE(stale.at(0).at(0).toULongLong(), first);
        QCOMPARE(loaded.count(), 1);
        const auto result = loaded.at(0).at(0).value<LoadedDataset>();
        QCOMPARE(result.data->name, std::string("iris"));
        QCOMPARE(result.data->rows(), 150);
    }

    void cancelStopsAndDeliversNothing() {
        const QString path = writeBigCsv(m_dir);
        LoadController controller;
        QSignalSpy progress(&controller, &LoadController::progress);
        QSignalSpy cancelled(&controller, &LoadController::cancelled);
        QSignalSpy loaded(&controller, &LoadController::loaded);
        QSignalSpy failed(&controller, &LoadController::failed);
        QSignalSpy stale(&controller, &LoadController::staleResultDropped);
        controller.load(request(path));
        QVERIFY(progress.wait(30000)); // the job is running
        controller.cancel();
        const auto progressAtCancel = progress.count();
        QCOMPARE(cancelled.count(), 1); // at once, on the GUI thread
        QCOMPARE(cancelled.at(0).at(0).value<LoadRequest>().spec, path);
        QVERIFY(!controller.isBusy());
        QElapsedTimer stopping;
        stopping.start();
        controller.waitForIdle();
        qInfo("worker returned %lld ms after cancel", stopping.elapsed());
        // The dropped result is the last thing the stopped worker posts (its progress was posted
        // before it): once it arrived, nothing more can.
        QTRY_COMPARE_WITH_TIMEOUT(stale.count(), 1, 10000);
        QCOMPARE(loaded.count(), 0);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(progress.count(), progressAtCancel); // no progress shown after the cancel
    }

    void cancelWhenIdleDoesNothing() {
        LoadController controller;
        QSignalSpy cancelled(&controller, &LoadController::cancelled);
        controller.cancel();
        QCOMPARE(cancelled.count(), 0);
    }

    // Destroying the controller while its job runs (asserted: progress arrived) stops the job
    // and waits for it. What would go wrong otherwise is a delivery to the dead object — a use
    // after free, which this test turns into a crash under the asan preset — or a result
    // reaching the receivers after the controller is gone, which the count below rules out.
    void destroyWhileLoadingIsSafe() {
        const QString path = m_dir.filePath(QStringLiteral("big.csv"));
        QVERIFY(QFile::exists(path) || !writeBigCsv(m_dir).isEmpty());
        auto controller = std::make_unique<LoadController>();
        QObject receiver;
        int deliveries = 0;
        connect(controller.get(), &LoadController::loaded, &receiver, [&] { ++deliveries; });
        connect(controller.get(), &LoadController::failed, &receiver, [&] { ++deliveries; });
        QSignalSpy progress(controller.get(), &LoadController::progress);
        controller->load(request(path));
        QVERIFY(progress.wait(30000)); // the job is running
        QVERIFY(controller->isBusy());
        controller.reset();                   // stops the job and waits for it
        QCoreApplication::sendPostedEvents(); // any queued delivery would run now
        QCoreApplication::processEvents();
        QCOMPARE(deliveries, 0);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestLoadController)
#include "test_load_controller.moc"
