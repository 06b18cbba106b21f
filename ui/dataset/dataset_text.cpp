#include "ui/dataset/dataset_text.h"

#include "ui/widgets/eps_text.h"

#include <QFontMetrics>
#include <QLocale>

#include <cmath>

namespace elab::ui {

namespace {

QString count(qint64 n) { return QLocale().toString(n); }

QString statNumber(double v) { return formatNumber(v, 4, NumberForm::Locale); }

} // namespace

QString humanBytes(std::uintmax_t bytes) {
    return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

QString shapeText(const core::Dataset& data, const core::DatasetSummary& summary, double seconds) {
    QStringList parts;
    parts << QObject::tr("<b>%1</b>: %2 rows × %3 features")
                 .arg(QString::fromStdString(data.name).toHtmlEscaped(), count(summary.rows), count(summary.features));
    if (summary.sparse)
        parts << QObject::tr("sparse (%1% non-zero)").arg(summary.density * 100.0, 0, 'g', 3);
    else
        parts << QObject::tr("dense");
    parts << QString::fromUtf8(core::toString(summary.task));
    if (summary.task == core::TaskKind::Regression)
        parts << QObject::tr("target %1 … %2, mean %3")
                     .arg(statNumber(summary.targetMin), statNumber(summary.targetMax), statNumber(summary.targetMean));
    parts << QObject::tr("%1 missing cells").arg(count(static_cast<qint64>(summary.missingCells)));
    parts << QObject::tr("norms %1 / %2 / %3 (min / median / max)")
                 .arg(statNumber(summary.normMin), statNumber(summary.normMedian), statNumber(summary.normMax));
    parts << (seconds < 1.0 ? QObject::tr("loaded in %1 ms").arg(std::lround(seconds * 1000.0))
                            : QObject::tr("loaded in %1 s").arg(seconds, 0, 'f', 1));
    return parts.join(QStringLiteral(" · "));
}

QString provenanceHtml(const core::Provenance& p, const QFontMetrics& metrics, int maxWidth) {
    const QString path = metrics.elidedText(QString::fromStdString(p.path), Qt::ElideMiddle, maxWidth);
    QStringList parts;
    parts << QObject::tr("<b>Source</b> %1").arg(path.toHtmlEscaped());
    parts << QString::fromStdString(p.format).toHtmlEscaped();
    if (p.format != "generated") {
        parts << (p.gzipped ? QObject::tr("gzipped") : QObject::tr("not gzipped"));
        parts << humanBytes(p.bytes);
    }
    if (!p.sha256.empty())
        parts << QObject::tr("sha256 <code>%1</code>").arg(QString::fromStdString(p.sha256));
    else
        parts << QObject::tr("no checksum (generated, seeded)");
    return parts.join(QStringLiteral(" · "));
}

QString statusText(const core::Dataset& data) {
    QString text = QObject::tr("%1 · %2 × %3 · %4")
                       .arg(QString::fromStdString(data.name), count(data.rows()), count(data.featureCount()),
                            data.features.isSparse() ? QObject::tr("sparse") : QObject::tr("dense"));
    if (!data.provenance.sha256.empty())
        text += QObject::tr(" · sha256 %1…").arg(QString::fromStdString(data.provenance.sha256.substr(0, 12)));
    return text;
}

} // namespace elab::ui
