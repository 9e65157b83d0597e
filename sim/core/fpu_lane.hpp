// A core's direct way into a shared, pipelined FPU that is its only candidate: the start cycles the unit has
// granted, so that placing an FP operation costs the core no call into the pool (cores ask for every FP
// instruction). The pool (cluster/fpu_pool.hpp) owns the slots and decides when a core may use its lane.
#pragma once

#include <bit>
#include <cstdint>

namespace pulpsim {

// Which of the 64 cycles from window_base a unit taking one new operation per cycle starts one in, and how
// many it started and how many cycles operations waited for it.
struct PipelinedUnitSlots {
    uint64_t window_base = 0;
    uint64_t starts = 0; // bit i: an operation starts at window_base + i
    uint64_t newest = 0; // the latest start
    uint64_t operations = 0;
    uint64_t contention_cycles = 0;

    // x >> n, or 0 when n >= 64, without a branch: n follows the request stream, so a branch would often
    // mispredict.
    static uint64_t shift_right_or_zero(uint64_t x, uint64_t n) {
        return (x >> (n & 63)) & (uint64_t{0} - (n < 64));
    }
    // The first cycle at or after `cycle` with no start; a cycle before the window counts as its first.
    uint64_t first_free(uint64_t cycle) const {
        const uint64_t from = cycle > window_base ? cycle : window_base;
        // Bits shifted in from above the window read 0: nothing is granted beyond it.
        return from + static_cast<unsigned>(std::countr_one(shift_right_or_zero(starts, from - window_base)));
    }
    void take(uint64_t start) {
        const uint64_t span = start - window_base;
        const uint64_t slide = span > 63 ? span - 63 : 0; // keep `start` in the window
        starts = shift_right_or_zero(starts, slide);
        window_base += slide;
        starts |= uint64_t{1} << (start - window_base);
        newest = start > newest ? start : newest;
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
