// The view registry (ui/views/view_catalog.h) as the shell, sessions and exports use it:
// every registered view is a tab with its title, in catalog order, and shows by id; every
// view's settings round-trip through a session file and into another window; every view
// with figures exports each figure with its CSV and a sidecar that opens as a session, and
// a view without one says so; batch mode waits for each view's computation and writes its
// files. Nothing here names a view: a new view is covered by adding it.

#include "app/gui/batch_runner.h"
#include "tests/ui/gui_test_support.h"
#include "ui/jobs/compute_controller.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/views/accounting/accounting_settings.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/ptr/ptr_settings.h"
#include "ui/views/regions/regions_settings_json.h"
#include "ui/views/stability/stability_settings_json.h"
#include "ui/views/utility/utility_settings_json.h"
#include "ui/views/view_catalog.h"
#include "ui/widgets/eps_slider.h"

#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

using namespace elab;
using namespace elab::ui;

namespace {

constexpr int kTimeout = 60000;
const QString kData = QStringLiteral("builtin:moons?rows=200&noise=0.3&seed=5");

/// Small settings for the views that have them (quick computations), non-default values.
Session smallSession() {
    Session s;
    s.dataset.spec = kData;
    ui::UtilitySettings u;
    u.repeats = 2;
    u.gridPoints = 5;
    u.epsMin = 0.1;
    u.epsMax = 10.0;
    u.measureAt = {1.0};
    u.estimators = {core::Estimator::InverseEps};
    u.seed = 23;
    u.currentEps = 1.0;
    ui::storeUtilitySettings(s, u);
    ui::StabilitySettings st;
    st.rhoMax = 0.5;
    st.rhoPoints = 3;
    st.repeats = 2;
    st.stabilitySamples = 2;
    st.seed = 29;
    ui::storeStabilitySettings(s, st);
    ui::RegionsSettings r;
    r.draws = 3;
    r.gridSize = 64;
    r.seed = 31;
    r.currentEps = 0.5;
    ui::storeRegionsSettings(s, r);
    ui::AccountingSettings acc;
    acc.batchSize = 50;
    acc.epochs = 7;
    acc.delta = 1e-6;
    acc.currentEps = 2.0;
    acc.accountant = core::AccountantKind::AdvancedComposition;
    ui::storeAccountingSettings(s, acc);
    ui::AuditSettings audit;
    audit.runs = 40;
    audit.seed = 37;
    audit.currentEps = 0.7;
    audit.alpha = 0.1;
    ui::storeAuditSettings(s, audit);
    ui::PtrSettings ptr;
    ptr.binariseAt = 0.1;
    ptr.delta = 1e-6;
    ptr.currentEps = 3.0;
    ptr.runs = 500;
    ptr.seed = 41;
    ui::storePtrSettings(s, ptr);
    return s;
}

bool loadAndWait(MainWindow& w, const QString& spec) {
    QSignalSpy shown(&w, &MainWindow::datasetShown);
    w.load(test::request(spec));
    return shown.wait(kTimeout);
}

/// The view's computation (if any) has run to completion.
bool settled(View& view) {
    ComputeControllerBase* c = view.controller();
    return !c || (!c->isBusy() && view.complete());
}

} // namespace

class TestViewRegistry : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QVERIFY(!viewCatalog().empty());
    }

    void everyViewIsATabInCatalogOrder() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        const auto& catalog = viewCatalog();
        QCOMPARE(w.tabs()->count(), static_cast<int>(catalog.size()));
        QCOMPARE(w.views().size(), catalog.size());
        QStringList ids;
        for (std::size_t i = 0; i < catalog.size(); ++i) {
            const ViewType& type = catalog[i];
            QVERIFY2(!ids.contains(type.id), qPrintable(type.id)); // ids are unique
            ids << type.id;
            QCOMPARE(w.tabs()->tabText(static_cast<int>(i)), type.title);
            QCOMPARE(w.viewType(i).id, type.id);
            QVERIFY(w.tabs()->widget(static_cast<int>(i))->isAncestorOf(w.views()[i]->widget()));
            QCOMPARE(findViewType(type.id), &type);
            QCOMPARE(w.view(type.id), w.views()[i].get());
            w.showView(type.id);
            QCOMPARE(w.currentView(), type.id);
            QCOMPARE(w.tabs()->currentIndex(), static_cast<int>(i));
        }
        QCOMPARE(findViewType(QStringLiteral("no-such-view")), nullptr);
    }

    void settingsRoundTripThroughASession() {
        // In the file: every view's block survives writing and reading.
        const Session a = smallSession();
        QString error;
        const auto b = sessionFromJson(sessionToJson(a), &error);
        QVERIFY2(b.has_value(), qPrintable(error));
        for (const ViewType& type : viewCatalog())
            if (type.writeSettings)
                QVERIFY2(type.writeSettings(*b) == type.writeSettings(a), qPrintable(type.id));

        // Through windows: settings restored into every view come back out of every view,
        // and a session saved from one window reproduces them in another.
        MainWindow first;
        first.setErrorDialogsEnabled(false);
        QVERIFY(loadAndWait(first, kData));
        for (const auto& view : first.views())
            view->restoreSettings(a);
        const Session saved = first.sessionActions()->currentSession();
        for (const ViewType& type : viewCatalog())
            if (type.writeSettings)
                QVERIFY2(type.writeSettings(saved) == type.writeSettings(a), qPrintable(type.id));

        const auto reread = sessionFromJson(sessionToJson(saved), &error);
        QVERIFY2(reread.has_value(), qPrintable(error));
        MainWindow second;
        second.setErrorDialogsEnabled(false);
        QSignalSpy applied(second.sessionActions(), &SessionActions::applied);
        QVERIFY(second.sessionActions()->openSession(*reread, QStringLiteral("test")));
        QVERIFY(applied.wait(kTimeout));
        QCOMPARE(sessionToJson(second.sessionActions()->currentSession()), sessionToJson(saved));
    }

    void newViewsKeepTheirBlockInTheSession() {
        ViewType type;
        type.id = QStringLiteral("probe");
        keepSettingsInSession(type, [](const nlohmann::json& block) {
            if (!block.is_object() || !block.contains("n") || !block["n"].is_number_integer())
                throw std::runtime_error("probe.n: expected an integer");
        });
        Session a;
        QVERIFY(type.writeSettings(a).is_null()); // no block: none written
        a.viewSettings[type.id] = QByteArrayLiteral("{\"n\":3}");
        const nlohmann::ordered_json block = type.writeSettings(a);
        QCOMPARE(block["n"].get<int>(), 3);
        Session b;
        type.readSettings(nlohmann::json::parse(block.dump()), b);
        QCOMPARE(b.viewSettings.value(type.id), a.viewSettings.value(type.id));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, type.readSettings(nlohmann::json::parse("{\"n\":\"x\"}"), b));
    }

    void everyViewExportsItsFigures() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        w.show();
        const Session small = smallSession();
        for (const auto& view : w.views())
            view->restoreSettings(small);
        QVERIFY(loadAndWait(w, kData));
        for (std::size_t i = 0; i < w.views().size(); ++i) {
            const ViewType& type = w.viewType(i);
            View& view = *w.views()[i];
            w.showView(type.id);
            QTRY_VERIFY_WITH_TIMEOUT(settled(view), kTimeout);
            const QString path = m_dir.filePath(type.id + QStringLiteral(".svg"));
            QString error;
            const QStringList written = w.exportCurrentView(path, {}, &error);
            if (!type.hasFigures) {
                QVERIFY(written.isEmpty());
                QVERIFY2(error.contains(type.id), qPrintable(error));
                continue;
            }
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const auto figures = view.figures();
            QVERIFY(!figures.isEmpty());
            QCOMPARE(written.size(), 3 * figures.size()); // figure, CSV, sidecar each
            for (const QString& file : written) {
                QVERIFY2(QFileInfo(file).size() > 0, qPrintable(file));
                if (!file.endsWith(QLatin1String(".json")))
                    continue;
                QFile sidecar(file);
                QVERIFY(sidecar.open(QIODevice::ReadOnly));
                const auto session = sessionFromJson(sidecar.readAll(), &error);
                QVERIFY2(session.has_value(), qPrintable(file + QStringLiteral(": ") + error));
                QCOMPARE(session->view, type.id);
                QCOMPARE(session->dataset.spec, kData);
            }
        }
    }

    // `--eps inf`: every view that follows ε puts its slider at ∞ and either shows the non-private
    // end or says, in a text on its page, why ∞ has nothing for it (it showed ε = 1 silently before).
    void infiniteEpsIsShownOrExplained() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        StartOptions start;
        start.eps = std::numeric_limits<double>::infinity();
        const Session small = smallSession();
        for (const auto& view : w.views()) {
            view->restoreSettings(small);
            view->applyStartOptions(start);
        }
        QVERIFY(loadAndWait(w, kData));
        for (std::size_t i = 0; i < w.views().size(); ++i) {
            View& view = *w.views()[i];
            const auto sliders = view.widget()->findChildren<EpsSlider*>();
            if (sliders.isEmpty())
                continue; // the view does not follow ε
            w.showView(w.viewType(i).id);
            QTRY_VERIFY_WITH_TIMEOUT(settled(view) || !view.controller()->lastError().isEmpty(), kTimeout);
            for (EpsSlider* slider : sliders)
                QVERIFY2(std::isinf(slider->eps()), qPrintable(w.viewType(i).id));
            QStringList texts;
            for (QLabel* label : view.widget()->findChildren<QLabel*>())
                if (label->isVisibleTo(view.widget()))
                    texts << label->text();
            if (view.controller())
                texts << view.controller()->lastError();
            const QString all = texts.join(QLatin1Char('\n'));
            QVERIFY2(all.contains(QStringLiteral("∞")) && !all.contains(QStringLiteral("ε = 1 ")),
                     qPrintable(w.viewType(i).id + QStringLiteral(": ") + all.left(2000)));
        }
    }

    void batchModeWaitsForEachView() {
        const Session small = smallSession();
        for (const ViewType& type : viewCatalog()) {
            MainWindow w;
            BatchJob job;
            job.screenshot = m_dir.filePath(QStringLiteral("batch-%1.png").arg(type.id));
            if (type.hasFigures)
                job.exports << m_dir.filePath(QStringLiteral("batch-%1.svg").arg(type.id));
            BatchRunner runner(&w, job);
            w.show();
            w.showView(type.id);
            for (const auto& view : w.views())
                view->restoreSettings(small);
            w.load(test::request(kData));
            // The screenshot is written last, once the view's computation has finished.
            QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(job.screenshot), kTimeout);
            View* view = w.view(type.id);
            QVERIFY(settled(*view));
            if (type.hasFigures) {
                const QFileInfo svg(job.exports.front());
                for (const ViewFigure& figure : view->figures()) {
                    const QString base =
                        view->figures().size() == 1 ? svg.completeBaseName() : svg.completeBaseName() + figure.suffix;
                    for (const char* suffix : {".svg", ".csv", ".json"})
                        QVERIFY2(QFileInfo::exists(svg.dir().filePath(base + QLatin1String(suffix))),
                                 qPrintable(base + QLatin1String(suffix)));
                }
            }
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestViewRegistry)
#include "test_view_registry.moc"
