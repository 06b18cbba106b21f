#include "ui/charts/chart_export.h"

#include "ui/charts/chart_builder.h"
#include "ui/charts/raster_item.h"

#include <QChart>
#include <QClipboard>
#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGuiApplication>
#include <QImageWriter>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

namespace elab::ui::charts {

namespace {

constexpr double kLogicalDpi = 96.0;
constexpr int kTextPx = 15;
constexpr int kFootnotePx = 12;
constexpr double kPad = 10.0;
const QColor kFootnoteColour(0x55, 0x55, 0x55);

QFont exportFont(int pixelSize) {
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif);
    font.setPixelSize(pixelSize);
    // Glyph outlines independent of the device resolution: the same layout at every dpi.
    font.setHintingPreference(QFont::PreferNoHinting);
    return font;
}

// Messages for the user, translatable (lupdate reads Q_DECLARE_TR_FUNCTIONS).
struct ChartExport {
    Q_DECLARE_TR_FUNCTIONS(ChartExport)
};

QString creatorOf(const ExportOptions& options) {
    return options.creator.isEmpty() ? defaultCreator() : options.creator;
}

QString titleOf(const ChartData& data) {
    return data.title.isEmpty() ? ChartExport::tr("EpsilonLab chart") : data.title;
}

void paintSvg(const ChartData& data, const ExportOptions& options, QIODevice* device) {
    QSvgGenerator svg;
    svg.setOutputDevice(device);
    svg.setSize(options.size);
    svg.setViewBox(QRect(QPoint(0, 0), options.size));
    svg.setResolution(static_cast<int>(kLogicalDpi));
    svg.setTitle(titleOf(data));
    const QString credit = ChartExport::tr("Created with %1").arg(creatorOf(options));
    svg.setDescription(data.footnote.isEmpty() ? credit : data.footnote + QLatin1Char('\n') + credit);
    QPainter painter(&svg);
    paintChart(data, painter, QRectF(QPointF(0, 0), QSizeF(options.size)));
}

bool paintPdf(const ChartData& data, const ExportOptions& options, QIODevice* device) {
    QPdfWriter pdf(device);
    pdf.setTitle(titleOf(data));
    pdf.setCreator(creatorOf(options));
    pdf.setResolution(static_cast<int>(kLogicalDpi));
    const QSizeF points = QSizeF(options.size) * (72.0 / kLogicalDpi);
    pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&pdf))
        return false;
    paintChart(data, painter, QRectF(QPointF(0, 0), QSizeF(options.size)));
    return painter.end();
}

} // namespace

QString defaultCreator() { return QStringLiteral("EpsilonLab " EPSILONLAB_VERSION); }

void paintChart(const ChartData& data, QPainter& painter, const QRectF& target) {
    if (target.width() < 1.0 || target.height() < 1.0)
        return;
    painter.save();
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    painter.fillRect(target, Qt::white);

    const QFont noteFont = exportFont(kFootnotePx);
    const double noteWidth = std::max(1.0, target.width() - 2.0 * kPad);
    double noteHeight = 0.0;
    if (!data.footnote.isEmpty()) {
        const QRectF bounds = QFontMetricsF(noteFont).boundingRect(QRectF(0, 0, noteWidth, target.height()),
                                                                   Qt::TextWordWrap, data.footnote);
        noteHeight = std::min(bounds.height() + kPad, 0.5 * target.height());
    }
    const QSizeF chartSize(target.width(), target.height() - noteHeight);

    // The scene owns the chart; both live for this call only.
    QGraphicsScene scene;
    auto* chart = new QChart;
    scene.addItem(chart);
    buildChart(chart, data, exportFont(kTextPx));
    chart->setMargins(QMargins(8, 8, 16, 4) + overlayMargins(data, exportFont(kTextPx)));
    chart->setBackgroundPen(Qt::NoPen);
    chart->setBackgroundBrush(Qt::white);
    chart->setGeometry(QRectF(QPointF(0, 0), chartSize));
    chart->layout()->activate(); // lay out now: no event loop runs before render()
    scene.setSceneRect(QRectF(QPointF(0, 0), chartSize));
    scene.render(&painter, QRectF(target.topLeft(), chartSize), scene.sceneRect(), Qt::IgnoreAspectRatio);

    if (noteHeight > 0.0) {
        painter.setFont(noteFont);
        painter.setPen(kFootnoteColour);
        painter.drawText(QRectF(target.left() + kPad, target.top() + chartSize.height(), noteWidth, noteHeight),
                         Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, data.footnote);
    }
    painter.restore();
}

QImage renderChartImage(const ChartData& data, const ExportOptions& options) {
    const double scale = std::max(1, options.dpi) / kLogicalDpi;
    const QSize pixels(static_cast<int>(std::lround(options.size.width() * scale)),
                       static_cast<int>(std::lround(options.size.height() * scale)));
    if (pixels.isEmpty())
        return {};
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const int dotsPerMeter = static_cast<int>(std::lround(std::max(1, options.dpi) / 0.0254));
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    QPainter painter(&image);
    painter.scale(scale, scale);
    paintChart(data, painter, QRectF(QPointF(0, 0), QSizeF(options.size)));
    painter.end();
    image.setText(QStringLiteral("Title"), titleOf(data));
    image.setText(QStringLiteral("Software"), creatorOf(options));
    return image;
}

ExportFormat formatFromPath(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ExportFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ExportFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ExportFormat::Pdf;
    return ExportFormat::Unknown;
}

bool exportChart(const ChartData& data, const QString& path, const ExportOptions& options, QString* error) {
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const ExportFormat format = formatFromPath(path);
    if (format == ExportFormat::Unknown)
        return fail(ChartExport::tr("Cannot save “%1”: unknown file type; use .png, .svg or "
                                    ".pdf.")
                        .arg(QFileInfo(path).fileName()));
    if (options.size.isEmpty() || options.dpi <= 0)
        return fail(ChartExport::tr("Cannot save “%1”: the figure size and resolution must be "
                                    "positive.")
                        .arg(QFileInfo(path).fileName()));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(ChartExport::tr("Cannot write “%1”: %2").arg(path, file.errorString()));
    bool painted = true;
    switch (format) {
    case ExportFormat::Png: {
        QImageWriter writer(&file, "png");
        if (!writer.write(renderChartImage(data, options)))
            return fail(ChartExport::tr("Cannot write “%1”: %2").arg(path, writer.errorString()));
        break;
    }
    case ExportFormat::Svg: paintSvg(data, options, &file); break;
    case ExportFormat::Pdf: painted = paintPdf(data, options, &file); break;
    case ExportFormat::Unknown: break;
    }
    if (!painted || file.error() != QFileDevice::NoError || !file.commit())
        return fail(ChartExport::tr("Cannot write “%1”: %2").arg(path, file.errorString()));
    return true;
}

void copyChartToClipboard(const ChartData& data, const ExportOptions& options) {
    QGuiApplication::clipboard()->setImage(renderChartImage(data, options));
}

} // namespace elab::ui::charts
