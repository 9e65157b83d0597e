#include "runs/design_point.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>
#include <xxhash.h>

namespace pulpsim::runs {

std::string content_hash(const std::string& bytes) {
    const XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

std::string file_hash(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    // Streamed in blocks, which hashes the same as the whole file at once: every sweep hashes the simulator's
    // own executable, and a sanitizer build's is tens of megabytes, which a copy in memory made slow to
    // start.
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
    if (!state || XXH3_128bits_reset(state.get()) != XXH_OK) throw std::bad_alloc();
    std::vector<char> block(1 << 20);
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        XXH3_128bits_update(state.get(), block.data(), static_cast<size_t>(in.gcount()));
    }
    if (in.bad()) throw std::runtime_error(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    const XXH128_hash_t h = XXH3_128bits_digest(state.get());
    return fmt::format("{:016x}{:016x}", h.high64, h.low64);
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
