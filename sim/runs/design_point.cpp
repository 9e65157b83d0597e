#include "runs/design_point.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <xxhash.h>

namespace pulpsim::runs {

std::string content_hash(const std::string& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::string file_hash(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return content_hash(bytes.str());
}

std::string simulator_version(const std::string& release, const std::string& executable) {
    return release + "+" + file_hash(executable).substr(0, 16);
}

std::string point_identity(const DesignPoint& point, const std::string& simulator_version) {
    // Fields separated by a byte none of them contains; points without symbols keep their earlier identity.
    std::string symbols;
    for (const auto& [name, value] : point.symbols)
        symbols += fmt::format("\x1f{}={}", name, value);
    return content_hash(fmt::format("{}\x1f{}\x1f{}\x1f{}{}", point.program_hash, point.config_yaml,
                                    point.max_cycles, simulator_version, symbols));
}

std::string column_of(const std::string& key) {
    std::string out = key;
    for (char& c : out)
        if (c == '.') c = '_';
    return out;
}

} // namespace pulpsim::runs
