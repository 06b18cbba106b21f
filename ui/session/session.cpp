#include "ui/session/session.h"

#include "ui/session/session_json.h"
#include "ui/views/view_catalog.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cmath>
#include <stdexcept>

namespace elab::ui {

namespace detail {

namespace {

using Json = nlohmann::json;
using Ordered = nlohmann::ordered_json;

const char* normName(core::NormPolicy n) {
    switch (n) {
    case core::NormPolicy::ClipRows: return "clip";
    case core::NormPolicy::ScaleByMaxNorm: return "max";
    case core::NormPolicy::None: return "none";
    }
    return "clip";
}

const char* missingName(core::MissingPolicy m) {
    switch (m) {
    case core::MissingPolicy::DropRows: return "drop";
    case core::MissingPolicy::ImputeMean: return "mean";
    case core::MissingPolicy::ImputeMostFrequent: return "most-frequent";
    }
    return "drop";
}

[[noreturn]] void fail(const std::string& field, const std::string& what) { throw std::runtime_error(field + ": " + what); }

const Json& member(const Json& j, const std::string& path, const char* key) {
    if (!j.is_object())
        fail(path, "expected an object");
    const auto it = j.find(key);
    if (it == j.end())
        fail(path.empty() ? key : path + "." + key, "missing");
    return *it;
}

template <typename T>
T value(const Json& j, const std::string& path, const char* key) {
    const Json& v = member(j, path, key);
    const std::string field = path + "." + key;
    try {
        if constexpr (std::is_same_v<T, double>) {
            if (!v.is_number())
                fail(field, "expected a number");
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean())
                fail(field, "expected true or false");
        } else if constexpr (std::is_integral_v<T>) {
            if (!v.is_number_integer())
                fail(field, "expected an integer");
        } else {
            if (!v.is_string())
                fail(field, "expected a string");
        }
        return v.get<T>();
    } catch (const nlohmann::json::exception& e) {
        fail(field, e.what());
    }
}

/// ε as JSON: a number, or "inf" for the non-private stop (JSON has no infinity).
Ordered epsJson(double eps) { return std::isinf(eps) ? Ordered("inf") : Ordered(eps); }

template <typename F>
auto parseName(const std::string& field, const std::string& name, F parse) {
    try {
        return parse(name);
    } catch (const std::exception&) {
        fail(field, "unknown value '" + name + "'");
    }
}

} // namespace

Ordered toJson(const UtilitySettings& s) {
    Ordered j;
    j["preprocess"] = {{"norm", normName(s.preprocess.norm)},
                       {"standardise", s.preprocess.standardise},
                       {"intercept", s.preprocess.intercept},
                       {"positive_class", s.preprocess.positiveClass ? Ordered(*s.preprocess.positiveClass) : Ordered()}};
    j["test_fraction"] = s.testFraction;
    j["mechanism"] = {{"kind", core::toString(s.mechanism.kind)},
                      {"loss", core::toString(s.mechanism.loss.kind())},
                      {"huber_width", s.mechanism.loss.huberWidth()},
                      {"temperature", s.mechanism.loss.temperature()},
                      {"lambda", s.mechanism.lambda},
                      {"delta", s.mechanism.delta}};
    j["metric"] = core::toString(s.metric);
    j["repeats"] = s.repeats;
    j["seed"] = s.seed;
    j["grid"] = {{"eps_min", s.epsMin}, {"eps_max", s.epsMax}, {"points", s.gridPoints}};
    j["measure_at"] = s.measureAt;
    Ordered estimators = Ordered::array();
    for (core::Estimator e : s.estimators)
        estimators.push_back(core::toString(e));
    j["estimators"] = estimators;
    j["current_eps"] = epsJson(s.currentEps);
    j["target"] = s.target ? Ordered(*s.target) : Ordered();
    return j;
}

UtilitySettings utilitySettingsFromJson(const Json& j) {
    const std::string u = "utility";
    UtilitySettings s;
    const Json& pre = member(j, u, "preprocess");
    const std::string norm = value<std::string>(pre, u + ".preprocess", "norm");
    if (norm == "clip")
        s.preprocess.norm = core::NormPolicy::ClipRows;
    else if (norm == "max")
        s.preprocess.norm = core::NormPolicy::ScaleByMaxNorm;
    else if (norm == "none")
        s.preprocess.norm = core::NormPolicy::None;
    else
        fail(u + ".preprocess.norm", "unknown value '" + norm + "' (clip, max or none)");
    s.preprocess.standardise = value<bool>(pre, u + ".preprocess", "standardise");
    s.preprocess.intercept = value<bool>(pre, u + ".preprocess", "intercept");
    const Json& positive = member(pre, u + ".preprocess", "positive_class");
    if (!positive.is_null())
        s.preprocess.positiveClass = value<std::string>(pre, u + ".preprocess", "positive_class");
    s.testFraction = value<double>(j, u, "test_fraction");

    const Json& m = member(j, u, "mechanism");
    const std::string mp = u + ".mechanism";
    s.mechanism.kind = parseName(mp + ".kind", value<std::string>(m, mp, "kind"), core::mechanismKindFromString);
    const core::LossKind loss = parseName(mp + ".loss", value<std::string>(m, mp, "loss"), core::lossKindFromString);
    s.mechanism.loss = core::Loss(loss, value<double>(m, mp, "huber_width"), value<double>(m, mp, "temperature"));
    s.mechanism.lambda = value<double>(m, mp, "lambda");
    s.mechanism.delta = value<double>(m, mp, "delta");
    s.metric = parseName(u + ".metric", value<std::string>(j, u, "metric"), core::utilityMetricFromString);
    s.repeats = value<int>(j, u, "repeats");
    s.seed = value<std::uint64_t>(j, u, "seed");
    const Json& grid = member(j, u, "grid");
    s.epsMin = value<double>(grid, u + ".grid", "eps_min");
    s.epsMax = value<double>(grid, u + ".grid", "eps_max");
    s.gridPoints = value<int>(grid, u + ".grid", "points");
    s.measureAt.clear();
    for (const Json& e : member(j, u, "measure_at")) {
        if (!e.is_number())
            fail(u + ".measure_at", "expected numbers");
        s.measureAt.push_back(e.get<double>());
    }
    s.estimators.clear();
    for (const Json& e : member(j, u, "estimators")) {
        if (!e.is_string())
            fail(u + ".estimators", "expected names");
        s.estimators.push_back(parseName(u + ".estimators", e.get<std::string>(), core::estimatorFromString));
    }
    const Json& current = member(j, u, "current_eps");
    if (current.is_string() && current.get<std::string>() == "inf")
        s.currentEps = UtilitySettings::nonPrivateEps();
    else
        s.currentEps = value<double>(j, u, "current_eps");
    const Json& target = member(j, u, "target");
    if (!target.is_null())
        s.target = value<double>(j, u, "target");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(u, problem);
    return s;
}

Ordered toJson(const StabilitySettings& s) {
    Ordered j;
    j["model"] = s.model == StabilityModelChoice::FromTask ? "auto"
                 : s.model == StabilityModelChoice::Logistic ? "logistic"
                                                             : "linear";
    Ordered methods = Ordered::array();
    for (core::StabilityMethod m : s.methods)
        methods.push_back(core::toString(m));
    j["methods"] = methods;
    j["dropout_rate"] = s.dropoutRate;
    j["removal"] = core::toString(s.removal);
    j["rho"] = {{"min", s.rhoMin}, {"max", s.rhoMax}, {"points", s.rhoPoints}};
    j["repeats"] = s.repeats;
    j["seed"] = s.seed;
    j["test_fraction"] = s.testFraction;
    j["positive_class"] = s.positiveClass ? Ordered(*s.positiveClass) : Ordered();
    j["stability_samples"] = s.stabilitySamples;
    return j;
}

StabilitySettings stabilitySettingsFromJson(const Json& j) {
    const std::string st = "stability";
    StabilitySettings s;
    const std::string model = value<std::string>(j, st, "model");
    if (model == "auto")
        s.model = StabilityModelChoice::FromTask;
    else if (model == "logistic")
        s.model = StabilityModelChoice::Logistic;
    else if (model == "linear")
        s.model = StabilityModelChoice::Linear;
    else
        fail(st + ".model", "unknown value '" + model + "' (auto, logistic or linear)");
    s.methods.clear();
    for (const Json& m : member(j, st, "methods")) {
        if (!m.is_string())
            fail(st + ".methods", "expected names");
        s.methods.push_back(parseName(st + ".methods", m.get<std::string>(), core::stabilityMethodFromString));
    }
    s.dropoutRate = value<double>(j, st, "dropout_rate");
    s.removal = parseName(st + ".removal", value<std::string>(j, st, "removal"), core::removalKindFromString);
    const Json& rho = member(j, st, "rho");
    s.rhoMin = value<double>(rho, st + ".rho", "min");
    s.rhoMax = value<double>(rho, st + ".rho", "max");
    s.rhoPoints = value<int>(rho, st + ".rho", "points");
    s.repeats = value<int>(j, st, "repeats");
    s.seed = value<std::uint64_t>(j, st, "seed");
    s.testFraction = value<double>(j, st, "test_fraction");
    const Json& positive = member(j, st, "positive_class");
    if (!positive.is_null())
        s.positiveClass = value<std::string>(j, st, "positive_class");
    s.stabilitySamples = value<int>(j, st, "stability_samples");
    if (const std::string problem = s.validate(); !problem.empty())
        fail(st, problem);
    return s;
}

Ordered sessionJson(const Session& session) {
    Ordered j;
    j["format"] = "epsilonlab-session";
    j["version"] = 1;
    j["app_version"] = EPSILONLAB_VERSION;
    j["dataset"] = {{"spec", session.dataset.spec.toStdString()},
                    {"label", session.dataset.options.csv.labelColumn},
                    {"missing", missingName(session.dataset.options.csv.missing)},
                    {"sha256", session.sha256.toStdString()}};
    j["view"] = session.view.toStdString();
    for (const ViewType& type : viewCatalog())
        if (type.writeSettings)
            j[type.id.toStdString()] = type.writeSettings(session);
    return j;
}

Ordered exportHeader(const QString& figureFile) {
    Ordered e;
    e["figure"] = QFileInfo(figureFile).fileName().toStdString();
    e["created_utc"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    return e;
}

Ordered jsonNumber(double v) { return std::isfinite(v) ? Ordered(v) : Ordered(); }

} // namespace detail

QByteArray sessionToJson(const Session& session) {
    return QByteArray::fromStdString(detail::sessionJson(session).dump(2) + "\n");
}

std::optional<Session> sessionFromJson(const QByteArray& json, QString* error) {
    using detail::Json;
    try {
        const Json j = Json::parse(json.constData(), json.constData() + json.size());
        if (!j.is_object() || !j.contains("format") || j["format"] != "epsilonlab-session")
            throw std::runtime_error("not an EpsilonLab session (no \"format\": \"epsilonlab-session\")");
        if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
            throw std::runtime_error("version: this EpsilonLab reads session version 1");
        Session s;
        const Json& d = detail::member(j, "", "dataset");
        s.dataset.spec = QString::fromStdString(detail::value<std::string>(d, "dataset", "spec"));
        if (s.dataset.spec.isEmpty())
            throw std::runtime_error("dataset.spec: empty");
        s.dataset.options.csv.labelColumn = detail::value<std::string>(d, "dataset", "label");
        const std::string missing = detail::value<std::string>(d, "dataset", "missing");
        if (missing == "drop")
            s.dataset.options.csv.missing = core::MissingPolicy::DropRows;
        else if (missing == "mean")
            s.dataset.options.csv.missing = core::MissingPolicy::ImputeMean;
        else if (missing == "most-frequent")
            s.dataset.options.csv.missing = core::MissingPolicy::ImputeMostFrequent;
        else
            throw std::runtime_error("dataset.missing: unknown value '" + missing + "'");
        s.sha256 = QString::fromStdString(detail::value<std::string>(d, "dataset", "sha256"));
        s.view = QString::fromStdString(detail::value<std::string>(j, "", "view"));
        if (!findViewType(s.view))
            throw std::runtime_error("view: unknown view '" + s.view.toStdString() + "'");
        for (const ViewType& type : viewCatalog()) {
            if (!type.readSettings)
                continue;
            const std::string key = type.id.toStdString();
            if (type.settingsRequired || j.contains(key))
                type.readSettings(detail::member(j, "", key.c_str()), s);
        }
        return s;
    } catch (const std::exception& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return std::nullopt;
    }
}

std::optional<Session> readSessionFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QString problem;
    auto session = sessionFromJson(file.readAll(), &problem);
    if (!session && error)
        *error = QStringLiteral("%1: %2").arg(path, problem);
    return session;
}

bool writeSessionFile(const QString& path, const Session& session, QString* error) {
    QSaveFile file(path);
    const QByteArray bytes = sessionToJson(session);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace elab::ui
