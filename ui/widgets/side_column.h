#pragma once
// A view's side column (readouts, forms, tables beside a chart) that scrolls vertically when the
// window is too short for it, never horizontally: its minimum height is then that of a few lines,
// so a view fits a laptop screen (1280 × 720) without cutting anything off. GUI thread only.

class QScrollArea;
class QWidget;

namespace elab::ui {

/// Puts content (a layout's widget, fixed to `width` px) in a frameless scroll area as wide as it
/// plus a vertical scroll bar, owned by parent.
QScrollArea* scrollingColumn(QWidget* content, int width, QWidget* parent);

} // namespace elab::ui
