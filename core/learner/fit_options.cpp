#include "core/learner/fit_options.h"

namespace elab::core {

std::string FitOptions::validate() const { return newtonCgOptions(*this).validate(); }

NewtonCgOptions newtonCgOptions(const FitOptions& options) {
    return {options.gradientTolerance, options.relativeTolerance, options.maxIterations, options.maxInnerIterations};
}

} // namespace elab::core
