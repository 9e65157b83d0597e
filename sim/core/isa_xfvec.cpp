// PULP vectorial FP16 ("Xfvec" with Xf16, the smallFloat extensions of RI5CY / CV32E40P with FPnew) on
// FLEN = 32: an f register holds two binary16 lanes, lane 0 in bits 15:0 and lane 1 in bits 31:16. The
// lanes are not NaN-boxed and never checked for boxing.
//
// Encoding (major opcode OP = 0x33, R-type):
//
//   31 30 29   25 24  20 19  15 14 13  12 11  7 6       0
//  | 1  0 | op5  |  rs2 |  rs1 | R | vfmt | rd  | 0110011 |
//
// vfmt is the format of the result: 00 FP32, 01 FP16alt, 10 FP16, 11 FP8; only FP16 vectors (two lanes)
// fit FLEN = 32, plus the two instructions whose FP32 result is a single value. R replicates lane 0 of
// rs2 into both lanes (the ".r" forms); where an instruction has no ".r" form, R selects a variant or
// must be 0. Every rounding instruction rounds with frm (there is no rm field): a reserved frm makes it
// illegal when it executes, as for a dynamic rm in RV32F.
//
//   op5   R=0 / R=1                 vfmt  semantics (per lane i; b = rs2, or lane 0 of rs2 with R)
//   0x01  vfadd.h / vfadd.r.h       10    rd[i] = rs1[i] + b[i]
//   0x02  vfsub.h / vfsub.r.h       10    rd[i] = rs1[i] - b[i]
//   0x03  vfmul.h / vfmul.r.h       10    rd[i] = rs1[i] * b[i]
//   0x04  vfdiv.h / vfdiv.r.h       10    rd[i] = rs1[i] / b[i]                      (div/sqrt unit)
//   0x05  vfmin.h / vfmin.r.h       10    rd[i] = minimumNumber(rs1[i], b[i])
//   0x06  vfmax.h / vfmax.r.h       10    rd[i] = maximumNumber(rs1[i], b[i])
//   0x07  vfsqrt.h / -              10    rd[i] = sqrt(rs1[i]); rs2 = 0              (div/sqrt unit)
//   0x08  vfmac.h / vfmac.r.h       10    rd[i] = rs1[i] * b[i] + rd[i]              (one rounding)
//   0x09  vfmre.h / vfmre.r.h       10    rd[i] = rs1[i] * b[i] - rd[i]              (one rounding)
//   0x0B  vfdotpex.s.h / .s.r.h     00    rd = rd + rs1[0]*b[0] + rs1[1]*b[1]        (FP32 rd, one rounding)
//   0x0C  rs2 = 0: vfmv.x.h / vfmv.h.x        10  x[rd] = f[rs1] / f[rd] = x[rs1]     (all 32 bits)
//         rs2 = 1: vfclass.h / -              10  x[rd] lane i = fclass mask of rs1[i]
//         rs2 = 2: vfcvt.x.h / vfcvt.xu.h     10  x[rd] lane i = int16 / uint16 of rs1[i] (saturating)
//         rs2 = 3: vfcvt.h.x / vfcvt.h.xu     10  rd[i] = binary16 of int16 / uint16 lane x[rs1][i]
//         rs2 = 4: vfcvt.h.s / vfcvtu.h.s     10  rd lane 0 / lane 1 = binary16 of FP32 rs1; the
//                                                 other lane of rd is kept
//         rs2 = 6: vfcvt.s.h / vfcvtu.s.h     00  rd (FP32) = rs1 lane 0 / lane 1, exactly
//   0x0D  vfsgnj.h / vfsgnj.r.h     10    rd[i] = |rs1[i]| with the sign of b[i]
//   0x0E  vfsgnjn.h / vfsgnjn.r.h   10    ... with the inverted sign of b[i]
//   0x0F  vfsgnjx.h / vfsgnjx.r.h   10    ... with sign(rs1[i]) xor sign(b[i])
//   0x10  vfeq.h / vfeq.r.h         10    x[rd] lane i = rs1[i] == b[i] (0 or 1)
//   0x11  vfne.h / vfne.r.h         10    ... !=, 1 for a quiet NaN, 0 for a signalling one
//   0x12  vflt.h / vflt.r.h         10    ... <
//   0x13  vfge.h / vfge.r.h         10    ... >=
//   0x14  vfle.h / vfle.r.h         10    ... <=
//   0x15  vfgt.h / vfgt.r.h         10    ... >
//   0x18  vfcpka.h.s / -            10    rd = {binary16 of FP32 rs2, binary16 of FP32 rs1} (rs1 in lane 0)
//
// Everything else is illegal here: the FP32 (vfmt 00), FP16alt and FP8 vectors, vfcpkb-d (they need
// FLEN >= 64 or FP8) and the auxiliary operations this core does not have (vfdotp, vfavg, vfsum,
// vfndotpex, vfsumex: op5 0x0A, 0x16, 0x17, 0x1D; 0x1A/0x1B cast from FP64).
//
// Sources of the encodings: pulp-platform/riscv-opcodes, opcodes/rv_xfvechalf, rv_f_xfvechalf,
// rv_xfvecsingle_xfvechalf, rv_xfvechalfnothirtytwod and rv_xfvecsingle_xfexpauxvechalf (the tables above;
// GVSoC's isa description lists the same words). Semantics: the Xfvec decoder of RI5CY (operand routing:
// vfadd/vfsub add rs1 and rs2, R replicates rs2, vfmac/vfmre take rd as the addend of FPnew's FMADD and
// its multiply-subtract modifier, vfclass and vfsqrt reject R), FPnew's documentation and RTL
// (pulp-platform/fpnew, openhwgroup/cvfpu: comparisons with the inverting modifier, cast-and-pack into
// lanes 0 and 1, "u" up-casts reading the upper half of the source) and the ExSdotp unit for vfdotpex.
// Where the FLEN = 32 hardware leaves a result open, the model chooses: vfcvt.h.s / vfcvtu.h.s keep the
// other lane of rd (the target-vector reading of CVA6's decoder), and vfdotpex.s.r.h replicates rs2 like
// every other ".r" form.
//
// Timing is that of the binary32 operation of the same kind: add/sub/mul/mac/mre/dotpex take the add/mul
// latency, div/sqrt the div/sqrt unit (both lanes in parallel; inexact if any lane is), everything else
// the "other" latency.
#include "core/fp_unit.hpp"

namespace pulpsim::isa {
namespace {

using U = uint32_t;
using H = uint16_t;
using fp::Rounding;
using fpu::issue;
using fpu::rounding;

inline H lane(U v, unsigned i) {
    return static_cast<H>(v >> (16 * i));
}
inline U pack(U lo, U hi) {
    return (lo & 0xffffu) | (hi << 16);
}
inline bool is_nan16(H v) {
    return (v & 0x7fffu) > 0x7c00u;
}
// The second operand: rs2, or its lane 0 in both lanes for the ".r" forms.
template <bool replicate> inline U operand_b(const Hart& h, const DecodedInsn& d) {
    const U b = h.f_[d.rs2];
    return replicate ? (b & 0xffffu) * 0x10001u : b;
}

using Binary = H (*)(H, H, Rounding, uint8_t&);

template <Binary op, bool replicate> void v_binary(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::AddMul);
    const Rounding rm = rounding(h, d);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    h.f_[d.rd] = pack(op(lane(a, 0), lane(b, 0), rm, h.fflags_), op(lane(a, 1), lane(b, 1), rm, h.fflags_));
}

// vfmac: rs1*b + rd; vfmre: rs1*b - rd.
template <bool subtract, bool replicate> void v_mac(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::AddMul);
    const Rounding rm = rounding(h, d);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    const U c = h.f_[d.rd] ^ (subtract ? 0x80008000u : 0u);
    h.f_[d.rd] = pack(fp::fma16(lane(a, 0), lane(b, 0), lane(c, 0), rm, h.fflags_),
                      fp::fma16(lane(a, 1), lane(b, 1), lane(c, 1), rm, h.fflags_));
}

template <bool is_sqrt, bool replicate> void v_divsqrt(Hart& h, const DecodedInsn& d) {
    fpu::divsqrt_begin(h);
    const Rounding rm = rounding(h, d);
    const U a = h.f_[d.rs1];
    const U b = is_sqrt ? 0u : operand_b<replicate>(h, d);
    // The lanes go through the unit side by side: the slower one decides.
    unsigned latency = 0;
    bool normalising = false;
    U result = 0;
    for (unsigned i = 0; i < 2; ++i) {
        uint8_t flags = 0;
        const auto r =
            is_sqrt ? fp::sqrt16(lane(a, i), rm, flags) : fp::div16(lane(a, i), lane(b, i), rm, flags);
        result |= U{r} << (16 * i);
        h.fflags_ |= flags;
        latency = std::max(latency, fpu::divsqrt_cycles(h.timing(), fpu::kBinary16, is_sqrt, lane(a, i),
                                                        lane(b, i), r, flags));
        normalising |= fpu::divisor_normalised(fpu::kBinary16, is_sqrt, lane(a, i), lane(b, i));
    }
    h.f_[d.rd] = result;
    fpu::divsqrt_end(h, fslot(d.rd), latency, normalising);
}

template <bool is_max, bool replicate> void v_minmax(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    auto op = is_max ? fp::max16 : fp::min16;
    h.f_[d.rd] = pack(op(lane(a, 0), lane(b, 0), h.fflags_), op(lane(a, 1), lane(b, 1), h.fflags_));
}

enum class SignOp : uint8_t { Copy, Negate, Xor };
template <SignOp op, bool replicate> void v_sgnj(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    const U sign = op == SignOp::Copy ? b : op == SignOp::Negate ? ~b : a ^ b;
    h.f_[d.rd] = (a & 0x7fff7fffu) | (sign & 0x80008000u);
}

// FPnew's comparisons: ne, ge and gt invert eq, lt and le, except that a NaN operand that makes the
// comparison invalid (any NaN for the ordered ones, a signalling NaN for eq/ne) always gives 0.
enum class Cmp : uint8_t { Eq, Ne, Lt, Ge, Le, Gt };
template <Cmp op> U compare_lane(H a, H b, uint8_t& flags) {
    uint8_t raised = 0;
    U r = 0;
    switch (op) {
    case Cmp::Eq:
    case Cmp::Ne: r = fp::eq16(a, b, raised); break;
    case Cmp::Lt:
    case Cmp::Ge: r = fp::lt16(a, b, raised); break;
    case Cmp::Le:
    case Cmp::Gt: r = fp::le16(a, b, raised); break;
    }
    flags |= raised;
    if (raised & fp::kInvalid) return 0;
    if (op == Cmp::Ne && (is_nan16(a) || is_nan16(b))) return 1;
    const bool inverted = op == Cmp::Ne || op == Cmp::Ge || op == Cmp::Gt;
    return inverted ? r ^ 1u : r;
}
template <Cmp op, bool replicate> void v_compare(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    h.x_[d.rd] = pack(compare_lane<op>(lane(a, 0), lane(b, 0), h.fflags_),
                      compare_lane<op>(lane(a, 1), lane(b, 1), h.fflags_));
}

void vfmv_x_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = h.f_[d.rs1];
}
void vfmv_h_x(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = h.x_[d.rs1];
}
void vfclass_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const U a = h.f_[d.rs1];
    h.x_[d.rd] = pack(fp::classify16(lane(a, 0)), fp::classify16(lane(a, 1)));
}

template <bool is_unsigned> void vfcvt_x_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const Rounding rm = rounding(h, d);
    const U a = h.f_[d.rs1];
    auto op = is_unsigned ? fp::to_uint16_from16 : fp::to_int16_from16;
    h.x_[d.rd] = pack(op(lane(a, 0), rm, h.fflags_), op(lane(a, 1), rm, h.fflags_));
}
template <bool is_unsigned> void vfcvt_h_x(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const Rounding rm = rounding(h, d);
    const U x = h.x_[d.rs1];
    auto convert = [&](H v) {
        return is_unsigned ? fp::from_uint32_to16(v, rm, h.fflags_)
                           : fp::from_int32_to16(static_cast<int16_t>(v), rm, h.fflags_);
    };
    h.f_[d.rd] = pack(convert(lane(x, 0)), convert(lane(x, 1)));
}

// vfcvt.h.s writes lane 0 of rd, vfcvtu.h.s lane 1; the other lane keeps its value.
template <bool upper> void vfcvt_h_s(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const U r = fp::f32_to_f16(h.f_[d.rs1], rounding(h, d), h.fflags_);
    const U old = h.f_[d.rd];
    h.f_[d.rd] = upper ? pack(old, r) : pack(r, old >> 16);
}
// vfcvt.s.h converts lane 0 of rs1, vfcvtu.s.h lane 1; exact, but frm must still be legal.
template <bool upper> void vfcvt_s_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    rounding(h, d);
    h.f_[d.rd] = fp::f16_to_f32(lane(h.f_[d.rs1], upper ? 1 : 0), h.fflags_);
}

void vfcpka_h_s(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    const Rounding rm = rounding(h, d);
    const U lo = fp::f32_to_f16(h.f_[d.rs1], rm, h.fflags_);
    const U hi = fp::f32_to_f16(h.f_[d.rs2], rm, h.fflags_);
    h.f_[d.rd] = pack(lo, hi);
}

template <bool replicate> void vfdotpex_s_h(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::AddMul);
    const Rounding rm = rounding(h, d);
    const U a = h.f_[d.rs1];
    const U b = operand_b<replicate>(h, d);
    h.f_[d.rd] = fp::dotpex16_to32(lane(a, 0), lane(b, 0), lane(a, 1), lane(b, 1), h.f_[d.rd], rm, h.fflags_);
}

constexpr unsigned kFmtFp32 = 0;
constexpr unsigned kFmtFp16 = 2;

// A handler per value of the R bit.
using Pair = ExecFn[2];

} // namespace

bool decode_xfvec(uint32_t raw, DecodedInsn& d, const CoreTiming& timing) {
    if (opcode(raw) != 0x33 || (raw >> 30) != 2) return false;
    const unsigned op5 = (raw >> 25) & 31;
    const unsigned r = (raw >> 14) & 1;
    const unsigned vfmt = (raw >> 12) & 3;
    const unsigned r2 = rs2(raw);
    const unsigned addmul = 1 + timing.fpu_addmul_latency;
    const unsigned other = 1 + timing.fpu_other_latency;

    // Shapes every vectorial instruction the same way: rounding from frm, FP registers unless told.
    auto shape = [&](ExecFn fn, unsigned sources, bool int_src, bool int_dst, unsigned latency) {
        fpu::shape(d, raw, fn, sources, int_src, int_dst, latency);
        d.aux = kDynamicRm;
        return true;
    };
    // rd is also read: the accumulators and the partly written vfcvt.h.s target.
    auto reads_rd = [&] {
        d.src[2] = fslot(d.rd);
        return true;
    };

    if (vfmt == kFmtFp32) {
        if (op5 == 0x0b) {
            static constexpr Pair ops = {vfdotpex_s_h<false>, vfdotpex_s_h<true>};
            return shape(ops[r], 2, false, false, addmul) && reads_rd();
        }
        if (op5 == 0x0c && r2 == 6) {
            static constexpr Pair ops = {vfcvt_s_h<false>, vfcvt_s_h<true>};
            return shape(ops[r], 1, false, false, other);
        }
        return false;
    }
    if (vfmt != kFmtFp16) return false;

    switch (op5) {
    case 0x01: {
        static constexpr Pair ops = {v_binary<fp::add16, false>, v_binary<fp::add16, true>};
        return shape(ops[r], 2, false, false, addmul);
    }
    case 0x02: {
        static constexpr Pair ops = {v_binary<fp::sub16, false>, v_binary<fp::sub16, true>};
        return shape(ops[r], 2, false, false, addmul);
    }
    case 0x03: {
        static constexpr Pair ops = {v_binary<fp::mul16, false>, v_binary<fp::mul16, true>};
        return shape(ops[r], 2, false, false, addmul);
    }
    case 0x04: {
        static constexpr Pair ops = {v_divsqrt<false, false>, v_divsqrt<false, true>};
        shape(ops[r], 2, false, false, 1);
        fpu::shape_divsqrt(d);
        return true;
    }
    case 0x05: {
        static constexpr Pair ops = {v_minmax<false, false>, v_minmax<false, true>};
        return shape(ops[r], 2, false, false, other);
    }
    case 0x06: {
        static constexpr Pair ops = {v_minmax<true, false>, v_minmax<true, true>};
        return shape(ops[r], 2, false, false, other);
    }
    case 0x07:
        if (r2 != 0 || r) return false;
        shape(v_divsqrt<true, false>, 1, false, false, 1);
        fpu::shape_divsqrt(d);
        return true;
    case 0x08: {
        static constexpr Pair ops = {v_mac<false, false>, v_mac<false, true>};
        return shape(ops[r], 2, false, false, addmul) && reads_rd();
    }
    case 0x09: {
        static constexpr Pair ops = {v_mac<true, false>, v_mac<true, true>};
        return shape(ops[r], 2, false, false, addmul) && reads_rd();
    }
    case 0x0c:
        switch (r2) {
        case 0: return r ? shape(vfmv_h_x, 1, true, false, other) : shape(vfmv_x_h, 1, false, true, other);
        case 1: return !r && shape(vfclass_h, 1, false, true, other);
        case 2: {
            static constexpr Pair ops = {vfcvt_x_h<false>, vfcvt_x_h<true>};
            return shape(ops[r], 1, false, true, other);
        }
        case 3: {
            static constexpr Pair ops = {vfcvt_h_x<false>, vfcvt_h_x<true>};
            return shape(ops[r], 1, true, false, other);
        }
        case 4: {
            static constexpr Pair ops = {vfcvt_h_s<false>, vfcvt_h_s<true>};
            return shape(ops[r], 1, false, false, other) && reads_rd();
        }
        default: return false;
        }
    case 0x0d: {
        static constexpr Pair ops = {v_sgnj<SignOp::Copy, false>, v_sgnj<SignOp::Copy, true>};
        return shape(ops[r], 2, false, false, other);
    }
    case 0x0e: {
        static constexpr Pair ops = {v_sgnj<SignOp::Negate, false>, v_sgnj<SignOp::Negate, true>};
        return shape(ops[r], 2, false, false, other);
    }
    case 0x0f: {
        static constexpr Pair ops = {v_sgnj<SignOp::Xor, false>, v_sgnj<SignOp::Xor, true>};
        return shape(ops[r], 2, false, false, other);
    }
    case 0x10:
    case 0x11:
    case 0x12:
    case 0x13:
    case 0x14:
    case 0x15: {
        static constexpr ExecFn ops[6][2] = {
            {v_compare<Cmp::Eq, false>, v_compare<Cmp::Eq, true>},
            {v_compare<Cmp::Ne, false>, v_compare<Cmp::Ne, true>},
            {v_compare<Cmp::Lt, false>, v_compare<Cmp::Lt, true>},
            {v_compare<Cmp::Ge, false>, v_compare<Cmp::Ge, true>},
            {v_compare<Cmp::Le, false>, v_compare<Cmp::Le, true>},
            {v_compare<Cmp::Gt, false>, v_compare<Cmp::Gt, true>},
        };
        return shape(ops[op5 - 0x10][r], 2, false, true, other);
    }
    case 0x18: return !r && shape(vfcpka_h_s, 2, false, false, other);
    default: return false;
    }
}

} // namespace pulpsim::isa
