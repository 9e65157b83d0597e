// RV32I base integer instructions, Zifencei, and the machine-mode system instructions.
#include "core/decoder.hpp"

namespace pulpsim::isa {
namespace {

using S = int32_t;
using U = uint32_t;

#define X(r) h.x_[r]

// ---- ALU ----
void lui(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(d.imm);
}
void auipc(Hart& h, const DecodedInsn& d) {
    X(d.rd) = h.pc_ + static_cast<U>(d.imm);
}
template <FastOp op> void alu_imm(Hart& h, const DecodedInsn& d) {
    X(d.rd) = int_op(op, X(d.rs1), static_cast<U>(d.imm));
}
template <FastOp op> void alu_reg(Hart& h, const DecodedInsn& d) {
    X(d.rd) = int_op(op, X(d.rs1), X(d.rs2));
}

// ---- control transfer ----
void jal(Hart& h, const DecodedInsn& d) {
    X(d.rd) = h.pc_ + d.len;
    h.jump_to(h.pc_ + static_cast<U>(d.imm),
              h.jump_target_prefetched(h.issue_, d.dst, d.apu_reads_x0) ? 0 : 1);
}
void jalr(Hart& h, const DecodedInsn& d) {
    const U target = (X(d.rs1) + static_cast<U>(d.imm)) & ~1u;
    // The target is computed in ID: a result still in EX (from the instruction just before, however long
    // EX holds it) costs a cycle, and the pc is set only after it.
    // Its rs1 = x0 is compared with an FP result to x0 in flight (apu_reads_x0) as any register would be.
    const uint64_t rs1_ready = d.rs1 != 0 ? h.ready_[d.src[0]] : h.ready_[fp_result_slot(kX0Slot)];
    const bool hazard = h.issue_ != 0 && (ready_cycle(rs1_ready) >= h.issue_ ||
                                          (d.rs1 != 0 && h.jump_waited_for(h.issue_, d.src[0])));
    if (hazard) {
        // It waits in ID (jr_stall), and enters EX, where a class-3 FP result's write may meet its link
        // write (Hart::apu_port_contention), a cycle later.
        ++h.stats_.jump_register_hazards;
        h.wait_in_id(h.issue_ + 1, StallKind::JumpRegister);
    }
    // Set while it waited behind an instruction held in EX, the pc leaves neither the refetch nor the cycle
    // below to pay. While it waits for an FP or a load's result to rd instead, the pc is set in the first of
    // those cycles in which rs1 can be forwarded: the refetch is left to pay when that is the last one.
    bool prefetched = !hazard && h.jump_target_prefetched(h.issue_, d.dst);
    if (prefetched && !h.held_just_ahead(h.issue_) && ready_cycle(rs1_ready) + 1 == h.issue_)
        prefetched = false;
    // The jump is taken in ID; in the cycle after it the link write to rd, then in EX, looks to jalr's own
    // hazard check like a result it needs when rd = rs1: one cycle more (cv32e40p_controller.sv jr_stall,
    // measured on the RTL).
    if (!prefetched && d.rd == d.rs1 && d.rd != 0) {
        ++h.stats_.jump_register_hazards;
        h.add_stall(StallKind::JumpRegister, 1);
    }
    X(d.rd) = h.pc_ + d.len;
    h.jump_to(target, prefetched ? 0 : 1);
}
template <FastOp op> void branch(Hart& h, const DecodedInsn& d) {
    if (branch_taken(op, X(d.rs1), X(d.rs2))) {
        ++h.stats_.branches_taken;
        h.branch_to(h.pc_ + static_cast<U>(d.imm));
    }
}

// ---- memory ----
template <typename T> U extend(T v) {
    return static_cast<U>(static_cast<std::conditional_t<std::is_signed_v<T>, S, U>>(v));
}
// The plain accesses run inline in the hart's loop (FastOp), so the handlers take the full path.
template <typename T> void load(Hart& h, const DecodedInsn& d) {
    X(d.rd) = extend(h.load_insn<T>(X(d.rs1) + static_cast<U>(d.imm)));
}
template <typename T> void store(Hart& h, const DecodedInsn& d) {
    h.store_insn<T>(X(d.rs1) + static_cast<U>(d.imm), static_cast<T>(X(d.rs2)));
}

// ---- system ----
void nop(Hart&, const DecodedInsn&) {}
// CV32E40P implements both fences as a jump to the next instruction after draining EX and WB
// (cv32e40p_controller.sv: FLUSH_EX, FLUSH_WB): 4 cycles, one more to a misaligned 32-bit instruction.
void fence(Hart& h, const DecodedInsn&) {
    h.jump_to(h.next_pc_, 3);
}
void fence_i(Hart& h, const DecodedInsn&) {
    h.fence_i();
    h.jump_to(h.next_pc_, 3);
}
void ecall(Hart& h, const DecodedInsn&) {
    h.do_ecall();
}
void ebreak(Hart& h, const DecodedInsn&) {
    h.trap(cause::kBreakpoint, h.pc_);
}
void mret(Hart& h, const DecodedInsn&) {
    h.do_mret();
}

#undef X

bool decode_op_imm(uint32_t raw, DecodedInsn& d) {
    const unsigned f3 = funct3(raw);
    const unsigned f7 = funct7(raw);
    using enum FastOp;
    static constexpr FastOp simple[8] = {Addi, None, Slti, Sltiu, Xori, None, Ori, Andi};
    static constexpr ExecFn fns[8] = {alu_imm<Addi>, nullptr, alu_imm<Slti>, alu_imm<Sltiu>,
                                      alu_imm<Xori>, nullptr, alu_imm<Ori>,  alu_imm<Andi>};
    if (simple[f3] != None) {
        shape_i(d, raw, fns[f3]);
        d.fast = simple[f3];
        return true;
    }
    if (f3 == 1 && f7 == 0) {
        shape_i(d, raw, alu_imm<Slli>);
        d.fast = Slli;
    } else if (f3 == 5 && f7 == 0) {
        shape_i(d, raw, alu_imm<Srli>);
        d.fast = Srli;
    } else if (f3 == 5 && f7 == 0x20) {
        shape_i(d, raw, alu_imm<Srai>);
        d.fast = Srai;
    } else {
        return false;
    }
    d.imm &= 31;
    return true;
}

bool decode_op(uint32_t raw, DecodedInsn& d) {
    const unsigned f7 = funct7(raw);
    const unsigned f3 = funct3(raw);
    using enum FastOp;
    static constexpr FastOp base[8] = {Add, Sll, Slt, Sltu, Xor, Srl, Or, And};
    static constexpr ExecFn fns[8] = {alu_reg<Add>, alu_reg<Sll>, alu_reg<Slt>, alu_reg<Sltu>,
                                      alu_reg<Xor>, alu_reg<Srl>, alu_reg<Or>,  alu_reg<And>};
    if (f7 == 0) {
        shape_r(d, raw, fns[f3]);
        d.fast = base[f3];
        return true;
    }
    if (f7 == 0x20 && (f3 == 0 || f3 == 5)) {
        shape_r(d, raw, f3 == 0 ? alu_reg<Sub> : alu_reg<Sra>);
        d.fast = f3 == 0 ? Sub : Sra;
        return true;
    }
    return false;
}

} // namespace

bool decode_rv32i(uint32_t raw, DecodedInsn& d) {
    switch (opcode(raw)) {
    case 0x37:
    case 0x17:
        d.exec = opcode(raw) == 0x37 ? lui : auipc;
        d.fast = opcode(raw) == 0x37 ? FastOp::Lui : FastOp::Auipc;
        d.rd = static_cast<uint8_t>(rd(raw));
        d.imm = imm_u(raw);
        d.dst = xdst(d.rd);
        return true;
    case 0x6f:
        d.exec = jal;
        d.rd = static_cast<uint8_t>(rd(raw));
        d.imm = imm_j(raw);
        d.dst = xdst(d.rd);
        d.cls = InsnClass::Jump;
        d.fast = FastOp::Jal;
        return true;
    case 0x67:
        if (funct3(raw) != 0) return false;
        shape_i(d, raw, jalr, InsnClass::Jump);
        return true;
    case 0x63: {
        using enum FastOp;
        static constexpr FastOp fast[8] = {Beq, Bne, None, None, Blt, Bge, Bltu, Bgeu};
        static constexpr ExecFn ops[8] = {branch<Beq>, branch<Bne>, nullptr,      nullptr,
                                          branch<Blt>, branch<Bge>, branch<Bltu>, branch<Bgeu>};
        if (!ops[funct3(raw)]) return false;
        shape_r(d, raw, ops[funct3(raw)], InsnClass::Branch);
        d.rd = 0;
        d.dst = kSinkSlot;
        d.imm = imm_b(raw);
        d.fast = fast[funct3(raw)];
        return true;
    }
    case 0x03: {
        static constexpr ExecFn ops[8] = {load<int8_t>,  load<int16_t>,  load<uint32_t>, nullptr,
                                          load<uint8_t>, load<uint16_t>, nullptr,        nullptr};
        using enum FastOp;
        static constexpr FastOp fast[8] = {Lb, Lh, Lw, None, Lbu, Lhu, None, None};
        if (!ops[funct3(raw)]) return false;
        shape_i(d, raw, ops[funct3(raw)], InsnClass::Load);
        d.latency = 2;
        d.fast = fast[funct3(raw)];
        return true;
    }
    case 0x23: {
        static constexpr ExecFn ops[8] = {store<uint8_t>, store<uint16_t>, store<uint32_t>, nullptr,
                                          nullptr,        nullptr,         nullptr,         nullptr};
        using enum FastOp;
        static constexpr FastOp fast[8] = {Sb, Sh, Sw, None, None, None, None, None};
        if (!ops[funct3(raw)]) return false;
        shape_r(d, raw, ops[funct3(raw)], InsnClass::Store);
        d.rd = 0;
        d.dst = kSinkSlot;
        d.imm = imm_s(raw);
        d.fast = fast[funct3(raw)];
        return true;
    }
    case 0x13: return decode_op_imm(raw, d);
    case 0x33: return decode_op(raw, d);
    case 0x0f:
        if (funct3(raw) > 1) return false;
        // fence: memory is sequentially consistent here, only the timing.
        d.exec = funct3(raw) == 0 ? fence : fence_i;
        if (funct3(raw) == 1) d.cls = InsnClass::Jump;
        return true;
    case 0x73:
        if (funct3(raw) != 0 || rd(raw) != 0 || rs1(raw) != 0) return false;
        d.cls = InsnClass::System;
        switch (raw >> 20) {
        case 0x000: d.exec = ecall; return true;
        case 0x001: d.exec = ebreak; return true;
        case 0x302: d.exec = mret; return true;
        case 0x105: d.exec = nop; return true; // wfi: no interrupt sources here, so it does not wait
        default: return false;
        }
    default: return false;
    }
}

} // namespace pulpsim::isa
