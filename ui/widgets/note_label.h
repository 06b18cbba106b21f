#pragma once
// The word-wrapped labels the views use for readouts, tables and notes. GUI thread only.
//
// A word-wrapped QLabel lays its text out again (twice: at the width asked, then back) each time
// a layout asks its height for a width, and a layout asks every label again whenever any widget
// in it changes its size hint. So one readout changing while the ε slider was dragged re-measured
// every note of its panel: a third of the GUI thread's time in bench_gui_stall went to labels.
// - NoteLabel remembers the heights it has measured for its current text and settings.
// - NoteBox holds a NoteLabel whose text changes while the user drags (readouts, guarantees):
//   a new text repaints the label, and re-lays out the panel only if its height changed.

#include <QLabel>

#include <array>

namespace elab::ui {

class NoteLabel : public QLabel {
public:
    explicit NoteLabel(QWidget* parent = nullptr);
    explicit NoteLabel(const QString& text, QWidget* parent = nullptr);

    /// QLabel::heightForWidth, remembered for the last few widths until anything it depends on
    /// changes (text, format, alignment, interaction, margins, indent, word wrap, font, style).
    int heightForWidth(int width) const override;

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Measured {
        int width = -1;
        int height = 0;
    };
    bool measuredFor() const; // true when the remembered heights are for the current settings

    mutable QString m_text;
    mutable Qt::TextFormat m_format = Qt::AutoText;
    mutable Qt::Alignment m_alignment;
    mutable Qt::TextInteractionFlags m_interaction;
    mutable QMargins m_contents;
    mutable int m_margin = 0;
    mutable int m_indent = 0;
    mutable bool m_wrap = false;
    mutable std::array<Measured, 4> m_heights{};
    mutable std::size_t m_next = 0;
};

/// A NoteLabel in a widget of its own, which its layout sees instead of the label.
/// - A new text does not invalidate the enclosing layouts unless the label's height for the
///   box's width changed, or its length moved by more than a quarter (then the box's size hints
///   are measured again and it asks for a new layout).
/// - QLabel's own size hints lay a long rich text out seven or eight times (30 ms for a
///   one-vs-rest guarantee). They are taken once, and again only when the text's length moved by
///   more than a quarter from the text they were taken for, or the font or style changed; a text
///   of about the same length (a readout or a guarantee whose numbers changed) keeps their widths
///   and gets new heights for them (one layout, remembered by the label).
/// - The label's minimumSize counts; hiding or showing the label hides or shows the box.
/// - A single-line box (an ε readout) asks for a new layout when its text no longer fits its
///   width, whatever its length.
/// - A box with the horizontal size policy Ignored (its width set by its layout alone) asks for a
///   new layout only when its height changes, whatever the length of the new text.
class NoteBox : public QWidget {
public:
    enum class Lines { Wrapped, Single };
    NoteBox(QWidget* parent, const char* labelName, Lines lines = Lines::Wrapped);

    NoteLabel* label() const { return m_label; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return m_label->wordWrap(); }
    int heightForWidth(int width) const override;

protected:
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void measure() const;          // the size hints, from the label as it is now
    bool aboutTheSameText() const; // QLabel's hints were taken for a text of about this length
    void labelChangedSize();       // the label asked for a new layout: pass it on if its height changed

    NoteLabel* m_label;
    mutable bool m_measured = false;
    mutable qsizetype m_widthsForLength = -1; // text length QLabel's hints were taken at (-1: none)
    mutable QSize m_labelHint;                // QLabel's hints, heights updated for new texts
    mutable QSize m_labelMinimumHint;
    mutable QSize m_hint;
    mutable QSize m_minimum;
    mutable QSize m_labelMinimum;
    int m_laidOutHeight = -1; // heightForWidth(width()) when the layout last sized the box
};

/// Sets w's style sheet only if it differs: QWidget::setStyleSheet restyles the widget and lays
/// its window out again even for the same sheet (per delivered result, that was a layout of the
/// whole window at every step of a drag).
inline void setStyleSheetIfChanged(QWidget* w, const QString& sheet) {
    if (w->styleSheet() != sheet)
        w->setStyleSheet(sheet);
}

/// A NoteLabel named objectName, top-left aligned.
inline QLabel* noteLabel(QWidget* parent, const char* objectName) {
    auto* l = new NoteLabel(parent);
    l->setObjectName(QString::fromLatin1(objectName));
    l->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return l;
}

/// A NoteBox whose label is named labelName, top-left aligned: for a text that changes while a
/// slider moves (a new text lays the view out again only when its height changes).
inline NoteBox* noteBox(QWidget* parent, const char* labelName) {
    auto* box = new NoteBox(parent, labelName);
    box->label()->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return box;
}

} // namespace elab::ui
