#pragma once
// DP-SGD's own parameters (MechanismSpec::sgd, docs/MATH.md §3.6) as a ParameterSchema: the
// network, schedule, clipping, dropout, accountant and the optional public N. The catalog entry of
// dpsgd points to it; the command line, the GUI form, sessions and reports are built from it.

#include "core/learner/parameter_schema.h"

namespace elab::core {

const ParameterSchema& dpsgdParameters();

} // namespace elab::core
