#pragma once
// Lessons in the main window: File ▸ Open lesson… (a file or a built-in one), stepping with the
// arrow keys, Page Up / Page Down (what presenter clickers send) and the strip's buttons, the
// caption and "Step i / n" in a strip under the views (LessonBar, a dock at the bottom), and
// File ▸ Add window as lesson step…, which appends what the window shows to a lesson file.
// A step is applied as File ▸ Open session applies a session (SessionActions::openSession): a
// step that cannot be shown (its dataset missing) says so naming the file and the step, and the
// window keeps what it showed. Page Up / Page Down always step while a lesson is open; Left and
// Right step unless the focus is in a control that uses them (a slider, a text field, a spin
// box, a list). GUI thread only.

#include "ui/lessons/lesson.h"

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMenu;
QT_END_NAMESPACE

namespace elab::ui {

class LessonBar;
class MainWindow;

class LessonPlayer : public QObject {
    Q_OBJECT
public:
    explicit LessonPlayer(MainWindow* window);
    ~LessonPlayer() override;

    void addActionsTo(QMenu* menu);

    /// Reads a lesson file or "builtin:NAME" and shows its first step; false (and failed()) if
    /// the lesson is rejected — nothing changes then.
    bool open(const QString& pathOrBuiltin);
    /// Shows an already parsed lesson from step `first` (from 0).
    bool openLesson(const Lesson& lesson, const QString& origin, int first = 0);
    /// Applies step index (from 0); false if there is no such step or it cannot be started.
    bool showStep(int index);
    void next();
    void previous();
    void close();

    bool isOpen() const { return m_open; }
    int currentStep() const { return m_index; }
    const Lesson& lesson() const { return m_lesson; }
    QString origin() const { return m_origin; }
    LessonBar* bar() const { return m_bar; }
    /// True while a step's dataset is loading (its settings not yet applied).
    bool isApplying() const { return !m_pendingOrigin.isEmpty(); }

    /// Appends what the window shows as a step with caption to the lesson file path (created
    /// when it does not exist); the open lesson follows when it is that file. False (and
    /// failed()) on an unreadable lesson, a bad caption or a write error.
    bool addCurrentWindowAsStep(const QString& caption, const QString& path);

signals:
    /// Step index's session has been applied (its dataset shown, its settings restored).
    void stepShown(int index);
    void failed(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void openInteractively();
    void addStepInteractively();
    void fail(const QString& title, const QString& message);
    QString stepOrigin(int index) const;

    MainWindow* m_window;
    QDockWidget* m_dock = nullptr;
    LessonBar* m_bar = nullptr;
    Lesson m_lesson;
    QString m_origin;
    QString m_pendingOrigin;
    int m_index = -1;
    bool m_open = false;
};

} // namespace elab::ui
