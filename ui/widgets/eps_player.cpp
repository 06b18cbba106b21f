#include "ui/widgets/eps_player.h"

#include "ui/widgets/eps_slider.h"

#include <algorithm>
#include <cmath>

namespace elab::ui {

EpsPlayer::EpsPlayer(EpsSlider* slider) : QObject(slider), m_slider(slider) {
    m_timer.setInterval(kNormalMs);
    connect(&m_timer, &QTimer::timeout, this, &EpsPlayer::tick);
}

void EpsPlayer::setMode(Mode mode) {
    m_mode = mode;
    if (mode != Mode::Bounce)
        m_up = true;
}

void EpsPlayer::setInterval(int milliseconds) { m_timer.setInterval(std::max(1, milliseconds)); }

double EpsPlayer::nextEps(const std::vector<double>& grid, double eps, Mode mode, bool* up, bool* atEnd) {
    *atEnd = false;
    const double last = grid.back();
    if (*up) {
        const double next = EpsSlider::stepOnGrid(grid, eps, 1);
        if (!std::isinf(next))
            return next;
        // Past the largest grid ε (or at ∞).
        switch (mode) {
        case Mode::Once: *atEnd = true; return eps;
        case Mode::Loop: return grid.front();
        case Mode::Bounce: *up = false; return std::isinf(eps) ? last : EpsSlider::stepOnGrid(grid, eps, -1);
        }
    }
    const double next = EpsSlider::stepOnGrid(grid, eps, -1);
    if (next != eps)
        return next;
    *up = true; // at (or below) the smallest grid ε
    return EpsSlider::stepOnGrid(grid, eps, 1);
}

void EpsPlayer::play() {
    if (isPlaying())
        return;
    const std::vector<double>& grid = m_slider->grid();
    const double eps = m_slider->eps();
    if (m_up && (std::isinf(eps) || eps >= grid.back() * (1.0 - 1e-9)))
        stepTo(grid.front()); // a film starts at the smallest ε
    m_timer.start();
    emit playingChanged(true);
}

void EpsPlayer::pause() {
    if (!isPlaying())
        return;
    m_timer.stop();
    emit playingChanged(false);
}

bool EpsPlayer::tick() {
    if (!ready())
        return false; // the view is still computing the ε it was given: wait for the next tick
    bool atEnd = false;
    const double next = nextEps(m_slider->grid(), m_slider->eps(), m_mode, &m_up, &atEnd);
    if (atEnd) {
        pause();
        return false;
    }
    stepTo(next);
    if (m_mode == Mode::Once && next >= m_slider->grid().back())
        pause(); // the film ends on the largest grid ε
    return true;
}

void EpsPlayer::stepTo(double eps) {
    m_slider->stepTo(eps);
    emit stepped(eps);
}

} // namespace elab::ui
