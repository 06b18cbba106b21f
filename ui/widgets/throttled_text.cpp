#include "ui/widgets/throttled_text.h"

#include <QLabel>
#include <QTimer>

namespace elab::ui {

Throttle::Throttle(int intervalMs, std::function<void()> action, QObject* parent)
    : QObject(parent), m_intervalMs(intervalMs), m_action(std::move(action)) {}

void Throttle::request(bool throttled) {
    if (!throttled || !m_last.isValid() || m_last.elapsed() >= m_intervalMs) {
        run();
        return;
    }
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setSingleShot(true);
        connect(m_timer, &QTimer::timeout, this, &Throttle::run);
    }
    if (!m_timer->isActive())
        m_timer->start(m_intervalMs - static_cast<int>(m_last.elapsed()));
}

void Throttle::ran() {
    if (m_timer)
        m_timer->stop();
    m_last.start();
}

void Throttle::run() {
    ran();
    m_action();
}

ThrottledText::ThrottledText(QLabel* label, int intervalMs, QObject* parent)
    : QObject(parent), m_label(label), m_throttle(new Throttle(
                                           intervalMs,
                                           [this] {
                                               if (m_label->text() != m_latest)
                                                   m_label->setText(m_latest);
                                           },
                                           this)) {}

void ThrottledText::set(const QString& text, bool throttled) {
    m_latest = text;
    m_throttle->request(throttled);
}

} // namespace elab::ui
