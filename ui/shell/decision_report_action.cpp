#include "ui/shell/decision_report_action.h"

#include "ui/export/pdf/report_pdf.h"
#include "ui/session/session.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"

#include "core/report/decision_report.h"
#include "core/report/report_html.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>

#include <cmath>
#include <stdexcept>

namespace elab::ui {

QStringList writeDecisionReport(const MainWindow& window, const QString& htmlPath, QString* error) {
    core::DecisionInputs in;
    for (const auto& view : window.views())
        view->addToReport(in);
    if (in.curves.empty() || in.curves.front().points.empty()) {
        *error = QObject::tr("Nothing to report yet: load a dataset and let the Utility tab measure its curve.");
        return {};
    }
    if (!std::isfinite(in.chosenEps)) {
        *error = QObject::tr("The Utility tab's ε slider is at the non-private stop: move it to the ε you choose.");
        return {};
    }
    if (in.auditNote.empty() && in.audit.empty())
        in.auditNote = "none was run in the Privacy audit tab";
    in.version = EPSILONLAB_VERSION;
    in.producedBy = "EpsilonLab (File ▸ Decision report…)";
    in.settingsTitle = "Session (JSON: open it with File ▸ Open session to see the same settings)";
    in.settingsJson = sessionToJson(window.sessionActions()->currentSession()).toStdString();
    core::DecisionReport report;
    try {
        report = core::makeDecisionReport(std::move(in));
    } catch (const std::invalid_argument& e) {
        *error = QString::fromStdString(e.what());
        return {};
    }
    QFile html(htmlPath);
    const QByteArray text = QByteArray::fromStdString(core::decisionReportHtml(report));
    if (!html.open(QIODevice::WriteOnly | QIODevice::Truncate) || html.write(text) != text.size() || !html.flush()) {
        *error = QObject::tr("Cannot write %1: %2").arg(htmlPath, html.errorString());
        return {};
    }
    html.close();
    const QFileInfo info(htmlPath);
    const QString pdfPath = info.dir().filePath(info.completeBaseName() + QStringLiteral(".pdf"));
    if (const std::string e = writeReportPdf(core::decisionReportBlocks(report), core::decisionReportTitle(report),
                                             pdfPath.toStdString());
        !e.empty()) {
        *error = QObject::tr("Wrote %1, but not the PDF %2: %3").arg(htmlPath, pdfPath, QString::fromStdString(e));
        return {htmlPath};
    }
    return {htmlPath, pdfPath};
}

void writeDecisionReportInteractively(MainWindow& window) {
    const QString path =
        QFileDialog::getSaveFileName(&window, QObject::tr("Decision report"), QStringLiteral("decision-report.html"),
                                     QObject::tr("HTML (*.html);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const QStringList written = writeDecisionReport(window, path, &error);
    if (!error.isEmpty())
        window.showError(QObject::tr("Decision report"), error, QString());
    if (!written.isEmpty())
        window.showStatusMessage(QObject::tr("Wrote %1").arg(written.join(QStringLiteral(", "))), 8000);
}

} // namespace elab::ui
