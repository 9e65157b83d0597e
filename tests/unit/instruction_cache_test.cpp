// The cluster's instruction cache: per-core L0s in front of a shared 4-way L1, and the L0 lane through which
// a core counts its own hits. Expected values follow from instruction_cache.hpp: an L0 hit is free, an L0
// miss that hits the L1 costs refill_latency, an L1 miss refill_latency twice plus l2_latency.
#include <gtest/gtest.h>

#include <random>

#include "cluster/instruction_cache.hpp"

namespace pulpsim {
namespace {

InstructionCacheConfig small_cache() {
    InstructionCacheConfig c;
    c.cores = 2;
    c.l0_size = 64;  // 4 lines
    c.l1_size = 256; // 4 sets of 4 ways
    c.refill_latency = 2;
    c.l2_latency = 15;
    return c;
}

TEST(InstructionCache, L0HitIsFreeL1HitCostsARefillL1MissAlsoTheL2) {
    InstructionCache cache(small_cache());
    EXPECT_EQ(cache.fetch_line(0, 0x100), 2u + 2u + 15u); // cold
    EXPECT_EQ(cache.fetch_line(0, 0x10c), 0u);            // same line, in core 0's L0
    EXPECT_EQ(cache.fetch_line(1, 0x100), 2u);            // core 1's L0 misses, the shared L1 hits
    EXPECT_EQ(cache.counters(0).fetches, 2u);
    EXPECT_EQ(cache.counters(0).l0_misses, 1u);
    EXPECT_EQ(cache.counters(0).l1_misses, 1u);
    EXPECT_EQ(cache.counters(1).l1_misses, 0u);
}

// A core's lane hits exactly where fetch_line would find the line in the core's L0, and counting a hit
// through it leaves the counters as fetch_line would: a random fetch stream, taken both ways.
TEST(InstructionCache, LaneHitsWhereTheL0HoldsTheLineAndCountsAsFetchLineDoes) {
    InstructionCache through_lane(small_cache()), through_port(small_cache());
    const FetchLane lane = through_lane.lane(1);
    ASSERT_NE(lane.l0_tags, nullptr);
    std::mt19937 random(99);
    unsigned hits = 0;
    for (int n = 0; n < 5000; ++n) {
        const uint32_t addr = 0x1000 + static_cast<uint32_t>(random() % 96) * 4; // 24 lines: L0 and L1 misses
        const unsigned expected = through_port.fetch_line(1, addr);
        if (lane.hits(addr)) {
            ASSERT_EQ(expected, 0u) << "fetch " << n << " at " << addr;
            ++*lane.fetches;
            ++hits;
        } else {
            ASSERT_EQ(through_lane.fetch_line(1, addr), expected) << "fetch " << n << " at " << addr;
        }
    }
    EXPECT_GT(hits, 500u);
    EXPECT_EQ(through_lane.counters(1).fetches, through_port.counters(1).fetches);
    EXPECT_EQ(through_lane.counters(1).l0_misses, through_port.counters(1).l0_misses);
    EXPECT_EQ(through_lane.counters(1).l1_misses, through_port.counters(1).l1_misses);
    EXPECT_EQ(through_lane.counters(1).stall_cycles, through_port.counters(1).stall_cycles);
    EXPECT_EQ(through_lane.counters(0).fetches, 0u);
}

} // namespace
} // namespace pulpsim
