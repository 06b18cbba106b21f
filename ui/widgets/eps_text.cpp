#include "ui/widgets/eps_text.h"

#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <limits>

namespace elab::ui {

QString formatNumber(double value, int digits, NumberForm form, const QString& nan) {
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    if (std::isnan(value) && !nan.isEmpty())
        return nan;
    if (form == NumberForm::Locale)
        return QLocale().toString(value, 'g', digits);
    QString text = QLocale::c().toString(value, 'g', digits);
    if (form == NumberForm::Printf)
        return text;
    // "1e-05" → "1e-5", "2.5e+06" → "2.5e6": the C library pads exponents, readers do not.
    static const QRegularExpression exponent(QStringLiteral("e([+-])0*(\\d)"));
    text.replace(exponent, QStringLiteral("e\\1\\2"));
    text.replace(QStringLiteral("e+"), QStringLiteral("e"));
    return text;
}

std::optional<double> parseNumber(const QString& text) {
    bool ok = false;
    const double value = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<double> parseEps(const QString& text, bool allowInfinity) {
    QString t = text.trimmed().toLower();
    if (t.startsWith(QLatin1Char('+')))
        t.remove(0, 1);
    if (t == QStringLiteral("inf") || t == QStringLiteral("infinity") || t == QStringLiteral("∞")) {
        if (!allowInfinity)
            return std::nullopt;
        return std::numeric_limits<double>::infinity();
    }
    const std::optional<double> value = parseNumber(t);
    if (!value || !(*value > 0.0))
        return std::nullopt;
    return value;
}

std::optional<std::vector<double>> parseEpsList(const QString& text) {
    static const QRegularExpression separators(QStringLiteral("[,;\\s]+"));
    std::vector<double> values;
    for (const QString& item : text.split(separators, Qt::SkipEmptyParts)) {
        const std::optional<double> value = parseEps(item, false);
        if (!value)
            return std::nullopt;
        values.push_back(*value);
    }
    return values;
}

QString formatEpsList(const std::vector<double>& values) {
    QStringList items;
    for (double v : values)
        items << formatNumber(v, 6);
    return items.join(QStringLiteral(", "));
}

} // namespace elab::ui
