#pragma once
// A view as playback and the animation export see it: its ε slider, and whether what it shows
// is the result of the slider's ε. Nothing here names a view. GUI thread only.

namespace elab::ui {

class EpsSlider;
class View;

/// The ε slider of a view that follows ε (the first EpsSlider in its page), or null.
EpsSlider* epsSliderOf(View& view);
/// The view shows its result for the ε it was given: no job running or change waiting, and its
/// result complete (View::complete). A view without a controller always does.
bool showsCurrentResult(View& view);

} // namespace elab::ui
