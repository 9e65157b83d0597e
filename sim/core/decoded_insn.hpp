// The pre-decoded form of one instruction.
#pragma once

#include <cstdint>

namespace pulpsim {

class Hart;
struct DecodedInsn;
using ExecFn = void (*)(Hart&, const DecodedInsn&);

// Timing/accounting class of an instruction; also selects the performance-counter events it raises.
enum class InsnClass : uint8_t {
    Alu,
    Load,
    Store,
    Branch,
    Jump,
    Mul,
    MulHigh,
    Div,
    Csr,
    Fp,
    FpDivSqrt,
    FpLoad,
    FpStore,
    System,
    HwLoop,
    Count
};

// Scoreboard slots: 0..31 integer registers, 32..63 FP registers, then two pseudo registers.
inline constexpr uint8_t kFpSlot = 32;
inline constexpr uint8_t kZeroSlot = 64; // always ready; used for x0 and unused sources
inline constexpr uint8_t kSinkSlot = 65; // written by instructions without a destination (and by x0 writes)
inline constexpr unsigned kSlotCount = 66;

// A cache line each: the decode cache is indexed with a shift.
struct alignas(64) DecodedInsn {
    ExecFn exec = nullptr; // nullptr: not decoded yet
    int32_t imm = 0;
    uint32_t raw = 0;
    uint8_t rd = 0, rs1 = 0, rs2 = 0, rs3 = 0;
    uint8_t src[3] = {kZeroSlot, kZeroSlot, kZeroSlot}; // slots the instruction waits on before issuing
    uint8_t dst = kSinkSlot;                            // slot whose ready time is set after execution
    uint8_t latency = 1;                                // issue-to-use distance of the result in cycles
    uint8_t cost = 1; // cycles the instruction occupies the pipeline (extras are added by handlers)
    uint8_t len = 4;  // 2 for compressed instructions
    InsnClass cls = InsnClass::Alu;
    uint8_t aux = 0;         // rounding mode, loop index, sub-operation: meaning depends on the handler
    uint8_t stat_index = 0;  // 2 * cls + compressed, filled in by decode()
    uint16_t ready_code = 4; // latency << 2 | ReadyCause, filled in by decode()
    // Filled in by decode(), for the scoreboard's quick test (Hart::pending_): bit s for every register slot
    // s in src, and bit dst when the result may still be unusable when the next instruction issues.
    uint64_t src_mask = 0;
    uint64_t pend_mask = 0;
};

// A scoreboard entry packs the cycle a value becomes usable with what produced it, so that one store per
// instruction keeps both (the cause only matters when an instruction has to wait).
enum class ReadyCause : uint8_t { Other = 0, Load = 1, Fpu = 2 };
inline constexpr uint64_t ready_entry(uint64_t cycle, ReadyCause cause) {
    return (cycle << 2) | static_cast<uint64_t>(cause);
}
inline constexpr uint64_t ready_cycle(uint64_t entry) {
    return entry >> 2;
}

} // namespace pulpsim
