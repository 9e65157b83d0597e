// A core's direct way into a shared, pipelined FPU that is its only candidate: the start cycles the unit has
// granted, so that placing an FP operation costs the core no call into the pool (cores ask for every FP
// instruction). The pool (cluster/fpu_pool.hpp) owns the slots and decides when a core may use its lane.
#pragma once

#include <bit>
#include <cstdint>

namespace pulpsim {

// Which of the 64 cycles up to its newest start a unit taking one new operation per cycle starts one in, and
// how many it started and how many cycles operations waited for it.
struct PipelinedUnitSlots {
    // The two counters are kept apart: side by side, the compiler updates them as one vector, in more
    // instructions than two adds.
    uint64_t operations = 0;
    uint64_t newest = 0; // the latest start
    uint64_t recent = 0; // bit k: an operation starts at newest - k
    uint64_t contention_cycles = 0;

    // The first cycle at or after `cycle` with no start; a cycle before the window counts as its first.
    uint64_t first_free(uint64_t cycle) const {
        if (cycle > newest) return cycle;
        const uint64_t back = newest - cycle < 63 ? newest - cycle : 63;
        // Bit `back` (the asked cycle) moves to the top; the zeros shifted in are the free cycles after
        // newest.
        return newest - back + static_cast<unsigned>(std::countl_one(recent << (63 - back)));
    }
    // `start` must be free and no older than the window's first cycle (first_free's answers are).
    void take(uint64_t start) {
        if (start > newest) {
            const uint64_t gap = start - newest;
            recent = (gap < 64 ? recent << gap : 0) | 1;
            newest = start;
        } else {
            recent |= uint64_t{1} << (newest - start);
        }
        ++operations;
    }
    // Places an operation asked for in `cycle`: its start cycle.
    uint64_t grant(uint64_t cycle) {
        const uint64_t start = first_free(cycle);
        take(start);
        contention_cycles += start - cycle;
        return start;
    }
};

// What a core needs to place its operations on its one FPU itself: the unit, and the pool's counters of
// this core. `unit` is nullptr when the core must ask the pool (several candidates, an observer attached).
struct FpuLane {
    PipelinedUnitSlots* unit = nullptr;
    uint64_t* core_operations = nullptr;
    uint64_t* core_contention_cycles = nullptr;

    uint64_t grant(uint64_t cycle) const {
        const uint64_t start = unit->grant(cycle);
        ++*core_operations;
        *core_contention_cycles += start - cycle;
        return start;
    }
};

} // namespace pulpsim
