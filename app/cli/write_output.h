#pragma once
// Where every command's report goes: stdout, or --out FILE written whole or not at all (a
// temporary file renamed over FILE, so a failed write never leaves half a report). Under MPI
// only rank 0 writes.

#include "app/cli/cluster_session.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

namespace elab::app {

inline void writeOutput(const std::string& out, const std::string& text) {
    if (!ClusterSession::instance().writesOutput())
        return;
    if (out.empty()) {
        std::cout << text;
        return;
    }
    const std::string temporary = out + ".part";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        if (!(file << text) || !file.flush())
            throw std::runtime_error("cannot write " + out);
    }
    if (std::rename(temporary.c_str(), out.c_str()) != 0) {
        std::remove(temporary.c_str());
        throw std::runtime_error("cannot write " + out);
    }
}

} // namespace elab::app
