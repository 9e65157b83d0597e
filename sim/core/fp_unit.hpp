// The FPU as the floating-point instruction handlers see it (RV32F, Zfh, PULP's vectorial FP16): rounding
// modes, issue to the core's FPU or a shared one, the div/sqrt unit's data-dependent latency and the
// decoding shape shared by FP instructions.
#pragma once

#include "core/decoder.hpp"
#include "core/float_ops.hpp"

namespace pulpsim::isa::fpu {

// The rm encoding that selects frm.
inline constexpr uint8_t kDynamicRm = 7;

inline bool static_rm_ok(unsigned rm) {
    return rm <= 4 || rm == kDynamicRm;
}

// The rounding mode of `d` (d.aux holds the rm field); a reserved frm value makes it illegal.
inline fp::Rounding rounding(Hart& h, const DecodedInsn& d) {
    const unsigned rm = d.aux == kDynamicRm ? h.frm_ : d.aux;
    if (rm > 4) h.trap(cause::kIllegalInstruction, d.raw);
    return static_cast<fp::Rounding>(rm);
}

// Every FP operation goes through an FPU: the core's own, blocked while its div/sqrt unit works, or one of
// the cluster's shared FPUs, which other cores may hold.
inline void issue(Hart& h, FpuOperation op) {
    if (h.fpu_arbiter_) [[unlikely]]
        h.delay_issue(h.fpu_arbiter_->issue(h.hartid(), h.issue_, op, 0), StallKind::FpuContention);
    else
        h.delay_issue(h.fpu_free_, StallKind::FpuDependency);
    ++h.stats_.fp_writebacks;
}

// fdiv/fsqrt in two steps around the computation: the private unit must be free before it starts; the
// result takes longer when it is inexact, and the unit stays busy until it is done.
inline void divsqrt_begin(Hart& h) {
    if (!h.fpu_arbiter_) h.delay_issue(h.fpu_free_, StallKind::FpuDependency);
    ++h.stats_.fp_writebacks;
}
inline void divsqrt_end(Hart& h, uint8_t result_slot, bool inexact) {
    const unsigned latency = inexact ? h.timing().fdiv_latency : h.timing().fdiv_exact_latency;
    if (h.fpu_arbiter_)
        h.delay_issue(h.fpu_arbiter_->issue(h.hartid(), h.issue_, FpuOperation::DivSqrt, latency),
                      StallKind::FpuContention);
    h.ready_[result_slot] = ready_entry(h.issue_ + latency, ReadyCause::Fpu);
    h.fpu_free_ = h.issue_ + latency;
}

// Sets FP operand/result slots; `int_src`/`int_dst` mark the integer-register side of moves, compares and
// conversions. d.aux gets the rm field.
inline void shape(DecodedInsn& d, uint32_t raw, ExecFn fn, unsigned sources, bool int_src, bool int_dst,
                  unsigned latency) {
    d.exec = fn;
    d.rd = static_cast<uint8_t>(isa::rd(raw));
    d.rs1 = static_cast<uint8_t>(isa::rs1(raw));
    d.rs2 = static_cast<uint8_t>(isa::rs2(raw));
    d.rs3 = static_cast<uint8_t>(isa::rs3(raw));
    d.aux = static_cast<uint8_t>(funct3(raw));
    d.src[0] = int_src ? xsrc(d.rs1) : fslot(d.rs1);
    if (sources >= 2) d.src[1] = fslot(d.rs2);
    if (sources >= 3) d.src[2] = fslot(d.rs3);
    d.dst = int_dst ? xdst(d.rd) : fslot(d.rd);
    d.cls = InsnClass::Fp;
    d.latency = static_cast<uint8_t>(latency);
}

// FP loads and stores: the address from an x register, the data in an f register; a load's result is
// usable two cycles after it issues.
inline void shape_load(DecodedInsn& d, uint32_t raw, ExecFn fn) {
    shape_i(d, raw, fn, InsnClass::FpLoad);
    d.dst = fslot(d.rd);
    d.latency = 2;
}
inline void shape_store(DecodedInsn& d, uint32_t raw, ExecFn fn) {
    d.exec = fn;
    d.rs1 = static_cast<uint8_t>(isa::rs1(raw));
    d.rs2 = static_cast<uint8_t>(isa::rs2(raw));
    d.imm = imm_s(raw);
    d.src[0] = xsrc(d.rs1);
    d.src[1] = fslot(d.rs2);
    d.cls = InsnClass::FpStore;
}

// Div/sqrt decoding: the handler sets the result slot itself, with the data-dependent latency.
inline void shape_divsqrt(DecodedInsn& d) {
    d.dst = kSinkSlot;
    d.latency = 1;
    d.cls = InsnClass::FpDivSqrt;
}

} // namespace pulpsim::isa::fpu
