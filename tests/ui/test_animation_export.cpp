// The film export: the frames' ε from the grid, file names, the GIF writer read back with
// giflib's own decoder, and the batch command end to end on moons' decision regions (a GIF and
// a PNG sequence: frame count, size, frames that differ, the CSV of every frame's ε).

#include "ui/export/animation_export.h"
#include "ui/export/gif_writer.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

using namespace elab::ui;

namespace {

struct GifCloser {
    void operator()(GifFileType* gif) const {
        int error = 0;
        DGifCloseFile(gif, &error);
    }
};
using Gif = std::unique_ptr<GifFileType, GifCloser>;

Gif slurp(const QString& path) {
    int error = 0;
    Gif gif(DGifOpenFileName(QFile::encodeName(path).constData(), &error));
    if (!gif || DGifSlurp(gif.get()) != GIF_OK)
        return nullptr;
    return gif;
}

// Frame i's colours as RGB, from its own colour table (or the global one).
std::vector<QRgb> pixels(const GifFileType* gif, int i) {
    const SavedImage& image = gif->SavedImages[i];
    const ColorMapObject* map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
    std::vector<QRgb> out;
    const int n = image.ImageDesc.Width * image.ImageDesc.Height;
    for (int p = 0; p < n; ++p) {
        const GifColorType c = map->Colors[image.RasterBits[p]];
        out.push_back(qRgb(c.Red, c.Green, c.Blue));
    }
    return out;
}

bool loopsForever(const GifFileType* gif) {
    // NETSCAPE2.0 is stored with the first image's extension blocks by DGifSlurp.
    const SavedImage& first = gif->SavedImages[0];
    for (int b = 0; b + 1 < first.ExtensionBlockCount; ++b) {
        const ExtensionBlock& app = first.ExtensionBlocks[b];
        const ExtensionBlock& data = first.ExtensionBlocks[b + 1];
        if (app.Function == APPLICATION_EXT_FUNC_CODE && app.ByteCount == 11 &&
            std::memcmp(app.Bytes, "NETSCAPE2.0", 11) == 0 && data.ByteCount == 3)
            return data.Bytes[0] == 1 && data.Bytes[1] == 0 && data.Bytes[2] == 0;
    }
    return false;
}

// The slider's default grid: 21 points log-spaced over [10⁻³, 10²], a quarter decade apart.
std::vector<double> defaultGridIn(double lo, double hi) {
    std::vector<double> in;
    for (int k = 0; k <= 20; ++k) {
        const double e = std::pow(10.0, -3.0 + 0.25 * k);
        if (e >= lo * (1 - 1e-9) && e <= hi * (1 + 1e-9))
            in.push_back(e);
    }
    return in;
}

} // namespace

class TestAnimationExport : public QObject {
    Q_OBJECT
private slots:
    void framesAreTheGridPointsInTheRange() {
        const std::vector<double> grid{0.001, 0.01, 0.1, 1.0, 10.0, 100.0};
        QCOMPARE(framesInRange(grid, 0.1, 10.0), (std::vector<double>{0.1, 1.0, 10.0}));
        QCOMPARE(framesInRange(grid, 0.05, 0.5), std::vector<double>{0.1});
        QVERIFY(framesInRange(grid, 0.2, 0.5).empty());
        // A range typed as the grid's rounded value still includes it.
        QCOMPARE(framesInRange({0.1 * (1 + 1e-12)}, 0.1, 1.0).size(), std::size_t{1});
    }

    void namesAndRanges() {
        QCOMPARE(animationFormat(QStringLiteral("a/film.gif")), AnimationFormat::Gif);
        QCOMPARE(animationFormat(QStringLiteral("a/frame-%03d.png")), AnimationFormat::PngSequence);
        QCOMPARE(animationFormat(QStringLiteral("a/frame-%d.PNG")), AnimationFormat::PngSequence);
        QCOMPARE(animationFormat(QStringLiteral("a/figure.png")), AnimationFormat::Unknown);
        QCOMPARE(animationFormat(QStringLiteral("a/frame-%s.png")), AnimationFormat::Unknown);
        QCOMPARE(animationFormat(QStringLiteral("a/f-%d-%d.png")), AnimationFormat::Unknown);
        QCOMPARE(framePath(QStringLiteral("a/frame-%03d.png"), 7), QStringLiteral("a/frame-007.png"));
        QCOMPARE(framePath(QStringLiteral("a/frame-%d.png"), 12), QStringLiteral("a/frame-12.png"));
        QCOMPARE(animationSidecarBase(QStringLiteral("a/frame-%03d.png")), QStringLiteral("a/frame.png"));
        QCOMPARE(animationSidecarBase(QStringLiteral("a/%03d.png")), QStringLiteral("a/frames.png"));
        QCOMPARE(animationSidecarBase(QStringLiteral("a/film.gif")), QStringLiteral("a/film.gif"));
        const auto range = parseEpsRange(QStringLiteral("0.1:100"));
        QVERIFY(range);
        QCOMPARE(range->first, 0.1);
        QCOMPARE(range->second, 100.0);
        QVERIFY(!parseEpsRange(QStringLiteral("1:0.1")));
        QVERIFY(!parseEpsRange(QStringLiteral("0:1")));
        QVERIFY(!parseEpsRange(QStringLiteral("1")));
        QVERIFY(!parseEpsRange(QStringLiteral("a:b")));
    }

    void paletteIsExactForFewColours() {
        QImage image(8, 4, QImage::Format_RGB32);
        image.fill(qRgb(10, 20, 30));
        image.setPixel(1, 1, qRgb(200, 0, 0));
        image.setPixel(2, 2, qRgb(0, 0, 255));
        QList<QRgb> palette = gifPalette(image);
        std::sort(palette.begin(), palette.end());
        QList<QRgb> expected{qRgb(10, 20, 30), qRgb(200, 0, 0), qRgb(0, 0, 255)};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(palette, expected);
    }

    void paletteOfManyColoursHas256() {
        QImage image(256, 256, QImage::Format_RGB32);
        for (int y = 0; y < 256; ++y)
            for (int x = 0; x < 256; ++x)
                image.setPixel(x, y, qRgb(x, y, (x * 7 + y * 3) % 256));
        QCOMPARE(gifPalette(image).size(), qsizetype{256});
    }

    void gifReadsBackWithGiflib() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("three.gif"));
        const QRgb colours[] = {qRgb(255, 0, 0), qRgb(0, 128, 0), qRgb(0, 0, 255)};
        GifWriter writer;
        QString error;
        QVERIFY2(writer.open(path, QSize(40, 30), &error), qPrintable(error));
        for (QRgb c : colours) {
            QImage frame(40, 30, QImage::Format_RGB32);
            frame.fill(c);
            frame.setPixel(3, 4, qRgb(255, 255, 255));
            QVERIFY2(writer.addFrame(frame, 250, &error), qPrintable(error));
        }
        QVERIFY2(writer.close(&error), qPrintable(error));
        const Gif gif = slurp(path);
        QVERIFY(gif);
        QCOMPARE(gif->ImageCount, 3);
        QCOMPARE(gif->SWidth, 40);
        QCOMPARE(gif->SHeight, 30);
        QVERIFY(loopsForever(gif.get()));
        for (int i = 0; i < 3; ++i) {
            const std::vector<QRgb> p = pixels(gif.get(), i);
            QCOMPARE(p[0], colours[i]);
            QCOMPARE(p[4 * 40 + 3], qRgb(255, 255, 255));
            GraphicsControlBlock gcb;
            QCOMPARE(DGifSavedExtensionToGCB(gif.get(), i, &gcb), GIF_OK);
            QCOMPARE(gcb.DelayTime, 25); // hundredths of a second
        }
    }

    void aFailedGifLeavesNoFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("unfinished.gif"));
        {
            GifWriter writer;
            QString error;
            QVERIFY(writer.open(path, QSize(10, 10), &error));
            QImage frame(10, 10, QImage::Format_RGB32);
            frame.fill(Qt::black);
            QVERIFY(writer.addFrame(frame, 100, &error));
        } // destroyed without close()
        QVERIFY(!QFile::exists(path));
    }

    void batchCommandWritesTheFilm() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString gifPath = dir.filePath(QStringLiteral("moons.gif"));
        const QString pngPattern = dir.filePath(QStringLiteral("seq/frame-%02d.png"));
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(EPSILONLAB_GUI),
                  {QStringLiteral("--data"), QStringLiteral("builtin:moons"), QStringLiteral("--view"),
                   QStringLiteral("regions"), QStringLiteral("--export"), gifPath, QStringLiteral("--export"),
                   pngPattern, QStringLiteral("--eps-range"), QStringLiteral("0.5:20"), QStringLiteral("--frame-size"),
                   QStringLiteral("480x320"), QStringLiteral("--frame-ms"), QStringLiteral("300")});
        QVERIFY(gui.waitForFinished(300'000)); // a hang guard, not a timing check
        QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());

        const std::vector<double> expected = defaultGridIn(0.5, 20.0); // 0.562, 1, 1.78, 3.16, 5.62, 10, 17.8
        QCOMPARE(expected.size(), std::size_t{7});
        const Gif gif = slurp(gifPath);
        QVERIFY(gif);
        QCOMPARE(gif->ImageCount, static_cast<int>(expected.size()));
        QCOMPARE(gif->SWidth, 480);
        QCOMPARE(gif->SHeight, 320);
        QVERIFY(loopsForever(gif.get()));
        int differing = 0;
        const std::vector<QRgb> first = pixels(gif.get(), 0);
        for (int i = 0; i < gif->ImageCount; ++i) {
            QCOMPARE(gif->SavedImages[i].ImageDesc.Width, 480);
            QCOMPARE(gif->SavedImages[i].ImageDesc.Height, 320);
            GraphicsControlBlock gcb;
            QCOMPARE(DGifSavedExtensionToGCB(gif.get(), i, &gcb), GIF_OK);
            QCOMPARE(gcb.DelayTime, 30);
            if (i > 0 && pixels(gif.get(), i) != first)
                ++differing;
        }
        QVERIFY2(differing >= 2, qPrintable(QStringLiteral("%1 frames differ from the first").arg(differing)));

        // The same frames as a PNG sequence, the same size.
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const QImage png(dir.filePath(QStringLiteral("seq/frame-%1.png").arg(i + 1, 2, 10, QLatin1Char('0'))));
            QCOMPARE(png.size(), QSize(480, 320));
        }
        QVERIFY(!QFile::exists(
            dir.filePath(QStringLiteral("seq/frame-%1.png").arg(expected.size() + 1, 2, 10, QLatin1Char('0')))));

        // The CSV: one row per frame, its ε, the view's numbers.
        QFile csv(dir.filePath(QStringLiteral("moons.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), static_cast<int>(expected.size()) + 1);
        const QStringList header = lines[0].split(QLatin1Char(','));
        QCOMPARE(header.mid(0, 3),
                 (QStringList{QStringLiteral("frame"), QStringLiteral("eps"), QStringLiteral("file")}));
        const qsizetype accuracy = header.indexOf(QStringLiteral("test_accuracy.mean"));
        const qsizetype guaranteeEps = header.indexOf(QStringLiteral("guarantee.epsilon"));
        QVERIFY(accuracy > 0);
        QVERIFY(guaranteeEps > 0);
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const QStringList row = lines[static_cast<int>(i) + 1].split(QLatin1Char(','));
            const double eps = row[1].toDouble();
            QVERIFY2(std::abs(eps - expected[i]) <= 1e-12 * expected[i], qPrintable(row[1]));
            QCOMPARE(row[guaranteeEps].toDouble(), eps); // each draw's guarantee is the frame's ε
            const double acc = row[accuracy].toDouble();
            QVERIFY(acc >= 0.0 && acc <= 1.0);
        }
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("moons.json"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("seq/frame.csv"))));
    }

    void batchCommandRefusesARangeWithoutGridPoints() {
        QTemporaryDir dir;
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(EPSILONLAB_GUI),
                  {QStringLiteral("--data"), QStringLiteral("builtin:moons"), QStringLiteral("--view"),
                   QStringLiteral("regions"), QStringLiteral("--export"), dir.filePath(QStringLiteral("x.gif")),
                   QStringLiteral("--eps-range"), QStringLiteral("0.2:0.25")});
        QVERIFY(gui.waitForFinished(300'000));
        QCOMPARE(gui.exitCode(), 1);
        QVERIFY(gui.readAllStandardError().contains("no grid ε in [0.2, 0.25]"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.gif"))));
    }
};

QTEST_MAIN(TestAnimationExport)
#include "test_animation_export.moc"
