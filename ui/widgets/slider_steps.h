#pragma once
// A view's ε slider wired to its controller as slider steps (ComputeController::setCurrentEps →
// setSliderStep): every move is a step (dragging while the handle is held), the
// release a last one; then, if no computation is coming to redraw the view with the released ε,
// redraw() shows the texts the view held still during the drag. GUI thread only.

#include <functional>

class QObject;

namespace elab::ui {

class ComputeControllerBase;
class EpsSlider;

/// step(dragging): hands the slider's ε to the controller (or ignores it, e.g. while the view
/// applies settings). context: the view (the connections' lifetime).
void connectSliderSteps(EpsSlider* slider, QObject* context, const ComputeControllerBase* controller,
                        std::function<void(bool dragging)> step, std::function<void()> redraw);

} // namespace elab::ui
