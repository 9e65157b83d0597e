// The pre-decoded form of one instruction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

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

// Instructions the hart's unobserved loop runs inline, without calling their handler (Hart::run_loop); the
// handler (exec) stays the definition for every other path. None: call exec.
// Listed once, in order, for the enum and for the inline loop's table of where each one goes: RV32I
// register-register and register-immediate operations, branches and jal, loads and stores, then FpuOp, an FP
// operation (arithmetic, compare, convert, move, div/sqrt), which runs through its handler, but which a core
// whose FPU is its own may run ahead of its turn (Hart::run_ahead_if_private).
// clang-format off
#define PULPSIM_FAST_OPS(X)                                                                                  \
    X(None)                                                                                                  \
    X(Add) X(Sub) X(Sll) X(Slt) X(Sltu) X(Xor) X(Srl) X(Sra) X(Or) X(And)                                    \
    X(Addi) X(Slti) X(Sltiu) X(Xori) X(Ori) X(Andi) X(Slli) X(Srli) X(Srai) X(Lui) X(Auipc)                  \
    X(Beq) X(Bne) X(Blt) X(Bge) X(Bltu) X(Bgeu) X(Jal)                                                       \
    X(Lb) X(Lh) X(Lw) X(Lbu) X(Lhu) X(Sb) X(Sh) X(Sw) X(Flw) X(Fsw)                                          \
    X(FpuOp)
// clang-format on
#define PULPSIM_FAST_OP_NAME(op) op,
enum class FastOp : uint8_t { PULPSIM_FAST_OPS(PULPSIM_FAST_OP_NAME) Count };
#undef PULPSIM_FAST_OP_NAME

// The value of an RV32I register-register or register-immediate operation (Add..Srai), b being x[rs2] or
// the immediate: the handlers and the inline loop share it.
constexpr uint32_t int_op(FastOp op, uint32_t a, uint32_t b) {
    const auto sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    switch (op) {
    case FastOp::Add:
    case FastOp::Addi: return a + b;
    case FastOp::Sub: return a - b;
    case FastOp::Sll:
    case FastOp::Slli: return a << (b & 31);
    case FastOp::Slt:
    case FastOp::Slti: return sa < sb;
    case FastOp::Sltu:
    case FastOp::Sltiu: return a < b;
    case FastOp::Xor:
    case FastOp::Xori: return a ^ b;
    case FastOp::Srl:
    case FastOp::Srli: return a >> (b & 31);
    case FastOp::Sra:
    case FastOp::Srai: return static_cast<uint32_t>(sa >> (b & 31));
    case FastOp::Or:
    case FastOp::Ori: return a | b;
    case FastOp::And:
    case FastOp::Andi: return a & b;
    default: return 0;
    }
}

// Whether a conditional branch (Beq..Bgeu) on x[rs1], x[rs2] is taken.
constexpr bool branch_taken(FastOp op, uint32_t a, uint32_t b) {
    const auto sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    switch (op) {
    case FastOp::Beq: return a == b;
    case FastOp::Bne: return a != b;
    case FastOp::Blt: return sa < sb;
    case FastOp::Bge: return sa >= sb;
    case FastOp::Bltu: return a < b;
    case FastOp::Bgeu: return a >= b;
    default: return false;
    }
}

// The rm field of an FP instruction that selects frm, and the highest rounding mode either may name (RMM).
inline constexpr uint8_t kDynamicRm = 7, kLastRm = 4;

// Scoreboard slots: 0..31 integer registers, 32..63 FP registers, then two pseudo registers, then for each
// register the ready time of the latest FP result of latency 2 or more written to it (fp_result_slot).
// x0 is read from kZeroSlot; slot 0 is x0 as a write address, which the load stall compares (kX0Slot).
inline constexpr uint8_t kX0Slot = 0;
inline constexpr uint8_t kFpSlot = 32;
inline constexpr uint8_t kZeroSlot = 64; // always ready; used for x0 and unused sources
inline constexpr uint8_t kSinkSlot = 65; // written by instructions without a destination, and most x0 writes
inline constexpr uint8_t kFpResultSlot = 66;
inline constexpr unsigned kSlotCount = kFpResultSlot + 64;
// An instruction that is no FP operation waits, as if it read it, for an FP result in flight to its
// destination register: CV32E40P's APU dispatcher holds it in ID until that result is back
// (cv32e40p_apu_disp.sv: write_dep_o; cv32e40p_controller.sv: apu_stall_o). It lists this slot among its
// sources; a load's result in flight to the same register does not hold it.
inline constexpr uint8_t fp_result_slot(uint8_t slot) {
    return static_cast<uint8_t>(kFpResultSlot + slot);
}

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
    FastOp fast = FastOp::None;
    // CV32E40P's APU dispatcher compares integer register 0 among this instruction's read addresses
    // (apu_read_addresses): it waits for an FP result in flight to x0 (Hart::operand_need).
    bool apu_reads_x0 = false;
    // src holds the integer register the instruction writes, which it does not read, because the load stall
    // compares it (waits_for_load_result).
    bool waits_as_writer = false;
    // Filled in by decode(), for the scoreboard's quick test (Hart::pending_): bit s for every register slot
    // s in src (and for register r when fp_result_slot(r) is), and bit dst when the result may still be
    // unusable when the next instruction issues.
    uint64_t src_mask = 0;
    uint64_t pend_mask = 0;
    // The bits of src_mask that the operand check clears from pending_: all but those of fields only the APU
    // dispatcher compares (isa::apu_checks_slot), whose register may still wait for a load.
    uint64_t settle_mask = 0;
};
static_assert(sizeof(DecodedInsn) == 64);

// An instruction that writes an integer register through the ALU port (ALU, multiplier, divider and CSR
// instructions, and the link write of a jump) right behind a load to the same register waits as a reader of
// it would: the controller stalls ID while a load in EX or WB writes the register the instruction in ID
// writes (cv32e40p_controller.sv: load_stall_o, `regfile_waddr_ex_i == regfile_alu_waddr_id_i`). It waits on
// the register itself, which covers the FP results to it as well. A jump sets the pc in its first cycle in
// ID all the same (Hart::jump_entered_id): the wait costs it no more cycles, only the cycle it enters EX in.
// The comparison takes x0 as any other address: behind a load to x0, a nop waits a cycle (kX0Slot).
inline constexpr bool waits_for_load_result(const DecodedInsn& d) {
    switch (d.cls) {
    case InsnClass::Jump:
    case InsnClass::Alu:
    case InsnClass::Mul:
    case InsnClass::MulHigh:
    case InsnClass::Div:
    case InsnClass::Csr: return d.dst < kFpSlot;
    default: return false;
    }
}

// The decoded instructions of a code range, a slot per 16-bit parcel. The memory comes zeroed from the
// system (a zero slot is an empty one: exec is null), so a page is only backed once a slot on it is
// decoded: a large code range costs neither memory nor start-up time until its code runs.
class DecodeCache {
  public:
    DecodeCache() = default;
    explicit DecodeCache(size_t slots);
    ~DecodeCache();
    DecodeCache(const DecodeCache&) = delete;
    DecodeCache& operator=(const DecodeCache&) = delete;
    DecodeCache(DecodeCache&& other) noexcept { swap(other); }
    DecodeCache& operator=(DecodeCache&& other) noexcept {
        DecodeCache gone(std::move(other));
        swap(gone);
        return *this;
    }

    DecodedInsn& operator[](size_t i) { return slots_[i]; }
    const DecodedInsn& operator[](size_t i) const { return slots_[i]; }
    DecodedInsn* begin() { return slots_; }
    DecodedInsn* end() { return slots_ + size_; }
    size_t size() const { return size_; }
    // Empties every slot in place (pointers to slots stay valid): whole pages go back to the system, which
    // hands out zero pages again, the rest is written.
    void clear();

  private:
    void swap(DecodeCache& other) noexcept {
        std::swap(memory_, other.memory_);
        std::swap(slots_, other.slots_);
        std::swap(size_, other.size_);
    }
    void* memory_ = nullptr; // as calloc gave it
    DecodedInsn* slots_ = nullptr;
    size_t size_ = 0;
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
