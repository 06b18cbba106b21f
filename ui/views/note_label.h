#pragma once
// The word-wrapped, top-left aligned label the views use for readouts, tables and notes.
// GUI thread only.

#include <QLabel>

namespace elab::ui {

inline QLabel* noteLabel(QWidget* parent, const char* objectName) {
    auto* l = new QLabel(parent);
    l->setObjectName(QString::fromLatin1(objectName));
    l->setWordWrap(true);
    l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return l;
}

} // namespace elab::ui
