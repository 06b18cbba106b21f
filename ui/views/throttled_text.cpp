#include "ui/views/throttled_text.h"

#include <QLabel>
#include <QTimer>

namespace elab::ui {

ThrottledText::ThrottledText(QLabel* label, int intervalMs, QObject* parent)
    : QObject(parent), m_label(label), m_intervalMs(intervalMs) {}

void ThrottledText::set(const QString& text, bool throttled) {
    m_latest = text;
    if (!throttled || !m_shown.isValid() || m_shown.elapsed() >= m_intervalMs) {
        show();
        return;
    }
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, &ThrottledText::show);
    }
    if (!m_timer->isActive())
        m_timer->start(m_intervalMs - static_cast<int>(m_shown.elapsed()));
}

void ThrottledText::show() {
    if (m_timer)
        m_timer->stop();
    m_shown.start();
    if (m_label->text() != m_latest)
        m_label->setText(m_latest);
}

} // namespace elab::ui
