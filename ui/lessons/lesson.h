#pragma once
// A lesson: a short sequence of steps a teacher walks through in front of a class, each a saved
// session (ui/session/session.h: dataset, view, every setting, ε) with a caption. JSON on disk:
//   {"format": "epsilonlab-lesson", "version": 1, "title": "What ε means",
//    "steps": [{"caption": "…", "session": {…a session object…}}, …]}
// Built-in lessons are Qt resources (resources/lessons/NAME.json), opened as "builtin:NAME".
// Any thread (plain values).

#include "ui/session/session.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace elab::ui {

struct LessonStep {
    QString caption; ///< one to three sentences, shown on screen while the step is shown
    Session session;
};

struct Lesson {
    QString title;
    std::vector<LessonStep> steps;

    /// The longest caption a step may have: a caption is read from across a room.
    static constexpr int kMaxCaption = 400;
};

/// Pretty-printed JSON (UTF-8).
QByteArray lessonToJson(const Lesson& lesson);

/// Parses and checks every step (its caption and its session, as File ▸ Open session does); on
/// any problem nullopt and *error names origin and the step: "intro.json: step 3: session:
/// utility.repeats: expected an integer". Nothing is applied here.
std::optional<Lesson> lessonFromJson(const QByteArray& json, const QString& origin, QString* error);

/// Reads a lesson file, or a built-in one ("builtin:what-eps-means"); errors name it.
std::optional<Lesson> readLesson(const QString& pathOrBuiltin, QString* error);
/// Writes atomically (QSaveFile); false with *error on failure.
bool writeLessonFile(const QString& path, const Lesson& lesson, QString* error);

/// The built-in lessons' names, in teaching order ("what-eps-means", …).
QStringList builtinLessonNames();

} // namespace elab::ui
