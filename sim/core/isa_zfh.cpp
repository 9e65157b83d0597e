// Zfh: scalar IEEE binary16 in the 32-bit f registers (standard encodings, fmt field = 10).
//
// With FLEN = 32 a half-precision value is NaN-boxed: bits 31:16 of the register are all ones. Every
// instruction that writes a half result boxes it; every instruction that reads a half operand, other
// than fsh and fmv.x.h, which move bits, treats an operand that is not properly boxed as the canonical
// NaN (RISC-V unprivileged spec, "NaN Boxing of Narrower Values"). Rounding modes, flags and NaN rules are
// those of RV32F; timing is that of the binary32 operation of the same kind.
#include "core/fp_unit.hpp"

namespace pulpsim::isa {
namespace {

using U = uint32_t;
using H = uint16_t;
using fp::Rounding;
using fpu::issue;
using fpu::rounding;

inline H unbox(U v) {
    return (v >> 16) == 0xffffu ? static_cast<H>(v) : fp::kCanonicalNaN16;
}
inline U box(H v) {
    return 0xffff0000u | v;
}
inline H f16(Hart& h, unsigned r) {
    return unbox(h.f_[r]);
}

using Binary = H (*)(H, H, Rounding, uint8_t&);

template <Binary op> void h_binary(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::AddMul);
    h.f_[d.rd] = box(op(f16(h, d.rs1), f16(h, d.rs2), rounding(h, d), h.fflags_));
}

// fmadd: a*b+c; fmsub: a*b-c; fnmsub: -(a*b)+c; fnmadd: -(a*b)-c. The sign flips apply to the unboxed
// values, so an improperly boxed operand still becomes the canonical NaN first.
template <bool negate_product, bool negate_addend> void h_fma(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::AddMul);
    const H a = static_cast<H>(f16(h, d.rs1) ^ (negate_product ? 0x8000u : 0u));
    const H c = static_cast<H>(f16(h, d.rs3) ^ (negate_addend ? 0x8000u : 0u));
    h.f_[d.rd] = box(fp::fma16(a, f16(h, d.rs2), c, rounding(h, d), h.fflags_));
}

template <bool is_sqrt> void h_divsqrt(Hart& h, const DecodedInsn& d) {
    fpu::divsqrt_begin(h);
    uint8_t flags = 0;
    const Rounding rm = rounding(h, d);
    const H a = f16(h, d.rs1), b = is_sqrt ? H{0} : f16(h, d.rs2);
    const H result = is_sqrt ? fp::sqrt16(a, rm, flags) : fp::div16(a, b, rm, flags);
    h.f_[d.rd] = box(result);
    h.fflags_ |= flags;
    fpu::divsqrt_end(h, fslot(d.rd),
                     fpu::divsqrt_cycles(h.timing(), fpu::kBinary16, is_sqrt, a, b, result, flags),
                     fpu::divisor_normalised(fpu::kBinary16, is_sqrt, a, b));
}

// Sign injection: sgnj (sign of b), sgnjn (inverted sign of b), sgnjx (sign of a xor sign of b).
enum class SignOp : uint8_t { Copy, Negate, Xor };
template <SignOp op> void h_sgnj(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const H a = f16(h, d.rs1);
    const H b = f16(h, d.rs2);
    const H sign = op == SignOp::Copy     ? (b & 0x8000u)
                   : op == SignOp::Negate ? (~b & 0x8000u)
                                          : ((a ^ b) & 0x8000u);
    h.f_[d.rd] = box(static_cast<H>((a & 0x7fffu) | sign));
}

template <bool is_max> void h_minmax(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const H a = f16(h, d.rs1);
    const H b = f16(h, d.rs2);
    h.f_[d.rd] = box(is_max ? fp::max16(a, b, h.fflags_) : fp::min16(a, b, h.fflags_));
}

using Compare = U (*)(H, H, uint8_t&);
template <Compare op> void h_compare(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = op(f16(h, d.rs1), f16(h, d.rs2), h.fflags_);
}

void fclass_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::classify16(f16(h, d.rs1));
}

// fmv.x.h sign-extends the low 16 bits unchecked; fmv.h.x boxes the low 16 bits of x[rs1].
void fmv_x_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = static_cast<U>(static_cast<int32_t>(static_cast<int16_t>(h.f_[d.rs1])));
}
void fmv_h_x(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = box(static_cast<H>(h.x_[d.rs1]));
}

// fcvt.s.h is exact (rm only has to be legal); fcvt.h.s rounds.
void fcvt_s_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    rounding(h, d);
    h.f_[d.rd] = fp::f16_to_f32(f16(h, d.rs1), h.fflags_);
}
void fcvt_h_s(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = box(fp::f32_to_f16(h.f_[d.rs1], rounding(h, d), h.fflags_));
}
void fcvt_w_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = static_cast<U>(fp::to_int32_from16(f16(h, d.rs1), rounding(h, d), h.fflags_));
}
void fcvt_wu_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::to_uint32_from16(f16(h, d.rs1), rounding(h, d), h.fflags_);
}
void fcvt_h_w(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = box(fp::from_int32_to16(static_cast<int32_t>(h.x_[d.rs1]), rounding(h, d), h.fflags_));
}
void fcvt_h_wu(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = box(fp::from_uint32_to16(h.x_[d.rs1], rounding(h, d), h.fflags_));
}

void flh(Hart& h, const DecodedInsn& d) {
    const U addr = h.x_[d.rs1] + static_cast<U>(d.imm);
    h.f_[d.rd] = box(h.load_insn<uint16_t>(addr));
}
void fsh(Hart& h, const DecodedInsn& d) {
    const U addr = h.x_[d.rs1] + static_cast<U>(d.imm);
    h.store_insn<uint16_t>(addr, static_cast<uint16_t>(h.f_[d.rs2]));
}

constexpr unsigned kFmtHalf = 2; // bits 26:25 of OP-FP and the fused multiply-adds

} // namespace

bool decode_zfh(uint32_t raw, DecodedInsn& d, const CoreTiming& timing) {
    const unsigned op = opcode(raw);
    const unsigned f3 = funct3(raw);
    const unsigned addmul = 1 + timing.fpu_addmul_latency;
    const unsigned other = 1 + timing.fpu_other_latency;
    const bool rm_ok = fpu::static_rm_ok(f3);
    switch (op) {
    case 0x07:
        if (f3 != 1) return false;
        fpu::shape_load(d, raw, flh);
        return true;
    case 0x27:
        if (f3 != 1) return false;
        fpu::shape_store(d, raw, fsh);
        return true;
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f: {
        if (((raw >> 25) & 3) != kFmtHalf || !rm_ok) return false;
        static constexpr ExecFn ops[4] = {h_fma<false, false>, h_fma<false, true>, h_fma<true, false>,
                                          h_fma<true, true>};
        fpu::shape(d, raw, ops[(op >> 2) & 3], 3, false, false, addmul);
        return true;
    }
    case 0x53: break;
    default: return false;
    }
    const unsigned f7 = funct7(raw);
    const unsigned r2 = rs2(raw);
    if (f7 == 0x20) { // fcvt.s.h: destination format S, source format H in rs2
        if (r2 != kFmtHalf || !rm_ok) return false;
        fpu::shape(d, raw, fcvt_s_h, 1, false, false, other);
        return true;
    }
    if ((f7 & 3) != kFmtHalf) return false;
    switch (f7 >> 2) {
    case 0x00: // fadd.h
    case 0x01: // fsub.h
    case 0x02: // fmul.h
    {
        if (!rm_ok) return false;
        static constexpr ExecFn ops[3] = {h_binary<fp::add16>, h_binary<fp::sub16>, h_binary<fp::mul16>};
        fpu::shape(d, raw, ops[f7 >> 2], 2, false, false, addmul);
        return true;
    }
    case 0x03: // fdiv.h
    case 0x0b: // fsqrt.h
    {
        const bool is_sqrt = (f7 >> 2) == 0x0b;
        if (!rm_ok || (is_sqrt && r2 != 0)) return false;
        fpu::shape(d, raw, is_sqrt ? h_divsqrt<true> : h_divsqrt<false>, is_sqrt ? 1 : 2, false, false, 1);
        fpu::shape_divsqrt(d);
        return true;
    }
    case 0x04: { // fsgnj.h, fsgnjn.h, fsgnjx.h
        static constexpr ExecFn ops[3] = {h_sgnj<SignOp::Copy>, h_sgnj<SignOp::Negate>, h_sgnj<SignOp::Xor>};
        if (f3 > 2) return false;
        fpu::shape(d, raw, ops[f3], 2, false, false, other);
        return true;
    }
    case 0x05: // fmin.h, fmax.h
        if (f3 > 1) return false;
        fpu::shape(d, raw, f3 == 0 ? h_minmax<false> : h_minmax<true>, 2, false, false, other);
        return true;
    case 0x08: // fcvt.h.s: source format S in rs2
        if (r2 != 0 || !rm_ok) return false;
        fpu::shape(d, raw, fcvt_h_s, 1, false, false, other);
        return true;
    case 0x14: { // fle.h, flt.h, feq.h
        static constexpr ExecFn ops[3] = {h_compare<fp::le16>, h_compare<fp::lt16>, h_compare<fp::eq16>};
        if (f3 > 2) return false;
        fpu::shape(d, raw, ops[f3], 2, false, true, other);
        return true;
    }
    case 0x18: // fcvt.w.h, fcvt.wu.h
        if (r2 > 1 || !rm_ok) return false;
        fpu::shape(d, raw, r2 == 0 ? fcvt_w_h : fcvt_wu_h, 1, false, true, other);
        return true;
    case 0x1a: // fcvt.h.w, fcvt.h.wu
        if (r2 > 1 || !rm_ok) return false;
        fpu::shape(d, raw, r2 == 0 ? fcvt_h_w : fcvt_h_wu, 1, true, false, other);
        return true;
    case 0x1c: // fmv.x.h, fclass.h
        if (r2 != 0 || f3 > 1) return false;
        fpu::shape(d, raw, f3 == 0 ? fmv_x_h : fclass_h, 1, false, true, other);
        return true;
    case 0x1e: // fmv.h.x
        if (r2 != 0 || f3 != 0) return false;
        fpu::shape(d, raw, fmv_h_x, 1, true, false, other);
        return true;
    default: return false;
    }
}

} // namespace pulpsim::isa
