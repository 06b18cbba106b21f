#include "ui/export/gif_writer.h"

#include <QSaveFile>

#include <gif_lib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <unordered_set>
#include <vector>

namespace elab::ui {

namespace {

int cellOf(QRgb c) { return (qRed(c) >> 3) << 10 | (qGreen(c) >> 3) << 5 | (qBlue(c) >> 3); }

int writeToSaveFile(GifFileType* gif, const GifByteType* bytes, int length) {
    auto* file = static_cast<QSaveFile*>(gif->UserData);
    return static_cast<int>(file->write(reinterpret_cast<const char*>(bytes), length));
}

QString gifError(const QString& path, int code) {
    return QStringLiteral("%1: GIF: %2").arg(path, QString::fromUtf8(GifErrorString(code)));
}

} // namespace

QList<QRgb> gifPalette(const QImage& image, int maxColours) {
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    maxColours = std::clamp(maxColours, 2, 256);
    std::unordered_set<QRgb> distinct;
    for (int y = 0; y < rgb.height() && static_cast<int>(distinct.size()) <= maxColours; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width() && static_cast<int>(distinct.size()) <= maxColours; ++x)
            distinct.insert(line[x] | 0xff000000u);
    }
    if (static_cast<int>(distinct.size()) <= maxColours) {
        QList<QRgb> exact(distinct.begin(), distinct.end());
        std::sort(exact.begin(), exact.end());
        return exact;
    }
    constexpr int kCells = 32 * 32 * 32;
    std::vector<std::array<std::uint64_t, 4>> sums(kCells, {0, 0, 0, 0}); // count, r, g, b
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            auto& s = sums[static_cast<std::size_t>(cellOf(line[x]))];
            ++s[0];
            s[1] += static_cast<std::uint64_t>(qRed(line[x]));
            s[2] += static_cast<std::uint64_t>(qGreen(line[x]));
            s[3] += static_cast<std::uint64_t>(qBlue(line[x]));
        }
    }
    std::vector<int> cells(kCells);
    std::iota(cells.begin(), cells.end(), 0);
    const auto byCount = [&](int a, int b) {
        return sums[static_cast<std::size_t>(a)][0] != sums[static_cast<std::size_t>(b)][0]
                   ? sums[static_cast<std::size_t>(a)][0] > sums[static_cast<std::size_t>(b)][0]
                   : a < b;
    };
    std::partial_sort(cells.begin(), cells.begin() + maxColours, cells.end(), byCount);
    cells.resize(static_cast<std::size_t>(maxColours));
    std::sort(cells.begin(), cells.end());
    QList<QRgb> palette;
    for (int cell : cells) {
        const auto& s = sums[static_cast<std::size_t>(cell)];
        if (s[0] == 0)
            continue;
        const auto mean = [&](std::uint64_t sum) { return static_cast<int>((sum + s[0] / 2) / s[0]); };
        palette << qRgb(mean(s[1]), mean(s[2]), mean(s[3]));
    }
    return palette;
}

struct GifWriter::File {
    QString path;
    QSaveFile out;
    GifFileType* gif = nullptr;
};

GifWriter::GifWriter() = default;

GifWriter::~GifWriter() {
    if (m_file && m_file->gif) {
        int code = 0;
        EGifCloseFile(m_file->gif, &code);
    }
    // The QSaveFile is destroyed without commit: the target stays as it was.
}

bool GifWriter::open(const QString& path, QSize size, QString* error) {
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        m_file.reset();
        return false;
    };
    if (size.width() < 1 || size.height() < 1 || size.width() > 65535 || size.height() > 65535)
        return fail(QStringLiteral("%1: GIF frames of %2 × %3 pixels are not possible")
                        .arg(path)
                        .arg(size.width())
                        .arg(size.height()));
    m_file = std::make_unique<File>();
    m_file->path = path;
    m_file->out.setFileName(path);
    if (!m_file->out.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("%1: %2").arg(path, m_file->out.errorString()));
    int code = 0;
    m_file->gif = EGifOpen(&m_file->out, &writeToSaveFile, &code);
    if (!m_file->gif)
        return fail(gifError(path, code));
    m_size = size;
    m_frames = 0;
    EGifSetGifVersion(m_file->gif, true);
    // No global colour table: every frame brings its own.
    if (EGifPutScreenDesc(m_file->gif, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR)
        return fail(gifError(path, m_file->gif->Error));
    // Loop forever: the NETSCAPE2.0 application extension, sub-block 1, loop count 0.
    static const char kApplication[] = "NETSCAPE2.0";
    static const unsigned char kLoopForever[] = {1, 0, 0};
    if (EGifPutExtensionLeader(m_file->gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(m_file->gif, 11, kApplication) == GIF_ERROR ||
        EGifPutExtensionBlock(m_file->gif, 3, kLoopForever) == GIF_ERROR ||
        EGifPutExtensionTrailer(m_file->gif) == GIF_ERROR)
        return fail(gifError(path, m_file->gif->Error));
    return true;
}

bool GifWriter::addFrame(const QImage& frame, int delayMs, QString* error) {
    if (!m_file || !m_file->gif) {
        if (error)
            *error = QStringLiteral("GIF: no file open");
        return false;
    }
    auto fail = [&]() {
        if (error)
            *error = gifError(m_file->path, m_file->gif->Error);
        return false;
    };
    QImage rgb = frame.size() == m_size ? frame : frame.scaled(m_size, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    rgb = rgb.convertToFormat(QImage::Format_RGB32);
    const QList<QRgb> palette = gifPalette(rgb);
    QImage indexed = rgb.convertToFormat(QImage::Format_Indexed8, palette, Qt::ThresholdDither | Qt::AvoidDither);

    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSE_DO_NOT;
    control.UserInputFlag = false;
    control.DelayTime = std::max(2, static_cast<int>(std::lround(delayMs / 10.0)));
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const auto length = static_cast<int>(EGifGCBToExtension(&control, extension));
    if (EGifPutExtension(m_file->gif, GRAPHICS_EXT_FUNC_CODE, length, extension) == GIF_ERROR)
        return fail();

    // A colour table has 2^k entries: pad with black.
    const QList<QRgb> table = indexed.colorTable();
    const int bits = std::max(1, GifBitSize(static_cast<int>(table.size())));
    std::vector<GifColorType> colours(static_cast<std::size_t>(1) << bits, GifColorType{0, 0, 0});
    for (qsizetype i = 0; i < table.size(); ++i)
        colours[static_cast<std::size_t>(i)] =
            GifColorType{static_cast<GifByteType>(qRed(table[i])), static_cast<GifByteType>(qGreen(table[i])),
                         static_cast<GifByteType>(qBlue(table[i]))};
    ColorMapObject* map = GifMakeMapObject(static_cast<int>(colours.size()), colours.data());
    if (!map) {
        if (error)
            *error = QStringLiteral("%1: GIF: out of memory").arg(m_file->path);
        return false;
    }
    const bool described =
        EGifPutImageDesc(m_file->gif, 0, 0, m_size.width(), m_size.height(), false, map) != GIF_ERROR;
    GifFreeMapObject(map);
    if (!described)
        return fail();
    for (int y = 0; y < indexed.height(); ++y)
        if (EGifPutLine(m_file->gif, indexed.scanLine(y), indexed.width()) == GIF_ERROR)
            return fail();
    ++m_frames;
    return true;
}

bool GifWriter::close(QString* error) {
    if (!m_file || !m_file->gif) {
        if (error)
            *error = QStringLiteral("GIF: no file open");
        return false;
    }
    int code = 0;
    const bool closed = EGifCloseFile(m_file->gif, &code) != GIF_ERROR;
    m_file->gif = nullptr;
    if (!closed) {
        if (error)
            *error = gifError(m_file->path, code);
        return false;
    }
    if (!m_file->out.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(m_file->path, m_file->out.errorString());
        return false;
    }
    m_file.reset();
    return true;
}

} // namespace elab::ui
