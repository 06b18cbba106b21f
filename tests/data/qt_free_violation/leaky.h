#pragma once
// Fixture for the Qt-free check: this include must be detected.
#include <QString>
