#include "ui/views/stability/stability_export.h"

#include "ui/session/session_json.h"

#include <cmath>

namespace elab::ui {

namespace {

using Ordered = nlohmann::ordered_json;

using detail::jsonNumber;

} // namespace

QByteArray stabilitySidecarJson(const Session& session, const StabilityState& state, const QString& figureFile) {
    Ordered j = detail::sessionJson(session);
    Ordered e = detail::exportHeader(figureFile);
    e["removal"] = core::toString(state.removal);
    e["rho"] = state.rho;
    Ordered methods = Ordered::array();
    for (std::size_t m = 0; m < state.methods.size(); ++m) {
        Ordered te = Ordered::array(), ts = Ordered::array(), me = Ordered::array(), ms = Ordered::array();
        for (std::size_t g = 0; g < state.rho.size(); ++g) {
            const core::StabilityCell* c = state.cell(g, m);
            te.push_back(c ? jsonNumber(c->testError.mean) : Ordered());
            ts.push_back(c ? jsonNumber(c->testError.sd) : Ordered());
            me.push_back(c ? jsonNumber(c->marginalError.mean) : Ordered());
            ms.push_back(c ? jsonNumber(c->marginalError.sd) : Ordered());
        }
        Ordered method = {{"method", core::toString(state.methods[m])},
                          {"test_error", {{"mean", te}, {"sd", ts}}},
                          {"marginal_error", {{"mean", me}, {"sd", ms}}}};
        if (const core::MethodBaseline* b = state.baseline(state.methods[m]))
            method["chosen_mu"] = b->method == core::StabilityMethod::L2 ? jsonNumber(b->mu) : Ordered();
        methods.push_back(method);
    }
    e["methods"] = methods;
    e["complete"] = state.complete;
    j["export"] = e;
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QStringList exportStabilityFigure(const charts::ChartData& chart, const Session& session, const StabilityState& state,
                                  const FigureExport& request, QString* error) {
    return writeFigure(chart, request.withSidecar ? stabilitySidecarJson(session, state, request.path) : QByteArray(),
                       request, error);
}

} // namespace elab::ui
