#include "core/scale/checkpoint_file.h"

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace elab::core {

namespace {

constexpr const char* kMagic = "epsilonlab-checkpoint 1";

std::uint64_t fnv1a(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

std::string hex16(std::uint64_t v) {
    char digits[17];
    std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(v));
    return digits;
}

void writeAll(int fd, const std::string& text, const std::string& path) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error("cannot write checkpoint " + path + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
}

std::string headerText(const RunSettings& settings) {
    const std::string canonical = settings.canonicalText();
    std::size_t lines = settings.entries.size();
    return std::string(kMagic) + " " + settings.fingerprint() + " " + std::to_string(lines) + "\n" + canonical;
}

} // namespace

std::string CheckpointFile::cellLine(const std::string& stage, std::size_t index, const std::string& payload) {
    const std::string text = stage + " " + std::to_string(index) + " " + payload;
    return text + " *" + hex16(fnv1a(text)) + "\n";
}

bool CheckpointFile::parseCellLine(const std::string& line, CellKey& key, std::string& payload) {
    const auto star = line.rfind(" *");
    if (star == std::string::npos || line.size() != star + 2 + 16)
        return false;
    const std::string_view text(line.data(), star);
    if (hex16(fnv1a(text)) != line.substr(star + 2))
        return false;
    const auto first = text.find(' ');
    const auto second = first == std::string_view::npos ? first : text.find(' ', first + 1);
    if (second == std::string_view::npos)
        return false;
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(text.data() + first + 1, text.data() + second, index);
    if (error != std::errc() || end != text.data() + second)
        return false;
    key = {std::string(text.substr(0, first)), index};
    payload = std::string(text.substr(second + 1));
    return true;
}

CheckpointContents CheckpointFile::read(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw std::runtime_error("cannot read checkpoint " + path);
    std::stringstream buffer;
    buffer << file.rdbuf();
    const std::string text = buffer.str();
    CheckpointContents c;
    std::size_t at = 0;
    auto nextLine = [&](std::string& line) {
        const auto nl = text.find('\n', at);
        if (nl == std::string::npos)
            return false;
        line = text.substr(at, nl - at);
        at = nl + 1;
        return true;
    };
    std::string line;
    const std::string magic = std::string(kMagic) + " ";
    if (!nextLine(line) || line.rfind(magic, 0) != 0)
        throw CheckpointMismatch(path + " is not an EpsilonLab checkpoint (its first line is not '" + kMagic + " …')");
    std::istringstream head(line.substr(magic.size()));
    std::size_t count = 0;
    head >> c.fingerprint >> count;
    std::string canonical;
    for (std::size_t k = 0; k < count; ++k) {
        if (!nextLine(line))
            throw CheckpointMismatch(path + ": the checkpoint's header is incomplete");
        canonical += line + "\n";
    }
    c.settings = RunSettings::fromCanonicalText(canonical);
    if (c.settings.fingerprint() != c.fingerprint)
        throw CheckpointMismatch(path + ": the checkpoint's header does not match its own checksum");
    c.intactBytes = at;
    while (nextLine(line)) {
        c.intactBytes = at;
        CellKey key;
        std::string payload;
        if (parseCellLine(line, key, payload))
            c.cells.emplace(std::move(key), std::move(payload));
        else
            ++c.ignoredLines;
    }
    if (at < text.size())
        ++c.ignoredLines; // the last line, cut short
    return c;
}

CheckpointFile::CheckpointFile(std::string path, const RunSettings& settings) : m_path(std::move(path)) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(m_path, ec)) {
        m_contents = read(m_path);
        if (m_contents.fingerprint != settings.fingerprint()) {
            std::string message = "checkpoint " + m_path + " was written with other settings:";
            for (const std::string& d : settings.differences(m_contents.settings, "now", "in the checkpoint"))
                message += "\n  " + d;
            throw CheckpointMismatch(message + "\n(rerun with those settings, or give another --checkpoint file)");
        }
        if (fs::file_size(m_path) > m_contents.intactBytes)
            fs::resize_file(m_path, m_contents.intactBytes);
    } else {
        const std::string temporary = m_path + ".part";
        {
            std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
            if (!(file << headerText(settings)) || !file.flush())
                throw std::runtime_error("cannot write checkpoint " + m_path);
        }
        if (std::rename(temporary.c_str(), m_path.c_str()) != 0) {
            std::remove(temporary.c_str());
            throw std::runtime_error("cannot write checkpoint " + m_path);
        }
        m_contents.settings = settings;
        m_contents.fingerprint = settings.fingerprint();
    }
    m_fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (m_fd < 0)
        throw std::runtime_error("cannot append to checkpoint " + m_path + ": " + std::strerror(errno));
}

CheckpointFile::~CheckpointFile() {
    if (m_fd >= 0)
        ::close(m_fd);
}

void CheckpointFile::append(const std::string& stage, std::size_t index, const std::string& payload) {
    const std::string line = cellLine(stage, index, payload);
    const std::lock_guard lock(m_mutex);
    writeAll(m_fd, line, m_path);
}

} // namespace elab::core
