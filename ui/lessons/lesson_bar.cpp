#include "ui/lessons/lesson_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QToolButton>
#include <QVBoxLayout>

namespace elab::ui {

namespace {
/// The caption is read from the back of a room: half as large again as the window's text.
constexpr double kCaptionScale = 1.5;
} // namespace

LessonBar::LessonBar(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("lessonBar"));
    setAutoFillBackground(true);
    m_title = new QLabel(this);
    m_step = new QLabel(this);
    m_step->setObjectName(QStringLiteral("lessonStep"));
    m_note = new QLabel(this);
    m_caption = new QLabel(this);
    m_caption->setObjectName(QStringLiteral("lessonCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scaleCaption();
    QFont bold = m_step->font();
    bold.setBold(true);
    m_step->setFont(bold);
    m_title->setFont(bold);

    m_previous = new QToolButton(this);
    m_previous->setText(tr("◀ Previous"));
    m_previous->setToolTip(tr("Previous step (Left, Page Up)"));
    m_previous->setAccessibleName(tr("Previous lesson step"));
    m_next = new QToolButton(this);
    m_next->setText(tr("Next ▶"));
    m_next->setToolTip(tr("Next step (Right, Page Down)"));
    m_next->setAccessibleName(tr("Next lesson step"));
    auto* close = new QToolButton(this);
    close->setText(tr("Close lesson"));
    close->setAccessibleName(tr("Close lesson"));
    for (QToolButton* b : {m_previous, m_next, close})
        b->setFocusPolicy(Qt::TabFocus); // a click leaves the focus where it was (arrow keys step)
    connect(m_previous, &QToolButton::clicked, this, &LessonBar::previousRequested);
    connect(m_next, &QToolButton::clicked, this, &LessonBar::nextRequested);
    connect(close, &QToolButton::clicked, this, &LessonBar::closeRequested);

    auto* top = new QHBoxLayout;
    top->addWidget(m_title);
    top->addSpacing(12);
    top->addWidget(m_step);
    top->addSpacing(12);
    top->addWidget(m_note, 1);
    top->addWidget(m_previous);
    top->addWidget(m_next);
    top->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 4, 10, 6);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_caption);
    m_caption->setAccessibleName(tr("Lesson caption"));
}

void LessonBar::showStep(const QString& title, int index, int count, const QString& caption) {
    m_title->setText(title);
    m_step->setText(tr("Step %1 / %2").arg(index + 1).arg(count));
    scaleCaption();
    m_caption->setText(caption);
    fitHeight();
    m_previous->setEnabled(index > 0);
    m_next->setEnabled(index + 1 < count);
}

void LessonBar::scaleCaption() {
    QFont big = font();
    if (big.pixelSize() > 0)
        big.setPixelSize(qRound(big.pixelSize() * kCaptionScale));
    else
        big.setPointSizeF(big.pointSizeF() * kCaptionScale);
    m_caption->setFont(big);
}

void LessonBar::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_caption) {
        scaleCaption(); // presentation mode makes every text larger: the caption too
        fitHeight();
    }
}

void LessonBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

void LessonBar::fitHeight() {
    if (const int h = layout()->heightForWidth(width()); h > 0 && h != height())
        setFixedHeight(h);
}

void LessonBar::setNote(const QString& note) { m_note->setText(note); }

QString LessonBar::stepText() const { return m_step->text(); }
QString LessonBar::captionText() const { return m_caption->text(); }
QString LessonBar::noteText() const { return m_note->text(); }

} // namespace elab::ui
