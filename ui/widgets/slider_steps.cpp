#include "ui/widgets/slider_steps.h"

#include "ui/jobs/compute_controller.h"
#include "ui/widgets/eps_slider.h"

namespace elab::ui {

void connectSliderSteps(EpsSlider* slider, QObject* context, const ComputeControllerBase* controller,
                        std::function<void(bool dragging)> step, std::function<void()> redraw) {
    QObject::connect(slider, &EpsSlider::epsChanged, context, [step](double, bool dragging) { step(dragging); });
    QObject::connect(slider, &EpsSlider::dragFinished, context, [controller, step, redraw](double) {
        const bool wasDragging = controller->dragging();
        step(false);
        // With the released ε's result when it comes (one full redraw, not two); now if it is shown.
        if (wasDragging && !controller->isBusy())
            redraw();
    });
}

} // namespace elab::ui
