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
void addi(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) + static_cast<U>(d.imm);
}
void slti(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<S>(X(d.rs1)) < d.imm;
}
void sltiu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) < static_cast<U>(d.imm);
}
void xori(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) ^ static_cast<U>(d.imm);
}
void ori(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) | static_cast<U>(d.imm);
}
void andi(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) & static_cast<U>(d.imm);
}
void slli(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) << d.imm;
}
void srli(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) >> d.imm;
}
void srai(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(static_cast<S>(X(d.rs1)) >> d.imm);
}
void add(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) + X(d.rs2);
}
void sub(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) - X(d.rs2);
}
void sll(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) << (X(d.rs2) & 31);
}
void slt(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<S>(X(d.rs1)) < static_cast<S>(X(d.rs2));
}
void sltu(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) < X(d.rs2);
}
void xor_(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) ^ X(d.rs2);
}
void srl(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) >> (X(d.rs2) & 31);
}
void sra(Hart& h, const DecodedInsn& d) {
    X(d.rd) = static_cast<U>(static_cast<S>(X(d.rs1)) >> (X(d.rs2) & 31));
}
void or_(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) | X(d.rs2);
}
void and_(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) & X(d.rs2);
}

// ---- control transfer ----
void jal(Hart& h, const DecodedInsn& d) {
    X(d.rd) = h.pc_ + d.len;
    h.jump_to(h.pc_ + static_cast<U>(d.imm), 1);
}
void jalr(Hart& h, const DecodedInsn& d) {
    const U target = (X(d.rs1) + static_cast<U>(d.imm)) & ~1u;
    // The target is computed in ID: a result still in EX (from the instruction just before) costs a cycle.
    if (h.issue_ != 0 && d.rs1 != 0 && ready_cycle(h.ready_[d.src[0]]) >= h.issue_) {
        ++h.stats_.jump_register_hazards;
        h.add_stall(StallKind::JumpRegister, 1);
    }
    X(d.rd) = h.pc_ + d.len;
    h.jump_to(target, 1);
}
template <typename Cmp> void branch(Hart& h, const DecodedInsn& d) {
    if (Cmp{}(X(d.rs1), X(d.rs2))) {
        ++h.stats_.branches_taken;
        h.jump_to(h.pc_ + static_cast<U>(d.imm), 2);
    }
}
struct Eq {
    bool operator()(U a, U b) const { return a == b; }
};
struct Ne {
    bool operator()(U a, U b) const { return a != b; }
};
struct Lt {
    bool operator()(U a, U b) const { return static_cast<S>(a) < static_cast<S>(b); }
};
struct Ge {
    bool operator()(U a, U b) const { return static_cast<S>(a) >= static_cast<S>(b); }
};
struct Ltu {
    bool operator()(U a, U b) const { return a < b; }
};
struct Geu {
    bool operator()(U a, U b) const { return a >= b; }
};

// ---- memory ----
template <typename T> U extend(T v) {
    return static_cast<U>(static_cast<std::conditional_t<std::is_signed_v<T>, S, U>>(v));
}
// The full paths are separate functions that the plain ones tail-call, so that those need no stack frame.
template <typename T> [[gnu::noinline]] void load_full(Hart& h, const DecodedInsn& d) {
    X(d.rd) = extend(h.load_insn_full<T>(X(d.rs1) + static_cast<U>(d.imm)));
}
template <typename T> void load(Hart& h, const DecodedInsn& d) {
    T v;
    if (!h.plain_load(X(d.rs1) + static_cast<U>(d.imm), v)) [[unlikely]]
        return load_full<T>(h, d);
    X(d.rd) = extend(v);
}
template <typename T> [[gnu::noinline]] void store_full(Hart& h, const DecodedInsn& d) {
    h.store_insn_full<T>(X(d.rs1) + static_cast<U>(d.imm), static_cast<T>(X(d.rs2)));
}
template <typename T> void store(Hart& h, const DecodedInsn& d) {
    if (!h.plain_store(X(d.rs1) + static_cast<U>(d.imm), static_cast<T>(X(d.rs2)))) [[unlikely]]
        return store_full<T>(h, d);
}

// ---- system ----
void nop(Hart&, const DecodedInsn&) {}
void fence_i(Hart& h, const DecodedInsn&) {
    h.fence_i();
    h.jump_to(h.next_pc_, 1); // implemented as a jump to the next instruction
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
    static constexpr ExecFn simple[8] = {addi, nullptr, slti, sltiu, xori, nullptr, ori, andi};
    if (simple[f3]) {
        shape_i(d, raw, simple[f3]);
        return true;
    }
    if (f3 == 1 && f7 == 0) {
        shape_i(d, raw, slli);
    } else if (f3 == 5 && f7 == 0) {
        shape_i(d, raw, srli);
    } else if (f3 == 5 && f7 == 0x20) {
        shape_i(d, raw, srai);
    } else {
        return false;
    }
    d.imm &= 31;
    return true;
}

bool decode_op(uint32_t raw, DecodedInsn& d) {
    const unsigned f7 = funct7(raw);
    const unsigned f3 = funct3(raw);
    static constexpr ExecFn base[8] = {add, sll, slt, sltu, xor_, srl, or_, and_};
    if (f7 == 0) {
        shape_r(d, raw, base[f3]);
        return true;
    }
    if (f7 == 0x20 && (f3 == 0 || f3 == 5)) {
        shape_r(d, raw, f3 == 0 ? sub : sra);
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
        return true;
    case 0x67:
        if (funct3(raw) != 0) return false;
        shape_i(d, raw, jalr, InsnClass::Jump);
        return true;
    case 0x63: {
        static constexpr ExecFn ops[8] = {branch<Eq>, branch<Ne>, nullptr,     nullptr,
                                          branch<Lt>, branch<Ge>, branch<Ltu>, branch<Geu>};
        if (!ops[funct3(raw)]) return false;
        shape_r(d, raw, ops[funct3(raw)], InsnClass::Branch);
        d.rd = 0;
        d.dst = kSinkSlot;
        d.imm = imm_b(raw);
        return true;
    }
    case 0x03: {
        static constexpr ExecFn ops[8] = {load<int8_t>,  load<int16_t>,  load<uint32_t>, nullptr,
                                          load<uint8_t>, load<uint16_t>, nullptr,        nullptr};
        if (!ops[funct3(raw)]) return false;
        shape_i(d, raw, ops[funct3(raw)], InsnClass::Load);
        d.latency = 2;
        return true;
    }
    case 0x23: {
        static constexpr ExecFn ops[8] = {store<uint8_t>, store<uint16_t>, store<uint32_t>, nullptr,
                                          nullptr,        nullptr,         nullptr,         nullptr};
        if (!ops[funct3(raw)]) return false;
        shape_r(d, raw, ops[funct3(raw)], InsnClass::Store);
        d.rd = 0;
        d.dst = kSinkSlot;
        d.imm = imm_s(raw);
        return true;
    }
    case 0x13: return decode_op_imm(raw, d);
    case 0x33: return decode_op(raw, d);
    case 0x0f:
        if (funct3(raw) == 0) {
            d.exec = nop; // fence: memory is sequentially consistent here
            return true;
        }
        if (funct3(raw) == 1) {
            d.exec = fence_i;
            d.cls = InsnClass::Jump;
            return true;
        }
        return false;
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
