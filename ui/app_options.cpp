#include "ui/app_options.h"

#include "core/data/builtin_catalog.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cstdio>

namespace elab::ui {

std::optional<QSize> parseSize(const QString& text) {
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d{2,5})\\s*[x×X]\\s*(\\d{2,5})\\s*$"));
    const QRegularExpressionMatch m = pattern.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QSize size(m.captured(1).toInt(), m.captured(2).toInt());
    if (size.width() < 200 || size.height() < 150 || size.width() > 10000 || size.height() > 10000)
        return std::nullopt;
    return size;
}

bool isInfoRequest(int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" ||
            arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

std::optional<core::MissingPolicy> parseMissingPolicy(const QString& text) {
    if (text == QLatin1String("drop"))
        return core::MissingPolicy::DropRows;
    if (text == QLatin1String("mean"))
        return core::MissingPolicy::ImputeMean;
    if (text == QLatin1String("most-frequent"))
        return core::MissingPolicy::ImputeMostFrequent;
    return std::nullopt;
}

std::optional<AppOptions> parseAppOptions(const QStringList& arguments, int* exitCode) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "EpsilonLab: choose the privacy parameter ε of "
                                            "private machine learning by seeing what it does."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QString defaultSpec = QStringLiteral("builtin:") + QString::fromUtf8(core::defaultBuiltin());
    const QCommandLineOption data(
        {QStringLiteral("d"), QStringLiteral("data")},
        QCoreApplication::translate("main", "Dataset to open: a CSV/LIBSVM file (optionally .gz) "
                                            "or builtin:NAME. Default: %1.").arg(defaultSpec),
        QStringLiteral("SPEC"), defaultSpec);
    const QCommandLineOption label(
        {QStringLiteral("l"), QStringLiteral("label")},
        QCoreApplication::translate("main", "Label column of a CSV file, by name or 0-based "
                                            "index (-1 = last)."),
        QStringLiteral("COL"));
    const QCommandLineOption missing(
        QStringLiteral("missing"),
        QCoreApplication::translate("main", "Missing values in a CSV file: drop (rows, the "
                                            "default), mean or most-frequent (imputation)."),
        QStringLiteral("POLICY"), QStringLiteral("drop"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("main", "Render the window to FILE.png once the dataset is "
                                            "loaded, print the path and exit (works with "
                                            "QT_QPA_PLATFORM=offscreen)."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QCoreApplication::translate("main", "Window size, e.g. 1400x900 (default)."),
        QStringLiteral("WxH"), QStringLiteral("1400x900"));
    parser.addOptions({data, label, missing, screenshot, size});

    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "epsilonlab: %s\n\n%s", qPrintable(parser.errorText()),
                     qPrintable(parser.helpText()));
        *exitCode = 2;
        return std::nullopt;
    }
    if (parser.isSet(help) || parser.isSet(version)) {
        if (parser.isSet(help))
            std::fputs(qPrintable(parser.helpText()), stdout);
        else
            std::printf("%s %s\n", qPrintable(QCoreApplication::applicationName()),
                        qPrintable(QCoreApplication::applicationVersion()));
        *exitCode = 0;
        return std::nullopt;
    }
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "epsilonlab: unexpected argument '%s' (use --data SPEC)\n",
                     qPrintable(parser.positionalArguments().constFirst()));
        *exitCode = 2;
        return std::nullopt;
    }
    AppOptions options;
    options.data = parser.value(data);
    options.label = parser.value(label);
    options.screenshot = parser.value(screenshot);
    const std::optional<QSize> parsedSize = parseSize(parser.value(size));
    if (!parsedSize) {
        std::fprintf(stderr, "epsilonlab: bad --size '%s' (expected WxH, e.g. 1400x900)\n",
                     qPrintable(parser.value(size)));
        *exitCode = 2;
        return std::nullopt;
    }
    options.size = *parsedSize;
    const std::optional<core::MissingPolicy> policy = parseMissingPolicy(parser.value(missing));
    if (!policy) {
        std::fprintf(stderr, "epsilonlab: bad --missing '%s' (drop, mean or most-frequent)\n",
                     qPrintable(parser.value(missing)));
        *exitCode = 2;
        return std::nullopt;
    }
    options.missing = *policy;
    *exitCode = 0;
    return options;
}

} // namespace elab::ui
