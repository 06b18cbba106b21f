#pragma once
// Records a view's film (ui/export/animation_export.h): for each grid ε of the range it moves the
// view's ε slider there as a keyboard step would (EpsSlider::stepTo — the path playback takes),
// waits until the view shows that ε's result (showsCurrentResult: its controller idle, its result
// complete), then renders the view's figure as a frame. Frames are written as they come (GIF
// frame by frame, PNG files one by one); the CSV and JSON sidecars at the end. The same seed and
// range give the same frames. GUI thread only.

#include "ui/export/animation_export.h"
#include "ui/export/gif_writer.h"
#include "ui/session/session.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

namespace elab::ui {

class EpsSlider;
class View;

class AnimationRecorder : public QObject {
    Q_OBJECT
public:
    /// session: the window's current session (each frame's sidecar is built from it).
    AnimationRecorder(View& view, AnimationRequest request, std::function<Session()> session,
                      QObject* parent = nullptr);
    ~AnimationRecorder() override;

    /// Starts recording; finished() follows (possibly at once, on an error).
    void start();
    /// Stops after the frame being computed; finished() with an error saying so.
    void cancel();
    /// The ε of the frames (known after start()).
    const std::vector<double>& frameEps() const { return m_frames; }

signals:
    /// frame (1-based) of count has been written.
    void progress(int frame, int count);
    /// Every file written (frames or the GIF, then the CSV and JSON); error empty on success.
    void finished(const QStringList& written, const QString& error);

private:
    void stepToFrame();
    void checkFrame();
    void captureFrame();
    void fail(const QString& message);
    void complete();

    View& m_view;
    AnimationRequest m_request;
    std::function<Session()> m_session;
    EpsSlider* m_slider = nullptr;
    std::vector<double> m_frames;
    std::size_t m_index = 0;
    bool m_waiting = false;
    bool m_done = false;
    GifWriter m_gif;
    AnimationSidecars m_sidecars;
    QStringList m_written;
};

} // namespace elab::ui
