// Lessons: the file format and its error messages (file and step named), stepping through a
// lesson in the window with the keys a presenter uses (each step's view and ε read back from the
// window equal the step's), every built-in lesson applied step by step, a step that cannot be
// shown, and adding the window as a step.

#include "gui_test_support.h"

#include "ui/lessons/lesson.h"
#include "ui/lessons/lesson_bar.h"
#include "ui/lessons/lesson_player.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/views/view.h"
#include "ui/views/view_eps.h"
#include "ui/widgets/eps_slider.h"

#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <memory>

using namespace elab::ui;
using Json = nlohmann::json;

namespace {

constexpr int kTimeout = 60000;
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The key of the slider's ε in a view's session block.
const char* epsKey(const QString& view) {
    return view == QLatin1String("accounting") || view == QLatin1String("ptr") ? "eps" : "current_eps";
}

/// The ε a session's view block sets (+∞ for "inf").
double stepEps(const Session& s) {
    const Json block = s.settingsBlock(s.view);
    const Json& v = block.at(epsKey(s.view));
    return v.is_string() ? kInf : v.get<double>();
}

Session withViewAndEps(Session s, const QString& view, double eps) {
    s.view = view;
    Json block = s.settingsBlock(view);
    block[epsKey(view)] = std::isinf(eps) ? Json("inf") : Json(eps);
    s.setSettingsBlock(view, nlohmann::ordered_json::parse(block.dump()));
    return s;
}

QByteArray lessonText(const QString& stepsJson) {
    return QStringLiteral(R"({"format": "epsilonlab-lesson", "version": 1, "title": "T", "steps": %1})")
        .arg(stepsJson)
        .toUtf8();
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_window = std::make_unique<MainWindow>();
        m_window->setErrorDialogsEnabled(false);
        m_window->resize(1280, 720);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QSignalSpy shown(m_window.get(), &MainWindow::datasetShown);
        m_window->load(elab::test::request(QStringLiteral("builtin:moons")));
        QVERIFY(shown.wait(kTimeout));
        m_base = m_window->sessionActions()->currentSession();
    }
    void cleanup() { m_window.reset(); }

    void aLessonReadsBackAsWritten() {
        Lesson lesson;
        lesson.title = QStringLiteral("Round trip");
        lesson.steps.push_back({QStringLiteral("First"), withViewAndEps(m_base, QStringLiteral("regions"), 0.5)});
        lesson.steps.push_back({QStringLiteral("Second"), withViewAndEps(m_base, QStringLiteral("utility"), kInf)});
        QString error;
        const auto back = lessonFromJson(lessonToJson(lesson), QStringLiteral("x.json"), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->title, lesson.title);
        QCOMPARE(back->steps.size(), std::size_t(2));
        QCOMPARE(back->steps[1].caption, QStringLiteral("Second"));
        QCOMPARE(back->steps[0].session.view, QStringLiteral("regions"));
        QCOMPARE(stepEps(back->steps[0].session), 0.5);
        QCOMPARE(stepEps(back->steps[1].session), kInf);
        QCOMPARE(back->steps[0].session.dataset.spec, QStringLiteral("builtin:moons"));
        for (std::size_t i = 0; i < 2; ++i) // the same session (keys of a block may come back in another order)
            QVERIFY(Json::parse(sessionToJson(back->steps[i].session).toStdString()) ==
                    Json::parse(sessionToJson(lesson.steps[i].session).toStdString()));
    }

    void badLessonsAreRefusedNamingFileAndStep_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        const QString good = QString::fromUtf8(sessionToJson(m_base));
        QString badSession = good;
        badSession.replace(QStringLiteral("\"view\": \"utility\""), QStringLiteral("\"view\": \"nowhere\""));
        QTest::newRow("not JSON") << QByteArray("{\"format\": ") << QStringLiteral("l.json: not JSON");
        QTest::newRow("a session, not a lesson") << good.toUtf8() << QStringLiteral("l.json: not an EpsilonLab lesson");
        QTest::newRow("version 2") << QByteArray(R"({"format": "epsilonlab-lesson", "version": 2})")
                                   << QStringLiteral("l.json: version: this EpsilonLab reads lesson version 1");
        QTest::newRow("no steps") << lessonText(QStringLiteral("[]"))
                                  << QStringLiteral("l.json: steps: expected a list of at least one step");
        QTest::newRow("step 2 without caption")
            << lessonText(QStringLiteral(R"([{"caption": "ok", "session": %1}, {"session": %1}])").arg(good))
            << QStringLiteral("l.json: step 2: caption: expected a string");
        QTest::newRow("step 1 with a bad session")
            << lessonText(QStringLiteral(R"([{"caption": "ok", "session": %1}])").arg(badSession))
            << QStringLiteral("l.json: step 1: session: view: unknown view 'nowhere'");
        QTest::newRow("step 1 without session") << lessonText(QStringLiteral(R"([{"caption": "ok"}])"))
                                                << QStringLiteral("l.json: step 1: session: expected a session object");
        QTest::newRow("caption too long")
            << lessonText(
                   QStringLiteral(R"([{"caption": "%2", "session": %1}])").arg(good, QString(401, QLatin1Char('a'))))
            << QStringLiteral("l.json: step 1: caption: 401 characters, at most 400");
        QTest::newRow("a step that is a number")
            << lessonText(QStringLiteral("[3]")) << QStringLiteral("l.json: step 1: expected an object");
    }
    void badLessonsAreRefusedNamingFileAndStep() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!lessonFromJson(text, QStringLiteral("l.json"), &error));
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void aBadLessonFileChangesNothingAndSaysWhy() {
        QTemporaryDir dir;
        const QString path =
            elab::test::writeFile(dir, QStringLiteral("broken.json"), lessonText(QStringLiteral("[7]")));
        QSignalSpy failed(m_window->lessons(), &LessonPlayer::failed);
        QVERIFY(!m_window->lessons()->open(path));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains(path + QStringLiteral(": step 1: expected an object")));
        QVERIFY(!m_window->lessons()->isOpen());
        QString error;
        QVERIFY(!readLesson(QStringLiteral("builtin:nope"), &error));
        QVERIFY2(error.contains(QStringLiteral("builtin:nope: no such built-in lesson")), qPrintable(error));
    }

    void steppingAppliesEachStepsSession() {
        Lesson lesson;
        lesson.title = QStringLiteral("Stepping");
        const QList<QPair<QString, double>> steps = {{QStringLiteral("regions"), 0.5},
                                                     {QStringLiteral("utility"), 2.0},
                                                     {QStringLiteral("accounting"), 4.0},
                                                     {QStringLiteral("regions"), kInf}};
        for (const auto& [view, eps] : steps)
            lesson.steps.push_back({QStringLiteral("Caption of %1").arg(view), withViewAndEps(m_base, view, eps)});
        LessonPlayer* player = m_window->lessons();
        QSignalSpy shown(player, &LessonPlayer::stepShown);
        QVERIFY(player->openLesson(lesson, QStringLiteral("stepping.json")));
        QVERIFY(shown.wait(kTimeout));
        // Forward with Right and Page Down, back with Left and Page Up, as a presenter's clicker.
        const QList<QPair<int, int>> keys = {
            {-1, 0},          {Qt::Key_Right, 1}, {Qt::Key_PageDown, 2}, {Qt::Key_Right, 3}, {Qt::Key_PageUp, 2},
            {Qt::Key_Left, 1}};
        for (const auto& [key, index] : keys) {
            if (key >= 0) {
                m_window->setFocus();
                QTest::keyClick(m_window.get(), Qt::Key(key));
                QVERIFY(shown.wait(kTimeout));
            }
            QCOMPARE(player->currentStep(), index);
            QCOMPARE(shown.last().at(0).toInt(), index);
            const Session& step = lesson.steps[static_cast<std::size_t>(index)].session;
            QCOMPARE(m_window->currentView(), step.view);
            EpsSlider* slider = epsSliderOf(*m_window->view(step.view));
            QVERIFY(slider);
            QCOMPARE(slider->eps(), stepEps(step));
            QCOMPARE(stepEps(m_window->sessionActions()->currentSession()), stepEps(step));
            QCOMPARE(player->bar()->stepText(), QStringLiteral("Step %1 / 4").arg(index + 1));
            QCOMPARE(player->bar()->captionText(), QStringLiteral("Caption of %1").arg(step.view));
        }
        // Left inside the ε slider moves ε, not the lesson; past the last step nothing happens.
        EpsSlider* slider = epsSliderOf(*m_window->view(QStringLiteral("utility")));
        slider->slider()->setFocus();
        QTest::keyClick(slider->slider(), Qt::Key_Left);
        QCOMPARE(player->currentStep(), 1);
        QVERIFY(!player->showStep(4));
        player->close();
        QVERIFY(!player->isOpen());
        QTest::keyClick(m_window.get(), Qt::Key_PageDown);
        QCOMPARE(player->currentStep(), -1);
    }

    void everyBuiltinLessonAppliesEveryStep_data() {
        QTest::addColumn<QString>("name");
        for (const QString& name : builtinLessonNames())
            QTest::newRow(qPrintable(name)) << name;
    }
    void everyBuiltinLessonAppliesEveryStep() {
        QFETCH(QString, name);
        QString error;
        const auto lesson = readLesson(QStringLiteral("builtin:") + name, &error);
        QVERIFY2(lesson, qPrintable(error));
        QVERIFY(!lesson->title.isEmpty());
        QVERIFY(lesson->steps.size() >= 2);
        LessonPlayer* player = m_window->lessons();
        QSignalSpy shown(player, &LessonPlayer::stepShown);
        QSignalSpy failed(player, &LessonPlayer::failed);
        QVERIFY(player->open(QStringLiteral("builtin:") + name));
        for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
            if (i > 0)
                QVERIFY(player->showStep(static_cast<int>(i)));
            QVERIFY(shown.wait(kTimeout));
            const Session& step = lesson->steps[i].session;
            QVERIFY2(step.dataset.spec.startsWith(QLatin1String("builtin:")), "built-in datasets only");
            QVERIFY(lesson->steps[i].caption.size() <= Lesson::kMaxCaption);
            QCOMPARE(m_window->currentView(), step.view);
            QCOMPARE(m_window->current().request.spec, step.dataset.spec);
            if (EpsSlider* slider = epsSliderOf(*m_window->view(step.view)))
                QCOMPARE(slider->eps(), stepEps(step));
        }
        QCOMPARE(failed.count(), 0);
    }

    void aStepThatCannotBeShownNamesFileAndStep() {
        Lesson lesson;
        lesson.title = QStringLiteral("Missing");
        lesson.steps.push_back({QStringLiteral("fine"), withViewAndEps(m_base, QStringLiteral("regions"), 1.0)});
        Session gone = m_base;
        gone.dataset.spec = QStringLiteral("/nonexistent/rows.csv");
        lesson.steps.push_back({QStringLiteral("gone"), gone});
        LessonPlayer* player = m_window->lessons();
        QSignalSpy shown(player, &LessonPlayer::stepShown);
        QSignalSpy failed(player, &LessonPlayer::failed);
        QVERIFY(player->openLesson(lesson, QStringLiteral("/tmp/course/missing.json")));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(!player->showStep(1));
        QCOMPARE(failed.count(), 1);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(QStringLiteral("missing.json, step 2")) && message.contains(gone.dataset.spec),
                 qPrintable(message));
        QCOMPARE(m_window->current().request.spec, QStringLiteral("builtin:moons")); // the window kept its dataset
        QCOMPARE(m_window->currentView(), QStringLiteral("regions"));
    }

    void theWindowIsAddedAsAStep() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("my-course.json"));
        LessonPlayer* player = m_window->lessons();
        m_window->showView(QStringLiteral("regions"));
        epsSliderOf(*m_window->view(QStringLiteral("regions")))->stepTo(10.0);
        QVERIFY(player->addCurrentWindowAsStep(QStringLiteral("Ten"), path));
        m_window->showView(QStringLiteral("utility"));
        QVERIFY(player->addCurrentWindowAsStep(QStringLiteral("Utility"), path));
        QVERIFY(!player->addCurrentWindowAsStep(QStringLiteral("   "), path)); // no caption: refused
        QString error;
        const auto lesson = readLesson(path, &error);
        QVERIFY2(lesson, qPrintable(error));
        QCOMPARE(lesson->title, QStringLiteral("my-course"));
        QCOMPARE(lesson->steps.size(), std::size_t(2));
        QCOMPARE(lesson->steps[0].caption, QStringLiteral("Ten"));
        QCOMPARE(lesson->steps[0].session.view, QStringLiteral("regions"));
        QCOMPARE(stepEps(lesson->steps[0].session), 10.0);
        QCOMPARE(lesson->steps[1].session.view, QStringLiteral("utility"));
        // With that lesson open, a new step joins it at once.
        QSignalSpy shown(player, &LessonPlayer::stepShown);
        QVERIFY(player->open(path));
        QVERIFY(shown.wait(kTimeout));
        QVERIFY(player->addCurrentWindowAsStep(QStringLiteral("Third"), path));
        QCOMPARE(player->lesson().steps.size(), std::size_t(3));
        QCOMPARE(player->bar()->stepText(), QStringLiteral("Step 1 / 3"));
        // A file that is not a lesson is not overwritten.
        const QString other = elab::test::writeFile(dir, QStringLiteral("notes.json"), QByteArray("{}"));
        QVERIFY(!player->addCurrentWindowAsStep(QStringLiteral("x"), other));
        QFile file(other);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("{}"));
    }

private:
    std::unique_ptr<MainWindow> m_window;
    Session m_base;
};

QTEST_MAIN(TestLessons)
#include "test_lessons.moc"
