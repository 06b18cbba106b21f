// Play ε in the window: the window gives every ε slider a ready check, so that playback steps
// only once the view shows the result of the last step — with a 1 ms timer, the Decision
// regions view shows the picture of every grid ε before the next step, and the film stops at
// the largest; every view that follows ε has a play button; leaving the tab pauses.

#include "tests/ui/gui_test_support.h"
#include "ui/shell/main_window.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/regions/regions_view.h"
#include "ui/views/view_eps.h"
#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_slider.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolButton>
#include <QtTest>

#include <vector>

using namespace elab;
using namespace elab::ui;

namespace {
constexpr int kTimeout = 120'000;
}

class TestPlaybackWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyViewFollowingEpsHasAPlayButton() {
        MainWindow window;
        int sliders = 0;
        for (const auto& view : window.views())
            if (EpsSlider* slider = epsSliderOf(*view)) {
                ++sliders;
                QVERIFY(slider->playButton());
                QVERIFY(!slider->playButton()->accessibleName().isEmpty());
            }
        // Utility, Decision regions, Privacy accounting, Privacy audit, PTR.
        QVERIFY2(sliders >= 5, qPrintable(QString::number(sliders)));
    }

    void playbackWaitsForEachPicture() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.resize(1400, 900);
        window.show();
        window.showView(QStringLiteral("regions"));
        auto* tab = window.view<RegionsTab>();
        QVERIFY(tab);
        RegionsController* controller = tab->regionsController();
        QSignalSpy shown(&window, &MainWindow::datasetShown);
        window.load(test::request(QStringLiteral("builtin:moons?rows=200&seed=3")));
        QVERIFY(shown.wait(kTimeout));
        QTRY_VERIFY_WITH_TIMEOUT(tab->complete() && !controller->isBusy(), kTimeout);

        EpsSlider* slider = tab->view()->slider();
        const std::vector<double>& grid = slider->grid();
        const std::vector<double> path(grid.end() - 4, grid.end()); // the last four grid points
        slider->stepTo(path.front());
        QTRY_VERIFY_WITH_TIMEOUT(tab->complete() && !controller->isBusy(), kTimeout);
        QCOMPARE(controller->state().result->eps, path.front());

        // At each step, the picture shown is the previous step's.
        std::vector<double> steps, shownAtStep;
        connect(slider, &EpsSlider::epsChanged, this, [&](double eps, bool) {
            steps.push_back(eps);
            shownAtStep.push_back(controller->state().result ? controller->state().result->eps : -1.0);
        });
        slider->player()->setInterval(1);
        slider->player()->play();
        QTRY_VERIFY_WITH_TIMEOUT(!slider->player()->isPlaying(), kTimeout);
        QCOMPARE(steps, std::vector<double>(path.begin() + 1, path.end()));
        QCOMPARE(shownAtStep, std::vector<double>(path.begin(), path.end() - 1));
        QTRY_VERIFY_WITH_TIMEOUT(tab->complete() && !controller->isBusy(), kTimeout);
        QCOMPARE(controller->state().result->eps, path.back());
    }

    void leavingTheTabPauses() {
        MainWindow window;
        window.show();
        window.showView(QStringLiteral("regions"));
        EpsSlider* slider = window.view<RegionsTab>()->view()->slider();
        slider->player()->setInterval(60'000);
        slider->player()->play();
        QVERIFY(slider->player()->isPlaying());
        window.showView(QStringLiteral("utility"));
        QVERIFY(!slider->player()->isPlaying());
    }
};

QTEST_MAIN(TestPlaybackWindow)
#include "test_playback_window.moc"
