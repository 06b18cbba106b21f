#include "ui/views/data/processing_log_view.h"

#include <QStyle>
#include <QTextDocument>
#include <QUrl>

namespace elab::ui {

namespace {
const QUrl kWarningIcon(QStringLiteral("elab-icon:warning"));
}

ProcessingLogView::ProcessingLogView(QWidget* parent) : QTextBrowser(parent) {
    setReadOnly(true);
    setOpenLinks(false);
    setFrameShape(QFrame::StyledPanel);
    const int size = fontMetrics().height();
    document()->addResource(QTextDocument::ImageResource, kWarningIcon,
                            style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
    setToolTip(tr("What loading and preprocessing did to the data, in order. Steps marked "
                  "\"leaks privacy\" use the private data itself (MATH.md §1): their result "
                  "is not covered by the ε guarantee."));
    setLog({});
}

void ProcessingLogView::setLog(const std::vector<core::ProcessingStep>& log) {
    m_steps = static_cast<int>(log.size());
    m_leaking = 0;
    if (log.empty()) {
        setHtml(tr("<i>No processing steps.</i>"));
        return;
    }
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='2' width='100%'>");
    for (const core::ProcessingStep& step : log) {
        const QString name = QString::fromStdString(step.name).toHtmlEscaped();
        const QString detail = QString::fromStdString(step.detail).toHtmlEscaped();
        if (step.leaksPrivacy) {
            ++m_leaking;
            html += QStringLiteral("<tr style='background-color:#fdece6; color:#b01e1e'>"
                                   "<td style='white-space:pre'><b>%1</b></td>"
                                   "<td style='white-space:pre'><img src='%2'> <b>%3</b></td><td>%4</td></tr>")
                        .arg(name, kWarningIcon.toString(), tr("leaks privacy"), detail);
        } else {
            html += QStringLiteral("<tr><td style='white-space:pre'><b>%1</b></td>"
                                   "<td style='white-space:pre; color:#2e7d32'>%2</td>"
                                   "<td>%3</td></tr>")
                        .arg(name, tr("no leak"), detail);
        }
    }
    html += QStringLiteral("</table>");
    setHtml(html);
}

} // namespace elab::ui
