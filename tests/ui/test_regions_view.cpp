// The Decision regions tab in the main window, offscreen, driven like a user: it opens on the
// dataset's teaching plane; a drag of the ε slider redraws the picture, the ε in its title (the
// marker) and the readout together, in one call, for the ε computed; the panel's edits reach
// the controller; the mechanism menu is the catalog's; exports write the figure (raster under
// vector boundaries and points) with its CSV (cells, points, boundaries) and a sidecar that
// opens as a session. With REGIONS_SCREENSHOT_DIR set, PNGs of the window.

#include "tests/support/gui_test_support.h"
#include "tests/ui/gui_test_support.h"
#include "ui/charts/chart_view.h"
#include "ui/session/session.h"
#include "ui/shell/main_window.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/regions/regions_panel.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/regions/regions_text.h"
#include "ui/views/regions/regions_view.h"
#include "ui/widgets/eps_slider.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace elab;
using namespace elab::ui;

namespace {

constexpr int kTimeout = 60000;

struct Shown {
    double resultEps = NAN;
    QString title;
    QString readout;
    bool raster = false;
    bool dragging = false;
};

} // namespace

class TestRegionsView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        m_window->resize(1400, 900);
        m_window->show();
        m_window->showView(QStringLiteral("regions"));
        m_tab = m_window->view<RegionsTab>();
        QVERIFY(m_tab);
        RegionsSettings s = m_tab->view()->composedSettings();
        s.draws = 6;
        s.gridSize = 128;
        m_tab->view()->applySettings(s);
    }

    void cleanup() { m_window.reset(); }

    void opensOnTheTeachingPlane() {
        loadAndSettle(QStringLiteral("builtin:circles?rows=300&seed=2"));
        QVERIFY(m_tab->panel()->findChild<QCheckBox*>(QStringLiteral("quadraticCheck"))->isChecked());
        QVERIFY(m_tab->regionsController()->settings().quadratic);
        QVERIFY(m_tab->regionsController()->settings().preprocess.intercept);
        QCOMPARE(m_tab->regionsController()->settings().mechanism.kind, core::MechanismKind::ObjPertGauss);
        QVERIFY(m_tab->panel()->isVisible()); // its side panel, the utility view's hidden
        const int rebuilds = m_tab->view()->chartView()->rebuildCount();
        loadAndSettle(QStringLiteral("builtin:iris"));
        // Two classes to three, through the empty chart shown while the plane is prepared: the
        // Qt chart is updated in place, not rebuilt (its series keep their keys).
        QCOMPARE(m_tab->view()->chartView()->rebuildCount(), rebuilds);
        auto* a = m_tab->panel()->findChild<QComboBox*>(QStringLiteral("featureACombo"));
        QCOMPARE(a->currentText(), QStringLiteral("petal_length_cm"));
        QVERIFY(!m_tab->regionsController()->settings().quadratic);
        QCOMPARE(m_tab->regionsController()->state().problem->classes(), 3);
        QVERIFY(m_tab->view()->chartData().title.contains(QStringLiteral("ε = 1")));
    }

    void mechanismMenuIsTheCatalog() {
        auto* menu = m_tab->panel()->findChild<QComboBox*>(QStringLiteral("mechanismCombo"));
        QVERIFY(menu);
        QCOMPARE(static_cast<std::size_t>(menu->count()), core::mechanismCatalog().size());
        for (int i = 0; i < menu->count(); ++i)
            QCOMPARE(menu->itemData(i).toInt(), int(core::mechanismCatalog()[static_cast<std::size_t>(i)].kind));
        // Utility-only parts are not shown.
        QVERIFY(!m_tab->panel()->findChild<QWidget*>(QStringLiteral("taylorGroup"))->isVisibleTo(m_tab->panel()));
    }

    void dragRedrawsPictureMarkerAndReadoutTogether() {
        loadAndSettle(QStringLiteral("builtin:moons?rows=300&seed=2"));
        RegionsView* view = m_tab->view();
        RegionsController* c = m_tab->regionsController();
        std::vector<Shown> redraws;
        connect(view, &RegionsView::redrawn, this, [&] {
            Shown s;
            if (c->state().result)
                s.resultEps = c->state().result->eps;
            s.title = view->chartView()->data().title;
            s.readout = view->readoutText();
            s.raster = !view->chartView()->data().raster.image.isNull();
            s.dragging = c->dragging();
            redraws.push_back(s);
        });
        QSlider* slider = view->slider()->slider();
        slider->setSliderDown(true);
        for (double eps : {0.5, 0.2, 0.1}) {
            slider->setSliderPosition(EpsSlider::positionForEps(eps)); // emits sliderMoved, as a drag does
            QTest::qWait(5);
        }
        const double target = view->slider()->eps();
        QVERIFY(std::abs(target - 0.1) < 0.002);
        QTRY_VERIFY_WITH_TIMEOUT(c->state().result && c->state().result->eps == target && !c->isBusy(), kTimeout);
        slider->setSliderDown(false);
        QVERIFY(test::waitIdle(*c));
        // Every redraw showed one ε: the picture's, in the readout, and in the title unless the
        // handle was held (then the title states no ε: it is not laid out again per picture).
        QVERIFY(!redraws.empty());
        bool sawTarget = false, sawHeld = false;
        for (const Shown& s : redraws) {
            if (std::isnan(s.resultEps))
                continue;
            const QString marker = regionsEpsText(s.resultEps);
            if (s.dragging)
                QVERIFY2(!s.title.contains(QStringLiteral("ε = ")), qPrintable(s.title));
            else
                QVERIFY2(s.title.contains(marker), qPrintable(s.title + QStringLiteral(" / ") + marker));
            QVERIFY2(s.readout.startsWith(marker), qPrintable(s.readout));
            QVERIFY(s.raster);
            sawTarget |= s.resultEps == target;
            sawHeld |= s.dragging;
        }
        QVERIFY(sawTarget);
        QVERIFY(sawHeld);
        // Released: the title states the picture's ε again.
        QVERIFY(!redraws.back().dragging);
        QVERIFY2(view->chartView()->data().title.contains(regionsEpsText(target)),
                 qPrintable(view->chartView()->data().title));
        QVERIFY(view->readoutText().contains(QStringLiteral("Train accuracy")));
        QVERIFY(view->guaranteeText().contains(QStringLiteral("ε = 0.1")));
        QVERIFY(view->statusText().isEmpty());
        shoot(QStringLiteral("regions-dragged.png"));
    }

    void digitsOpensOnAPlaneThatSeparatesAndBlankPixelsAreNamed() {
        loadAndSettle(QStringLiteral("builtin:digits"));
        auto* a = m_tab->panel()->findChild<QComboBox*>(QStringLiteral("featureACombo"));
        auto* b = m_tab->panel()->findChild<QComboBox*>(QStringLiteral("featureBCombo"));
        QCOMPARE(a->currentText(), QStringLiteral("pixel_2_5"));
        QCOMPARE(b->currentText(), QStringLiteral("pixel_5_2"));
        const QString warning = QStringLiteral("no better than always answering");
        QVERIFY2(!m_tab->view()->readoutText().contains(warning), qPrintable(m_tab->view()->readoutText()));
        // Pixels (0, 0) and (4, 0) are blank in every image: the non-private model can only answer
        // the largest class, and the readout says so.
        RegionsSettings s = m_tab->view()->composedSettings();
        s.featureA = 0;
        s.featureB = 32;
        m_tab->view()->applySettings(s);
        QVERIFY(test::waitIdle(*m_tab->regionsController()));
        QVERIFY2(m_tab->view()->readoutText().contains(warning), qPrintable(m_tab->view()->readoutText()));
    }

    void panelEditsReachTheController() {
        loadAndSettle(QStringLiteral("builtin:moons?rows=200&seed=2"));
        auto* draws = m_tab->panel()->findChild<QSpinBox*>(QStringLiteral("drawsSpin"));
        draws->setValue(3);
        auto* fill = m_tab->panel()->findChild<QComboBox*>(QStringLiteral("fillCombo"));
        fill->setCurrentIndex(fill->findData(int(RegionsFill::Agreement)));
        QVERIFY(test::waitIdle(*m_tab->regionsController()));
        QCOMPARE(m_tab->regionsController()->settings().draws, 3);
        QCOMPARE(static_cast<int>(m_tab->regionsController()->state().result->draws.size()), 3);
        QCOMPARE(m_tab->view()->chartData().colorScale.colors.size(), 9);
        QVERIFY(m_tab->complete());
        shoot(QStringLiteral("regions-agreement.png"));
    }

    void exportsFigureCsvAndSidecar() {
        loadAndSettle(QStringLiteral("builtin:moons?rows=200&seed=2"));
        const RegionsState& st = m_tab->regionsController()->state();
        const int g = st.shownGrid();
        for (const char* suffix : {"svg", "pdf", "png"}) {
            const QString path = m_dir.filePath(QStringLiteral("regions.%1").arg(QLatin1String(suffix)));
            QString error;
            const QStringList written = m_window->exportCurrentView(path, {}, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(written.size(), 3);
            QFile figure(path);
            QVERIFY(figure.open(QIODevice::ReadOnly));
            const QByteArray bytes = figure.readAll();
            if (QLatin1String(suffix) == QLatin1String("svg")) {
                QVERIFY(bytes.contains("<image"));                             // the raster stays an image …
                QVERIFY(bytes.count("<path") + bytes.count("<polyline") > 20); // … under vector lines and points
                QVERIFY(bytes.contains("Decision regions at"));
            } else if (QLatin1String(suffix) == QLatin1String("pdf")) {
                QVERIFY(bytes.startsWith("%PDF"));
                QVERIFY(bytes.contains("/Image"));
            } else {
                QImage image;
                QVERIFY(image.loadFromData(bytes, "PNG"));
                QCOMPARE(image.width(), 1875); // 1200 px at 150 dpi
            }
        }
        QFile csv(m_dir.filePath(QStringLiteral("regions.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QCOMPARE(lines.front(), QByteArray("kind,draw,chain,class,x,y,agreement,nonprivate_class,misclassified"));
        int cells = 0, train = 0, test = 0, boundary = 0, nonPrivate = 0;
        for (const QByteArray& line : lines) {
            cells += line.startsWith("cell,");
            train += line.startsWith("train,");
            test += line.startsWith("test,");
            boundary += line.startsWith("boundary,");
            nonPrivate += line.startsWith("nonprivate_boundary,");
        }
        QCOMPARE(cells, g * g);
        QCOMPARE(train, static_cast<int>(st.problem->trainPoints().rows()));
        QCOMPARE(test, static_cast<int>(st.problem->testPoints().rows()));
        QVERIFY(boundary > 0);
        QVERIFY(nonPrivate > 0);

        QFile sidecar(m_dir.filePath(QStringLiteral("regions.json")));
        QVERIFY(sidecar.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(sidecar.readAll().toStdString());
        QCOMPARE(j["view"].get<std::string>(), std::string("regions"));
        QCOMPARE(j["regions"]["draws"].get<int>(), 6);
        const auto& e = j["export"];
        QCOMPARE(e["results"]["eps"].get<double>(), 1.0);
        QCOMPARE(e["results"]["train_accuracy"]["draws"].size(), std::size_t(6));
        QCOMPARE(e["results"]["train_accuracy"]["mean"].get<double>(), st.result->trainAccuracyMean);
        QCOMPARE(e["guarantee"]["epsilon"].get<double>(), 1.0);
        QCOMPARE(e["plane"]["grid"].get<int>(), g);
        QVERIFY(e["plane"]["processing"].is_array());
        QCOMPARE(e["data"]["sha256"].get<std::string>(), m_window->current().data->provenance.sha256);
        QString error;
        QVERIFY2(sessionFromJson(QByteArray::fromStdString(j.dump()), &error), qPrintable(error)); // opens as a session
    }

private:
    void loadAndSettle(const QString& spec) {
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(test::request(spec));
        QVERIFY(shown.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(m_tab->complete() && !m_tab->regionsController()->isBusy(), kTimeout);
    }

    void shoot(const QString& name) {
        const QString dir = qEnvironmentVariable("REGIONS_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QCoreApplication::processEvents(); // the chart's pending layout (a new title is laid out there)
        QVERIFY(m_window->grab().save(dir + QLatin1Char('/') + name));
    }

    std::unique_ptr<MainWindow> m_window;
    RegionsTab* m_tab = nullptr;
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestRegionsView)
#include "test_regions_view.moc"
