// RV32M: multiplication and division, with CV32E40P's multi-cycle mulh and serial divider.
#include <bit>

#include "core/decoder.hpp"

namespace pulpsim::isa {
namespace {

using S = int32_t;
using U = uint32_t;
#define X(r) h.x_[r]

void mul(Hart& h, const DecodedInsn& d) {
    X(d.rd) = X(d.rs1) * X(d.rs2);
}
// The upper-half multiplications keep EX busy for 5 cycles.
inline void mulh_cycles(Hart& h) {
    h.add_stall(StallKind::MultiCycle, 4);
    h.held_in_ex();
}
void mulh(Hart& h, const DecodedInsn& d) {
    mulh_cycles(h);
    X(d.rd) = static_cast<U>((int64_t{static_cast<S>(X(d.rs1))} * static_cast<S>(X(d.rs2))) >> 32);
}
void mulhsu(Hart& h, const DecodedInsn& d) {
    mulh_cycles(h);
    X(d.rd) = static_cast<U>((int64_t{static_cast<S>(X(d.rs1))} * int64_t{X(d.rs2)}) >> 32);
}
void mulhu(Hart& h, const DecodedInsn& d) {
    mulh_cycles(h);
    X(d.rd) = static_cast<U>((uint64_t{X(d.rs1)} * X(d.rs2)) >> 32);
}

// The serial divider (cv32e40p_alu_div.sv) takes 3 cycles plus one per iteration, whose count the ALU
// takes from the divisor's leading bits (cv32e40p_alu.sv, div_shift): its leading zeros (32 for zero), or
// for a negative divisor of a signed division the leading zeros of its complement, less one. So 1 and -1
// take 34 cycles, 2 and -2 33, 3 33 but -3 32, zero 35.
inline void divider_cycles(Hart& h, U divisor, bool is_signed) {
    const bool negative = is_signed && static_cast<S>(divisor) < 0;
    const unsigned iterations = negative ? static_cast<unsigned>(std::countl_zero(~divisor)) - 1
                                         : static_cast<unsigned>(std::countl_zero(divisor));
    h.add_stall(StallKind::MultiCycle, 3 + iterations - 1);
    h.held_in_ex();
}
void div(Hart& h, const DecodedInsn& d) {
    const S a = static_cast<S>(X(d.rs1)), b = static_cast<S>(X(d.rs2));
    divider_cycles(h, X(d.rs2), true);
    if (b == 0)
        X(d.rd) = ~0u;
    else if (a == INT32_MIN && b == -1)
        X(d.rd) = static_cast<U>(a);
    else
        X(d.rd) = static_cast<U>(a / b);
}
void divu(Hart& h, const DecodedInsn& d) {
    const U a = X(d.rs1), b = X(d.rs2);
    divider_cycles(h, b, false);
    X(d.rd) = b == 0 ? ~0u : a / b;
}
void rem(Hart& h, const DecodedInsn& d) {
    const S a = static_cast<S>(X(d.rs1)), b = static_cast<S>(X(d.rs2));
    divider_cycles(h, X(d.rs2), true);
    if (b == 0)
        X(d.rd) = static_cast<U>(a);
    else if (a == INT32_MIN && b == -1)
        X(d.rd) = 0;
    else
        X(d.rd) = static_cast<U>(a % b);
}
void remu(Hart& h, const DecodedInsn& d) {
    const U a = X(d.rs1), b = X(d.rs2);
    divider_cycles(h, b, false);
    X(d.rd) = b == 0 ? a : a % b;
}
#undef X

} // namespace

bool decode_rv32m(uint32_t raw, DecodedInsn& d) {
    if (opcode(raw) != 0x33 || funct7(raw) != 1) return false;
    static constexpr ExecFn ops[8] = {mul, mulh, mulhsu, mulhu, div, divu, rem, remu};
    const unsigned f3 = funct3(raw);
    shape_r(d, raw, ops[f3], f3 == 0 ? InsnClass::Mul : f3 < 4 ? InsnClass::MulHigh : InsnClass::Div);
    if (d.cls == InsnClass::MulHigh) d.latency = 5;
    return true;
}

} // namespace pulpsim::isa
