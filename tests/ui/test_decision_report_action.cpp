// File ▸ Decision report… offscreen, driven like a user: after the Utility tab measured two
// mechanisms, the menu's action asks for a file (the dialog answered by the test) and writes the
// HTML and the PDF beside it. The HTML holds every section, the SHA-256 of the built-in file's
// bytes (hashed here by Qt, not by the core), the slider's ε as the chosen one, both mechanisms,
// the session (JSON that reads back with the Utility block), says that no audit was run, and
// references nothing outside itself; the PDF has pages.

#include "tests/ui/gui_test_support.h"
#include "ui/shell/main_window.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_tab.h"
#include "ui/views/utility/utility_view.h"

#include "core/learner/mechanism.h"

#include <QAction>
#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QTimer>
#include <QtTest>

using namespace elab;
using namespace elab::ui;

namespace {

constexpr int kTimeout = 120000;

UtilitySettings quickSettings() {
    UtilitySettings s;
    s.metric = core::UtilityMetric::TrainLoss;
    s.testFraction = 0.0;
    s.repeats = 3;
    s.gridPoints = 6;
    s.epsMin = 0.1;
    s.epsMax = 10.0;
    s.measureAt.clear();
    s.seed = 7;
    s.currentEps = 2.0;
    s.target = 0.5;
    s.mechanism.model.lambda = 0.1;
    s.compareWith = {core::mechanismKindFromString("outpert-gauss")};
    return s;
}

QAction* fileMenuAction(const MainWindow& window, const QString& name) {
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->objectName() == name)
                    return a;
    return nullptr;
}

// The text of the first <pre class="cls">, entities decoded.
QString preText(const QString& html, const QString& cls) {
    const QRegularExpression pre(QStringLiteral("<pre class=\"%1\">(.*?)</pre>").arg(cls),
                                 QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = pre.match(html);
    return m.hasMatch()
               ? QTextDocumentFragment::fromHtml(QStringLiteral("<pre>") + m.captured(1) + "</pre>").toPlainText()
               : QString();
}

} // namespace

class TestDecisionReportAction : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void theMenuWritesTheHtmlAndThePdf() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.show();
        window.utilityView()->applySettings(quickSettings());
        window.load(test::request(QStringLiteral("builtin:breast_cancer")));
        const UtilityController* c = window.utilityController();
        QTRY_VERIFY_WITH_TIMEOUT(c->state().sweepComplete && !c->state().compared.empty() &&
                                     c->state().comparisonComplete() && !c->isBusy() &&
                                     window.view<UtilityTab>()->complete(),
                                 kTimeout);

        QAction* action = fileMenuAction(window, QStringLiteral("decisionReportAction"));
        QVERIFY(action);
        QCOMPARE(action->text(), QStringLiteral("&Decision report…"));
        const QString path = dir.filePath(QStringLiteral("choice.html"));
        bool answered = false;
        QTimer answer; // the file dialog, answered as a user would
        connect(&answer, &QTimer::timeout, this, [&] {
            if (auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                dialog->selectFile(path);
                static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept is protected
                answered = true;
            }
        });
        answer.start(20);
        action->trigger();
        answer.stop();
        QVERIFY(answered);

        QFile html(path);
        QVERIFY2(html.open(QIODevice::ReadOnly), qPrintable(path));
        const QString text = QString::fromUtf8(html.readAll());
        for (const char* id :
             {"summary", "dataset", "ledger", "mechanisms", "utility", "guarantee", "choice", "audit", "reproduce"})
            QVERIFY2(text.contains(QStringLiteral("<section id=\"%1\">").arg(QLatin1String(id))), id);
        QFile bytes(QStringLiteral(":/datasets/breast_cancer_wdbc.csv"));
        QVERIFY(bytes.open(QIODevice::ReadOnly));
        const QString sha =
            QString::fromLatin1(QCryptographicHash::hash(bytes.readAll(), QCryptographicHash::Sha256).toHex());
        QVERIFY2(text.contains(QStringLiteral("<th>Training file SHA-256</th><td class=\"value\">") + sha),
                 qPrintable(sha));
        QVERIFY(text.contains(QStringLiteral("data-chosen-eps=\"2\"")));
        QVERIFY(text.contains(QStringLiteral("<td>objpert-gauss</td>")));
        QVERIFY(text.contains(QStringLiteral("<td>outpert-gauss</td>")));
        QVERIFY(text.contains(QStringLiteral("class=\"target\"")));
        QVERIFY(text.contains(QStringLiteral("No audit: none was run in the Privacy audit tab")));
        const QJsonDocument session = QJsonDocument::fromJson(preText(text, QStringLiteral("settings")).toUtf8());
        QVERIFY2(session.isObject(), "the embedded session is not JSON");
        QVERIFY(session.object().contains(QStringLiteral("utility")) ||
                session.object().value(QStringLiteral("views")).toObject().contains(QStringLiteral("utility")));
        static const QRegularExpression external(
            QStringLiteral("(src|href)\\s*=|<link|<script|@import|url\\((?!data:)"),
            QRegularExpression::CaseInsensitiveOption);
        QVERIFY2(!external.match(text).hasMatch(), qPrintable(external.match(text).captured(0)));

        QFile pdf(dir.filePath(QStringLiteral("choice.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray pdfBytes = pdf.readAll();
        QVERIFY(pdfBytes.startsWith("%PDF-"));
        QVERIFY2(pdfBytes.count("/Type /Page\n") + pdfBytes.count("/Type /Page\r") + pdfBytes.count("/Type /Page ") +
                         pdfBytes.count("/Type /Page/") + pdfBytes.count("/Type /Page>") >=
                     2,
                 "fewer than two pages");
    }
};

QTEST_MAIN(TestDecisionReportAction)
#include "test_decision_report_action.moc"
