#include "ui/views/accounting/accounting_settings.h"

#include "ui/session/session.h"
#include "ui/session/session_json.h"

#include <cmath>

namespace elab::ui {

namespace {
const QString kAccountingId = QStringLiteral("accounting");
}

core::AccountingInputs AccountingSettings::inputs(long long datasetRows) const {
    core::AccountingInputs in;
    in.rows = rows > 0 ? rows : datasetRows;
    in.batchSize = batchSize;
    in.epochs = epochs;
    in.delta = delta;
    in.eps = currentEps;
    in.accountant = accountant;
    in.nPublic = nPublic;
    return in;
}

namespace detail {

nlohmann::ordered_json toJson(const AccountingSettings& s) {
    return {{"rows", s.rows},        {"batch_size", s.batchSize},
            {"epochs", s.epochs},    {"delta", s.delta},
            {"eps", s.currentEps},   {"accountant", core::toString(s.accountant)},
            {"n_public", s.nPublic}, {"follow_utility", s.followUtility}};
}

AccountingSettings accountingSettingsFromJson(const nlohmann::json& j) {
    const std::string path = "accounting";
    AccountingSettings s;
    s.rows = value<long long>(j, path, "rows");
    s.batchSize = value<double>(j, path, "batch_size");
    s.epochs = value<int>(j, path, "epochs");
    s.delta = value<double>(j, path, "delta");
    s.currentEps = value<double>(j, path, "eps");
    s.accountant =
        parseName(path + ".accountant", value<std::string>(j, path, "accountant"), core::accountantKindFromString);
    if (j.contains("n_public")) // sessions written before N could be declared public have none: not declared
        s.nPublic = value<bool>(j, path, "n_public");
    // Sessions written before the tab could follow the Utility tab keep their own settings.
    s.followUtility = j.contains("follow_utility") && value<bool>(j, path, "follow_utility");
    if (s.rows < 0)
        throw std::runtime_error(path + ".rows: must be ≥ 0 (0: the dataset's)");
    core::AccountingInputs in = s.inputs(s.rows > 0 ? s.rows : 1);
    if (std::string e = in.validate(); !e.empty())
        throw std::runtime_error(path + ": " + e);
    return s;
}

} // namespace detail

std::optional<AccountingSettings> accountingSettingsOf(const Session& session) {
    const nlohmann::json block = session.settingsBlock(kAccountingId);
    return block.is_null() ? std::nullopt : std::optional(detail::accountingSettingsFromJson(block));
}

void storeAccountingSettings(Session& session, const AccountingSettings& settings) {
    session.setSettingsBlock(kAccountingId, detail::toJson(settings));
}

} // namespace elab::ui
