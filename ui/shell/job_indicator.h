#pragma once
// Status-bar widget for running jobs: what runs, a progress bar and Cancel while it runs;
// afterwards the outcome ("cancelled", "failed") for a few seconds. GUI thread only.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;
QT_END_NAMESPACE

namespace elab::ui {

class JobIndicator : public QWidget {
    Q_OBJECT
public:
    explicit JobIndicator(QWidget* parent = nullptr);

    void start(const QString& what);
    /// fraction in [0, 1].
    void setProgress(double fraction, const QString& stage);
    /// Hides the bar and Cancel; shows message (if any) for a few seconds.
    void finish(const QString& message = {});

    bool isRunning() const { return m_running; }
    QString text() const;
    QPushButton* cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    QLabel* m_label = nullptr;
    QProgressBar* m_bar = nullptr;
    QPushButton* m_cancel = nullptr;
    QTimer* m_clear = nullptr;
    QString m_what;
    bool m_running = false;
};

} // namespace elab::ui
