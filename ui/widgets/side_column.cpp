#include "ui/widgets/side_column.h"

#include <QScrollArea>
#include <QStyle>

namespace elab::ui {

QScrollArea* scrollingColumn(QWidget* content, int width, QWidget* parent) {
    auto* area = new QScrollArea(parent);
    content->setFixedWidth(width);
    area->setWidget(content);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setFocusPolicy(Qt::NoFocus); // Tab goes to the column's controls, not to the frame around them
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setFixedWidth(width + area->style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 2);
    return area;
}

} // namespace elab::ui
