#include "ui/charts/chart_csv.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace elab::ui::charts {

namespace {

struct ChartCsv {
    Q_DECLARE_TR_FUNCTIONS(ChartCsv)
};

void appendRow(QString& out, const QString& prefix, const QString& x, const QString& y, const QString& upper) {
    out += prefix;
    out += x;
    out += QLatin1Char(',');
    out += y;
    out += QLatin1Char(',');
    out += upper;
    out += QLatin1Char('\n');
}

QString csvCell(double value) { return csvNumber(value); }
QString field(const QString& text) { return csvField(text); }

} // namespace

QString csvNumber(double value) { return QString::asprintf("%.17g", value); }

QString csvField(const QString& text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString csvKindName(SeriesKind kind) {
    switch (kind) {
    case SeriesKind::Line: return QStringLiteral("line");
    case SeriesKind::Band: return QStringLiteral("band");
    case SeriesKind::Points: return QStringLiteral("points");
    case SeriesKind::HorizontalLine: return QStringLiteral("horizontal_line");
    case SeriesKind::VerticalLine: return QStringLiteral("vertical_line");
    }
    return {};
}

QString chartCsv(const ChartData& data) {
    QString out = QStringLiteral("key,name,kind,x,y,y_upper\n");
    for (const SeriesData& s : data.series) {
        const QString prefix =
            field(s.key) + QLatin1Char(',') + field(s.name) + QLatin1Char(',') + csvKindName(s.kind) + QLatin1Char(',');
        switch (s.kind) {
        case SeriesKind::HorizontalLine: appendRow(out, prefix, QString(), csvCell(s.value), QString()); break;
        case SeriesKind::VerticalLine: appendRow(out, prefix, csvCell(s.value), QString(), QString()); break;
        case SeriesKind::Band:
            for (qsizetype i = 0; i < s.points.size(); ++i)
                appendRow(out, prefix, csvCell(s.points[i].x()), csvCell(s.points[i].y()),
                          i < s.upper.size() ? csvCell(s.upper[i].y()) : QString());
            break;
        case SeriesKind::Line:
        case SeriesKind::Points:
            for (const QPointF& p : s.points)
                appendRow(out, prefix, csvCell(p.x()), csvCell(p.y()), QString());
            break;
        }
    }
    return out;
}

bool writeChartCsv(const ChartData& data, const QString& path, QString* error) {
    QSaveFile file(path);
    const QByteArray bytes = chartCsv(data).toUtf8();
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = ChartCsv::tr("Cannot write “%1”: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace elab::ui::charts
