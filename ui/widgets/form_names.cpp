#include "ui/widgets/form_names.h"

#include <QAbstractItemView>
#include <QAccessible>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLayout>
#include <QWidget>

namespace elab::ui {

namespace {

/// The controls Tab can reach in a field (a spin box's own line edit has no accessible interface:
/// the spin box speaks for it) (a widget, a box of widgets, or a layout), in order.
void collectControls(QLayoutItem* item, QList<QWidget*>& controls) {
    if (!item)
        return;
    if (QWidget* w = item->widget()) {
        if (w->focusPolicy() & Qt::TabFocus)
            controls << w;
        for (QWidget* child : w->findChildren<QWidget*>())
            if ((child->focusPolicy() & Qt::TabFocus) && child->parentWidget()->focusProxy() != child)
                controls << child;
    } else if (QLayout* layout = item->layout()) {
        for (int k = 0; k < layout->count(); ++k)
            collectControls(layout->itemAt(k), controls);
    }
}

QString labelText(const QLabel* label) {
    QString text = label->text();
    text.remove(QLatin1Char('&'));
    text = text.trimmed();
    if (text.endsWith(QLatin1Char(':')))
        text.chop(1);
    return text;
}

/// The name Qt's accessibility interface gives w: its own, its text, or its buddy label's.
QString accessibleName(QWidget* w) {
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(w);
    return iface ? iface->text(QAccessible::Name).trimmed() : w->accessibleName();
}

} // namespace

void nameFormFields(QWidget* root) {
    for (QFormLayout* form : root->findChildren<QFormLayout*>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            auto* label = qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)
                                                    ? form->itemAt(row, QFormLayout::LabelRole)->widget()
                                                    : nullptr);
            if (!label || labelText(label).isEmpty())
                continue;
            QList<QWidget*> controls, unnamed;
            collectControls(form->itemAt(row, QFormLayout::FieldRole), controls);
            for (QWidget* control : controls)
                if (QAccessible::queryAccessibleInterface(control) && accessibleName(control).isEmpty())
                    unnamed << control;
            const auto count = unnamed.size();
            for (qsizetype k = 0; k < count; ++k)
                unnamed[k]->setAccessibleName(
                    count == 1 ? labelText(label)
                               : QStringLiteral("%1, %2 of %3").arg(labelText(label)).arg(k + 1).arg(count));
        }
    }
}

void nameFromGroupBoxes(QWidget* root) {
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!(w->focusPolicy() & Qt::TabFocus) || w->focusProxy() || !QAccessible::queryAccessibleInterface(w) ||
            !accessibleName(w).isEmpty())
            continue;
        for (QWidget* p = w->parentWidget(); p && p != root; p = p->parentWidget())
            if (auto* box = qobject_cast<QGroupBox*>(p); box && !box->title().isEmpty()) {
                QString title = box->title();
                w->setAccessibleName(title.remove(QLatin1Char('&')));
                break;
            }
    }
}

void tabLeavesItemViews(QWidget* root) {
    for (QAbstractItemView* view : root->findChildren<QAbstractItemView*>())
        view->setTabKeyNavigation(false);
}

} // namespace elab::ui
