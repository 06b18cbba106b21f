// Exports of a chart: PNG at a chosen resolution compared with a stored control image,
// SVG and PDF checked for content, the clipboard, clear errors for bad paths, and the CSV
// of the data behind the figure.
//
// The control image tests/data/ui/chart_export_control.png is rewritten by running this
// test with EPSILONLAB_UPDATE_CONTROL_IMAGES=1 (look at it before committing it).

#include "tests/support/test_support.h"
#include "ui/charts/chart_csv.h"
#include "ui/charts/chart_export.h"
#include "ui/charts/chart_geometry.h"

#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace elab::ui::charts;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const QString kControl = QStringLiteral(EPSILONLAB_SOURCE_DIR "/tests/data/ui/chart_export_control.png");
// Control image tolerances: mean absolute channel difference and the share of pixels with
// a channel more than 64 levels off (anti-aliasing and FreeType versions differ a little).
constexpr double kMaxMeanDifference = 0.02 * 255.0;
constexpr double kMaxFarPixels = 0.01;

SeriesData series(SeriesKind kind, const QString& key, const QString& name, QVector<QPointF> points = {}) {
    SeriesData s;
    s.kind = kind;
    s.key = key;
    s.name = name;
    s.points = std::move(points);
    return s;
}

// A utility-vs-ε figure: measured accuracy with a ±1 sd band, a dashed estimate, the
// measuring points, the non-private baseline, the chosen ε and a dimmed stale curve.
ChartData figure() {
    ChartData d;
    d.title = QStringLiteral("Test accuracy vs ε");
    d.xTitle = QStringLiteral("privacy parameter ε (log scale)");
    d.yTitle = QStringLiteral("test accuracy");
    d.footnote = QStringLiteral("(ε, δ = 1e-6)-DP, objective perturbation; 20 repetitions, seed 42");
    QVector<QPointF> curve, lower, upper, estimate, stale;
    for (int i = 0; i <= 50; ++i) {
        const double eps = std::pow(10.0, -3.0 + 5.0 * i / 50.0);
        const double acc = 0.5 + 0.42 / (1.0 + 0.3 / eps);
        const double sd = 0.08 / (1.0 + 2.0 * eps);
        curve.append({eps, acc});
        lower.append({eps, acc - sd});
        upper.append({eps, acc + sd});
        estimate.append({eps, 0.92 - 0.126 / eps > 0.4 ? 0.92 - 0.126 / eps : kNaN});
        stale.append({eps, acc - 0.04});
    }
    SeriesData band = series(SeriesKind::Band, QStringLiteral("sd"), QStringLiteral("±1 sd"), lower);
    band.upper = upper;
    SeriesData est = series(SeriesKind::Line, QStringLiteral("estimate:1:inverse-eps"),
                            QStringLiteral("1/ε estimate from ε̄ = 1"), estimate);
    est.style = Qt::DashLine;
    SeriesData old = series(SeriesKind::Line, QStringLiteral("stale"), QString(), stale);
    old.dimmed = true;
    SeriesData points = series(SeriesKind::Points, QStringLiteral("measure"), QStringLiteral("measuring points"),
                               {{1.0, 0.7946}, {10.0, 0.9077}});
    points.width = 9.0;
    SeriesData baseline = series(SeriesKind::HorizontalLine, QStringLiteral("baseline"), QStringLiteral("non-private"));
    baseline.value = 0.92;
    baseline.style = Qt::DotLine;
    baseline.color = QColor(0x55, 0x55, 0x55);
    SeriesData chosen = series(SeriesKind::VerticalLine, QStringLiteral("eps"), QString());
    chosen.value = 0.5;
    chosen.width = 1.5;
    chosen.color = QColor(0x33, 0x33, 0x33);
    d.series = {band,  old,    series(SeriesKind::Line, QStringLiteral("measured"), QStringLiteral("measured"), curve),
                est,   points, baseline,
                chosen};
    return d;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestChartExport : public QObject {
    Q_OBJECT
private slots:
    void formatFromSuffix_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<ExportFormat>("format");
        QTest::newRow("png") << "/tmp/a.png" << ExportFormat::Png;
        QTest::newRow("upper case") << "C:/x/Figure.PNG" << ExportFormat::Png;
        QTest::newRow("svg") << "fig.svg" << ExportFormat::Svg;
        QTest::newRow("pdf") << "dir.d/fig.v2.pdf" << ExportFormat::Pdf;
        QTest::newRow("jpg") << "fig.jpg" << ExportFormat::Unknown;
        QTest::newRow("no suffix") << "figure" << ExportFormat::Unknown;
    }

    void formatFromSuffix() {
        QFETCH(QString, path);
        QFETCH(ExportFormat, format);
        QCOMPARE(formatFromPath(path), format);
    }

    void pngHasSizeTimesDpi_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("dpi");
        QTest::addColumn<QSize>("pixels");
        QTest::newRow("96 dpi") << QSize(600, 400) << 96 << QSize(600, 400);
        QTest::newRow("150 dpi") << QSize(600, 400) << 150 << QSize(938, 625);
        QTest::newRow("300 dpi") << QSize(480, 320) << 300 << QSize(1500, 1000);
    }

    void pngHasSizeTimesDpi() {
        QFETCH(QSize, size);
        QFETCH(int, dpi);
        QFETCH(QSize, pixels);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QString error;
        QVERIFY2(exportChart(figure(), path, {size, dpi, {}}, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.size(), pixels);
        ELAB_FUZZY(image.dotsPerMeterX() * 0.0254, double(dpi), 0.5);
    }

    void pngMatchesControlImage() {
        const QImage image =
            renderChartImage(figure(), {QSize(720, 480), 96, {}}).convertToFormat(QImage::Format_RGB32);
        if (qEnvironmentVariableIntValue("EPSILONLAB_UPDATE_CONTROL_IMAGES") == 1) {
            QDir().mkpath(QFileInfo(kControl).absolutePath());
            QVERIFY(image.save(kControl));
            qWarning("wrote %s", qPrintable(kControl));
        }
        const QImage control = QImage(kControl).convertToFormat(QImage::Format_RGB32);
        QVERIFY2(!control.isNull(), qPrintable(QStringLiteral("missing %1; run with "
                                                              "EPSILONLAB_UPDATE_CONTROL_IMAGES=1")
                                                   .arg(kControl)));
        QCOMPARE(image.size(), control.size());
        double sum = 0.0;
        qint64 far = 0;
        for (int y = 0; y < image.height(); ++y) {
            const auto* a = reinterpret_cast<const QRgb*>(image.constScanLine(y));
            const auto* b = reinterpret_cast<const QRgb*>(control.constScanLine(y));
            for (int x = 0; x < image.width(); ++x) {
                const int dr = std::abs(qRed(a[x]) - qRed(b[x]));
                const int dg = std::abs(qGreen(a[x]) - qGreen(b[x]));
                const int db = std::abs(qBlue(a[x]) - qBlue(b[x]));
                sum += dr + dg + db;
                far += std::max({dr, dg, db}) > 64 ? 1 : 0;
            }
        }
        const double pixels = double(image.width()) * image.height();
        const double mean = sum / (3.0 * pixels);
        const double farShare = double(far) / pixels;
        QVERIFY2(mean <= kMaxMeanDifference,
                 qPrintable(QStringLiteral("mean channel difference %1 > %2").arg(mean).arg(kMaxMeanDifference)));
        QVERIFY2(farShare <= kMaxFarPixels,
                 qPrintable(QStringLiteral("%1 of the pixels differ by > 64 levels (at most %2)")
                                .arg(farShare)
                                .arg(kMaxFarPixels)));
    }

    void pngShowsTheCurves() {
        // Independent of the control image: the measured curve's colour is in the plot.
        const QImage image = renderChartImage(figure(), {QSize(720, 480), 96, {}});
        const QRgb blue = paletteColor(2).rgb() & 0xffffff;
        int hits = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                hits += (image.pixel(x, y) & 0xffffff) == blue ? 1 : 0;
        QVERIFY2(hits > 200, qPrintable(QStringLiteral("%1 pixels of the curve colour").arg(hits)));
    }

    void svgHasPathsAndTitle() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.svg"));
        QString error;
        const ChartData data = figure();
        QVERIFY2(exportChart(data, path, {QSize(720, 480), 96, {}}, &error), qPrintable(error));
        const QString svg = QString::fromUtf8(readAll(path));
        QVERIFY(svg.startsWith(QStringLiteral("<?xml")));
        QVERIFY(svg.contains(QStringLiteral("<title>Test accuracy vs ε</title>")));
        QVERIFY(svg.contains(QStringLiteral("Created with EpsilonLab ")));
        QVERIFY(svg.contains(QStringLiteral("viewBox=\"0 0 720 480\"")));
        // Texts are text, not outlines (Qt splits runs where the script changes, at "ε").
        QVERIFY(svg.contains(QStringLiteral(">Test accuracy vs ")));
        QVERIFY(svg.contains(QStringLiteral(">test accuracy</text>")));
        QVERIFY(svg.contains(QStringLiteral("20 repetitions, seed 42")));
        QVERIFY(svg.contains(QStringLiteral(">0.001</text>")));
        QVERIFY(svg.contains(QStringLiteral(">100</text>")));
        // Every line is stroked in its colour: in the plot, and once more in the legend when
        // it is named (Qt Charts writes curves as polyline segments).
        for (int i = 0; i < data.series.size(); ++i) {
            const SeriesData& s = data.series[i];
            if (s.kind == SeriesKind::Band || s.kind == SeriesKind::Points)
                continue;
            const QString colour = seriesColor(s, i).name();
            const QRegularExpression stroked(QStringLiteral("stroke=\"%1\"[^>]*>\\s*<(path|polyline)").arg(colour));
            int strokes = 0;
            for (auto it = stroked.globalMatch(svg); it.hasNext(); it.next())
                ++strokes;
            const int expected = s.name.isEmpty() ? 1 : 2;
            QVERIFY2(strokes >= expected, qPrintable(QStringLiteral("%1 (%2): %3 stroked paths, expected at least %4")
                                                         .arg(s.key, colour)
                                                         .arg(strokes)
                                                         .arg(expected)));
        }
    }

    void pdfHasTitleAndCreator() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.pdf"));
        QString error;
        QVERIFY2(exportChart(figure(), path, {QSize(720, 480), 96, QStringLiteral("EpsilonLab test")}, &error),
                 qPrintable(error));
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.size() > 2000);
        QVERIFY(pdf.startsWith("%PDF-"));
        // The info dictionary holds text strings as UTF-16BE with a byte order mark.
        const auto utf16 = [](const QString& text) {
            QByteArray bytes("\xfe\xff", 2);
            for (const QChar c : text)
                bytes.append(char(c.unicode() >> 8)).append(char(c.unicode() & 0xff));
            return bytes;
        };
        QVERIFY(pdf.contains("/Title"));
        QVERIFY(pdf.contains(utf16(QStringLiteral("Test accuracy vs ε"))));
        QVERIFY(pdf.contains(utf16(QStringLiteral("EpsilonLab test"))));
    }

    void defaultCreatorNamesVersion() {
        QVERIFY(defaultCreator().startsWith(QStringLiteral("EpsilonLab ")));
        QVERIFY(defaultCreator().contains(QRegularExpression(QStringLiteral("\\d+\\.\\d+"))));
    }

    void clipboardGetsTheImage() {
        copyChartToClipboard(figure(), {QSize(300, 200), 192, {}});
        QCOMPARE(QGuiApplication::clipboard()->image().size(), QSize(600, 400));
    }

    void paintChartDrawsIntoAnyRectangle() {
        QImage image(400, 300, QImage::Format_RGB32);
        image.fill(Qt::black);
        QPainter painter(&image);
        paintChart(figure(), painter, QRectF(100, 100, 200, 150));
        painter.end();
        QCOMPARE(image.pixel(50, 50), qRgb(0, 0, 0));         // outside untouched
        QCOMPARE(image.pixel(102, 102), qRgb(255, 255, 255)); // white figure background
    }

    void errorsAreClear() {
        QString error;
        QVERIFY(!exportChart(figure(), QStringLiteral("/tmp/figure.jpg"), {}, &error));
        QVERIFY2(error.contains(QStringLiteral("figure.jpg")) && error.contains(QStringLiteral(".png")),
                 qPrintable(error));
        const QString missing = QStringLiteral("/nonexistent-dir/figure.png");
        QVERIFY(!exportChart(figure(), missing, {}, &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
        QVERIFY(!exportChart(figure(), QStringLiteral("/tmp/x.png"), {QSize(0, 0), 96, {}}, nullptr));
        QVERIFY(!writeChartCsv(figure(), QStringLiteral("/nonexistent-dir/data.csv"), &error));
        QVERIFY2(error.contains(QStringLiteral("/nonexistent-dir/data.csv")), qPrintable(error));
    }

    void csvIsLongFormat() {
        ChartData d;
        SeriesData line = series(SeriesKind::Line, QStringLiteral("measured"), QStringLiteral("acc, \"test\""),
                                 {{0.1, 0.5}, {1.0 / 3.0, kNaN}});
        SeriesData band = series(SeriesKind::Band, QStringLiteral("sd"), QStringLiteral("sd"), {{0.1, 0.4}});
        band.upper = {{0.1, 0.6}};
        SeriesData h = series(SeriesKind::HorizontalLine, QStringLiteral("base"), QString());
        h.value = 0.92;
        SeriesData v = series(SeriesKind::VerticalLine, QStringLiteral("eps"), QStringLiteral("ε"));
        v.value = 2.0;
        d.series = {line, band, h, v};
        const QString expected =
            QStringLiteral("key,name,kind,x,y,y_upper\n"
                           "measured,\"acc, \"\"test\"\"\",line,0.10000000000000001,0.5,\n"
                           "measured,\"acc, \"\"test\"\"\",line,0.33333333333333331,nan,\n"
                           "sd,sd,band,0.10000000000000001,0.40000000000000002,0.59999999999999998\n"
                           "base,,horizontal_line,,0.92000000000000004,\n"
                           "eps,ε,vertical_line,2,,\n");
        QCOMPARE(chartCsv(d), expected);

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("data.csv"));
        QString error;
        QVERIFY2(writeChartCsv(d, path, &error), qPrintable(error));
        QCOMPARE(QString::fromUtf8(readAll(path)), expected);
    }

    void csvNumbersReadBackExactly() {
        const double x = 0.1 + 0.2;
        ChartData d;
        d.series = {series(SeriesKind::Points, QStringLiteral("p"), QString(), {{x, 1e-300}})};
        const QStringList row = chartCsv(d).split(QLatin1Char('\n')).value(1).split(QLatin1Char(','));
        QCOMPARE(row.value(3).toDouble(), x);
        QCOMPARE(row.value(4).toDouble(), 1e-300);
    }
};

QTEST_MAIN(TestChartExport)
#include "test_chart_export.moc"
