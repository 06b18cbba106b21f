// libFuzzer target for session files (ui/session/session.h), built when the GUI is (the parser
// needs Qt and the registered views). It does what File ▸ Open session does with the bytes,
// without windows: parse and check them (sessionFromJson), then, as when the session's dataset is
// shown, read every view's settings block into its settings struct (the ...SettingsOf functions
// the views' restoreSettings apply). A crash, a sanitizer report or an escaping exception is a
// bug, and so is: a rejected file without a message; an accepted file whose blocks then fail to
// read or give settings that do not validate; and settings that, saved as the window saves them
// (store...Settings, sessionToJson) and opened again, do not come back the same.

#include "ui/session/session.h"
#include "ui/views/accounting/accounting_settings.h"
#include "ui/views/audit/audit_settings_json.h"
#include "ui/views/ptr/ptr_settings.h"
#include "ui/views/regions/regions_settings_json.h"
#include "ui/views/stability/stability_settings_json.h"
#include "ui/views/utility/utility_settings_json.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>

namespace {

using namespace elab;
using elab::ui::Session;

[[noreturn]] void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz_session: %s\n", what.c_str());
    std::abort();
}

// Every view's settings as the window holds them after opening the session.
struct Applied {
    ui::UtilitySettings utility;
    ui::StabilitySettings stability;
    std::optional<ui::RegionsSettings> regions;
    std::optional<ui::AccountingSettings> accounting;
    std::optional<ui::AuditSettings> audit;
    std::optional<ui::PtrSettings> ptr;
};

Applied apply(const Session& s, const char* when) {
    Applied a;
    try {
        a.utility = ui::utilitySettingsOf(s);
        a.stability = ui::stabilitySettingsOf(s);
        a.regions = ui::regionsSettingsOf(s);
        a.accounting = ui::accountingSettingsOf(s);
        a.audit = ui::auditSettingsOf(s);
        a.ptr = ui::ptrSettingsOf(s);
    } catch (const std::exception& e) {
        bug(std::string(when) + ": a checked session's settings block does not read: " + e.what());
    }
    const auto valid = [when](const std::string& view, const std::string& problem) {
        if (!problem.empty())
            bug(std::string(when) + ": the " + view + " settings of a checked session do not validate: " + problem);
    };
    valid("utility", a.utility.validate());
    valid("stability", a.stability.validate());
    if (a.regions)
        valid("regions", a.regions->validate());
    if (a.audit)
        valid("audit", a.audit->validate());
    if (a.ptr)
        valid("ptr", a.ptr->validate());
    return a;
}

// What Save session writes for a window showing these settings (SessionActions::currentSession).
Session saved(const Session& opened, const Applied& a) {
    Session s;
    s.dataset = opened.dataset;
    s.sha256 = opened.sha256;
    s.view = opened.view;
    ui::storeUtilitySettings(s, a.utility);
    ui::storeStabilitySettings(s, a.stability);
    if (a.regions)
        ui::storeRegionsSettings(s, *a.regions);
    if (a.accounting)
        ui::storeAccountingSettings(s, *a.accounting);
    if (a.audit)
        ui::storeAuditSettings(s, *a.audit);
    if (a.ptr)
        ui::storePtrSettings(s, *a.ptr);
    return s;
}

template <typename T>
void same(const std::optional<T>& first, const std::optional<T>& again, const char* view) {
    if (first && !(again && *again == *first))
        bug(std::string("the ") + view + " settings read back differently after saving");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QString error;
    const std::optional<Session> opened = ui::sessionFromJson(bytes, &error);
    if (!opened) {
        if (error.isEmpty())
            bug("a session was rejected without a message");
        return 0;
    }
    const Applied first = apply(*opened, "on opening");

    QByteArray written;
    try {
        written = ui::sessionToJson(saved(*opened, first));
    } catch (const std::exception& e) {
        bug(std::string("saving an opened session threw: ") + e.what());
    }
    const std::optional<Session> reopened = ui::sessionFromJson(written, &error);
    if (!reopened)
        bug("a saved session does not open: " + error.toStdString() + "\n" + written.toStdString());
    const Session& a = *opened;
    const Session& b = *reopened;
    if (b.dataset.spec != a.dataset.spec || b.dataset.options.csv.labelColumn != a.dataset.options.csv.labelColumn ||
        b.dataset.options.csv.missing != a.dataset.options.csv.missing || b.sha256 != a.sha256 ||
        !(b.dataset.bounds == a.dataset.bounds) || b.view != a.view)
        bug("the dataset or view read back differently after saving:\n" + written.toStdString());
    if (a.dataset.privateBounds.has_value() != b.dataset.privateBounds.has_value())
        bug("the private bounds were lost or added by saving");
    if (const auto& p = a.dataset.privateBounds) {
        const auto& q = *b.dataset.privateBounds;
        if (q.epsilon != p->epsilon || q.tail != p->tail || q.domain != p->domain || q.seed != p->seed)
            bug("the private bounds read back differently after saving");
    }
    Applied again = apply(b, "after saving");
    if (first.utility.secretSeed && again.utility.secretSeed)
        again.utility.seed = first.utility.seed; // a private release draws a new secret seed on every opening
    if (!(again.utility == first.utility))
        bug("the utility settings read back differently after saving:\n" + written.toStdString());
    if (!(again.stability == first.stability))
        bug("the stability settings read back differently after saving");
    same(first.regions, again.regions, "regions");
    same(first.accounting, again.accounting, "accounting");
    same(first.audit, again.audit, "audit");
    same(first.ptr, again.ptr, "ptr");
    return 0;
}
