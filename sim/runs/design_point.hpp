// A design point: one program on one fully resolved platform configuration. Its identity is a hash of
// the program's bytes, the resolved configuration, the cycle limit and the simulator's version, so a
// stored result is reused exactly when none of them changed.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cluster/platform_config.hpp"

namespace pulpsim::runs {

struct DesignPoint {
    std::string program;      // ELF path as the sweep file gives it
    std::string program_hash; // hex digest of the ELF's bytes
    PlatformConfig config;    // platform file + `set:` + this point's axis values
    std::string config_yaml;  // to_yaml(config): what the point's `pulpsim run` reads
    uint64_t max_cycles = 0;
    // Words stored at the program's symbols before the run (`pulpsim run --symbol`): a shape, a tile, a
    // kernel choice. Part of the identity when present.
    std::vector<std::pair<std::string, uint32_t>> symbols;
    std::vector<std::pair<std::string, std::string>> axes; // swept key -> value as written
    std::string id;                                        // identity (hex), see above
};

// 128-bit xxHash of bytes, as 32 hex digits.
std::string content_hash(const std::string& bytes);
// Hash of a file's bytes; throws a one-line error naming the file if it cannot be read.
std::string file_hash(const std::string& path);
// The simulator's version for point identities: the release plus a hash of the executable, so a rebuilt
// simulator with different behaviour never reuses old results.
std::string simulator_version(const std::string& release, const std::string& executable);
std::string point_identity(const DesignPoint& point, const std::string& simulator_version);

// The database column of a platform key: dots become underscores (tcdm.size -> tcdm_size).
std::string column_of(const std::string& key);

} // namespace pulpsim::runs
