#pragma once
// The ε control of the utility explorer: a logarithmic slider over
// [UtilitySettings::kSliderMin, kSliderMax] = [10⁻³, 10²] with kLogSteps positions, an extra
// "∞ (non-private)" stop after a small gap at the right end, a synced text field, a readout and
// a play button (EpsPlayer: ε along the grid like a film; its menu picks once/loop/bounce and the
// speed; Space on the slider toggles it). Keyboard and wheel steps on the slider move along the
// sweep grid (setGrid). Signals are emitted synchronously from the user's action or a playback
// step, never from setEps(). GUI thread only.

#include <QWidget>

#include <vector>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QSlider;
class QToolButton;
QT_END_NAMESPACE

namespace elab::ui {

class EpsPlayer;

class EpsSlider : public QWidget {
    Q_OBJECT
public:
    /// 200 positions per decade: neighbouring positions differ by a factor 10^(1/200) ≈ 1.0116.
    static constexpr int kLogSteps = 1000;
    /// The ∞ stop, a gap of a tenth of the log range after ε = 10².
    static constexpr int kInfinityPosition = kLogSteps + kLogSteps / 10;

    explicit EpsSlider(QWidget* parent = nullptr);
    ~EpsSlider() override;

    double eps() const { return m_eps; }
    /// Shows eps without emitting: +∞ is the ∞ stop, finite values are clamped into the
    /// slider range, NaN is ignored. The value is kept exactly (not rounded to a position).
    void setEps(double eps);

    /// The ε grid keyboard steps land on (sorted; values outside the slider range dropped).
    /// Until set, or when set empty, the default UtilitySettings grid.
    void setGrid(const std::vector<double>& grid);
    const std::vector<double>& grid() const { return m_grid; }

    /// Moves to eps as a keyboard step does (epsChanged(eps, false) if it changed): playback and
    /// the animation export drive the view through it.
    void stepTo(double eps);

    QSlider* slider() const { return m_slider; }
    QLineEdit* field() const { return m_field; }
    EpsPlayer* player() const { return m_player; }
    QToolButton* playButton() const { return m_play; }
    /// "ε = 0.25" or "ε = ∞ (non-private)".
    QString readoutText() const;

    /// Slider position of eps (nearest; +∞ → kInfinityPosition).
    static int positionForEps(double eps);
    /// ε of a slider position, rounded to 3 significant digits (exact at the decades); the
    /// gap snaps to 10² in its left half and to +∞ in its right half.
    static double epsForPosition(int position);
    /// The grid ε `steps` grid points above (steps > 0) or below eps. From between two grid
    /// points the first step lands on the neighbouring one; past the last point is +∞; from
    /// below the first point a downward step returns eps unchanged.
    static double stepOnGrid(const std::vector<double>& grid, double eps, int steps);

signals:
    /// The user changed ε; dragging is true while the slider handle is held.
    void epsChanged(double eps, bool dragging);
    /// The handle was released at eps (a final value: measure at full fidelity).
    void dragFinished(double eps);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void onSliderValue(int position);
    void onSliderReleased();
    void commitField();
    bool handleKey(int key);
    void changeByUser(double eps, bool dragging);
    void showEps();
    void showTexts();
    void buildPlayButton();
    void showPlaying(bool playing);

    QLabel* m_readout = nullptr;
    QLineEdit* m_field = nullptr;
    QSlider* m_slider = nullptr;
    QWidget* m_scale = nullptr;
    QToolButton* m_play = nullptr;
    EpsPlayer* m_player = nullptr;
    std::vector<double> m_grid;
    double m_eps = 1.0;
    QString m_fieldShown;
    int m_wheelAngle = 0;
    bool m_applying = false;
};

} // namespace elab::ui
