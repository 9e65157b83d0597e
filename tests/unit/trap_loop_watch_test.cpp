// TrapLoopWatch: a loop is proven only when a trap repeats the one before in registers, memory and outside
// reads alike.
#include <gtest/gtest.h>

#include "core/trap_loop_watch.hpp"

namespace pulpsim {
namespace {

// How many traps, each with `state` and the outside count `outside(k)` and after `between(k)` ran on the
// memory, it takes to prove the loop; 0 when `limit` traps do not.
template <typename Outside, typename Between>
unsigned traps_to_proof(TrapLoopWatch& watch, const std::vector<uint32_t>& state, Outside outside,
                        Between between, unsigned limit = 10000) {
    for (unsigned k = 1; k <= limit; ++k) {
        between(k);
        if (watch.trap_taken(state, outside(k))) return k;
    }
    return 0;
}

TEST(TrapLoopWatch, SameRegistersAndMemoryAreProvenAfterTheFirstCopy) {
    AddressMap memory;
    memory.add_ram("ram", 0x1000, 4096);
    TrapLoopWatch watch(memory);
    const std::vector<uint32_t> state(80, 7);
    const unsigned k = traps_to_proof(watch, state, [](unsigned) { return 3u; }, [](unsigned) {});
    EXPECT_GT(k, 2u);  // never on the first repeat: the memory has not been compared yet
    EXPECT_LT(k, 20u); // but soon
}

TEST(TrapLoopWatch, ChangingRegistersAreNoLoop) {
    AddressMap memory;
    memory.add_ram("ram", 0x1000, 4096);
    TrapLoopWatch watch(memory);
    for (uint32_t k = 0; k < 10000; ++k)
        ASSERT_FALSE(watch.trap_taken({1, 2, k % 2}, 0)) << k; // two states, alternating
}

TEST(TrapLoopWatch, AnOutsideReadBetweenTrapsIsNoLoop) {
    AddressMap memory;
    memory.add_ram("ram", 0x1000, 4096);
    TrapLoopWatch watch(memory);
    const std::vector<uint32_t> state(80, 7);
    EXPECT_EQ(traps_to_proof(watch, state, [](unsigned k) { return uint64_t{k}; }, [](unsigned) {}), 0u);
}

TEST(TrapLoopWatch, MemoryThatChangesIsNoLoopUntilItStops) {
    AddressMap memory;
    Ram& ram = memory.add_ram("ram", 0x1000, 4096);
    TrapLoopWatch watch(memory);
    const std::vector<uint32_t> state(80, 7);
    // A trap counter in memory, as a handler would keep it.
    auto count = [&](unsigned) { ++ram.data()[100]; };
    EXPECT_EQ(traps_to_proof(watch, state, [](unsigned) { return 0u; }, count, 5000), 0u);
    // Once it stops, the loop is proven again, within a few copies' distance.
    const unsigned k = traps_to_proof(watch, state, [](unsigned) { return 0u; }, [](unsigned) {}, 100000);
    EXPECT_GT(k, 0u);
}

} // namespace
} // namespace pulpsim
