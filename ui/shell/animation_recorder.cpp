#include "ui/shell/animation_recorder.h"

#include "ui/export/figure_export.h"
#include "ui/jobs/compute_controller.h"
#include "ui/views/view.h"
#include "ui/views/view_eps.h"
#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_slider.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QTimer>

namespace elab::ui {

namespace {

QString rangeText(const std::vector<double>& grid) {
    if (grid.empty())
        return QStringLiteral("empty");
    return QStringLiteral("%1 points from %2 to %3").arg(grid.size()).arg(grid.front()).arg(grid.back());
}

} // namespace

AnimationRecorder::AnimationRecorder(View& view, AnimationRequest request, std::function<Session()> session,
                                     QObject* parent)
    : QObject(parent), m_view(view), m_request(std::move(request)), m_session(std::move(session)) {}

AnimationRecorder::~AnimationRecorder() = default;

void AnimationRecorder::start() {
    if (const QString problem = m_request.validate(); !problem.isEmpty())
        return fail(problem);
    m_slider = epsSliderOf(m_view);
    if (!m_slider)
        return fail(QStringLiteral("the view shown has no ε slider to play"));
    m_frames = framesInRange(m_slider->grid(), m_request.epsMin, m_request.epsMax);
    if (m_frames.empty())
        return fail(QStringLiteral("no grid ε in [%1, %2] (the grid: %3)")
                        .arg(m_request.epsMin)
                        .arg(m_request.epsMax)
                        .arg(rangeText(m_slider->grid())));
    QDir().mkpath(QFileInfo(m_request.path).absolutePath());
    if (animationFormat(m_request.path) == AnimationFormat::Gif) {
        QString error;
        if (!m_gif.open(m_request.path, m_request.size, &error))
            return fail(error);
    }
    m_slider->player()->pause();
    if (ComputeControllerBase* controller = m_view.controller()) {
        // Queued: the view redraws on the same delivery before the frame is taken.
        connect(controller, &ComputeControllerBase::idle, this, &AnimationRecorder::checkFrame, Qt::QueuedConnection);
        connect(controller, &ComputeControllerBase::failed, this, [this](const QString& message) {
            if (m_waiting)
                fail(QStringLiteral("at ε = %1: %2").arg(m_frames[m_index]).arg(message));
        });
    }
    stepToFrame();
}

void AnimationRecorder::cancel() { fail(QStringLiteral("animation export cancelled")); }

void AnimationRecorder::stepToFrame() {
    m_waiting = true;
    m_slider->stepTo(m_frames[m_index]);
    // Already shown (the first frame at the current ε), or no job to wait for: look at once.
    QTimer::singleShot(0, this, &AnimationRecorder::checkFrame);
}

void AnimationRecorder::checkFrame() {
    if (!m_waiting || m_done)
        return;
    if (!showsCurrentResult(m_view)) {
        // Idle yet incomplete: the view refused its settings and nothing will come; say why.
        const ComputeControllerBase* controller = m_view.controller();
        if (controller && !controller->isBusy() && !controller->lastError().isEmpty())
            fail(QStringLiteral("at ε = %1: %2").arg(m_frames[m_index]).arg(controller->lastError()));
        return; // idle() comes when it has finished
    }
    m_waiting = false;
    captureFrame();
}

void AnimationRecorder::captureFrame() {
    const QList<ViewFigure> figures = m_view.figures();
    if (figures.isEmpty())
        return fail(QStringLiteral("the view shown has no figure to export"));
    const ViewFigure& figure = figures.constFirst();
    const double eps = m_frames[m_index];
    const QImage frame = renderAnimationFrame(figure.chart, eps, m_request.size);
    QString error;
    QString file;
    if (animationFormat(m_request.path) == AnimationFormat::Gif) {
        if (!m_gif.addFrame(frame, m_request.frameMs, &error))
            return fail(error);
    } else {
        file = framePath(m_request.path, static_cast<int>(m_index) + 1);
        if (!frame.save(file, "PNG"))
            return fail(QStringLiteral("%1: could not write the frame").arg(file));
        m_written << file;
    }
    m_sidecars.addFrame(eps, QFileInfo(file).fileName(), figure.sidecar(m_session(), m_request.path));
    emit progress(static_cast<int>(m_index) + 1, static_cast<int>(m_frames.size()));
    if (++m_index < m_frames.size())
        stepToFrame();
    else
        complete();
}

void AnimationRecorder::complete() {
    QString error;
    if (animationFormat(m_request.path) == AnimationFormat::Gif) {
        if (!m_gif.close(&error))
            return fail(error);
        m_written << m_request.path;
    }
    const QString base = animationSidecarBase(m_request.path);
    const QString csv = csvPathFor(base);
    if (!writeBytes(csv, m_sidecars.csv(), &error))
        return fail(error);
    m_written << csv;
    const QString json = sidecarPathFor(base);
    if (!writeBytes(json, m_sidecars.json(m_request), &error))
        return fail(error);
    m_written << json;
    m_done = true;
    emit finished(m_written, QString());
}

void AnimationRecorder::fail(const QString& message) {
    if (m_done)
        return;
    m_done = true;
    emit finished(m_written, message);
}

} // namespace elab::ui
