#pragma once
// Internal to the accountant's files (accountant.cpp, accountant_calibration.cpp,
// accountant_replace_one.cpp): the parameter check they share.

#include "core/privacy/accountant.h"
#include "core/privacy/pld.h"

#include <limits>
#include <stdexcept>
#include <string>

namespace elab::core::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

/// The PLD accountant's figures as an AccountantResult (the parameters h, the mass at +∞ and the
/// FFT length; under replace-one a note that the replace pair's PLD gives it directly).
AccountantResult pldResult(const PldEpsilon& e, bool replaceOne = false);

/// Throws std::invalid_argument ("accountant: " and what validate() says) for invalid params.
inline void check(const SgdPrivacyParams& p) {
    if (std::string e = p.validate(); !e.empty())
        throw std::invalid_argument("accountant: " + e);
}

} // namespace elab::core::detail
