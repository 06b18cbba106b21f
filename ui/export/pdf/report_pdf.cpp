#include "ui/export/pdf/report_pdf.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextObjectInterface>

#include <memory>

namespace elab::ui {

namespace {

constexpr int kSvgObject = QTextFormat::UserObject + 1;
constexpr int kSvgIndex = QTextFormat::UserProperty + 1;

// A chart in the text flow: as wide as the text, drawn as vectors from its SVG.
class SvgObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    std::vector<QByteArray> svgs;

    QSizeF intrinsicSize(QTextDocument* doc, int, const QTextFormat& format) override {
        QSvgRenderer renderer(svgs.at(static_cast<std::size_t>(format.property(kSvgIndex).toInt())));
        const QSizeF natural = renderer.defaultSize();
        // The root frame's margins are in the document's 96-dpi units; the layout scales them to the
        // device it lays out for (the PDF writer's resolution while printing).
        const QTextFrameFormat root = doc->rootFrame()->frameFormat();
        const QPaintDevice* device = doc->documentLayout()->paintDevice();
        const qreal scale = device ? device->logicalDpiX() / 96.0 : 1.0;
        const qreal width =
            (doc->pageSize().width() > 0 ? doc->pageSize().width() : doc->textWidth()) -
            scale * (root.leftMargin() + root.rightMargin() + 2 * root.padding() + 2 * root.border() + 4);
        if (natural.isEmpty() || width <= 0)
            return natural;
        return natural * (width / natural.width());
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override {
        QSvgRenderer renderer(svgs.at(static_cast<std::size_t>(format.property(kSvgIndex).toInt())));
        renderer.render(painter, rect);
    }
};

// QTextDocument's subset of CSS: the look of the HTML file's style sheet, as far as it goes.
const char* kPdfStyle =
    "h1{font-size:16pt} h2{font-size:13pt; margin-top:14px} h3{font-size:11pt}"
    "table{border-collapse:collapse; margin-top:4px; margin-bottom:4px}"
    "th,td{border-width:1px; border-style:solid; border-color:#bbbbbb; padding:3px}"
    "th{background-color:#eeeeee} tr.leaks td{background-color:#fde2e2}"
    "tr.ledger-total td{font-weight:bold} pre{font-size:7pt; white-space:pre-wrap; background-color:#f4f4f4}"
    ".meta{color:#555555}";

} // namespace

std::string writeReportPdf(const std::vector<core::ReportBlock>& blocks, const std::string& title,
                           const std::string& path) {
    std::unique_ptr<QGuiApplication> ownApp; // the CLI has none: fonts and painting need one
    if (!QCoreApplication::instance()) {
        static int argc = 3;
        static char arg0[] = "epsilonlab", arg1[] = "-platform", arg2[] = "offscreen";
        static char* argv[] = {arg0, arg1, arg2, nullptr};
        ownApp = std::make_unique<QGuiApplication>(argc, argv);
    } else if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance())) {
        return "the PDF writer needs a QGuiApplication (this process has a QCoreApplication)";
    }

    QString html;
    std::vector<QByteArray> svgs;
    for (const core::ReportBlock& b : blocks) {
        if (b.svg) {
            html += QStringLiteral("<p>@@SVG%1@@</p>").arg(svgs.size());
            svgs.push_back(QByteArray::fromStdString(b.text));
        } else {
            html += QString::fromStdString(b.text);
        }
    }
    QTextDocument doc;
    doc.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    doc.setDefaultStyleSheet(QString::fromLatin1(kPdfStyle));
    doc.setHtml(html);
    doc.setMetaInformation(QTextDocument::DocumentTitle, QString::fromStdString(title));
    SvgObject handler;
    handler.svgs = svgs;
    doc.documentLayout()->registerHandler(kSvgObject, &handler);
    for (std::size_t k = 0; k < svgs.size(); ++k) {
        QTextCursor found = doc.find(QStringLiteral("@@SVG%1@@").arg(k));
        if (found.isNull())
            return "internal error: chart " + std::to_string(k) + " has no place in the document";
        QTextCharFormat object;
        object.setObjectType(kSvgObject);
        object.setProperty(kSvgIndex, static_cast<int>(k));
        found.insertText(QString(QChar::ObjectReplacementCharacter), object);
    }

    QFile probe(QString::fromStdString(path));
    if (!probe.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return "cannot write the file: " + probe.errorString().toStdString();
    probe.close();
    QPdfWriter writer(QString::fromStdString(path));
    writer.setTitle(QString::fromStdString(title));
    writer.setCreator(QStringLiteral("EpsilonLab " EPSILONLAB_VERSION));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(300);
    doc.print(&writer);
    // QPdfWriter reports no error of its own: a file that is not there (or empty) is the failure.
    if (QFile(QString::fromStdString(path)).size() == 0)
        return "could not write the file";
    return "";
}

} // namespace elab::ui

#include "report_pdf.moc"
