#include "ui/lessons/lesson.h"

#include "ui/session/session_json.h"

#include <QFile>
#include <QSaveFile>

#include <stdexcept>
#include <string>

namespace elab::ui {

namespace {

using detail::Json;
using detail::Ordered;

constexpr const char* kFormat = "epsilonlab-lesson";
const QString kBuiltinPrefix = QStringLiteral("builtin:");

/// A step's problem: "step N: what" (N from 1, as the window counts them).
[[noreturn]] void failStep(std::size_t index, const std::string& what) {
    throw std::runtime_error("step " + std::to_string(index + 1) + ": " + what);
}

LessonStep stepFromJson(const Json& j, std::size_t index) {
    if (!j.is_object())
        failStep(index, "expected an object with \"caption\" and \"session\"");
    LessonStep step;
    const auto caption = j.find("caption");
    if (caption == j.end() || !caption->is_string())
        failStep(index, "caption: expected a string");
    step.caption = QString::fromStdString(caption->get<std::string>()).trimmed();
    if (step.caption.isEmpty())
        failStep(index, "caption: empty");
    if (step.caption.size() > Lesson::kMaxCaption)
        failStep(index, "caption: " + std::to_string(step.caption.size()) + " characters, at most " +
                            std::to_string(Lesson::kMaxCaption));
    const auto session = j.find("session");
    if (session == j.end() || !session->is_object())
        failStep(index, "session: expected a session object");
    QString problem;
    auto parsed = sessionFromJson(QByteArray::fromStdString(session->dump()), &problem);
    if (!parsed)
        failStep(index, "session: " + problem.toStdString());
    step.session = std::move(*parsed);
    return step;
}

} // namespace

QByteArray lessonToJson(const Lesson& lesson) {
    Ordered j;
    j["format"] = kFormat;
    j["version"] = 1;
    j["title"] = lesson.title.toStdString();
    Ordered steps = Ordered::array();
    for (const LessonStep& step : lesson.steps)
        steps.push_back(
            Ordered{{"caption", step.caption.toStdString()}, {"session", detail::sessionJson(step.session)}});
    j["steps"] = std::move(steps);
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

std::optional<Lesson> lessonFromJson(const QByteArray& json, const QString& origin, QString* error) {
    try {
        Json j;
        try {
            j = Json::parse(json.constData(), json.constData() + json.size());
        } catch (const nlohmann::json::parse_error& e) {
            throw std::runtime_error("not JSON (" + std::string(e.what()) + ")");
        }
        if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
            throw std::runtime_error("not an EpsilonLab lesson (no \"format\": \"epsilonlab-lesson\")");
        if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
            throw std::runtime_error("version: this EpsilonLab reads lesson version 1");
        Lesson lesson;
        if (!j.contains("title") || !j["title"].is_string())
            throw std::runtime_error("title: expected a string");
        lesson.title = QString::fromStdString(j["title"].get<std::string>());
        if (!j.contains("steps") || !j["steps"].is_array() || j["steps"].empty())
            throw std::runtime_error("steps: expected a list of at least one step");
        const Json& steps = j["steps"];
        for (std::size_t i = 0; i < steps.size(); ++i)
            lesson.steps.push_back(stepFromJson(steps[i], i));
        return lesson;
    } catch (const std::exception& e) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(origin, QString::fromUtf8(e.what()));
        return std::nullopt;
    }
}

std::optional<Lesson> readLesson(const QString& pathOrBuiltin, QString* error) {
    const bool builtin = pathOrBuiltin.startsWith(kBuiltinPrefix);
    const QString name = pathOrBuiltin.mid(kBuiltinPrefix.size());
    if (builtin && !builtinLessonNames().contains(name)) {
        if (error)
            *error = QStringLiteral("%1: no such built-in lesson (%2)")
                         .arg(pathOrBuiltin, builtinLessonNames().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    QFile file(builtin ? QStringLiteral(":/lessons/%1.json").arg(name) : pathOrBuiltin);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(pathOrBuiltin, file.errorString());
        return std::nullopt;
    }
    return lessonFromJson(file.readAll(), pathOrBuiltin, error);
}

bool writeLessonFile(const QString& path, const Lesson& lesson, QString* error) {
    QSaveFile file(path);
    const QByteArray bytes = lessonToJson(lesson);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QStringList builtinLessonNames() {
    return {QStringLiteral("what-eps-means"), QStringLiteral("why-rows-are-clipped"), QStringLiteral("ten-draws"),
            QStringLiteral("the-accountant"), QStringLiteral("checking-a-claim")};
}

} // namespace elab::ui
