// Guard zones: address ranges a program declares off limits, typically the gaps it leaves around its
// tensors. A load or store that touches one stops the run with an error naming the zone, so a kernel that
// reads or writes outside its tensors fails instead of computing with a neighbour's data. Models no
// hardware (PULP has no memory protection); it is the simulator's bounds checker. The DMA checks a
// transfer's rows against the zones when a core pushes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pulpsim {

class MemoryGuards {
  public:
    struct Zone {
        uint32_t lo;
        uint64_t hi; // one past the last byte
        std::string what;
    };

    bool armed() const { return armed_; }
    // Adds the zone [addr, addr + len), len > 0. A zone overlapping existing ones replaces them.
    void add(uint32_t addr, uint32_t len, std::string what);
    // Removes every zone that [addr, addr + len) overlaps; returns how many.
    size_t remove(uint32_t addr, uint32_t len);
    // The zone the access [addr, addr + len) touches, if any.
    const Zone* hit(uint32_t addr, unsigned len) const;
    // "load of 4 bytes at 0x... is in the guard zone after 'B' [0x..., 0x...)" for an access hitting `zone`.
    static std::string describe(const Zone& zone, uint32_t addr, unsigned len, bool write);
    const std::vector<Zone>& zones() const { return zones_; }

  private:
    bool armed_ = false;      // checked on every access: kept apart from the vector
    std::vector<Zone> zones_; // sorted by lo, disjoint
};

} // namespace pulpsim
