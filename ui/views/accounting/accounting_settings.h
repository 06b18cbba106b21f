#pragma once
// What the Privacy accounting view is set to (issue 12): the DP-SGD schedule that fixes q and T
// (training rows N — 0: the loaded dataset's — expected batch size S, epochs), δ, the slider's
// ε, the accountant that calibrates the current σ, and whether N is declared public (add/remove)
// or not (replace-one at that N). Its session block is "accounting".

#include "core/learner/sgd_spec.h"
#include "core/privacy/accounting_curves.h"
#include "core/privacy/utility_cost.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace elab::ui {

struct Session;

struct AccountingSettings {
    long long rows = 0;       ///< N; 0: the training rows of the loaded dataset
    double batchSize = 100.0; ///< S
    int epochs = 100;
    double delta = 1e-5;
    double currentEps = 1.0;                                      ///< the slider (finite)
    core::AccountantKind accountant = core::SgdSpec{}.accountant; ///< DP-SGD's default
    bool nPublic = false; ///< N declared public: add/remove; else replace-one at the fixed N
    /// N, S, epochs, δ, accountant and N's adjacency follow the Utility tab's DP-SGD settings
    /// (when its mechanism trains in epochs); editing one of them detaches the tab.
    bool followUtility = true;

    bool operator==(const AccountingSettings&) const = default;
    /// The core's inputs with N = rows, or datasetRows when rows is 0.
    core::AccountingInputs inputs(long long datasetRows) const;
};

/// A measured DP-SGD sweep (the Utility tab's) to read the utility cost of each accountant off.
struct SweepForCost {
    core::MeasuredCurve curve;
    core::AccountantKind accountant = core::AccountantKind::Rdp; ///< the one the sweep calibrated with
    core::SgdPrivacyParams schedule;                             ///< the sweep's q, T, δ
    bool nPublic = false;                                        ///< the sweep's N declared public (add/remove)
    bool higherIsBetter = true;
    QString metric;      ///< "test accuracy", …
    QString description; ///< its schedule in words

    bool operator==(const SweepForCost& o) const {
        return curve.eps == o.curve.eps && curve.value == o.curve.value && accountant == o.accountant &&
               schedule.q == o.schedule.q && schedule.steps == o.schedule.steps && schedule.delta == o.schedule.delta &&
               nPublic == o.nPublic && higherIsBetter == o.higherIsBetter && metric == o.metric &&
               description == o.description;
    }
};

namespace detail {
nlohmann::ordered_json toJson(const AccountingSettings& s);
/// Throws std::runtime_error naming the field ("accounting.epochs: …").
AccountingSettings accountingSettingsFromJson(const nlohmann::json& j);
} // namespace detail

std::optional<AccountingSettings> accountingSettingsOf(const Session& session);
void storeAccountingSettings(Session& session, const AccountingSettings& settings);

} // namespace elab::ui
