#include "ui/export/animation_export.h"

#include "ui/charts/chart_export.h"
#include "ui/widgets/eps_text.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace elab::ui {

namespace {

using SidecarJson = nlohmann::ordered_json;

// One printf-style frame number: %d or %0Nd.
const QRegularExpression& numberPattern() {
    static const QRegularExpression pattern(QStringLiteral("%(0[1-9])?d"));
    return pattern;
}

void flatten(const SidecarJson& j, const QString& prefix, QList<QPair<QString, double>>* out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const QString key = prefix.isEmpty() ? QString::fromStdString(it.key())
                                             : prefix + QLatin1Char('.') + QString::fromStdString(it.key());
        const SidecarJson& v = it.value();
        if (v.is_number())
            out->append({key, v.get<double>()});
        else if (v.is_boolean())
            out->append({key, v.get<bool>() ? 1.0 : 0.0});
        else if (v.is_object())
            flatten(v, key, out);
    }
}

// The shortest text that reads back as the same double.
QString csvNumber(double value) {
    if (!std::isfinite(value))
        return {};
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, static_cast<int>(written.ptr - buffer));
}

QString csvText(QString text) {
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')))
        return text;
    return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

} // namespace

QString AnimationRequest::validate() const {
    if (animationFormat(path) == AnimationFormat::Unknown)
        return QStringLiteral("animation '%1': the name must end in .gif, or be a .png name with one %d or %03d "
                              "for the frame number")
            .arg(path);
    if (!(epsMin > 0.0) || !(epsMax >= epsMin) || !std::isfinite(epsMax))
        return QStringLiteral("animation ε range %1:%2: expected 0 < A ≤ B").arg(epsMin).arg(epsMax);
    if (frameMs < 20 || frameMs > 60'000)
        return QStringLiteral("animation frame time %1 ms: expected 20 to 60000").arg(frameMs);
    if (size.width() < 100 || size.height() < 100 || size.width() > 4000 || size.height() > 4000)
        return QStringLiteral("animation size %1x%2: expected 100 to 4000 pixels a side")
            .arg(size.width())
            .arg(size.height());
    return {};
}

AnimationFormat animationFormat(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("gif"))
        return path.contains(QLatin1Char('%')) ? AnimationFormat::Unknown : AnimationFormat::Gif;
    if (suffix != QLatin1String("png"))
        return AnimationFormat::Unknown;
    const QString name = QFileInfo(path).fileName();
    return name.count(QLatin1Char('%')) == 1 && numberPattern().match(name).hasMatch() ? AnimationFormat::PngSequence
                                                                                       : AnimationFormat::Unknown;
}

QString framePath(const QString& pattern, int number) {
    const QFileInfo info(pattern);
    QString name = info.fileName();
    const QRegularExpressionMatch m = numberPattern().match(name);
    if (!m.hasMatch())
        return pattern;
    const int width = m.captured(1).isEmpty() ? 0 : m.captured(1).mid(1).toInt();
    name.replace(m.capturedStart(), m.capturedLength(), QStringLiteral("%1").arg(number, width, 10, QLatin1Char('0')));
    return info.dir().filePath(name);
}

QString animationSidecarBase(const QString& path) {
    if (animationFormat(path) != AnimationFormat::PngSequence)
        return path;
    const QFileInfo info(path);
    static const QRegularExpression number(QStringLiteral("[-_. ]?%(0[1-9])?d"));
    QString name = info.fileName().remove(number);
    if (QFileInfo(name).completeBaseName().isEmpty())
        name = QStringLiteral("frames.png");
    return info.dir().filePath(name);
}

std::vector<double> framesInRange(const std::vector<double>& grid, double lo, double hi) {
    std::vector<double> frames;
    for (double e : grid)
        if (e >= lo * (1.0 - 1e-9) && e <= hi * (1.0 + 1e-9))
            frames.push_back(e);
    std::sort(frames.begin(), frames.end());
    return frames;
}

std::optional<QPair<double, double>> parseEpsRange(const QString& text) {
    const QStringList parts = text.split(QLatin1Char(':'));
    if (parts.size() != 2)
        return std::nullopt;
    bool okA = false, okB = false;
    const double a = parts[0].trimmed().toDouble(&okA);
    const double b = parts[1].trimmed().toDouble(&okB);
    if (!okA || !okB || !(a > 0.0) || !(b >= a) || !std::isfinite(b))
        return std::nullopt;
    return QPair<double, double>{a, b};
}

QImage renderAnimationFrame(const charts::ChartData& chart, double eps, QSize size) {
    // A band on top: ε large on the left, the chart's title beside it; the figure under it.
    const int band = std::max(36, size.height() / 10);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    charts::ChartData figure = chart;
    const QString title = figure.title;
    figure.title.clear();
    charts::ExportOptions options;
    options.size = QSize(size.width(), size.height() - band);
    options.dpi = 96; // one logical pixel per pixel
    QPainter painter(&image);
    painter.drawImage(QPoint(0, band), charts::renderChartImage(figure, options));
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);

    QFont large(QStringLiteral("DejaVu Sans"));
    large.setBold(true);
    large.setPixelSize(band * 3 / 4);
    const QString epsText =
        std::isinf(eps) ? QStringLiteral("ε = ∞") : QStringLiteral("ε = %1").arg(formatNumber(eps, 3));
    const int margin = band / 4;
    const int epsWidth = QFontMetrics(large).horizontalAdvance(epsText);
    painter.setFont(large);
    painter.setPen(Qt::black);
    painter.drawText(QRect(margin, 0, epsWidth, band), Qt::AlignLeft | Qt::AlignVCenter, epsText);

    QFont small(QStringLiteral("DejaVu Sans"));
    small.setBold(true);
    small.setPixelSize(std::max(11, band / 3));
    const int titleWidth = size.width() - epsWidth - 4 * margin;
    while (small.pixelSize() > 11 && QFontMetrics(small).horizontalAdvance(title) > titleWidth)
        small.setPixelSize(small.pixelSize() - 1); // a long title smaller before it is cut
    painter.setFont(small);
    painter.setPen(QColor(40, 40, 40));
    const QRect titleBox(3 * margin + epsWidth, 0, titleWidth, band);
    painter.drawText(titleBox, Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(small).elidedText(title, Qt::ElideRight, titleBox.width()));
    painter.setPen(QPen(QColor(200, 200, 200), 1));
    painter.drawLine(margin, band - 1, size.width() - margin, band - 1);
    return image;
}

QList<QPair<QString, double>> AnimationSidecars::headlineNumbers(const QByteArray& sidecar) {
    QList<QPair<QString, double>> numbers;
    const SidecarJson j = SidecarJson::parse(sidecar.begin(), sidecar.end(), nullptr, false);
    if (!j.is_object() || !j.contains("export") || !j["export"].is_object())
        return numbers;
    const SidecarJson& e = j["export"];
    if (e.contains("guarantee") && e["guarantee"].is_object())
        for (const char* key : {"epsilon", "delta"})
            if (e["guarantee"].contains(key) && e["guarantee"][key].is_number())
                numbers.append({QStringLiteral("guarantee.") + QLatin1String(key), e["guarantee"][key].get<double>()});
    if (e.contains("results") && e["results"].is_object()) {
        flatten(e["results"], QString(), &numbers);
        return numbers;
    }
    SidecarJson rest = e;
    for (const char* key : {"data", "plane", "guarantee", "created_utc", "figure"})
        rest.erase(key);
    flatten(rest, QString(), &numbers);
    return numbers;
}

void AnimationSidecars::addFrame(double eps, const QString& file, const QByteArray& sidecar) {
    m_frames.push_back({eps, file, headlineNumbers(sidecar)});
    m_lastSidecar = sidecar;
}

QByteArray AnimationSidecars::csv() const {
    QStringList columns;
    for (const Frame& f : m_frames)
        for (const auto& [key, value] : f.numbers)
            if (!columns.contains(key) && key != QLatin1String("eps")) // the frame's ε is its own column
                columns << key;
    QStringList header{QStringLiteral("frame"), QStringLiteral("eps"), QStringLiteral("file")};
    for (const QString& c : columns)
        header << csvText(c);
    QString text = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (std::size_t i = 0; i < m_frames.size(); ++i) {
        const Frame& f = m_frames[i];
        QStringList row{QString::number(i + 1), csvNumber(f.eps), csvText(f.file)};
        for (const QString& c : columns) {
            QString cell;
            for (const auto& [key, value] : f.numbers)
                if (key == c)
                    cell = csvNumber(value);
            row << cell;
        }
        text += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return text.toUtf8();
}

QByteArray AnimationSidecars::json(const AnimationRequest& request) const {
    SidecarJson j = SidecarJson::parse(m_lastSidecar.begin(), m_lastSidecar.end(), nullptr, false);
    if (!j.is_object())
        j = SidecarJson::object();
    SidecarJson frames = SidecarJson::array();
    for (std::size_t i = 0; i < m_frames.size(); ++i) {
        SidecarJson numbers = SidecarJson::object();
        for (const auto& [key, value] : m_frames[i].numbers)
            numbers[key.toStdString()] = value;
        frames.push_back({{"frame", i + 1},
                          {"eps", m_frames[i].eps},
                          {"file", m_frames[i].file.toStdString()},
                          {"numbers", std::move(numbers)}});
    }
    const bool gif = animationFormat(request.path) == AnimationFormat::Gif;
    SidecarJson animation = {{"file", QFileInfo(request.path).fileName().toStdString()},
                             {"format", gif ? "gif" : "png-sequence"},
                             {"eps_range", {request.epsMin, request.epsMax}},
                             {"frame_ms", request.frameMs},
                             {"size", {request.size.width(), request.size.height()}},
                             {"frames", std::move(frames)}};
    j["export"]["animation"] = std::move(animation);
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

} // namespace elab::ui
