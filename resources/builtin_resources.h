#pragma once
// Bytes of the embedded built-in datasets (Qt resources under ":/datasets/"), in the shape
// the core's loader asks for. Callable from any thread.

#include "core/data/dataset_loader.h"

#include <optional>
#include <string>

namespace elab::resources {

std::optional<std::string> builtinBytes(const std::string& fileName);

/// builtinBytes as the core's callback type.
core::BuiltinBytes builtinBytesProvider();

/// The licence file of the embedded datasets.
std::string licencesText();

} // namespace elab::resources
