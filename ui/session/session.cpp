#include "ui/session/session.h"

#include "ui/session/session_json.h"

#include "core/data/bounds_file.h"
#include "core/data/load_error.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "ui/views/view_catalog.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <variant>

namespace elab::ui {

namespace detail {

namespace {

Ordered boundsJson(const core::PublicBounds& bounds) {
    return bounds.empty() ? Ordered() : Ordered::parse(core::boundsJsonText(bounds));
}

Ordered privateBoundsJson(const std::optional<core::PrivateBoundsOptions>& p) {
    if (!p)
        return Ordered();
    return {{"epsilon", p->epsilon}, {"tail", p->tail}, {"domain", p->domain}, {"seed", p->seed}};
}

// Sessions written before public bounds (issue 13) have neither key: no bounds.
void readBounds(const Json& d, LoadRequest& request) {
    if (d.contains("bounds") && !d["bounds"].is_null()) {
        try {
            request.bounds = core::parseBounds(d["bounds"].dump(), "dataset.bounds");
        } catch (const core::LoadError& e) {
            fail("dataset.bounds", e.message());
        }
    }
    if (d.contains("private_bounds") && !d["private_bounds"].is_null()) {
        const Json& b = d["private_bounds"];
        const std::string path = "dataset.private_bounds";
        core::PrivateBoundsOptions p;
        p.epsilon = value<double>(b, path, "epsilon");
        p.tail = value<double>(b, path, "tail");
        p.domain = value<double>(b, path, "domain");
        p.seed = value<std::uint64_t>(b, path, "seed");
        if (const std::string problem = p.validate(); !problem.empty())
            fail(path, problem);
        request.privateBounds = p;
    }
}

} // namespace

Ordered sessionJson(const Session& session) {
    Ordered j;
    j["format"] = "epsilonlab-session";
    j["version"] = 1;
    j["app_version"] = EPSILONLAB_VERSION;
    j["dataset"] = {{"spec", session.dataset.spec.toStdString()},
                    {"label", session.dataset.options.csv.labelColumn},
                    {"missing", core::optionName(core::missingPolicyNames(), session.dataset.options.csv.missing)},
                    {"ignore", session.dataset.options.csv.ignoredColumns},
                    {"sha256", session.sha256.toStdString()},
                    {"bounds", boundsJson(session.dataset.bounds)},
                    {"private_bounds", privateBoundsJson(session.dataset.privateBounds)}};
    if (!session.dataset.testSpec.isEmpty()) {
        j["dataset"]["test"] = session.dataset.testSpec.toStdString();
        j["dataset"]["test_sha256"] = session.testSha256.toStdString();
    }
    j["view"] = session.view.toStdString();
    for (const ViewType& type : viewCatalog())
        if (type.writeSettings)
            if (Ordered block = type.writeSettings(session); !block.is_null())
                j[type.id.toStdString()] = std::move(block);
    return j;
}

Ordered preprocessJson(const core::PreprocessOptions& p) {
    return {{"norm", core::optionName(core::normPolicyNames(), p.norm)},
            {"standardise", p.standardise},
            {"intercept", p.intercept},
            {"positive_class", p.positiveClass ? Ordered(*p.positiveClass) : Ordered()}};
}

core::PreprocessOptions preprocessFromJson(const Json& j, const std::string& path) {
    core::PreprocessOptions p;
    p.norm = parseOption(core::normPolicyNames(), path + ".norm", value<std::string>(j, path, "norm"));
    p.standardise = value<bool>(j, path, "standardise");
    p.intercept = value<bool>(j, path, "intercept");
    if (!member(j, path, "positive_class").is_null())
        p.positiveClass = value<std::string>(j, path, "positive_class");
    return p;
}

Ordered mechanismJson(const core::MechanismSpec& m) {
    Ordered j = {{"kind", core::toString(m.kind)},
                 {"loss", core::toString(m.model.loss.kind())},
                 {"huber_width", m.model.loss.huberWidth()},
                 {"temperature", m.model.loss.temperature()},
                 {"lambda", m.model.lambda},
                 {"delta", m.privacy.delta}};
    // Every mechanism's own parameters, whichever is chosen (switching back keeps them).
    for (const core::MechanismInfo& info : core::mechanismCatalog()) {
        if (info.parameters == nullptr)
            continue;
        Ordered block = Ordered::object();
        for (const core::ParameterField& field : info.parameters->fields)
            block[field.key] = std::visit([](const auto& v) { return Ordered(v); }, field.get(m));
        j[info.parameters->id] = std::move(block);
    }
    return j;
}

core::MechanismSpec mechanismFromJson(const Json& j, const std::string& path) {
    core::MechanismSpec m;
    m.kind = parseName(path + ".kind", value<std::string>(j, path, "kind"), core::mechanismKindFromString);
    const core::LossKind loss =
        parseName(path + ".loss", value<std::string>(j, path, "loss"), core::lossKindFromString);
    m.model.loss = core::Loss(loss, value<double>(j, path, "huber_width"), value<double>(j, path, "temperature"));
    m.model.lambda = value<double>(j, path, "lambda");
    m.privacy.delta = value<double>(j, path, "delta");
    for (const core::MechanismInfo& info : core::mechanismCatalog()) {
        const core::ParameterSchema* schema = info.parameters;
        // Sessions written before a mechanism existed have no block of its own: its defaults.
        if (schema == nullptr || !j.contains(schema->id))
            continue;
        const Json& g = member(j, path, schema->id);
        const std::string p = path + "." + schema->id;
        for (const core::ParameterField& field : schema->fields) {
            switch (field.type) {
            case core::ParameterType::Integer: field.set(m, value<long long>(g, p, field.key)); break;
            case core::ParameterType::OptionalCount:
                // Sessions written before the count could be declared have none: not declared.
                if (g.is_object() && g.contains(field.key))
                    field.set(m, value<long long>(g, p, field.key));
                break;
            case core::ParameterType::Real: field.set(m, value<double>(g, p, field.key)); break;
            case core::ParameterType::Choice: {
                // Sessions written before a choice existed (DP-SGD's precision) have none: its default.
                if (!(g.is_object() && g.contains(field.key)))
                    break;
                const std::string name = value<std::string>(g, p, field.key);
                const auto& choices = field.choices;
                if (std::none_of(choices.begin(), choices.end(), [&](const auto& c) { return c.name == name; }))
                    fail(p + "." + field.key, "unknown value '" + name + "' (" + core::choiceNames(field) + ")");
                field.set(m, name);
                break;
            }
            }
        }
        if (std::string problem = schema->validate(m); !problem.empty())
            throw std::runtime_error(p + ": " + problem);
    }
    return m;
}

Ordered exportHeader(const QString& figureFile) {
    Ordered e;
    e["figure"] = QFileInfo(figureFile).fileName().toStdString();
    e["created_utc"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    return e;
}

Ordered jsonNumber(double v) { return std::isfinite(v) ? Ordered(v) : Ordered(); }

} // namespace detail

nlohmann::json Session::settingsBlock(const QString& id) const {
    const auto it = viewSettings.constFind(id);
    return it == viewSettings.cend() ? nlohmann::json() : nlohmann::json::parse(it->toStdString());
}

void Session::setSettingsBlock(const QString& id, const nlohmann::ordered_json& block) {
    viewSettings[id] = QByteArray::fromStdString(block.dump());
}

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
        if (const auto policy = core::fromOptionName(core::missingPolicyNames(), missing))
            s.dataset.options.csv.missing = *policy;
        else
            throw std::runtime_error("dataset.missing: unknown value '" + missing + "'");
        s.sha256 = QString::fromStdString(detail::value<std::string>(d, "dataset", "sha256"));
        // The columns left out of the features (the Data tab's unticked ones; none in sessions
        // written before the tick existed).
        if (d.contains("ignore")) {
            const Json& ignore = d["ignore"];
            if (!ignore.is_array())
                throw std::runtime_error("dataset.ignore: expected a list of column names");
            for (const Json& name : ignore) {
                if (!name.is_string() || name.get<std::string>().empty())
                    throw std::runtime_error("dataset.ignore: expected a list of column names");
                s.dataset.options.csv.ignoredColumns.push_back(name.get<std::string>());
            }
        }
        if (d.contains("test")) { // the test file, when one was loaded
            s.dataset.testSpec = QString::fromStdString(detail::value<std::string>(d, "dataset", "test"));
            if (s.dataset.testSpec.isEmpty())
                throw std::runtime_error("dataset.test: empty (leave the key out for no test file)");
            if (d.contains("test_sha256"))
                s.testSha256 = QString::fromStdString(detail::value<std::string>(d, "dataset", "test_sha256"));
        }
        detail::readBounds(d, s.dataset);
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
