#pragma once
// Playing ε like a film: an EpsSlider's ε moves along its grid from the smallest grid ε to the
// largest, one grid point per tick of a timer. A tick steps only when the view shows the
// result of the ε it was last given (the ready check, set by the window); otherwise it waits for
// the next tick, so every grid ε of the path is shown with its own result and the same seed
// gives the same sequence of pictures. Once stops at the largest grid ε, Loop starts again at
// the smallest, Bounce turns round at either end. The ∞ stop is not part of the path.
// GUI thread only.

#include <QObject>
#include <QTimer>

#include <functional>
#include <vector>

namespace elab::ui {

class EpsSlider;

class EpsPlayer : public QObject {
    Q_OBJECT
public:
    enum class Mode { Once, Loop, Bounce };
    /// Milliseconds per grid step of the speed choices (slow, normal, fast).
    static constexpr int kSlowMs = 1500;
    static constexpr int kNormalMs = 700;
    static constexpr int kFastMs = 250;

    explicit EpsPlayer(EpsSlider* slider);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode);
    /// Milliseconds between ticks (at least 1).
    int interval() const { return m_timer.interval(); }
    void setInterval(int milliseconds);
    /// True when the view shows the result of the slider's ε (unset: always).
    void setReadyCheck(std::function<bool()> ready) { m_ready = std::move(ready); }
    bool ready() const { return !m_ready || m_ready(); }

    bool isPlaying() const { return m_timer.isActive(); }
    /// Starts playing; from ∞ or from the largest grid ε (moving up) it first goes to the smallest.
    void play();
    void pause();
    void toggle() { isPlaying() ? pause() : play(); }
    /// What the timer does: one grid step if ready() (stopping at the end in Once mode).
    /// Returns whether it stepped.
    bool tick();

    /// The next ε of the path from eps (sorted grid, not empty); *up is the direction, turned
    /// round by Bounce; *atEnd is set when Once has nowhere further to go (eps returned).
    static double nextEps(const std::vector<double>& grid, double eps, Mode mode, bool* up, bool* atEnd);

signals:
    void playingChanged(bool playing);
    /// The player moved the slider to eps (after the slider's epsChanged).
    void stepped(double eps);

private:
    void stepTo(double eps);

    EpsSlider* m_slider;
    QTimer m_timer;
    std::function<bool()> m_ready;
    Mode m_mode = Mode::Once;
    bool m_up = true;
};

} // namespace elab::ui
