#pragma once
// Parsing and formatting of ε and other numbers typed by the user in the utility explorer.
// C locale ("0.5", "1e-2"), so that sessions and typed values mean the same everywhere.
// Pure functions: any thread.

#include <QString>

#include <optional>
#include <vector>

namespace elab::ui {

/// How formatNumber writes a finite number (every form: up to `digits` significant digits, %g).
enum class NumberForm {
    Compact, ///< C locale, exponent without padding or '+': "1e-5", "2.5e6" (typed values, guarantees)
    Printf,  ///< C locale, printf's exponent: "1e-05", "2.5e+06" (the views' readouts and chart titles)
    Locale,  ///< the user's locale, printf's exponent (the dataset summary)
};

/// The one number formatter of the GUI: value with up to `digits` significant digits in `form`
/// (0.25 → "0.25", 1e-5 → "1e-5"); +∞ → "∞", −∞ → "−∞"; NaN → nan, or as the form writes it
/// ("nan") when nan is empty.
QString formatNumber(double value, int digits = 4, NumberForm form = NumberForm::Compact, const QString& nan = {});

/// A finite number ("0.5", " 1e-2 ", "-3"); nullopt for anything else (empty, "abc", "nan").
std::optional<double> parseNumber(const QString& text);

/// ε > 0: a number, or with allowInfinity also "inf", "+inf", "infinity", "∞" (any case).
std::optional<double> parseEps(const QString& text, bool allowInfinity);

/// A list of finite ε > 0 separated by commas, semicolons or spaces ("0.1, 1, 5");
/// nullopt if any item is not one. An empty text is an empty list.
std::optional<std::vector<double>> parseEpsList(const QString& text);
QString formatEpsList(const std::vector<double>& values);

} // namespace elab::ui
