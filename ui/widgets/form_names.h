#pragma once
// Accessible names from form labels. QFormLayout makes a row's label the buddy of a field that is
// one widget, which is what screen readers read as its name; a field that is a layout or a box
// of several controls ("ε from [min] to [max]") gets no buddy, so its controls would be nameless.
// GUI thread only.

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace elab::ui {

/// Every form under root (its QFormLayouts): each focusable control of a row's field that has
/// no accessible name of its own and is not the label's buddy is named after the row's label
/// ("ε from"; several controls: "ε from, 1 of 2"). Call once the forms are built.
void nameFormFields(QWidget* root);
/// Every focusable control under root that still has no accessible name and sits in a titled
/// QGroupBox (a table, a list, a chart alone in its box) is named after the nearest box's title.
void nameFromGroupBoxes(QWidget* root);
/// Tables and lists under root leave Tab to move the focus on (arrows move between cells), so
/// that Tab does not walk every cell of a thousand-row table.
void tabLeavesItemViews(QWidget* root);

} // namespace elab::ui
