#pragma once
// A data file that reaches up into privacy: the layer check must fail on it.
#include "core/privacy/guarantee.h"
