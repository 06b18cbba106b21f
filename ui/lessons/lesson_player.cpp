#include "ui/lessons/lesson_player.h"

#include "ui/lessons/lesson_bar.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/widgets/documented_keys.h"

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTextEdit>

namespace elab::ui {

namespace {

/// Controls in which Left and Right already mean something (they keep those keys).
bool usesArrowKeys(const QObject* widget) {
    return qobject_cast<const QAbstractSlider*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QComboBox*>(widget) ||
           qobject_cast<const QAbstractItemView*>(widget) || qobject_cast<const QTextEdit*>(widget) ||
           qobject_cast<const QPlainTextEdit*>(widget);
}

} // namespace

LessonPlayer::LessonPlayer(MainWindow* window) : QObject(window), m_window(window) {
    m_bar = new LessonBar;
    m_dock = new QDockWidget(tr("Lesson"), window);
    m_dock->setObjectName(QStringLiteral("lessonDock"));
    m_dock->setWidget(m_bar);
    m_dock->setTitleBarWidget(new QWidget(m_dock)); // the bar carries its own title and Close
    m_dock->setFeatures(QDockWidget::NoDockWidgetFeatures);
    documentKeys(m_dock,
                 {{tr("PgDn, →"), tr("Lesson: the next step")}, {tr("PgUp, ←"), tr("Lesson: the step before")}});
    m_dock->setAllowedAreas(Qt::BottomDockWidgetArea);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    connect(m_bar, &LessonBar::previousRequested, this, &LessonPlayer::previous);
    connect(m_bar, &LessonBar::nextRequested, this, &LessonPlayer::next);
    connect(m_bar, &LessonBar::closeRequested, this, &LessonPlayer::close);

    SessionActions* sessions = window->sessionActions();
    connect(sessions, &SessionActions::applied, this, [this](const QString& origin) {
        if (origin != m_pendingOrigin)
            return;
        m_pendingOrigin.clear();
        m_bar->setNote(QString());
        emit stepShown(m_index);
    });
    connect(sessions, &SessionActions::failed, this, [this](const QString& message) {
        if (m_pendingOrigin.isEmpty())
            return;
        m_pendingOrigin.clear();
        m_bar->setNote(tr("This step could not be shown: see the status bar."));
        emit failed(message); // SessionActions has shown it, naming the file and the step
    });
}

LessonPlayer::~LessonPlayer() { qApp->removeEventFilter(this); }

void LessonPlayer::addActionsTo(QMenu* menu) {
    menu->addAction(tr("Open &lesson…"), this, &LessonPlayer::openInteractively);
    QMenu* builtin = menu->addMenu(tr("Built-in lessons"));
    for (const QString& name : builtinLessonNames()) {
        QString error;
        const auto lesson = readLesson(QStringLiteral("builtin:") + name, &error);
        QAction* action = builtin->addAction(lesson ? lesson->title : name, this,
                                             [this, name] { open(QStringLiteral("builtin:") + name); });
        action->setEnabled(lesson.has_value());
    }
    menu->addAction(tr("Add window as lesson &step…"), this, &LessonPlayer::addStepInteractively);
}

bool LessonPlayer::open(const QString& pathOrBuiltin) {
    QString error;
    const auto lesson = readLesson(pathOrBuiltin, &error);
    if (!lesson) {
        fail(tr("Could not open lesson"), error + QLatin1Char('\n') + tr("Nothing was changed."));
        return false;
    }
    return openLesson(*lesson, pathOrBuiltin);
}

bool LessonPlayer::openLesson(const Lesson& lesson, const QString& origin, int first) {
    m_lesson = lesson;
    m_origin = origin;
    m_open = true;
    m_dock->show();
    qApp->installEventFilter(this);
    return showStep(first);
}

QString LessonPlayer::stepOrigin(int index) const {
    const QString name = m_origin.startsWith(QLatin1String("builtin:")) ? m_origin : QFileInfo(m_origin).fileName();
    return tr("%1, step %2").arg(name).arg(index + 1);
}

bool LessonPlayer::showStep(int index) {
    if (!m_open || index < 0 || static_cast<std::size_t>(index) >= m_lesson.steps.size())
        return false;
    m_index = index;
    const LessonStep& step = m_lesson.steps[static_cast<std::size_t>(index)];
    m_bar->showStep(m_lesson.title, index, static_cast<int>(m_lesson.steps.size()), step.caption);
    m_bar->setNote(tr("loading…"));
    m_pendingOrigin = stepOrigin(index);
    return m_window->sessionActions()->openSession(step.session, m_pendingOrigin);
}

void LessonPlayer::next() { showStep(m_index + 1); }
void LessonPlayer::previous() { showStep(m_index - 1); }

void LessonPlayer::close() {
    m_open = false;
    m_pendingOrigin.clear();
    m_index = -1;
    m_dock->hide();
    qApp->removeEventFilter(this);
}

bool LessonPlayer::eventFilter(QObject* watched, QEvent* event) {
    if (!m_open || event->type() != QEvent::KeyPress)
        return false;
    auto* widget = qobject_cast<QWidget*>(watched);
    if (!widget || widget->window() != m_window)
        return false;
    const auto* key = static_cast<QKeyEvent*>(event);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    // A key press a control ignored travels on to its parents: arrows stay the control's.
    const QWidget* focus = QApplication::focusWidget();
    const bool arrows = !usesArrowKeys(widget) && !(focus && focus != widget && usesArrowKeys(focus));
    switch (key->key()) {
    case Qt::Key_PageDown: next(); return true;
    case Qt::Key_PageUp: previous(); return true;
    case Qt::Key_Right:
        if (arrows)
            next();
        return arrows;
    case Qt::Key_Left:
        if (arrows)
            previous();
        return arrows;
    default: return false;
    }
}

bool LessonPlayer::addCurrentWindowAsStep(const QString& caption, const QString& path) {
    Lesson lesson;
    if (QFileInfo::exists(path)) {
        QString error;
        auto existing = readLesson(path, &error);
        if (!existing) {
            fail(tr("Could not add the step"), error + QLatin1Char('\n') + tr("The file was not changed."));
            return false;
        }
        lesson = std::move(*existing);
    } else {
        lesson.title = QFileInfo(path).completeBaseName();
    }
    LessonStep step;
    step.caption = caption.trimmed();
    if (step.caption.isEmpty() || step.caption.size() > Lesson::kMaxCaption) {
        fail(tr("Could not add the step"), tr("A step needs a caption of 1 to %1 characters (this one has %2).")
                                               .arg(Lesson::kMaxCaption)
                                               .arg(step.caption.size()));
        return false;
    }
    step.session = m_window->sessionActions()->currentSession();
    lesson.steps.push_back(step);
    QString error;
    if (!writeLessonFile(path, lesson, &error)) {
        fail(tr("Could not add the step"), error);
        return false;
    }
    if (m_open && QFileInfo(m_origin) == QFileInfo(path)) {
        m_lesson = lesson; // the open lesson is this file: its new step is reachable now
        m_bar->showStep(m_lesson.title, m_index, static_cast<int>(m_lesson.steps.size()),
                        m_lesson.steps[static_cast<std::size_t>(m_index)].caption);
    }
    m_window->statusBar()->showMessage(tr("Step %1 added to %2").arg(lesson.steps.size()).arg(path), 8000);
    return true;
}

void LessonPlayer::openInteractively() {
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open lesson"), QString(),
                                                      tr("EpsilonLab lessons (*.json);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void LessonPlayer::addStepInteractively() {
    bool ok = false;
    const QString caption = QInputDialog::getMultiLineText(
        m_window, tr("Add window as lesson step"),
        tr("Caption (at most %1 characters), shown under the view during the step:").arg(Lesson::kMaxCaption),
        QString(), &ok);
    if (!ok)
        return;
    QString path = m_open && !m_origin.startsWith(QLatin1String("builtin:")) ? m_origin : QString();
    if (path.isEmpty())
        path = QFileDialog::getSaveFileName(m_window, tr("Add the step to a lesson (new or existing)"),
                                            QStringLiteral("lesson.json"), tr("EpsilonLab lessons (*.json)"), nullptr,
                                            QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty())
        addCurrentWindowAsStep(caption, path);
}

void LessonPlayer::fail(const QString& title, const QString& message) {
    m_window->showError(title, title + QLatin1Char('.'), message);
    emit failed(message);
}

} // namespace elab::ui
