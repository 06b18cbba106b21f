#pragma once
// The Private dropout (PTR) teaching tab (issue 14; Jain et al. Algorithm 2, docs/MATH.md §3.5):
// an ε slider; the pass probability against ε with the measured fraction; Λ against the
// threshold with one run's Λ̂; the readout (Λ, threshold, pass or fail, the released feature,
// the (2ε, δ) guarantee in plain words). The form (binarisation threshold, δ, runs, seed) is the
// tab's side panel (PtrPanel). GUI thread only.

#include "ui/views/ptr/ptr_settings.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::ui {

class Throttle;
class ThrottledText;

namespace charts {
class ChartView;
struct ChartData;
} // namespace charts
class EpsSlider;
class PtrController;

/// objectNames: "ptrBinariseEdit", "ptrDeltaEdit", "ptrRunsSpin", "ptrSeedEdit".
class PtrPanel : public QWidget {
    Q_OBJECT
public:
    explicit PtrPanel(QWidget* parent = nullptr);
    void setSettings(const PtrSettings& s); ///< emits nothing
    PtrSettings settings() const { return m_settings; }

signals:
    void settingsChanged();

private:
    void edited();
    PtrSettings m_settings;
    bool m_applying = false;
    QLineEdit* m_binarise;
    QLineEdit* m_delta;
    QSpinBox* m_runs;
    QLineEdit* m_seed;
    QLabel* m_problem;
};

class PtrView : public QWidget {
    Q_OBJECT
public:
    /// While the slider's handle is held: a redraw per new result at most this often, the
    /// readout at most every kHeldTextMs.
    static constexpr int kHeldRedrawMs = 40;
    static constexpr int kHeldTextMs = 250;

    PtrView(PtrController* controller, PtrPanel* panel, QWidget* parent = nullptr);

    PtrSettings composedSettings() const;
    void applySettings(const PtrSettings& s);
    charts::ChartData passChart() const;
    charts::ChartData thresholdChart() const;
    QString readoutText() const;
    EpsSlider* slider() const { return m_slider; }

signals:
    void redrawn();

private:
    void pushSettings();
    void refresh();

    PtrController* m_controller;
    PtrPanel* m_panel;
    EpsSlider* m_slider;
    charts::ChartView* m_passChart;
    charts::ChartView* m_thresholdChart;
    QLabel* m_readout;
    QLabel* m_status;
    bool m_applying = false;
    Throttle* m_redraw;
    ThrottledText* m_readoutShown;
};

} // namespace elab::ui
