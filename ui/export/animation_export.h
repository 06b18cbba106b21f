#pragma once
// A view played over a range of ε as a film: an animated GIF (gif_writer.h) or a numbered PNG
// sequence, one frame per slider grid ε in the range, each the view's exported figure (legend,
// guarantee line in its footnote) under a band with ε large in its top-left corner; beside it a CSV with one
// row per frame (its ε and the view's headline numbers: the scalars of its sidecar's results)
// and a JSON sidecar: the session of the last frame plus every frame's numbers. The recording
// itself (driving the view) is AnimationRecorder (ui/shell/). GUI thread only (fonts).

#include "ui/charts/chart_data.h"

#include <QByteArray>
#include <QImage>
#include <QList>
#include <QPair>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace elab::ui {

enum class AnimationFormat { Unknown, Gif, PngSequence };

struct AnimationRequest {
    /// FILE.gif, or a numbered PNG sequence: a .png name with one %d or %0Nd (frame-%03d.png;
    /// frames numbered from 1).
    QString path;
    double epsMin = 0.1; ///< frames at the grid ε in [epsMin, epsMax]
    double epsMax = 100.0;
    int frameMs = 500;    ///< GIF delay per frame
    QSize size{960, 640}; ///< frame size in pixels (the figure laid out at this size)
    /// "" if valid, else the problem (naming the field).
    QString validate() const;
};

/// By the name: .gif → Gif; .png with one %d/%0Nd → PngSequence; else Unknown.
AnimationFormat animationFormat(const QString& path);
/// The sequence's file for frame number (pattern "dir/frame-%03d.png", 7 → "dir/frame-007.png").
QString framePath(const QString& pattern, int number);
/// The path the CSV and JSON sidecars are named after (csvPathFor, sidecarPathFor): the GIF's
/// own, or the sequence's without its number ("dir/frame-%03d.png" → "dir/frame.png"; a name
/// that is only the number → "dir/frames.png").
QString animationSidecarBase(const QString& path);
/// The grid ε within [lo, hi] (relative tolerance 1e-9 at both ends), ascending.
std::vector<double> framesInRange(const std::vector<double>& grid, double lo, double hi);
/// "0.1:100" → {0.1, 100}; nullopt unless two numbers 0 < A ≤ B.
std::optional<QPair<double, double>> parseEpsRange(const QString& text);

/// The frame: a band on top with "ε = …" large in its left corner and the chart's title beside
/// it, the figure (legend, footnote with the guarantee) under it at 96 dpi; size pixels in all.
QImage renderAnimationFrame(const charts::ChartData& chart, double eps, QSize size);

/// The CSV and JSON sidecars of a film, built a frame at a time.
class AnimationSidecars {
public:
    /// sidecar: the view's JSON sidecar of this frame (a session plus its "export" block).
    void addFrame(double eps, const QString& file, const QByteArray& sidecar);
    /// "frame,eps,file,<numbers…>" and a row per frame (numbers missing in a frame: empty).
    QByteArray csv() const;
    /// The last frame's sidecar with export.animation: request, and every frame's ε, file and numbers.
    QByteArray json(const AnimationRequest& request) const;
    /// The headline numbers of a sidecar: every number and true/false of export.results (or of
    /// the export block, if it has none, leaving out data and plane) and export.guarantee's ε
    /// and δ, keyed by their dotted path; arrays left out.
    static QList<QPair<QString, double>> headlineNumbers(const QByteArray& sidecar);

private:
    struct Frame {
        double eps;
        QString file;
        QList<QPair<QString, double>> numbers;
    };
    std::vector<Frame> m_frames;
    QByteArray m_lastSidecar;
};

} // namespace elab::ui
