#include "ui/export/figure_export.h"

#include "ui/charts/chart_csv.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

namespace elab::ui {

namespace {

QString withSuffix(const QString& figurePath, const char* suffix) {
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QLatin1String(suffix));
}

} // namespace

QString csvPathFor(const QString& figurePath) { return withSuffix(figurePath, ".csv"); }
QString sidecarPathFor(const QString& figurePath) { return withSuffix(figurePath, ".json"); }

bool writeBytes(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QStringList writeFigure(const charts::ChartData& chart, const QByteArray& sidecar, const FigureExport& request,
                        QString* error, const std::function<QByteArray()>& csvText) {
    QStringList written;
    QString problem;
    if (!charts::exportChart(chart, request.path, request.options, &problem)) {
        if (error)
            *error = problem;
        return written;
    }
    written << request.path;
    if (request.withCsv) {
        const QString csv = csvPathFor(request.path);
        if (csvText ? !writeBytes(csv, csvText(), &problem) : !charts::writeChartCsv(chart, csv, &problem)) {
            if (error)
                *error = problem;
            return written;
        }
        written << csv;
    }
    if (request.withSidecar) {
        const QString json = sidecarPathFor(request.path);
        if (!writeBytes(json, sidecar, error))
            return written;
        written << json;
    }
    return written;
}

} // namespace elab::ui
