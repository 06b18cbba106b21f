#include "ui/widgets/note_label.h"

#include <QEvent>

#include <algorithm>
#include <cstdlib>

namespace elab::ui {

NoteLabel::NoteLabel(QWidget* parent) : QLabel(parent) { setWordWrap(true); }

NoteLabel::NoteLabel(const QString& text, QWidget* parent) : QLabel(text, parent) { setWordWrap(true); }

bool NoteLabel::measuredFor() const {
    return text() == m_text && textFormat() == m_format && alignment() == m_alignment &&
           textInteractionFlags() == m_interaction && contentsMargins() == m_contents && margin() == m_margin &&
           indent() == m_indent && wordWrap() == m_wrap;
}

int NoteLabel::heightForWidth(int width) const {
    if (!measuredFor()) {
        m_text = text();
        m_format = textFormat();
        m_alignment = alignment();
        m_interaction = textInteractionFlags();
        m_contents = contentsMargins();
        m_margin = margin();
        m_indent = indent();
        m_wrap = wordWrap();
        m_heights.fill(Measured{});
    }
    for (const Measured& m : m_heights)
        if (m.width == width)
            return m.height;
    const int height = QLabel::heightForWidth(width);
    m_heights[m_next] = Measured{width, height};
    m_next = (m_next + 1) % m_heights.size();
    return height;
}

void NoteLabel::changeEvent(QEvent* event) {
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::StyleChange:
    case QEvent::LayoutDirectionChange: m_heights.fill(Measured{}); break;
    default: break;
    }
    QLabel::changeEvent(event);
}

NoteBox::NoteBox(QWidget* parent, const char* labelName, Lines lines) : QWidget(parent), m_label(new NoteLabel(this)) {
    m_label->setObjectName(QString::fromLatin1(labelName));
    m_label->setWordWrap(lines == Lines::Wrapped);
    m_label->installEventFilter(this);
    setSizePolicy(m_label->sizePolicy()); // preferred both ways, height for width when wrapped
}

bool NoteBox::aboutTheSameText() const {
    const qsizetype length = m_label->text().size();
    return m_widthsForLength > 0 && 4 * std::abs(length - m_widthsForLength) <= m_widthsForLength;
}

void NoteBox::measure() const {
    if (aboutTheSameText()) {
        m_labelHint.setHeight(m_label->heightForWidth(m_labelHint.width()));
        m_labelMinimumHint.setHeight(std::min(m_labelMinimumHint.height(), m_labelHint.height()));
    } else {
        m_labelHint = m_label->sizeHint();
        m_labelMinimumHint = m_label->minimumSizeHint();
        m_widthsForLength = m_label->text().size();
    }
    m_labelMinimum = m_label->minimumSize();
    m_hint = m_labelHint.expandedTo(m_labelMinimum).boundedTo(m_label->maximumSize());
    m_minimum = m_labelMinimumHint.expandedTo(m_labelMinimum).boundedTo(m_label->maximumSize());
    m_measured = true;
}

QSize NoteBox::sizeHint() const {
    if (!m_measured)
        measure();
    return m_hint;
}

QSize NoteBox::minimumSizeHint() const {
    if (!m_measured)
        measure();
    return m_minimum;
}

int NoteBox::heightForWidth(int width) const {
    return std::clamp(m_label->heightForWidth(width), m_label->minimumHeight(),
                      std::max(m_label->minimumHeight(), m_label->maximumHeight()));
}

void NoteBox::labelChangedSize() {
    // QLabel's widths are taken again for a wrapped text of another length, unless the layout
    // decides the box's width alone (horizontal policy Ignored); for a single line, only when it
    // no longer fits (a shorter line just has room to spare).
    const bool fits = m_label->wordWrap() || m_label->sizeHint().width() <= width();
    const bool sameWidths =
        m_label->wordWrap() ? aboutTheSameText() || sizePolicy().horizontalPolicy() == QSizePolicy::Ignored : fits;
    if (m_measured && sameWidths && m_label->minimumSize() == m_labelMinimum &&
        heightForWidth(width()) == m_laidOutHeight)
        return; // the same height at this width (and a line that fits): the repaint QLabel asked for is all it needs
    if (!fits)
        m_widthsForLength = -1; // QLabel's widths for this line, not the last ones
    m_measured = false;
    m_laidOutHeight = heightForWidth(width()); // asked for now (the layout may leave the height as it is)
    updateGeometry();
}

bool NoteBox::event(QEvent* event) {
    switch (event->type()) {
    case QEvent::LayoutRequest: // posted by the label's updateGeometry (this widget has no layout)
        labelChangedSize();
        return true;
    case QEvent::Show: // no layout requests are posted to a hidden widget
        labelChangedSize();
        break;
    case QEvent::FontChange:
    case QEvent::StyleChange:
        m_measured = false;
        m_widthsForLength = -1;
        break;
    default: break;
    }
    return QWidget::event(event);
}

bool NoteBox::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_label && (event->type() == QEvent::ShowToParent || event->type() == QEvent::HideToParent))
        setVisible(!m_label->isHidden());
    if (watched == m_label && (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)) {
        m_widthsForLength = -1; // the label's own style sheet or font: QLabel's hints again
        m_measured = false;
    }
    return QWidget::eventFilter(watched, event);
}

void NoteBox::resizeEvent(QResizeEvent* event) {
    m_label->setGeometry(rect());
    m_laidOutHeight = heightForWidth(width());
    QWidget::resizeEvent(event);
}

} // namespace elab::ui
