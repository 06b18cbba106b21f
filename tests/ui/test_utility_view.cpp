// The Utility vs ε tab in the main window, offscreen, driven like a user: dragging the
// slider moves the estimate and the marker in the same call; the target field proposes an
// ε (and warns when it is far from the measuring point); Verify lists its steps; a click on
// the chart adds a measuring point; sessions reproduce the same numbers and bad ones change
// nothing; exports write the figure, its CSV and a sidecar that opens as a session.

#include "tests/ui/gui_test_support.h"
#include "ui/charts/chart_view.h"
#include "ui/dataset/load_controller.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/views/utility/training_controller.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_export.h"
#include "ui/views/utility/utility_tab.h"
#include "ui/views/utility/utility_view.h"
#include "ui/widgets/eps_slider.h"

#include <QCheckBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace elab;
using namespace elab::ui;

namespace {

constexpr int kTimeout = 60000;

UtilitySettings quickSettings() {
    UtilitySettings s;
    s.metric = core::UtilityMetric::TrainLoss; // the metric the Taylor estimates apply to
    s.testFraction = 0.0;
    s.repeats = 3;
    s.gridPoints = 9;
    s.epsMin = 0.01;
    s.epsMax = 100.0;
    s.measureAt = {1.0};
    s.estimators = {core::Estimator::InverseEps};
    s.seed = 11;
    s.currentEps = 1.0;
    return s;
}

bool settled(const MainWindow& w) {
    const UtilityController* c = w.utilityController();
    return !c->isBusy() && c->state().sweepComplete && c->hasDataset();
}

const charts::SeriesData* seriesByKey(const charts::ChartData& data, const QString& key) {
    for (const auto& s : data.series)
        if (s.key == key)
            return &s;
    return nullptr;
}

} // namespace

class TestUtilityView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // recent files go to a test location
        QVERIFY(m_dir.isValid());
    }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        m_window->show();
        m_window->utilityView()->applySettings(quickSettings());
        m_window->load(test::request(QStringLiteral("builtin:breast_cancer")));
        QTRY_VERIFY_WITH_TIMEOUT(settled(*m_window), kTimeout);
    }

    void cleanup() { m_window.reset(); }

    void dragMovesEstimateAndMarkerAtOnce() {
        UtilityView* view = m_window->utilityView();
        QSlider* slider = view->slider()->slider();
        slider->setSliderDown(true);
        const int position = EpsSlider::positionForEps(0.1);
        slider->setSliderPosition(position); // emits sliderMoved, as a drag does
        const double eps = view->slider()->eps();
        QVERIFY2(std::abs(eps - 0.1) < 0.002, qPrintable(QString::number(eps)));
        // Same call, no event loop: the chart's marker and the readout's estimate moved.
        const charts::ChartData shown = view->chartView()->data();
        QCOMPARE(seriesByKey(shown, QStringLiteral("current"))->value, eps);
        const double estimate = m_window->utilityController()->estimateAt(0, core::Estimator::InverseEps, eps);
        QVERIFY(view->readoutText().contains(QString::number(estimate, 'g', 4)));
        // The measurement made before the drag stays shown, at its own ε, until the drag's arrives.
        QVERIFY2(view->readoutText().contains(QStringLiteral("measured at ε = 1:")), qPrintable(view->readoutText()));
        QCOMPARE(seriesByKey(shown, QStringLiteral("probe"))->points.size(), 1);
        QCOMPARE(seriesByKey(shown, QStringLiteral("probe"))->points.front().x(), 1.0);
        // While dragging, the measurement at the slider's ε: a preview takes at most 3 repetitions,
        // which here (repeats = 3) are all of them — the full measurement, not repeated on release.
        QTRY_VERIFY_WITH_TIMEOUT(m_window->utilityController()->state().probe &&
                                     m_window->utilityController()->state().probe->eps == eps,
                                 kTimeout);
        QTRY_VERIFY(!view->readoutText().contains(QStringLiteral("measured at ε = 1:"))); // redrawn a frame later
        QVERIFY2(view->readoutText().contains(QStringLiteral("measured: ")), qPrintable(view->readoutText()));
        QVERIFY(view->readoutText().contains(QStringLiteral("3 repetitions)")));
        QVERIFY(!view->readoutText().contains(QStringLiteral("preview")));
        QCOMPARE(seriesByKey(view->chartView()->data(), QStringLiteral("probe"))->points.front().x(), eps);
        QVERIFY(m_window->utilityController()->state().probe->full);
        QVERIFY(!seriesByKey(view->chartView()->data(), QStringLiteral("probe"))->dimmed);
        QSignalSpy probes(m_window->utilityController()->probeSlot(), &ui::JobSlot::started);
        slider->setSliderDown(false);
        QTRY_VERIFY(!m_window->utilityController()->isBusy());
        QCOMPARE(probes.count(), 0);
        QCOMPARE(m_window->utilityController()->state().probe->repeats, 3);
    }

    void dpsgdTrainingCurvesWaitForTheRelease() {
        // DP-SGD's training curves (one run at the slider's ε) start once the slider rests: not on
        // every step of a drag, whose probes already use the cores.
        UtilitySettings s = quickSettings();
        s.mechanism.kind = core::MechanismKind::Dpsgd;
        s.mechanism.sgd.epochs = 2;
        s.mechanism.sgd.hidden = 0;
        s.measureAt.clear();
        m_window->utilityView()->applySettings(s);
        ui::TrainingController* training = m_window->view<UtilityTab>()->trainingController();
        QTRY_VERIFY_WITH_TIMEOUT(settled(*m_window) && !training->jobSlots().front()->isBusy(), kTimeout);
        QSignalSpy started(training->jobSlots().front(), &ui::JobSlot::started);
        QSlider* slider = m_window->utilityView()->slider()->slider();
        slider->setSliderDown(true);
        for (int k = 1; k <= 12; ++k) {
            slider->setSliderPosition(EpsSlider::positionForEps(0.1 * k));
            QTest::qWait(16);
        }
        // Idle (the training slots count too): the drag's probes have delivered.
        QTRY_VERIFY_WITH_TIMEOUT(!m_window->utilityController()->isBusy(), kTimeout);
        QCOMPARE(started.count(), 0);
        slider->setSliderDown(false);
        QTRY_COMPARE(started.count(), 1);
    }

    void logUtilityAxisIsAViewOption() {
        UtilityView* view = m_window->utilityView();
        QVERIFY(!view->chartData().logY);
        const UtilitySettings before = view->composedSettings();
        view->logYCheck()->setChecked(true);
        QVERIFY(view->chartData().logY);
        QVERIFY(view->chartView()->data().logY);
        QVERIFY(view->chartData().yMin > 0.0);
        QCOMPARE(view->composedSettings().seed, before.seed); // no recomputation asked for
        QVERIFY(!m_window->utilityController()->isBusy());
    }

    void keyboardStepsOnTheGrid() {
        UtilityView* view = m_window->utilityView();
        view->slider()->slider()->setFocus();
        QTest::keyClick(view->slider()->slider(), Qt::Key_Right);
        const std::vector<double> grid = quickSettings().grid();
        QCOMPARE(view->slider()->eps(), grid[5]); // 1 is grid[4] of 0.01…100 in 9 points
        QCOMPARE(seriesByKey(view->chartView()->data(), QStringLiteral("current"))->value, grid[5]);
    }

    void targetProposesEpsAndSetsAsideFarEstimates() {
        UtilityView* view = m_window->utilityView();
        UtilityController* c = m_window->utilityController();
        const double atTwo = c->estimateAt(0, core::Estimator::InverseEps, 2.0);
        view->targetEdit()->clear();
        QTest::keyClicks(view->targetEdit(), QString::number(atTwo, 'g', 10));
        QTRY_VERIFY(c->proposedEps().has_value());
        const double proposed = *c->proposedEps();
        QVERIFY2(std::abs(proposed - 2.0) < 1e-3, qPrintable(QString::number(proposed)));
        QTRY_VERIFY2(view->proposalText().contains(QStringLiteral("Proposed ε = 2")), qPrintable(view->proposalText()));
        QVERIFY(view->warningText().isEmpty());
        const charts::ChartData shown = view->chartView()->data();
        QCOMPARE(seriesByKey(shown, QStringLiteral("proposed"))->value, proposed);
        QCOMPARE(seriesByKey(shown, QStringLiteral("target"))->value, QString::number(atTwo, 'g', 10).toDouble());
        // A target the estimate meets only at 50 × ε̄: set aside, visibly, for the measured curve.
        const double atFifty = c->estimateAt(0, core::Estimator::InverseEps, 50.0);
        view->targetEdit()->setText(QString::number(atFifty, 'g', 10));
        QTRY_VERIFY(!view->warningText().isEmpty());
        QVERIFY2(
            view->warningText().startsWith(QStringLiteral("The estimate's ε = 50 (measured at ε = 1) is set aside: ")),
            qPrintable(view->warningText()));
        QVERIFY(!c->proposalFromEstimate());
        QVERIFY2(!view->proposalText().contains(QStringLiteral("measured at ε = 1")), qPrintable(view->proposalText()));
    }

    void verifyListsTheRefinementSteps() {
        UtilityView* view = m_window->utilityView();
        const double measured = m_window->utilityController()->state().points[6]->mean; // ε = 10
        view->targetEdit()->setText(QString::number(measured, 'g', 10));
        QTRY_VERIFY(view->verifyButton()->isEnabled());
        QTest::mouseClick(view->verifyButton(), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->utilityController()->state().verification.has_value(), kTimeout);
        QTRY_VERIFY(view->stepsTable()->rowCount() >= 1);
        QVERIFY(m_window->utilityController()->state().verification->reachable);
        QTRY_VERIFY(seriesByKey(view->chartView()->data(), QStringLiteral("verify"))->points.size() >= 1);
    }

    void clickOnChartAddsMeasuringPoint() {
        UtilityView* view = m_window->utilityView();
        emit view->chartView()->clicked(QPointF(3.14159, 0.5));
        QCOMPARE(view->measuringList()->count(), 2);
        QCOMPARE(view->composedSettings().measureAt, (std::vector<double>{1.0, 3.14}));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->utilityController()->state().measuring.size() == 2 &&
                                     !m_window->utilityController()->isBusy(),
                                 kTimeout);
        view->measuringList()->setCurrentRow(0);
        view->removeSelectedMeasuringPoint();
        QCOMPARE(view->composedSettings().measureAt, (std::vector<double>{3.14}));
    }

    void sessionReproducesTheNumbers() {
        const QString path = m_dir.filePath(QStringLiteral("round.json"));
        m_window->utilityView()->targetEdit()->setText(QStringLiteral("0.4"));
        QVERIFY(m_window->sessionActions()->save(path));
        const auto before = m_window->utilityController()->state().points;

        MainWindow other;
        other.setErrorDialogsEnabled(false);
        other.show();
        QSignalSpy applied(other.sessionActions(), &SessionActions::applied);
        QVERIFY(other.sessionActions()->open(path));
        QVERIFY(applied.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(settled(other), kTimeout);
        const auto after = other.utilityController()->state().points;
        QCOMPARE(after.size(), before.size());
        for (std::size_t g = 0; g < before.size(); ++g)
            QCOMPARE(after[g]->values, before[g]->values); // bit-identical
        QCOMPARE(other.utilityView()->composedSettings().target, std::optional<double>(0.4));
        QVERIFY(other.sessionActions()->recentFiles().contains(QFileInfo(path).absoluteFilePath()));
    }

    void badSessionChangesNothing_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("garbage") << QByteArray("not json at all") << "parse error";
        Session missing;
        missing.dataset.spec = m_dir.filePath(QStringLiteral("gone.csv"));
        QTest::newRow("missing dataset") << sessionToJson(missing) << "does not exist";
        Session unknown;
        unknown.dataset.spec = QStringLiteral("builtin:no_such_set");
        QTest::newRow("unknown built-in") << sessionToJson(unknown) << "no_such_set";
    }
    void badSessionChangesNothing() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const QString path = test::writeFile(m_dir, QStringLiteral("bad.json"), json);
        const UtilitySettings before = m_window->utilityView()->composedSettings();
        QSignalSpy failed(m_window->sessionActions(), &SessionActions::failed);
        QVERIFY(!m_window->sessionActions()->open(path));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains(expected), qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(m_window->current().data->name, std::string("breast_cancer"));
        QVERIFY(!m_window->loadController()->isBusy());
        const UtilitySettings after = m_window->utilityView()->composedSettings();
        QCOMPARE(after.seed, before.seed);
        QCOMPARE(after.repeats, before.repeats);
    }

    void exportWritesFigureCsvAndSidecar() {
        const QString svg = m_dir.filePath(QStringLiteral("fig/utility.svg"));
        QDir().mkpath(m_dir.filePath(QStringLiteral("fig")));
        FigureExport request;
        request.path = svg;
        QString error;
        const QStringList written =
            exportFigure(m_window->utilityView()->chartData(), m_window->sessionActions()->currentSession(),
                         m_window->utilityController()->state(), request, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(written.size(), 3);
        QFile csv(csvPathFor(svg));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QVERIFY(csv.readAll().startsWith("key,name,kind,x,y,y_upper"));
        QFile sidecar(sidecarPathFor(svg));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const QByteArray bytes = sidecar.readAll();
        const QJsonObject root = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(root.value(QStringLiteral("dataset")).toObject().value(QStringLiteral("sha256")).toString(),
                 QString::fromStdString(m_window->current().data->provenance.sha256));
        QCOMPARE(root.value(QStringLiteral("utility")).toObject().value(QStringLiteral("seed")).toInt(), 11);
        const QJsonObject results =
            root.value(QStringLiteral("export")).toObject().value(QStringLiteral("results")).toObject();
        QCOMPARE(results.value(QStringLiteral("grid")).toArray().size(), 9);
        QCOMPARE(results.value(QStringLiteral("measured")).toObject().value(QStringLiteral("mean")).toArray().size(),
                 9);
        QString parseError;
        QVERIFY2(sessionFromJson(bytes, &parseError).has_value(), qPrintable(parseError)); // opens as a session
        // An unwritable path fails with a message naming it and writes nothing.
        request.path = QStringLiteral("/proc/no/such/dir/fig.png");
        const Session session = m_window->sessionActions()->currentSession();
        QVERIFY(exportFigure(m_window->utilityView()->chartData(), session, m_window->utilityController()->state(),
                             request, &error)
                    .isEmpty());
        QVERIFY2(error.contains(QStringLiteral("/proc/no/such/dir")), qPrintable(error));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestUtilityView)
#include "test_utility_view.moc"
