#pragma once
// A label's text that follows a fast-changing value (the ε slider) at most every intervalMs.
// GUI thread only.

#include <QElapsedTimer>
#include <QObject>
#include <QString>

class QLabel;
class QTimer;

namespace elab::ui {

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
    void show();

    QLabel* m_label;
    int m_intervalMs;
    QString m_latest;
    QElapsedTimer m_shown;
    QTimer* m_timer = nullptr;
};

} // namespace elab::ui
