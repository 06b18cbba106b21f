#include "app/gui/app_options.h"

#include "ui/lessons/lesson.h"
#include "ui/views/view_catalog.h"

#include "core/data/builtin_catalog.h"
#include "core/learner/mechanism.h"
#include "core/mechanisms/mechanism_catalog.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>
#include <cstdio>
#include <limits>

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
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

std::optional<core::MissingPolicy> parseMissingPolicy(const QString& text) {
    return core::fromOptionName(core::missingPolicyNames(), text.toStdString());
}

/// "nonprivate, objpert-gauss, …": the mechanisms of the catalog, in menu order.
QString mechanismNames() {
    QStringList names;
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        names << QString::fromLatin1(core::toString(info.kind));
    return names.join(QStringLiteral(", "));
}

bool inCatalog(const std::string& name) {
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        if (name == core::toString(info.kind))
            return true;
    return false;
}

std::optional<AppOptions> parseAppOptions(const QStringList& arguments, int* exitCode) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main",
                                                                 "EpsilonLab: choose the privacy parameter ε of "
                                                                 "private machine learning by seeing what it does."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QString defaultSpec = QStringLiteral("builtin:") + QString::fromUtf8(core::defaultBuiltin());
    const QCommandLineOption data({QStringLiteral("d"), QStringLiteral("data")},
                                  QCoreApplication::translate("main",
                                                              "Dataset to open: a CSV/LIBSVM file (optionally .gz) "
                                                              "or builtin:NAME. Default: %1.")
                                      .arg(defaultSpec),
                                  QStringLiteral("SPEC"), defaultSpec);
    const QCommandLineOption test(QStringLiteral("test"),
                                  QCoreApplication::translate("main",
                                                              "Test file (CSV/LIBSVM, optionally .gz) for every test "
                                                              "metric, encoded with the dataset's schema; without it "
                                                              "the views hold out a fraction."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption label({QStringLiteral("l"), QStringLiteral("label")},
                                   QCoreApplication::translate("main", "Label column of a CSV file, by name or 0-based "
                                                                       "index (-1 = last)."),
                                   QStringLiteral("COL"));
    const QCommandLineOption missing(QStringLiteral("missing"),
                                     QCoreApplication::translate("main",
                                                                 "Missing values in a CSV file: drop (rows, the "
                                                                 "default), mean or most-frequent (imputation)."),
                                     QStringLiteral("POLICY"), QStringLiteral("drop"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("main",
                                                                    "Render the window to FILE.png once the dataset is "
                                                                    "loaded, print the path and exit (works with "
                                                                    "QT_QPA_PLATFORM=offscreen)."),
                                        QStringLiteral("FILE.png"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QCoreApplication::translate("main", "Window size, e.g. 1400x900 (default)."),
                                  QStringLiteral("WxH"), QStringLiteral("1400x900"));
    const QCommandLineOption mechanism(
        QStringLiteral("mechanism"),
        QCoreApplication::translate("main", "Mechanism of the views that train one (default objpert-gauss): %1.")
            .arg(mechanismNames()),
        QStringLiteral("M"));
    const QCommandLineOption session(
        QStringLiteral("session"), QCoreApplication::translate("main", "Open a saved session (dataset and settings)."),
        QStringLiteral("FILE"));
    const QCommandLineOption view(
        QStringLiteral("view"),
        QCoreApplication::translate("main", "Tab to show: %1 (default: utility).").arg(ui::viewIdList()),
        QStringLiteral("VIEW"), QStringLiteral("utility"));
    const QCommandLineOption exportFile(
        QStringLiteral("export"),
        QCoreApplication::translate("main", "Run the view to completion, write its figure to FILE (.svg, .pdf "
                                            "or .png) with FILE's .csv and .json beside it, and exit. Repeatable. "
                                            "FILE.gif, or a numbered PNG sequence such as DIR/frame-%03d.png "
                                            "(frames from 1), plays the view over --eps-range: one frame per grid "
                                            "ε, each drawn once its result is in, ε large in a corner; a CSV of "
                                            "every frame's ε and the view's numbers and a JSON sidecar beside it "
                                            "(FILE.csv/.json; DIR/frame.csv/.json)."),
        QStringLiteral("FILE"));
    const QCommandLineOption epsRange(
        QStringLiteral("eps-range"),
        QCoreApplication::translate("main", "ε range of an animation export: frames at the slider grid's ε within "
                                            "[A, B] (default 0.1:100)."),
        QStringLiteral("A:B"));
    const QCommandLineOption frameMs(
        QStringLiteral("frame-ms"),
        QCoreApplication::translate("main", "Time per frame of an animated GIF, in ms (default 500)."),
        QStringLiteral("N"), QStringLiteral("500"));
    const QCommandLineOption frameSize(
        QStringLiteral("frame-size"),
        QCoreApplication::translate("main", "Size of an animation's frames in pixels (default 960x640)."),
        QStringLiteral("WxH"), QStringLiteral("960x640"));
    const QCommandLineOption dpi(QStringLiteral("dpi"),
                                 QCoreApplication::translate("main", "PNG export resolution (default 150)."),
                                 QStringLiteral("N"), QStringLiteral("150"));
    const QCommandLineOption eps(QStringLiteral("eps"),
                                 QCoreApplication::translate("main", "ε of the views' sliders (a number > 0, or inf)."),
                                 QStringLiteral("E"));
    const QCommandLineOption target(QStringLiteral("target"), QCoreApplication::translate("main", "Target utility."),
                                    QStringLiteral("U"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QCoreApplication::translate("main", "Mechanisms the Utility view compares with its own, e.g. "
                                            "outpert-gauss,dpsgd (same grid and seeds, one chart)."),
        QStringLiteral("M,M"));
    const QCommandLineOption bounds(
        QStringLiteral("bounds"),
        QCoreApplication::translate("main",
                                    "Public ranges of numeric columns (CSV column,lo,hi or JSON), or builtin for "
                                    "a built-in dataset's documented ranges: values are clipped and mapped to "
                                    "[0, 1] before the norm step."),
        QStringLiteral("FILE"));
    const QCommandLineOption privateBounds(
        QStringLiteral("private-bounds"),
        QCoreApplication::translate("main", "Estimate the ranges of the other numeric columns privately with this ε "
                                            "(added to every guarantee)."),
        QStringLiteral("EPS"));
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QCoreApplication::translate("main", "Open a lesson: a lesson file or builtin:NAME (%1); its step replaces "
                                            "--data and --session.")
            .arg(builtinLessonNames().join(QStringLiteral(", "))),
        QStringLiteral("FILE"));
    const QCommandLineOption step(QStringLiteral("step"),
                                  QCoreApplication::translate("main", "The lesson's step to show (from 1; default 1)."),
                                  QStringLiteral("K"), QStringLiteral("1"));
    const QCommandLineOption presentation(
        QStringLiteral("presentation"),
        QCoreApplication::translate("main", "Start in presentation mode (with --screenshot: at --size, not full "
                                            "screen)."));
    parser.addOptions({data,     test,       label,     missing, screenshot, size,        mechanism,     session,
                       view,     exportFile, dpi,       eps,     target,     bounds,      privateBounds, compare,
                       epsRange, frameMs,    frameSize, lesson,  step,       presentation});

    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "epsilonlab: %s\n\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
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
    options.test = parser.value(test);
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
    auto reject = [&](const QString& message) {
        std::fprintf(stderr, "epsilonlab: %s\n", qPrintable(message));
        *exitCode = 2;
        return std::nullopt;
    };
    if (parser.isSet(mechanism)) {
        options.mechanism = parser.value(mechanism);
        if (!inCatalog(options.mechanism.toStdString()))
            return reject(QStringLiteral("bad --mechanism '%1' (%2)").arg(options.mechanism, mechanismNames()));
    }
    options.session = parser.value(session);
    options.view = parser.value(view);
    const ui::ViewType* viewType = ui::findViewType(options.view);
    if (!viewType)
        return reject(QStringLiteral("bad --view '%1' (%2)").arg(options.view, ui::viewIdList()));
    AnimationRequest film;
    if (parser.isSet(epsRange)) {
        const auto range = parseEpsRange(parser.value(epsRange));
        if (!range)
            return reject(
                QStringLiteral("bad --eps-range '%1' (A:B with 0 < A ≤ B, e.g. 0.1:100)").arg(parser.value(epsRange)));
        film.epsMin = range->first;
        film.epsMax = range->second;
    }
    bool ok = false;
    film.frameMs = parser.value(frameMs).toInt(&ok);
    if (!ok || film.frameMs < 20 || film.frameMs > 60'000)
        return reject(QStringLiteral("bad --frame-ms '%1' (20 to 60000)").arg(parser.value(frameMs)));
    const std::optional<QSize> parsedFrameSize = parseSize(parser.value(frameSize));
    if (!parsedFrameSize || parsedFrameSize->width() > 4000 || parsedFrameSize->height() > 4000)
        return reject(QStringLiteral("bad --frame-size '%1' (WxH, 200x150 to 4000x4000)").arg(parser.value(frameSize)));
    film.size = *parsedFrameSize;
    for (const QString& file : parser.values(exportFile)) {
        if (animationFormat(file) != AnimationFormat::Unknown) {
            film.path = file;
            options.animations.push_back(film);
            continue;
        }
        if (file.contains(QLatin1Char('%')) && file.toLower().endsWith(QLatin1String(".png")))
            return reject(
                QStringLiteral("bad --export '%1' (a PNG sequence has one %d or %0Nd, e.g. frame-%03d.png)").arg(file));
        const QString suffix = file.section(QLatin1Char('.'), -1).toLower();
        if (suffix != QLatin1String("svg") && suffix != QLatin1String("pdf") && suffix != QLatin1String("png"))
            return reject(
                QStringLiteral("bad --export '%1' (the name must end in .svg, .pdf, .png or .gif)").arg(file));
        options.exports << file;
    }
    if (!viewType->hasFigures && (!options.exports.isEmpty() || !options.animations.empty()))
        return reject(QStringLiteral("--export needs a view with a figure (the %1 view has none)").arg(options.view));
    if (options.animations.empty())
        for (const QCommandLineOption* o : {&epsRange, &frameMs, &frameSize})
            if (parser.isSet(*o))
                return reject(QStringLiteral("--%1 needs an animation export (--export FILE.gif or FILE-%03d.png)")
                                  .arg(o->names().constFirst()));
    options.dpi = parser.value(dpi).toInt(&ok);
    if (!ok || options.dpi < 24 || options.dpi > 1200)
        return reject(QStringLiteral("bad --dpi '%1' (24 to 1200)").arg(parser.value(dpi)));
    if (parser.isSet(eps)) {
        const QString text = parser.value(eps).trimmed().toLower();
        const double value =
            text == QLatin1String("inf") ? std::numeric_limits<double>::infinity() : text.toDouble(&ok);
        if (text != QLatin1String("inf") && (!ok || !(value > 0.0) || !std::isfinite(value)))
            return reject(QStringLiteral("bad --eps '%1' (a number > 0, or inf)").arg(parser.value(eps)));
        options.eps = value;
    }
    if (parser.isSet(target)) {
        const double value = parser.value(target).toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return reject(QStringLiteral("bad --target '%1' (a number)").arg(parser.value(target)));
        options.target = value;
    }
    for (const QString& name : parser.value(compare).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!inCatalog(name.trimmed().toStdString()))
            return reject(QStringLiteral("bad --compare: unknown mechanism '%1' (%2)").arg(name, mechanismNames()));
        options.compare << name.trimmed();
    }
    if (parser.isSet(bounds)) {
        try {
            options.bounds = core::boundsFromOption(parser.value(bounds).toStdString(), options.data.toStdString());
        } catch (const std::exception& e) {
            return reject(QStringLiteral("bad --bounds: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    if (parser.isSet(privateBounds)) {
        const double value = parser.value(privateBounds).toDouble(&ok);
        if (!ok || !(value > 0.0) || !std::isfinite(value))
            return reject(QStringLiteral("bad --private-bounds '%1' (an ε > 0)").arg(parser.value(privateBounds)));
        options.privateBounds = value;
    }
    options.lesson = parser.value(lesson);
    options.step = parser.value(step).toInt(&ok);
    if (!ok || options.step < 1)
        return reject(QStringLiteral("bad --step '%1' (a step number from 1)").arg(parser.value(step)));
    if (parser.isSet(step) && options.lesson.isEmpty())
        return reject(QStringLiteral("--step needs --lesson"));
    options.presentation = parser.isSet(presentation);
    *exitCode = 0;
    return options;
}

} // namespace elab::ui
