#pragma once
// The strip under the views while a lesson is open: the lesson's title, "Step 2 / 5", the step's
// caption in large type (wrapped, never over the chart: the strip sits below the tabs), and
// Previous / Next / Close. GUI thread only.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QToolButton;
QT_END_NAMESPACE

namespace elab::ui {

class LessonBar : public QWidget {
    Q_OBJECT
public:
    explicit LessonBar(QWidget* parent = nullptr);

    /// Shows step index (from 0) of count with its caption; a step being applied says so.
    void showStep(const QString& title, int index, int count, const QString& caption);
    /// A note beside the counter ("loading…", or why the step could not be shown).
    void setNote(const QString& note);

    QString stepText() const;
    QString captionText() const;
    QString noteText() const;

signals:
    void previousRequested();
    void nextRequested();
    void closeRequested();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    /// The caption half as large again as the bar's font (which follows the application's).
    void scaleCaption();
    /// As tall as the wrapped caption needs at the bar's width, no taller (a dock asks for more).
    void fitHeight();

    QLabel* m_title = nullptr;
    QLabel* m_step = nullptr;
    QLabel* m_note = nullptr;
    QLabel* m_caption = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
};

} // namespace elab::ui
