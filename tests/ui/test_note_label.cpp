// The word-wrapped labels of the views: NoteLabel's remembered heights are QLabel's, whatever
// changed since; a NoteBox asks for a new layout only when its label's height changes.

#include "ui/widgets/note_label.h"

#include "tests/ui/gui_test_support.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QTest>
#include <QVBoxLayout>

using elab::test::LayoutRequests;
using elab::test::settle;
using elab::ui::NoteBox;
using elab::ui::NoteLabel;

namespace {

// A plain QLabel with the same settings as `note`, to compare heights with.
void sameSettings(const QLabel& note, QLabel& plain) {
    plain.setWordWrap(note.wordWrap());
    plain.setTextFormat(note.textFormat());
    plain.setAlignment(note.alignment());
    plain.setTextInteractionFlags(note.textInteractionFlags());
    plain.setMargin(note.margin());
    plain.setIndent(note.indent());
    plain.setContentsMargins(note.contentsMargins());
    plain.setFont(note.font());
    plain.setText(note.text());
}

const char* const kLong = "The guarantee assumes every row has ‖x‖₂ ≤ 1, which the clipping step makes true "
                          "without looking at the data; δ is the probability that the bound fails.";

} // namespace

class TestNoteLabel : public QObject {
    Q_OBJECT

private slots:
    void heightsAreQLabelsAfterEveryChange() {
        NoteLabel note;
        QLabel plain;
        const QList<int> widths{40, 120, 300, 120, 800, 40};
        // Each step changes one thing the height depends on, then asks at every width (twice:
        // the second answer is the remembered one).
        const QList<std::function<void()>> steps{
            [&] { note.setText(QString::fromUtf8(kLong)); },
            [&] { note.setText(QStringLiteral("short")); },
            [&] { note.setText(QString::fromUtf8(kLong)); },
            [&] {
                note.setTextFormat(Qt::RichText);
                note.setText(QStringLiteral("<b>%1</b><br>two").arg(QString::fromUtf8(kLong)));
            },
            [&] { note.setMargin(9); },
            [&] { note.setIndent(30); },
            [&] { note.setContentsMargins(5, 7, 11, 13); },
            [&] {
                QFont f = note.font();
                f.setPointSizeF(f.pointSizeF() * 2);
                note.setFont(f);
            },
            [&] { note.setTextInteractionFlags(Qt::TextSelectableByMouse); },
            [&] { note.setWordWrap(false); },
        };
        for (int s = 0; s < steps.size(); ++s) {
            steps[s]();
            sameSettings(note, plain);
            for (int pass = 0; pass < 2; ++pass)
                for (int w : widths)
                    QVERIFY2(note.heightForWidth(w) == plain.heightForWidth(w),
                             qPrintable(QStringLiteral("step %1, pass %2, width %3: %4 against QLabel's %5")
                                            .arg(s)
                                            .arg(pass)
                                            .arg(w)
                                            .arg(note.heightForWidth(w))
                                            .arg(plain.heightForWidth(w))));
        }
        // Heights differ between widths and texts, so the comparisons above could fail.
        note.setWordWrap(true);
        QVERIFY(note.heightForWidth(40) > note.heightForWidth(800));
    }

    void aBoxRelayoutsOnlyWhenItsHeightChanges() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* box = new NoteBox(&window, "readout");
        auto* plain = new NoteLabel(&window); // the control: a label straight in the layout
        layout->addWidget(box);
        layout->addWidget(plain);
        layout->addStretch(1);
        box->label()->setText(QStringLiteral("ε = 1.000\naccuracy 0.912"));
        plain->setText(QStringLiteral("ε = 1.000"));
        window.resize(300, 400);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        QCOMPARE(box->findChild<QLabel*>(QStringLiteral("readout")), box->label());
        const int twoLines = box->height();
        QCOMPARE(twoLines, box->heightForWidth(box->width()));
        QCOMPARE(box->label()->geometry(), box->rect());

        LayoutRequests requests(&window);
        box->label()->setText(QStringLiteral("ε = 2.000\naccuracy 0.931")); // same two lines
        settle();
        QCOMPARE(requests.count, 0);
        QCOMPARE(box->height(), twoLines);

        plain->setText(QStringLiteral("ε = 2.000")); // the control asks for a layout
        settle();
        QVERIFY(requests.count > 0);

        requests.count = 0;
        box->label()->setText(QStringLiteral("ε = 3.000\naccuracy 0.940\nloss 0.21\nσ = 4.1")); // taller
        settle();
        QVERIFY(requests.count > 0);
        QVERIFY(box->height() > twoLines);
        QCOMPARE(box->height(), box->heightForWidth(box->width()));
        QCOMPARE(box->label()->geometry(), box->rect());

        // Size hints: QLabel's for a new kind of text; for a text of about the same length, the
        // same widths with the label's heights for them.
        const QString guarantee = QString::fromUtf8(kLong);
        box->label()->setText(guarantee);
        settle();
        QCOMPARE(box->sizeHint(), box->label()->sizeHint());
        QCOMPARE(box->minimumSizeHint(), box->label()->minimumSizeHint());
        const QSize hint = box->sizeHint(), minimum = box->minimumSizeHint();
        QString numbersChanged = guarantee;
        numbersChanged.replace(QStringLiteral("1,"), QStringLiteral("0.5, and a few more words than before,"));
        box->label()->setText(numbersChanged);
        settle();
        QCOMPARE(box->sizeHint().width(), hint.width());
        QCOMPARE(box->minimumSizeHint().width(), minimum.width());
        QCOMPARE(box->sizeHint().height(), box->label()->heightForWidth(hint.width()));
        QVERIFY(box->sizeHint().height() > hint.height()); // the new words wrap to another line
        box->label()->setText(guarantee + QStringLiteral(" ") + guarantee);
        settle();
        QCOMPARE(box->sizeHint(), box->label()->sizeHint());

        // The label's minimum height counts, and hiding the label hides the box.
        box->label()->setMinimumHeight(10 * box->label()->fontMetrics().lineSpacing());
        settle();
        QVERIFY(box->height() >= box->label()->minimumHeight());
        box->label()->hide();
        QVERIFY(box->isHidden());
        box->label()->show();
        QVERIFY(!box->isHidden());
    }

    // A single-line box (the ε readout above a slider): a new value of about the same length asks
    // for no layout; a text of the same length that no longer fits the box's width does, and gets
    // the room it needs.
    void aSingleLineBoxRelayoutsWhenItsTextNoLongerFits() {
        QWidget window;
        auto* layout = new QHBoxLayout(&window);
        auto* box = new NoteBox(&window, "epsReadout", NoteBox::Lines::Single);
        layout->addWidget(box);
        layout->addStretch(1);
        QVERIFY(!box->label()->wordWrap());
        QVERIFY(!box->hasHeightForWidth());
        box->label()->setText(QStringLiteral("ε = 1.000"));
        window.resize(400, 60);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();

        LayoutRequests requests(&window);
        box->label()->setText(QStringLiteral("ε = 2.000"));
        settle();
        QCOMPARE(requests.count, 0);

        // As long as the first text but wider: only the width check can see it.
        box->label()->setText(QStringLiteral("ε = WWWWW"));
        QVERIFY(box->label()->sizeHint().width() > box->width());
        settle();
        QVERIFY(requests.count > 0);
        QVERIFY(box->width() >= box->label()->sizeHint().width());
        QCOMPARE(box->label()->geometry(), box->rect());
    }

    // A box whose layout sets its width alone (horizontal policy Ignored, in a fixed-width side
    // column) asks for a layout only when its height changes, even for a text of another length.
    void anIgnoredWidthBoxRelayoutsOnlyForItsHeight() {
        QWidget window;
        auto* layout = new QVBoxLayout(&window);
        auto* box = new NoteBox(&window, "status");
        QSizePolicy policy = box->sizePolicy();
        policy.setHorizontalPolicy(QSizePolicy::Ignored);
        box->setSizePolicy(policy);
        box->label()->setMinimumHeight(box->label()->fontMetrics().lineSpacing());
        layout->addWidget(box);
        layout->addStretch(1);
        window.resize(300, 200);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        settle();
        const int oneLine = box->height();

        LayoutRequests requests(&window);
        box->label()->setText(QStringLiteral("computing ε = 0.123…")); // from nothing: still one line
        settle();
        box->label()->setText(QString());
        settle();
        QCOMPARE(requests.count, 0);
        QCOMPARE(box->height(), oneLine);

        box->label()->setText(QString::fromUtf8(kLong)); // several lines at 300 px
        settle();
        QVERIFY(requests.count > 0);
        QVERIFY(box->height() > oneLine);
        QCOMPARE(box->height(), box->heightForWidth(box->width()));
    }
};

QTEST_MAIN(TestNoteLabel)
#include "test_note_label.moc"
