// The Utility tab comparing mechanisms, offscreen, driven like a user: ticking two mechanisms in
// "Compare with" sweeps them after the chosen one on the same grid with the same seeds (their
// curves equal the core's sweep of each with that seed), draws each in its own colour and dash
// style with the non-private level once, ranks the three at the slider's ε by what the core
// measures there, names the ε each needs for a target, and a session keeps the set (one without
// it opens with none).

#include "tests/ui/gui_test_support.h"
#include "ui/charts/chart_view.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_export.h"
#include "ui/views/utility/utility_tab.h"
#include "ui/views/utility/utility_view.h"

#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/sweeps/mechanism_comparison.h"
#include "resources/builtin_resources.h"
#include "tests/support/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace elab;
using namespace elab::ui;

namespace {

constexpr int kTimeout = 120000;

UtilitySettings quickSettings() {
    UtilitySettings s;
    s.metric = core::UtilityMetric::TrainLoss;
    s.testFraction = 0.0;
    s.repeats = 3;
    s.gridPoints = 7;
    s.epsMin = 0.05;
    s.epsMax = 50.0;
    s.measureAt.clear();
    s.seed = 11;
    s.currentEps = 2.0;
    s.mechanism.model.lambda = 0.1; // output perturbation needs Λ > 0
    return s;
}

const charts::SeriesData* seriesByKey(const charts::ChartData& data, const QString& key) {
    for (const auto& s : data.series)
        if (s.key == key)
            return &s;
    return nullptr;
}

void tick(UtilityView* view, const QString& name) {
    QListWidget* list = view->compareList();
    for (int row = 0; row < list->count(); ++row)
        if (list->item(row)->data(Qt::UserRole).toString() == name)
            list->item(row)->setCheckState(Qt::Checked);
}

bool compared(const MainWindow& w) {
    const UtilityController* c = w.utilityController();
    return !c->isBusy() && w.view<UtilityTab>()->complete() && !c->state().compared.empty();
}

/// The core's sweep of kind at the view's settings, on the data prepared as the view prepares it.
core::UtilitySweepResult coreSweep(const UtilitySettings& s, core::MechanismKind kind, std::vector<double> grid) {
    core::DataPreparation preparation;
    preparation.testFraction = s.testFraction;
    preparation.preprocess = s.preprocess;
    const core::PreparedData d =
        core::prepareExperimentData(core::loadDataset("builtin:breast_cancer", {}, resources::builtinBytesProvider()),
                                    std::nullopt, preparation, s.seed);
    core::UtilitySweepSpec spec;
    spec.mechanism = s.comparedSpec(kind);
    spec.grid = std::move(grid);
    spec.repeats = s.repeats;
    spec.metric = s.metric;
    spec.seed = s.seed;
    spec.estimators.clear();
    return core::runUtilitySweep(core::sweepDataOf(d.train), spec);
}

} // namespace

class TestUtilityCompare : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        m_window->show();
        m_window->utilityView()->applySettings(quickSettings());
        m_window->load(test::request(QStringLiteral("builtin:breast_cancer")));
        QTRY_VERIFY_WITH_TIMEOUT(m_window->utilityController()->state().sweepComplete, kTimeout);
        UtilityView* view = m_window->utilityView();
        tick(view, QStringLiteral("outpert-gauss"));
        tick(view, QStringLiteral("objpert-pure"));
        QTRY_VERIFY_WITH_TIMEOUT(compared(*m_window), kTimeout);
    }

    void cleanup() { m_window.reset(); }

    void twoCurvesInTheirOwnStyleWithTheCoresNumbers() {
        const UtilitySettings s = m_window->utilityController()->settings();
        QCOMPARE(s.compareWith, (std::vector<core::MechanismKind>{core::MechanismKind::ObjPertPure,
                                                                  core::MechanismKind::OutPertGauss}));
        const charts::ChartData chart = m_window->utilityView()->chartData();
        std::set<std::pair<QRgb, int>> styles;
        styles.insert({seriesByKey(chart, QStringLiteral("measured"))->color.rgb(),
                       static_cast<int>(seriesByKey(chart, QStringLiteral("measured"))->style)});
        std::set<int> dashes{static_cast<int>(seriesByKey(chart, QStringLiteral("measured"))->style)};
        for (core::MechanismKind kind : s.compareWith) {
            const QString name = QString::fromLatin1(core::toString(kind));
            const charts::SeriesData* curve = seriesByKey(chart, QStringLiteral("measured:") + name);
            QVERIFY2(curve, qPrintable(name));
            QCOMPARE(curve->name, name);
            QCOMPARE(curve->points.size(), s.gridPoints);
            styles.insert({curve->color.rgb(), static_cast<int>(curve->style)});
            dashes.insert(static_cast<int>(curve->style));
            QVERIFY(seriesByKey(chart, QStringLiteral("band:") + name));
            // The same seeds: the core's sweep of this mechanism alone gives the same means.
            const core::UtilitySweepResult r = coreSweep(s, kind, s.grid());
            for (int g = 0; g < curve->points.size(); ++g)
                ELAB_RELATIVE(curve->points[g].y(), r.points[static_cast<std::size_t>(g)].mean, 1e-12);
        }
        QCOMPARE(styles.size(), std::size_t(3)); // colours and
        QCOMPARE(dashes.size(), std::size_t(3)); // dash styles apart, for greyscale
        int levels = 0;
        for (const auto& series : chart.series)
            levels += series.kind == charts::SeriesKind::HorizontalLine && series.key == QStringLiteral("nonprivate");
        QCOMPARE(levels, 1);
    }

    void rankedReadoutAtTheSlidersEps() {
        const UtilitySettings s = m_window->utilityController()->settings();
        QTRY_VERIFY(!m_window->utilityView()->comparisonText().contains(QStringLiteral("≈"))); // a frame later
        const QString text = m_window->utilityView()->comparisonText();
        // "1. objpert-gauss: 0.4321 ± 0.01" per mechanism, measured (no "≈") once at rest.
        const QRegularExpression line(QStringLiteral("^(\\d)\\. ([a-z-]+): ([0-9.e+-]+) ± ([0-9.e+-]+)$"),
                                      QRegularExpression::MultilineOption);
        std::vector<QString> order;
        std::vector<double> shown;
        for (auto it = line.globalMatch(text); it.hasNext();) {
            const auto m = it.next();
            order.push_back(m.captured(2));
            shown.push_back(m.captured(3).toDouble());
        }
        QVERIFY2(order.size() == 3, qPrintable(text));
        // What the core measures at the slider's ε with the same seeds, ranked lowest loss first.
        std::vector<core::MechanismKind> kinds{s.mechanism.kind};
        kinds.insert(kinds.end(), s.compareWith.begin(), s.compareWith.end());
        std::vector<double> means;
        for (core::MechanismKind kind : kinds)
            means.push_back(coreSweep(s, kind, {s.currentEps}).points.front().mean);
        std::vector<std::size_t> expected(kinds.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            expected[i] = i;
        std::sort(expected.begin(), expected.end(), [&](std::size_t a, std::size_t b) { return means[a] < means[b]; });
        for (std::size_t r = 0; r < kinds.size(); ++r) {
            QCOMPARE(order[r], QString::fromLatin1(core::toString(kinds[expected[r]])));
            ELAB_RELATIVE(shown[r], means[expected[r]], 1e-3); // printed with 4 significant digits
        }
    }

    void targetNamesTheEpsEachNeedsAndTheLeast() {
        UtilityView* view = m_window->utilityView();
        view->targetEdit()->setText(QStringLiteral("0.45"));
        QTRY_VERIFY(view->comparisonText().contains(QStringLiteral("Least ε: ")));
        const UtilityState& state = m_window->utilityController()->state();
        std::vector<core::SweepPoint> main;
        for (const auto& p : state.points)
            main.push_back(*p);
        const auto mainEps = core::measuredTargetEps(main, 0.45, core::UtilityMetric::TrainLoss);
        QVERIFY(mainEps);
        QVERIFY2(view->comparisonText().contains(
                     QStringLiteral("objpert-gauss: %1 on the measured curve").arg(QString::number(*mainEps, 'g', 3))),
                 qPrintable(view->comparisonText()));
        view->verifyButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(state.targetEps.size() == 3, kTimeout);
        QTRY_VERIFY(view->comparisonText().contains(QStringLiteral("(verified)")));
    }

    void sessionKeepsTheSetAndOldSessionsHaveNone() {
        const QString path = m_dir.filePath(QStringLiteral("compare.json"));
        QVERIFY(m_window->sessionActions()->save(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonObject utility = root[QStringLiteral("utility")].toObject();
        QCOMPARE(utility[QStringLiteral("compare_with")].toArray(),
                 (QJsonArray{QStringLiteral("objpert-pure"), QStringLiteral("outpert-gauss")}));

        MainWindow other;
        other.setErrorDialogsEnabled(false);
        other.show();
        QSignalSpy applied(other.sessionActions(), &SessionActions::applied);
        QVERIFY(other.sessionActions()->open(path));
        QVERIFY(applied.wait(kTimeout));
        QCOMPARE(other.utilityView()->composedSettings().compareWith,
                 m_window->utilityController()->settings().compareWith);
        QTRY_VERIFY_WITH_TIMEOUT(compared(other), kTimeout);
        QCOMPARE(other.utilityController()->state().compared.size(), std::size_t(2));

        // A session written before the compare set: no key, no comparison, the rest as saved.
        utility.remove(QStringLiteral("compare_with"));
        root[QStringLiteral("utility")] = utility;
        const QString old = m_dir.filePath(QStringLiteral("old.json"));
        QFile out(old);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(root).toJson());
        out.close();
        QSignalSpy reapplied(other.sessionActions(), &SessionActions::applied);
        QVERIFY(other.sessionActions()->open(old));
        QVERIFY(reapplied.wait(kTimeout));
        QVERIFY(other.utilityView()->composedSettings().compareWith.empty());
        QCOMPARE(other.utilityView()->composedSettings().seed, std::uint64_t(11));
    }

    void exportCsvHasAMechanismColumn() {
        const QByteArray csv =
            comparisonCsv(m_window->utilityController()->settings(), m_window->utilityController()->state());
        const QList<QByteArray> lines = csv.trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("mechanism,eps,measured_mean,measured_std"));
        QCOMPARE(lines.size(), 1 + 3 * 7);
        QVERIFY(lines[1].startsWith("objpert-gauss,"));
        QVERIFY(lines[8].startsWith("objpert-pure,"));
        QVERIFY(lines[15].startsWith("outpert-gauss,"));
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestUtilityCompare)
#include "test_utility_compare.moc"
