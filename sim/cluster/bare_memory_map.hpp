// The memory map of bare mode when the program brings its own (`pulpsim run --bare --memory`), like Spike's
// `-m`: RAM regions at fixed addresses instead of the automatic layout around the ELF's segments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pulpsim {

struct MemoryRegion {
    uint32_t base = 0;
    uint64_t size = 0; // 4 GiB at 0 is a region of the map, if not one bare mode can model
    std::string where; // "--memory 0x0:4MiB" or "map.yaml:3", for messages
};

// "BASE:SIZE[,BASE:SIZE...]" (numbers in decimal or 0x hex, sizes also with a KiB/MiB/GiB suffix), or the
// name of a YAML file (.yaml, .yml) holding
//   memory:
//     - {base: 0x0, size: 4MiB}
// Throws std::runtime_error with one line naming the region (or file and line) for a malformed entry, an
// empty region (or an empty list), one running past 4 GiB, or two that overlap. Regions come back sorted by
// base.
std::vector<MemoryRegion> parse_memory_map(const std::string& spec);

} // namespace pulpsim
