// Proves that a core alone with its memories is caught in a trap loop: a trap taken through mtvec with
// every register, CSR and memory byte as at the trap before it, and nothing in between that reached outside
// the core and its RAM (a device, the host, a performance counter, whose answers may change), is taken again
// and again, forever. Bare mode asks it, since nothing else there can change the core's state; a cluster has
// other cores and a DMA.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "memory/address_map.hpp"

namespace pulpsim {

class TrapLoopWatch {
  public:
    // RAM larger than this in all is not copied: its loops run to the cycle limit, as without the watch.
    static constexpr uint64_t kMaxCopiedBytes = 64u << 20;

    explicit TrapLoopWatch(const AddressMap& memory) : memory_(memory) {}

    // Told of every trap taken, with the core's architectural state just after it (registers, CSRs, pc at
    // the handler) and its count of accesses outside the core and its RAM so far. True when this trap
    // repeats the one before with nothing changed: the loop is proven.
    bool trap_taken(const std::vector<uint32_t>& state, uint64_t outside_accesses);

  private:
    // Copies the RAM only after this many traps in a row find the registers as they were, and twice as
    // many after each copy the next trap did not match (a program counting its traps in memory).
    static constexpr unsigned kFirstCopyAfter = 8;
    bool memory_matches_copy() const;
    void copy_memory();

    const AddressMap& memory_;
    std::vector<uint32_t> last_state_;
    uint64_t last_outside_ = 0;
    unsigned repeats_ = 0;
    unsigned copy_after_ = kFirstCopyAfter;
    bool copied_ = false;
    std::vector<std::vector<uint8_t>> copy_;
};

} // namespace pulpsim
