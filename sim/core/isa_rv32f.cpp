// RV32F single-precision floating point. Arithmetic is in float_ops.cpp, FPU issue and timing in
// fp_unit.hpp; this file adds decoding and the instruction semantics.
#include "core/fp_unit.hpp"

#include <bit>

namespace pulpsim::isa {
namespace {

using U = uint32_t;
using fp::Rounding;
using fpu::issue;
using fpu::rounding;

using Binary = U (*)(U, U, Rounding, uint8_t&);
using Unary = U (*)(U, Rounding, uint8_t&);
using Ternary = U (*)(U, U, U, Rounding, uint8_t&);

// The rounding mode first: with frm reserved the decoder flags a dynamic one illegal, and the operation traps
// before the dispatcher holds it (as one with a reserved static mode: isa::reserved_rounding).
template <Binary op> void fp_binary(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::AddMul);
    h.f_[d.rd] = op(h.f_[d.rs1], h.f_[d.rs2], rm, h.fflags_);
}

// fmadd: a*b+c; fmsub: a*b-c; fnmsub: -(a*b)+c; fnmadd: -(a*b)-c.
template <bool negate_product, bool negate_addend>
[[gnu::noinline]] void fp_fma(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::AddMul);
    const U a = h.f_[d.rs1] ^ (negate_product ? 0x80000000u : 0u);
    const U c = h.f_[d.rs3] ^ (negate_addend ? 0x80000000u : 0u);
    h.f_[d.rd] = fp::fma32(a, h.f_[d.rs2], c, rm, h.fflags_);
}

#if defined(__x86_64__)
// The same with the host's FMA3 inline, for hosts that have it (fma_handlers): the call into fma32 and its
// check of the host were about 15 of the 100 host instructions of an fmadd.
template <bool negate_product, bool negate_addend>
[[gnu::target("fma")]] void fp_fma_host(Hart& h, const DecodedInsn& d) {
    // Any other rounding mode, a reserved one included, takes the portable handler.
    if ((d.aux == kDynamicRm ? h.frm_ : d.aux) != static_cast<unsigned>(Rounding::NearestEven)) [[unlikely]] {
        fp_fma<negate_product, negate_addend>(h, d);
        return;
    }
    issue(h, d, FpuOperation::AddMul);
    const U a = h.f_[d.rs1] ^ (negate_product ? 0x80000000u : 0u);
    const U b = h.f_[d.rs2];
    const U c = h.f_[d.rs3] ^ (negate_addend ? 0x80000000u : 0u);
    const U s = std::bit_cast<U>(
        __builtin_fmaf(std::bit_cast<float>(a), std::bit_cast<float>(b), std::bit_cast<float>(c)));
    if (fp::fma32_rne_settled(s, h.fflags_)) [[likely]]
        h.f_[d.rd] = s;
    else
        h.f_[d.rd] = fp::fma32(a, b, c, Rounding::NearestEven, h.fflags_);
}
#endif

// fmadd, fmsub, fnmsub, fnmadd: this host's handlers.
const ExecFn* fma_handlers() {
#if defined(__x86_64__)
    static constexpr ExecFn host[4] = {fp_fma_host<false, false>, fp_fma_host<false, true>,
                                       fp_fma_host<true, false>, fp_fma_host<true, true>};
    if (__builtin_cpu_supports("fma")) return host;
#endif
    static constexpr ExecFn portable[4] = {fp_fma<false, false>, fp_fma<false, true>, fp_fma<true, false>,
                                           fp_fma<true, true>};
    return portable;
}

template <bool is_sqrt> void fp_divsqrt(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    fpu::divsqrt_begin(h);
    uint8_t flags = 0;
    const U a = h.f_[d.rs1], b = h.f_[d.rs2];
    const U result = is_sqrt ? fp::sqrt32(a, rm, flags) : fp::div32(a, b, rm, flags);
    h.f_[d.rd] = result;
    h.fflags_ |= flags;
    fpu::divsqrt_end(h, fslot(d.rd),
                     fpu::divsqrt_cycles(h.timing(), fpu::kBinary32, is_sqrt, a, b, result, flags),
                     fpu::divisor_normalised(fpu::kBinary32, is_sqrt, a, b));
}

void fsgnj(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = (h.f_[d.rs1] & 0x7fffffffu) | (h.f_[d.rs2] & 0x80000000u);
}
void fsgnjn(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = (h.f_[d.rs1] & 0x7fffffffu) | (~h.f_[d.rs2] & 0x80000000u);
}
void fsgnjx(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = h.f_[d.rs1] ^ (h.f_[d.rs2] & 0x80000000u);
}
void fmin(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = fp::min32(h.f_[d.rs1], h.f_[d.rs2], h.fflags_);
}
void fmax(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = fp::max32(h.f_[d.rs1], h.f_[d.rs2], h.fflags_);
}
void feq(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::eq32(h.f_[d.rs1], h.f_[d.rs2], h.fflags_);
}
void flt(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::lt32(h.f_[d.rs1], h.f_[d.rs2], h.fflags_);
}
void fle(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::le32(h.f_[d.rs1], h.f_[d.rs2], h.fflags_);
}
void fclass(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::classify32(h.f_[d.rs1]);
}
void fmv_x_w(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = h.f_[d.rs1];
}
void fmv_w_x(Hart& h, const DecodedInsn& d) {
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = h.x_[d.rs1];
}
void fcvt_w_s(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = static_cast<U>(fp::to_int32(h.f_[d.rs1], rm, h.fflags_));
}
void fcvt_wu_s(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::Other);
    h.x_[d.rd] = fp::to_uint32(h.f_[d.rs1], rm, h.fflags_);
}
void fcvt_s_w(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = fp::from_int32(static_cast<int32_t>(h.x_[d.rs1]), rm, h.fflags_);
}
void fcvt_s_wu(Hart& h, const DecodedInsn& d) {
    const Rounding rm = rounding(h, d);
    issue(h, d, FpuOperation::Other);
    h.f_[d.rd] = fp::from_uint32(h.x_[d.rs1], rm, h.fflags_);
}

// The plain accesses run inline in the hart's loop (FastOp); the handlers get the others, mostly a cluster
// core's TCDM accesses, whose usual case flw tries first.
[[gnu::noinline]] void flw_full(Hart& h, const DecodedInsn& d) {
    h.f_[d.rd] = h.load_insn<uint32_t>(h.x_[d.rs1] + static_cast<U>(d.imm));
}
void flw(Hart& h, const DecodedInsn& d) {
    if (!h.tcdm_load_at_once(h.x_[d.rs1] + static_cast<U>(d.imm), h.f_[d.rd])) [[unlikely]]
        flw_full(h, d);
}
void fsw(Hart& h, const DecodedInsn& d) {
    h.store_insn<uint32_t>(h.x_[d.rs1] + static_cast<U>(d.imm), h.f_[d.rs2]);
}

} // namespace

bool decode_rv32f(uint32_t raw, DecodedInsn& d, const CoreTiming& timing) {
    const unsigned op = opcode(raw);
    const unsigned f3 = funct3(raw);
    const unsigned addmul = 1 + timing.fpu_addmul_latency;
    const unsigned other = 1 + timing.fpu_other_latency;
    const bool rm_ok = fpu::static_rm_ok(f3);
    switch (op) {
    case 0x07:
        if (f3 != 2) return false;
        fpu::shape_load(d, raw, flw);
        d.fast = FastOp::Flw;
        return true;
    case 0x27:
        if (f3 != 2) return false;
        fpu::shape_store(d, raw, fsw);
        d.fast = FastOp::Fsw;
        return true;
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f: {
        if (((raw >> 25) & 3) != 0) return false; // fmt = S
        fpu::shape(d, raw, fma_handlers()[(op >> 2) & 3], 3, false, false, addmul);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    }
    case 0x53: break;
    default: return false;
    }
    const unsigned f7 = funct7(raw);
    const unsigned r2 = rs2(raw);
    switch (f7) {
    case 0x00:
        fpu::shape(d, raw, fp_binary<fp::add32>, 2, false, false, addmul);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x04:
        fpu::shape(d, raw, fp_binary<fp::sub32>, 2, false, false, addmul);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x08:
        fpu::shape(d, raw, fp_binary<fp::mul32>, 2, false, false, addmul);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x0c:
    case 0x2c:
        if (f7 == 0x2c && r2 != 0) return false;
        fpu::shape(d, raw, f7 == 0x0c ? fp_divsqrt<false> : fp_divsqrt<true>, f7 == 0x0c ? 2 : 1, false,
                   false, 1);
        fpu::shape_divsqrt(d);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x10: {
        static constexpr ExecFn ops[3] = {fsgnj, fsgnjn, fsgnjx};
        if (f3 > 2) return false;
        fpu::shape(d, raw, ops[f3], 2, false, false, other);
        return true;
    }
    case 0x14:
        if (f3 > 1) return false;
        fpu::shape(d, raw, f3 == 0 ? fmin : fmax, 2, false, false, other);
        return true;
    case 0x50: {
        static constexpr ExecFn ops[3] = {fle, flt, feq};
        if (f3 > 2) return false;
        fpu::shape(d, raw, ops[f3], 2, false, true, other);
        return true;
    }
    case 0x60:
        if (r2 > 1) return false;
        fpu::shape(d, raw, r2 == 0 ? fcvt_w_s : fcvt_wu_s, 1, false, true, other);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x68:
        if (r2 > 1) return false;
        fpu::shape(d, raw, r2 == 0 ? fcvt_s_w : fcvt_s_wu, 1, true, false, other);
        if (!rm_ok) fpu::shape_reserved_rounding(d);
        return true;
    case 0x70:
        if (r2 != 0 || f3 > 1) return false;
        fpu::shape(d, raw, f3 == 0 ? fmv_x_w : fclass, 1, false, true, other);
        return true;
    case 0x78:
        if (r2 != 0 || f3 != 0) return false;
        fpu::shape(d, raw, fmv_w_x, 1, true, false, other);
        return true;
    default: return false;
    }
}

} // namespace pulpsim::isa
