#include "ui/views/view_eps.h"

#include "ui/jobs/compute_controller.h"
#include "ui/views/view.h"
#include "ui/widgets/eps_slider.h"

#include <QWidget>

namespace elab::ui {

EpsSlider* epsSliderOf(View& view) {
    QWidget* page = view.widget();
    return page ? page->findChild<EpsSlider*>() : nullptr;
}

bool showsCurrentResult(View& view) {
    const ComputeControllerBase* controller = view.controller();
    return !controller || (!controller->isBusy() && view.complete());
}

} // namespace elab::ui
