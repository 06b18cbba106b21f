#include "ui/widgets/eps_slider.h"

#include "ui/widgets/note_label.h"

#include "ui/widgets/documented_keys.h"
#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_text.h"
#include "ui/widgets/utility_settings.h"

#include <QActionGroup>
#include <QEvent>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QSlider>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QToolButton>
#include <QWheelEvent>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace elab::ui {

namespace {

constexpr double kMin = UtilitySettings::kSliderMin;
constexpr double kMax = UtilitySettings::kSliderMax;
constexpr double kInf = std::numeric_limits<double>::infinity();

double decades() { return std::log10(kMax / kMin); }

double clampEps(double eps) { return std::isinf(eps) && eps > 0 ? eps : std::clamp(eps, kMin, kMax); }

// Through text, so that 0.0117 is the double a user typing "0.0117" gets.
double roundSignificant(double value, int digits) {
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, digits);
    double rounded = value;
    std::from_chars(buffer, written.ptr, rounded);
    return rounded;
}

// Decade labels under the slider, centred on the handle position of each value.
class EpsScale : public QWidget {
public:
    EpsScale(QSlider* slider, QWidget* parent) : QWidget(parent), m_slider(slider) {
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        setFont(small);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {120, fontMetrics().height() + 4}; }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        static const char* const labels[] = {"0.001", "0.01", "0.1", "1", "10", "100"};
        for (int i = 0; i <= 5; ++i)
            drawLabel(painter, EpsSlider::kLogSteps * i / 5, QString::fromLatin1(labels[i]));
        QFont large = parentWidget()->font(); // "∞" is a small glyph in most fonts
        large.setPointSizeF(large.pointSizeF() * 1.3);
        painter.setFont(large);
        drawLabel(painter, EpsSlider::kInfinityPosition, QStringLiteral("∞"));
    }

private:
    void drawLabel(QPainter& painter, int position, const QString& text) {
        QStyleOptionSlider option;
        option.initFrom(m_slider);
        option.orientation = Qt::Horizontal;
        option.minimum = m_slider->minimum();
        option.maximum = m_slider->maximum();
        option.sliderPosition = position;
        option.sliderValue = position;
        option.tickPosition = m_slider->tickPosition();
        option.tickInterval = m_slider->tickInterval();
        option.subControls = QStyle::SC_SliderHandle;
        const QRect handle =
            m_slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, m_slider);
        const int centre = m_slider->x() + handle.center().x() - x();
        const int width = painter.fontMetrics().horizontalAdvance(text) + 2;
        const int left = std::clamp(centre - width / 2, 0, std::max(0, this->width() - width));
        painter.drawText(QRect(left, 0, width, height()), Qt::AlignCenter, text);
    }

    QSlider* m_slider;
};

} // namespace

EpsSlider::EpsSlider(QWidget* parent) : QWidget(parent), m_grid(UtilitySettings{}.grid()) {
    // In a box: the readout's new text at every slider step must not lay out the whole view again.
    auto* readoutBox = new NoteBox(this, "epsReadout", NoteBox::Lines::Single);
    m_readout = readoutBox->label();
    QFont bold = m_readout->font();
    bold.setBold(true);
    m_readout->setFont(bold);

    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("epsField"));
    m_field->setAccessibleName(tr("ε value"));
    m_field->setToolTip(tr("Type ε (e.g. 0.5 or 1e-2) or \"inf\" for the non-private end, then Enter"));
    m_field->setMaximumWidth(m_field->fontMetrics().horizontalAdvance(QStringLiteral("0.000000")) + 16);
    connect(m_field, &QLineEdit::editingFinished, this, &EpsSlider::commitField);

    m_slider = new QSlider(Qt::Horizontal, this);
    m_slider->setObjectName(QStringLiteral("epsSlider"));
    m_slider->setRange(0, kInfinityPosition);
    m_slider->setPageStep(kLogSteps / 10);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setTickInterval(kLogSteps / 5);
    m_slider->setToolTip(tr("Privacy parameter ε on a log scale; the right end is ∞ (non-private).\n"
                            "←/→ step along the sweep grid, PgUp/PgDn by several grid points,\n"
                            "Home: first grid ε, End: ∞, Space: play or pause."));
    m_slider->setAccessibleName(tr("Privacy parameter ε"));
    documentKeys(m_slider, {{tr("← / →, ↓ / ↑"), tr("ε slider: one grid point down / up")},
                            {tr("PgDn / PgUp"), tr("ε slider: several grid points down / up")},
                            {tr("Home"), tr("ε slider: the first grid ε")},
                            {tr("End"), tr("ε slider: ∞ (non-private)")},
                            {tr("Space"), tr("ε slider: play or pause ε")}});
    m_slider->installEventFilter(this);
    connect(m_slider, &QSlider::valueChanged, this, &EpsSlider::onSliderValue);
    connect(m_slider, &QSlider::sliderReleased, this, &EpsSlider::onSliderReleased);

    m_scale = new EpsScale(m_slider, this);
    m_player = new EpsPlayer(this);
    // A hand on the handle takes over from the film.
    connect(m_slider, &QSlider::sliderPressed, m_player, &EpsPlayer::pause);
    buildPlayButton();

    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setVerticalSpacing(2);
    layout->addWidget(readoutBox, 0, 0);
    layout->addWidget(m_play, 0, 1);
    layout->addWidget(m_field, 0, 2);
    layout->addWidget(m_slider, 1, 0, 1, 3);
    layout->addWidget(m_scale, 2, 0, 1, 3);
    layout->setColumnStretch(0, 1);
    showEps();
}

// The field, destroyed after this class's destructor, emits editingFinished when it loses
// the focus on the way out: that must not reach a half-destroyed EpsSlider.
EpsSlider::~EpsSlider() { m_field->disconnect(this); }

void EpsSlider::buildPlayButton() {
    m_play = new QToolButton(this);
    m_play->setObjectName(QStringLiteral("playButton"));
    m_play->setAccessibleName(tr("Play ε"));
    m_play->setToolTip(tr("Play ε along the grid from the smallest to the largest value, each step once the view "
                          "shows its result (Space on the slider). The arrow: once, loop or back and forth, and "
                          "the speed."));
    m_play->setPopupMode(QToolButton::MenuButtonPopup);
    auto* menu = new QMenu(m_play);
    auto* modes = new QActionGroup(menu);
    const std::pair<QString, EpsPlayer::Mode> modeChoices[] = {
        {tr("Once, stop at the largest ε"), EpsPlayer::Mode::Once},
        {tr("Loop"), EpsPlayer::Mode::Loop},
        {tr("Back and forth"), EpsPlayer::Mode::Bounce}};
    for (const auto& [text, mode] : modeChoices) {
        QAction* action = menu->addAction(text, m_player, [this, mode = mode] { m_player->setMode(mode); });
        action->setCheckable(true);
        action->setChecked(mode == m_player->mode());
        modes->addAction(action);
    }
    menu->addSeparator();
    auto* speeds = new QActionGroup(menu);
    const std::pair<QString, int> speedChoices[] = {
        {tr("Slow (%1 s a step)").arg(EpsPlayer::kSlowMs / 1000.0), EpsPlayer::kSlowMs},
        {tr("Normal (%1 s a step)").arg(EpsPlayer::kNormalMs / 1000.0), EpsPlayer::kNormalMs},
        {tr("Fast (%1 s a step)").arg(EpsPlayer::kFastMs / 1000.0), EpsPlayer::kFastMs}};
    for (const auto& [text, ms] : speedChoices) {
        QAction* action = menu->addAction(text, m_player, [this, ms = ms] { m_player->setInterval(ms); });
        action->setCheckable(true);
        action->setChecked(ms == m_player->interval());
        speeds->addAction(action);
    }
    m_play->setMenu(menu);
    connect(m_play, &QToolButton::clicked, m_player, &EpsPlayer::toggle);
    connect(m_player, &EpsPlayer::playingChanged, this, &EpsSlider::showPlaying);
    showPlaying(false);
}

void EpsSlider::showPlaying(bool playing) {
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    m_play->setAccessibleName(playing ? tr("Pause ε") : tr("Play ε"));
}

void EpsSlider::stepTo(double eps) {
    if (!std::isnan(eps))
        changeByUser(clampEps(eps), false);
}

void EpsSlider::hideEvent(QHideEvent* event) {
    m_player->pause(); // another tab: the film stops where it is
    QWidget::hideEvent(event);
}

void EpsSlider::setEps(double eps) {
    if (std::isnan(eps))
        return;
    m_eps = clampEps(eps);
    showEps();
}

void EpsSlider::setGrid(const std::vector<double>& grid) {
    std::vector<double> kept;
    for (double e : grid)
        if (e >= kMin && e <= kMax)
            kept.push_back(e);
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    m_grid = kept.empty() ? UtilitySettings{}.grid() : kept;
}

QString EpsSlider::readoutText() const {
    return std::isinf(m_eps) ? tr("ε = ∞ (non-private)") : tr("ε = %1").arg(formatNumber(m_eps, 4));
}

int EpsSlider::positionForEps(double eps) {
    if (std::isinf(eps) && eps > 0)
        return kInfinityPosition;
    const double x = std::log10(clampEps(eps) / kMin) / decades();
    return static_cast<int>(std::lround(x * kLogSteps));
}

double EpsSlider::epsForPosition(int position) {
    if (position >= kLogSteps + (kInfinityPosition - kLogSteps) / 2)
        return kInf;
    if (position >= kLogSteps)
        return kMax;
    if (position <= 0)
        return kMin;
    return roundSignificant(kMin * std::pow(10.0, decades() * position / kLogSteps), 3);
}

double EpsSlider::stepOnGrid(const std::vector<double>& grid, double eps, int steps) {
    if (grid.empty() || steps == 0)
        return eps;
    constexpr double kTolerance = 1e-9; // "on a grid point" despite rounding in a session file
    const auto n = static_cast<long long>(grid.size());
    long long target = 0;
    if (std::isinf(eps)) {
        if (steps > 0)
            return eps;
        target = n + steps; // ∞ sits one past the last grid point
    } else if (steps > 0) {
        const auto above =
            std::find_if(grid.begin(), grid.end(), [&](double g) { return g > eps * (1.0 + kTolerance); });
        target = (above - grid.begin()) + steps - 1;
    } else {
        long long below = n - 1;
        while (below >= 0 && !(grid[below] < eps * (1.0 - kTolerance)))
            --below;
        if (below < 0)
            return eps;
        target = below + steps + 1;
    }
    if (target >= n)
        return kInf;
    return grid[static_cast<std::size_t>(std::max(0LL, target))];
}

bool EpsSlider::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_slider && event->type() == QEvent::KeyPress)
        return handleKey(static_cast<QKeyEvent*>(event)->key());
    if (watched == m_slider && event->type() == QEvent::Wheel) {
        const QPoint angle = static_cast<QWheelEvent*>(event)->angleDelta();
        m_wheelAngle += angle.y() != 0 ? angle.y() : angle.x();
        const int steps = m_wheelAngle / 120; // one grid point per notch, touchpads accumulate
        m_wheelAngle -= steps * 120;
        if (steps != 0)
            changeByUser(stepOnGrid(m_grid, m_eps, steps), false);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

bool EpsSlider::handleKey(int key) {
    const int page = std::max(1, static_cast<int>(m_grid.size() - 1) / 5);
    double next = m_eps;
    switch (key) {
    case Qt::Key_Right:
    case Qt::Key_Up: next = stepOnGrid(m_grid, m_eps, 1); break;
    case Qt::Key_Left:
    case Qt::Key_Down: next = stepOnGrid(m_grid, m_eps, -1); break;
    case Qt::Key_PageUp: next = stepOnGrid(m_grid, m_eps, page); break;
    case Qt::Key_PageDown: next = stepOnGrid(m_grid, m_eps, -page); break;
    case Qt::Key_Home: next = m_grid.front(); break;
    case Qt::Key_End: next = kInf; break;
    case Qt::Key_Space: m_player->toggle(); return true;
    default: return false;
    }
    changeByUser(next, false);
    return true;
}

void EpsSlider::onSliderValue(int position) {
    if (!m_applying)
        changeByUser(epsForPosition(position), m_slider->isSliderDown());
}

void EpsSlider::onSliderReleased() {
    showEps(); // a handle let go inside the gap snaps to 10² or ∞
    emit dragFinished(m_eps);
}

void EpsSlider::commitField() {
    if (m_field->text() == m_fieldShown)
        return;
    const std::optional<double> value = parseEps(m_field->text(), true);
    if (!value) {
        m_field->setText(m_fieldShown);
        return;
    }
    changeByUser(clampEps(*value), false);
}

void EpsSlider::changeByUser(double eps, bool dragging) {
    const bool changed = eps != m_eps;
    m_eps = eps;
    if (dragging)
        showTexts(); // never move the handle under the user's mouse
    else
        showEps();
    if (changed)
        emit epsChanged(m_eps, dragging);
}

void EpsSlider::showEps() {
    m_applying = true;
    m_slider->setValue(positionForEps(m_eps));
    m_applying = false;
    showTexts();
}

void EpsSlider::showTexts() {
    m_fieldShown = std::isinf(m_eps) ? QStringLiteral("∞") : formatNumber(m_eps, 6);
    m_field->setText(m_fieldShown);
    m_readout->setText(readoutText());
}

} // namespace elab::ui
