#pragma once
// Every colour a chart uses to tell things apart, and the sets shown together in one chart.
// Checked for colour-blind readers: each set's colours differ by ΔE*ab ≥ 15 (CIELAB) in normal
// vision and under simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira &
// Fernandes 2009, severity 1) — tests/ui/test_palettes.cpp, scripts/cvd_check.py, and
// docs/user-guide.md ("Colours"). The colours are literals here so that the script can read them.
// Any thread (constants).

#include <QRgb>

#include <array>
#include <string>
#include <vector>

namespace elab::ui::charts::palette {

// Okabe & Ito (2008), "Color Universal Design".
inline constexpr QRgb kBlue = 0x0072B2;
inline constexpr QRgb kVermillion = 0xD55E00;
inline constexpr QRgb kBluishGreen = 0x009E73;
inline constexpr QRgb kReddishPurple = 0xCC79A7;
inline constexpr QRgb kOrange = 0xE69F00;
inline constexpr QRgb kSkyBlue = 0x56B4E9;
inline constexpr QRgb kBlack = 0x000000;
inline constexpr QRgb kYellow = 0xF0E442;
/// Reference lines (the slider's ε) and what is shown but not proved (zCDP as published).
inline constexpr QRgb kReference = 0x606060;
/// Never used alone for meaning: a row not audited, a neutral grey.
inline constexpr QRgb kNeutral = 0x969696;
/// Points where utility gets worse as ε grows (a warning).
inline constexpr QRgb kMagenta = 0xFF00FF;
/// Theory's bound on the utility curve.
inline constexpr QRgb kDarkRed = 0x7B0000;
/// The fifth compared mechanism's curve.
inline constexpr QRgb kBrown = 0x563C14;
/// The stability view's "no regularisation" curve.
inline constexpr QRgb kDarkGrey = 0x5A5A5A;
// The audit's two score histograms (without / with the canary).
inline constexpr QRgb kAuditOut = 0x1F77B4;
inline constexpr QRgb kAuditIn = 0xFF7F0E;
// The Data tab's norm histogram and label balance.
inline constexpr QRgb kHistogramFill = 0x9EC5E8;
inline constexpr QRgb kHistogramBorder = 0x4C78A8;
inline constexpr QRgb kHistogramMarker = 0xD62728;

/// The default series colours, in order (yellow last: it is faint on white).
inline constexpr std::array<QRgb, 8> kOkabeIto = {kBlue,   kVermillion, kBluishGreen, kReddishPurple,
                                                  kOrange, kSkyBlue,    kBlack,       kYellow};
/// Paul Tol's "muted" ten, for 9–10 classes.
inline constexpr std::array<QRgb, 10> kTolMuted = {0x332288, 0x88CCEE, 0x44AA99, 0x117733, 0x999933,
                                                   0xDDCC77, 0xCC6677, 0x882255, 0xAA4499, 0xDDDDDD};

// Meanings.
inline constexpr QRgb kViolated = kVermillion;   ///< an audit whose bound exceeds the claim
inline constexpr QRgb kConsistent = kBlue;       ///< an audit consistent with the claim
inline constexpr QRgb kMisclassified = kDarkRed; ///< the ring round points most draws get wrong

/// Colours one chart shows together, which a reader must tell apart.
struct ColourSet {
    std::string name;
    std::vector<QRgb> colours;
};

/// Every such set in the product (palettes.cpp).
std::vector<ColourSet> chartColourSets();

} // namespace elab::ui::charts::palette
