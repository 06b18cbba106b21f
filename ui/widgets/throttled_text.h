#pragma once
// Following a fast-changing value (the ε slider) at a bounded rate. GUI thread only.
//  - Throttle runs an action at once, or, when throttled and within intervalMs of its last run,
//    once that interval has passed (one run for every request made meanwhile): e.g. a view's
//    redraw for each new result while the slider's handle is held.
//  - ThrottledText is a label's text shown through a Throttle.

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <functional>

class QLabel;
class QTimer;

namespace elab::ui {

class Throttle : public QObject {
public:
    Throttle(int intervalMs, std::function<void()> action, QObject* parent);

    /// Runs the action now, or, throttled and within intervalMs of the last run, once that
    /// interval has passed. An unthrottled request cancels a scheduled run.
    void request(bool throttled);
    /// The action ran by other means just now (e.g. a full redraw): the interval starts again
    /// and a scheduled run is dropped.
    void ran();

private:
    void run();

    int m_intervalMs;
    std::function<void()> m_action;
    QElapsedTimer m_last;
    QTimer* m_timer = nullptr;
};

class ThrottledText : public QObject {
public:
    /// label: shown texts go there (not owned; outlives this object, e.g. its parent).
    ThrottledText(QLabel* label, int intervalMs, QObject* parent);

    /// Shows text now, or, throttled and within intervalMs of the last one shown, once that
    /// interval has passed (the latest text given by then). An unthrottled text cancels a pending one.
    void set(const QString& text, bool throttled);
    /// The latest text given (shown, or to be shown).
    const QString& latest() const { return m_latest; }

private:
    QLabel* m_label;
    QString m_latest;
    Throttle* m_throttle;
};

} // namespace elab::ui
