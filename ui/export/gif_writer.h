#pragma once
// An animated GIF written frame by frame with giflib (Debian's libgif: maintained, small, and
// GIF is what every slide program plays): GIF89a, looping forever (the NETSCAPE2.0 extension),
// each frame quantised to at most 256 colours (gifPalette, then the nearest palette colour per
// pixel, no dithering: flat chart areas stay flat and compress well) with its own colour table
// and delay. Written through a QSaveFile: a failed export leaves an existing file untouched.
// Any thread, one writer per thread.

#include <QImage>
#include <QList>
#include <QSize>
#include <QString>

#include <memory>

namespace elab::ui {

/// At most maxColours colours for image: its own colours if it has that few, else the mean
/// colours of the most populated cells of a 32 × 32 × 32 RGB grid (ties: the lower cell).
/// Deterministic; order: by cell.
QList<QRgb> gifPalette(const QImage& image, int maxColours = 256);

class GifWriter {
public:
    GifWriter();
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    /// Starts path (frames of size pixels). False with a message naming the file in *error.
    bool open(const QString& path, QSize size, QString* error);
    /// Appends a frame (scaled to the size if it differs) shown for delayMs (GIF counts in
    /// hundredths of a second: rounded, at least 2).
    bool addFrame(const QImage& frame, int delayMs, QString* error);
    /// Ends the file and commits it; without it (or on failure) nothing is written.
    bool close(QString* error);
    int frameCount() const { return m_frames; }

private:
    struct File;
    std::unique_ptr<File> m_file;
    QSize m_size;
    int m_frames = 0;
};

} // namespace elab::ui
