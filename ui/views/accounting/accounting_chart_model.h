#pragma once
// The Privacy accounting view's figures and texts, pure functions of its settings and curves
// (the live view and every export draw the same): ε against σ for every accountant (log
// axes) with the current σ and ε marked and the σ each accountant needs; ε spent epoch by epoch
// at the current σ; the table of σ per accountant; the readout at a hovered σ. Any thread.

#include "ui/charts/chart_data.h"
#include "ui/views/accounting/accounting_settings.h"

#include <QString>

namespace elab::ui {

/// The colour and pen of accountant k's curves (the published zCDP procedure dashed: not a proof).
QColor accountantColor(core::AccountantKind kind);

/// held: the slider's handle is held. The texts that state ε or σ (the epoch chart's title, the
/// legend names of the target ε and the current σ) then leave the number out, so that the charts
/// are not laid out again for every step of a drag (the table and readout state them); the
/// curves, lines and markers are the same.
charts::ChartData buildSigmaChart(const AccountingSettings& settings, const core::AccountingCurves* curves,
                                  bool held = false);
charts::ChartData buildEpochChart(const AccountingSettings& settings, const core::AccountingCurves* curves,
                                  bool held = false);
/// The table (rich text): per accountant, σ for the current ε, the ε RDP proves for that σ, and
/// the noise it costs relative to RDP.
/// With sweep and costs (per kAccountants entry, computed by AccountingController): a column of
/// what each accountant's σ costs in the sweep's metric at the current ε.
QString accountingTableHtml(const core::AccountingCurves* curves, const SweepForCost* sweep = nullptr,
                            const std::vector<core::UtilityCost>* costs = nullptr);
/// "" when every accountant found its σ; else which did not (no σ ≤ kMaxCalibratedSigma reaches
/// the current ε) and what is not drawn for it, for the status line.
QString accountingUnreached(const core::AccountingCurves& curves);
/// Plain text for one σ: ε by every accountant, computed exactly at q, T, δ of curves.
QString accountingReadout(const core::AccountingCurves& curves, double sigma);
/// The assumptions every number here rests on (adjacency, sampling, what σ is).
QString accountingAssumptions(const core::AccountingCurves* curves);

} // namespace elab::ui
