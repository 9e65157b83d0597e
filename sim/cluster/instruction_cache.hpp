// The cluster's instruction caches: a private L0 per core in front of an L1 shared by all cores, refilled
// from L2 (the pulp-open organisation). Code lives in L2, so a fetch that misses both levels waits for L2.
//
// Models: 16-byte lines; the L0 is direct mapped, the shared L1 is 4-way set associative with LRU
// replacement; a fetch costs nothing on an L0 hit,
// refill_latency cycles on an L0 miss that hits the L1, and 2 x refill_latency + the L2 latency on a miss
// in both. Per-core hit and miss counters.
//
// Ignores: contention between cores on the L1 refill port, prefetching, invalidation (fence.i does not
// flush it; self-modifying code is not a concern of cached code in L2 here).
#pragma once

#include <cstdint>
#include <vector>

#include "core/hart.hpp"

namespace pulpsim {

struct InstructionCacheConfig {
    unsigned cores = 8;
    uint32_t l0_size = 512;  // bytes per core
    uint32_t l1_size = 4096; // bytes, shared
    unsigned refill_latency = 2;
    unsigned l2_latency = 15;
};

struct InstructionCacheCounters {
    uint64_t fetches = 0; // line fetches (one per new line the core enters)
    uint64_t l0_misses = 0;
    uint64_t l1_misses = 0;
    uint64_t stall_cycles = 0;
};

class InstructionCache : public InstructionFetchPort {
  public:
    static constexpr unsigned kLineShift = 4;

    // Throws std::invalid_argument for sizes that are not powers of two of at least one line (L1: 4 lines).
    explicit InstructionCache(const InstructionCacheConfig& config);

    unsigned fetch_line(unsigned core, uint32_t addr) override;
    // An L0 hit touches only the core's own L0.
    bool fetch_line_privately(unsigned core, uint32_t addr) override;
    void uncount_private_fetch(unsigned core) override { --counters_[core].fetches; }
    FetchLane lane(unsigned core) override;
    const InstructionCacheCounters& counters(unsigned core) const { return counters_.at(core); }

  private:
    struct L0 {
        std::vector<uint32_t> tags; // line numbers, UINT32_MAX = empty
    };
    static constexpr unsigned kWays = 4;
    static constexpr uint32_t kEmpty = UINT32_MAX;

    InstructionCacheConfig config_;
    std::vector<L0> l0_;
    std::vector<uint32_t> l1_tags_; // sets x ways, most recently used first
    unsigned l1_sets_;
    std::vector<InstructionCacheCounters> counters_;
};

} // namespace pulpsim
