#include "core/data/libsvm_tokens.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace elab::core::libsvm {

namespace {

// For a well-formed number that from_chars found out of range: true if it is too small
// (rounds to zero) rather than too large, from its decimal magnitude.
bool isUnderflow(std::string_view t) {
    std::size_t i = t.empty() || (t[0] != '-' && t[0] != '+') ? 0 : 1;
    long long intDigits = 0, zerosAfterPoint = 0;
    bool nonzero = false, afterPoint = false;
    for (; i < t.size() && t[i] != 'e' && t[i] != 'E'; ++i) {
        if (t[i] == '.')
            afterPoint = true;
        else if (nonzero || t[i] != '0') {
            nonzero = true;
            intDigits += afterPoint ? 0 : 1;
        } else if (afterPoint)
            ++zerosAfterPoint;
    }
    long long exponent = 0;
    bool negative = false; // the exponent's sign
    if (i < t.size() && ++i < t.size() && (t[i] == '-' || t[i] == '+'))
        negative = t[i++] == '-';
    for (; i < t.size(); ++i)
        exponent = std::min(exponent * 10 + (t[i] - '0'), 1'000'000'000LL);
    return (intDigits > 0 ? intDigits : -zerosAfterPoint) + (negative ? -exponent : exponent) <= 0;
}

} // namespace

// A token as shown in a message: printable and short, even for binary garbage.
std::string quoted(std::string_view token) {
    std::string s = "'";
    const std::size_t n = std::min<std::size_t>(token.size(), 40);
    for (std::size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        if (c >= 0x20 && c < 0x7f)
            s += static_cast<char>(c);
        else
            s += {'\\', 'x', "0123456789abcdef"[c >> 4], "0123456789abcdef"[c & 15]};
    }
    return s + (token.size() > n ? "...'" : "'");
}

// A decimal real; from_chars plus the leading '+' that LIBSVM labels use ("+1"). Underflow
// gives a signed zero, as strtod would.
NumberStatus parseReal(std::string_view token, double& value) {
    const std::string_view digits = token.substr(!token.empty() && token[0] == '+' ? 1 : 0);
    if (digits.empty() || (digits.size() < token.size() && (digits[0] == '-' || digits[0] == '+')))
        return NumberStatus::Bad;
    const char* last = digits.data() + digits.size();
    // Unsigned integers (binary features, counts, labels) skip the slower floating-point
    // parse; up to 2^53 the conversion is exact, so the value is the one from_chars gives.
    std::uint64_t n = 0;
    if (const auto ri = std::from_chars(digits.data(), last, n);
        ri.ptr == last && ri.ec == std::errc() && n <= (std::uint64_t{1} << 53)) {
        value = static_cast<double>(n);
        return NumberStatus::Ok;
    }
    const auto r = std::from_chars(digits.data(), last, value);
    if (r.ptr != last || r.ec == std::errc::invalid_argument)
        return NumberStatus::Bad;
    if (r.ec == std::errc::result_out_of_range) {
        if (!isUnderflow(digits))
            return NumberStatus::Overflow;
        value = digits.front() == '-' ? -0.0 : 0.0;
    }
    return std::isfinite(value) ? NumberStatus::Ok : NumberStatus::NotFinite;
}

// Message tail for a number that did not parse; nullptr when it did.
const char* numberProblem(NumberStatus status) {
    switch (status) {
    case NumberStatus::Ok: return nullptr;
    case NumberStatus::NotFinite: return " is not finite (inf/NaN)";
    case NumberStatus::Overflow: return " is out of range for a double";
    default: return " is not a number";
    }
}

} // namespace elab::core::libsvm
