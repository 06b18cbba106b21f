// The window's part in playing ε: the play buttons' ready check and the animation export
// (File ▸ Export animation…, batch mode's --export FILE.gif).

#include "ui/shell/main_window.h"

#include "ui/session/session_actions.h"
#include "ui/shell/animation_recorder.h"
#include "ui/shell/job_indicator.h"
#include "ui/views/view_eps.h"
#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_slider.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QSpinBox>
#include <QStatusBar>
#include <QTimer>

namespace elab::ui {

void MainWindow::connectPlayback() {
    for (const auto& v : m_views)
        if (EpsSlider* slider = epsSliderOf(*v))
            slider->player()->setReadyCheck([view = v.get()] { return showsCurrentResult(*view); });
}

AnimationRecorder* MainWindow::exportAnimation(const AnimationRequest& request) {
    View* shown = currentViewObject();
    auto* recorder = new AnimationRecorder(
        *shown, request, [this] { return m_sessions->currentSession(); }, this);
    m_computeJobs->start(tr("Animation"));
    connect(m_computeJobs, &JobIndicator::cancelRequested, recorder, &AnimationRecorder::cancel);
    connect(recorder, &AnimationRecorder::progress, this, [this](int frame, int count) {
        m_computeJobs->setProgress(static_cast<double>(frame) / count, tr("frame %1 of %2").arg(frame).arg(count));
    });
    connect(recorder, &AnimationRecorder::finished, this,
            [this, recorder](const QStringList& written, const QString& error) {
                m_computeJobs->finish(error.isEmpty() ? tr("Animation written") : tr("Animation failed"));
                if (!error.isEmpty())
                    showError(tr("Export failed"), tr("Could not export the animation."), error);
                else
                    statusBar()->showMessage(tr("Wrote %1").arg(written.join(QStringLiteral(", "))), 8000);
                recorder->deleteLater();
            });
    QTimer::singleShot(0, recorder, &AnimationRecorder::start); // the caller connects first
    return recorder;
}

void MainWindow::exportAnimationInteractively() {
    View* shown = currentViewObject();
    if (!shown || !epsSliderOf(*shown)) {
        showError(tr("Export failed"), tr("Could not export an animation."),
                  tr("The %1 view has no ε slider to play.").arg(currentView()));
        return;
    }
    QString path = QFileDialog::getSaveFileName(this, tr("Export animation"), currentView() + QStringLiteral(".gif"),
                                                tr("Animated GIF (*.gif);;PNG sequence (*.png)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().toLower() == QLatin1String("png") && !path.contains(QLatin1Char('%')))
        path = QFileInfo(path).dir().filePath(QFileInfo(path).completeBaseName() + QStringLiteral("-%03d.png"));

    AnimationRequest request;
    request.path = path;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Export animation"));
    auto* form = new QFormLayout(&dialog);
    auto epsBox = [&dialog](double value) {
        auto* box = new QDoubleSpinBox(&dialog);
        box->setDecimals(4);
        box->setRange(0.001, 100.0);
        box->setValue(value);
        return box;
    };
    QDoubleSpinBox* from = epsBox(request.epsMin);
    QDoubleSpinBox* to = epsBox(request.epsMax);
    auto* frameMs = new QSpinBox(&dialog);
    frameMs->setRange(20, 60'000);
    frameMs->setSuffix(tr(" ms"));
    frameMs->setValue(request.frameMs);
    auto* width = new QSpinBox(&dialog);
    auto* height = new QSpinBox(&dialog);
    for (auto [box, value] : {std::pair{width, request.size.width()}, std::pair{height, request.size.height()}}) {
        box->setRange(100, 4000);
        box->setValue(value);
    }
    form->addRow(tr("From ε:"), from);
    form->addRow(tr("To ε:"), to);
    form->addRow(tr("Time per frame:"), frameMs);
    form->addRow(tr("Width (pixels):"), width);
    form->addRow(tr("Height (pixels):"), height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return;
    request.epsMin = from->value();
    request.epsMax = to->value();
    request.frameMs = frameMs->value();
    request.size = QSize(width->value(), height->value());
    exportAnimation(request);
}

} // namespace elab::ui
