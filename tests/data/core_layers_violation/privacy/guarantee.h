#pragma once
#include "core/util/random.h"
