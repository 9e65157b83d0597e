// What a hart counts while it runs: the source of the mhpm counters and of the reports.
#pragma once

#include <array>
#include <cstdint>

#include "core/decoded_insn.hpp"

namespace pulpsim {

// Why a cycle did not retire an instruction. cycles == instret + sum(stall cycles) holds for every run.
enum class StallKind : uint8_t {
    LoadUse,        // an instruction waited for a load result
    JumpRegister,   // jalr waited for the instruction just before it
    Control,        // taken branch, jump and fence refetch penalties, and the cycles of a trap
    FpuDependency,  // waited for an FPU result or for the div/sqrt unit
    MultiCycle,     // mulh, div/rem, CSR accesses, misaligned accesses, cv.elw beyond their first cycle
    TcdmContention, // lost TCDM bank arbitration and retried
    FpuContention,  // the shared FPU (or div/sqrt unit) was taken by another core
    ICacheMiss,     // instruction fetch waited for a cache refill
    MemoryLatency,  // accesses to slower memories (L2, peripherals) beyond their first cycle
    Sleep,          // asleep in cv.elw (barriers, dispatch, mutex) including the wake-up latency
    DmaWait,        // asleep waiting for a DMA transfer, or stalled on a full DMA command queue
    Count
};

const char* stall_name(StallKind kind);

struct CoreStats {
    uint64_t load_use_hazards = 0;       // load-use hazards: LD_STALL events but for
    uint64_t uncounted_load_hazards = 0; // those the core leaves out (Hart::write_hazard_behind_split_load)
    uint64_t jump_register_hazards = 0;  // JMP_STALL events
    uint64_t branches_taken = 0;
    uint64_t fp_writebacks = 0;
    // Cycles of CV32E40P's APU performance events, each a share of the stalls below: an FP operation held
    // in EX behind one of another latency class (APU_TYPE), an instruction held in ID for an FP result
    // (APU_DEP), an FP result that took the register file's write port from another (APU_WB), and the
    // div/sqrt unit refusing an operation while it normalises a denormal divisor (with the shared FPUs'
    // contention, APU_CONT).
    uint64_t apu_type_cycles = 0;
    uint64_t apu_dependency_cycles = 0;
    uint64_t apu_writeback_cycles = 0;
    uint64_t apu_refused_cycles = 0;
    // Runs of those cycles that start in the cycle of an INSTR event, which a counter selecting both counts
    // once: the cycle the held instruction (APU_TYPE, APU_CONT, APU_WB) or the one ahead of the waiting one
    // (APU_DEP) entered EX in.
    uint64_t apu_type_runs_at_entry = 0;
    uint64_t apu_dependency_runs_at_entry = 0;
    uint64_t apu_contention_runs_at_entry = 0;
    // APU_WB's, by the held instruction's class and size (index as by_class_and_size): that instruction may
    // be a jal or a compressed one, whose JUMP or COMP_INSTR event the cycle holds as well. (APU_TYPE and
    // APU_CONT hold FP operations, which have none of those events.)
    std::array<uint64_t, 2 * static_cast<size_t>(InsnClass::Count)> apu_writeback_runs_at_entry{};
    // APU_DEP's, by the class and size of the instruction ahead, counted only while a counter needs them
    // (Hart::set_ahead_class_needed): LD, ST, JUMP, BRANCH or COMP_INSTR without INSTR.
    std::array<uint64_t, 2 * static_cast<size_t>(InsnClass::Count)> apu_dependency_runs_at_entry_by_class{};
    // Of the DmaWait stalls, the cycles stalled on a full DMA command queue: a load waiting for its answer,
    // not a cv.elw sleep, so no PIPE_STALL event.
    uint64_t dma_queue_full_cycles = 0;
    uint64_t fence_i = 0; // of class Jump for its refetch, but not a jump to the JUMP event
    // Retired instructions by class and size: index 2 * class + (1 if compressed).
    std::array<uint64_t, 2 * static_cast<size_t>(InsnClass::Count)> by_class_and_size{};
    std::array<uint64_t, static_cast<size_t>(StallKind::Count)> stall_cycles{};

    uint64_t count(InsnClass c) const {
        return by_class_and_size[2 * static_cast<size_t>(c)] +
               by_class_and_size[2 * static_cast<size_t>(c) + 1];
    }
    // Retired instructions: derived, so the hot loop keeps one counter per instruction instead of two.
    uint64_t instret() const {
        uint64_t n = 0;
        for (uint64_t v : by_class_and_size)
            n += v;
        return n;
    }
    uint64_t compressed() const {
        uint64_t n = 0;
        for (size_t i = 1; i < by_class_and_size.size(); i += 2)
            n += by_class_and_size[i];
        return n;
    }
    uint64_t stalls(StallKind k) const { return stall_cycles[static_cast<size_t>(k)]; }
    uint64_t total_stalls() const {
        uint64_t s = 0;
        for (auto v : stall_cycles)
            s += v;
        return s;
    }
    uint64_t loads() const { return count(InsnClass::Load) + count(InsnClass::FpLoad); }
    uint64_t stores() const { return count(InsnClass::Store) + count(InsnClass::FpStore); }
};

} // namespace pulpsim
