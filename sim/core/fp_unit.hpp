// The FPU as the floating-point instruction handlers see it (RV32F, Zfh, PULP's vectorial FP16): rounding
// modes, issue to the core's FPU or a shared one, the div/sqrt unit's data-dependent latency and the
// decoding shape shared by FP instructions.
#pragma once

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/decoder.hpp"
#include "core/float_ops.hpp"

namespace pulpsim::isa::fpu {

inline bool static_rm_ok(unsigned rm) {
    return rm <= kLastRm || rm == kDynamicRm;
}

// The rounding mode of `d` (d.aux holds the rm field); a reserved frm value makes it illegal.
inline fp::Rounding rounding(Hart& h, const DecodedInsn& d) {
    const unsigned rm = d.aux == kDynamicRm ? h.frm_ : d.aux;
    if (rm > kLastRm) h.trap(cause::kIllegalInstruction, d.raw);
    return static_cast<fp::Rounding>(rm);
}

// CV32E40P's APU dispatcher (cv32e40p_apu_disp.sv) sorts FP operations by latency so that results return in
// order: class 1 has latency 1 (FPU_*_LAT = 0), class 2 latency 2, class 3 anything longer and div/sqrt
// (cv32e40p_decoder.sv: apu_lat). While an operation of class 2 or 3 is in flight, a new one of class 1 or 3
// waits until that result is ready, and one of class 2 waits only for a class-3 one (stall_type). A CSR
// instruction waits one cycle more (cv32e40p_id_stage.sv: csr_apu_stall), for every class 2 or 3 operation.
inline unsigned apu_class(unsigned latency) {
    return latency >= 3 ? 3 : latency;
}
inline uint64_t apu_wait(const Hart& h, unsigned cls) {
    return cls == 2 ? h.apu_long_until_ : h.apu_busy_until_;
}
// An operation of class `cls` whose result for scoreboard slot `slot` is ready in `ready`.
inline void apu_in_flight(Hart& h, unsigned cls, uint64_t ready, uint8_t slot) {
    if (cls < 2) return;
    if (slot < kZeroSlot) h.ready_[fp_result_slot(slot)] = ready_entry(ready, ReadyCause::Fpu);
    if (slot == kX0Slot) h.turn_detour_ = true; // only check_operands waits for it
    h.apu_busy_until_ = std::max(h.apu_busy_until_, ready);
    if (cls == 3) {
        h.apu_long_until_ = std::max(h.apu_long_until_, ready);
        h.apu_port_write_ = ready;
        h.apu_port_slot_ = slot;
    }
}
// The dispatcher holds the operation in EX until `cycle` (stall_type). The APU_TYPE event counts those
// cycles but the ones in which the instruction behind, in ID from the second, waits for a result in flight:
// APU_DEP counts these (cv32e40p_cs_registers.sv: hpm_events[12], [14]).
[[gnu::noinline, gnu::cold]] inline void held_for_type(Hart& h, uint64_t cycle) {
    const uint64_t held = cycle - h.issue_, behind_before = h.stats_.apu_dependency_cycles;
    const bool first = h.first_hold();
    h.delay_issue(cycle, StallKind::FpuDependency);
    const uint64_t behind = h.stats_.apu_dependency_cycles - behind_before;
    h.stats_.apu_type_cycles += held - behind;
    h.dependency_behind_in_type_ += behind;
    // Unless APU_DEP takes them, the held cycles start with the one of the operation's INSTR event.
    h.stats_.apu_type_runs_at_entry += first && behind == 0;
}
inline void hold_for_type(Hart& h, uint64_t cycle) {
    if (cycle > h.issue_) [[unlikely]]
        held_for_type(h, cycle);
}
inline uint64_t csr_wait(const Hart& h) {
    return h.apu_busy_until_ ? h.apu_busy_until_ + 1 : 0;
}

// Every FP operation goes through an FPU: the core's own or one of the cluster's shared FPUs, which other
// cores may hold; the core's dispatcher holds it back first while earlier operations are in flight.
inline void issue(Hart& h, const DecodedInsn& d, FpuOperation op) {
    const auto kind = static_cast<unsigned>(op); // AddMul or Other
    const unsigned cls = h.apu_class_[kind];
    // Class 1, the single-cycle FPU's every operation, waits for everything in flight and leaves nothing.
    hold_for_type(h, apu_wait(h, cls));
    if (h.fpu_arbiter_) [[unlikely]]
        h.delay_issue(h.fpu_lane_.unit ? h.fpu_lane_.grant(h.issue_)
                                       : h.fpu_arbiter_->issue(h.hartid(), h.issue_, op, 0),
                      StallKind::FpuContention);
    if (cls != 1) [[unlikely]]
        apu_in_flight(h, cls, h.issue_ + h.apu_latency_[kind], d.dst);
    ++h.stats_.fp_writebacks;
}

// The cycles from an fdiv/fsqrt entering EX to a dependent instruction entering EX, as CV32E40P v2's
// div/sqrt unit takes them: cvfpu's fpnew_divsqrt_th_32 (cv32e40p_fp_wrapper.sv: PulpDivsqrt = 0), T-Head's
// radix-4 SRT divider (pa_fdsu_ctrl.v), with one output register. Its iteration counter stops early when the
// partial remainder reaches zero, so a quotient of the significands that is exact takes fewer cycles the
// fewer fraction bits it has: 6 + ceil(f / 2) for f fraction bits (1/2: 6, 3/2: 7, 9/8: 8), up to the 19 of
// one that is not (15 iterations + 4). Whether the IEEE result is then rounded (a denormal) does not matter.
// Special operands (zero, infinity, NaN, division by zero, the root of a negative) skip the iterations: 3.
// So does a division whose exponents alone put the result past the largest finite value or below half the
// smallest denormal (ea - eb >= emax + 2, or <= emin - mantissa bits - 2): 5. A denormal divisor costs one
// more cycle to prepare (divisor_normalised). `latency` (fpu.divsqrt_latency) is the inexact figure and
// `exact_latency` (fpu.divsqrt_exact_latency) the exact one with no fraction bits.
struct DivSqrtFormat {
    unsigned mantissa_bits; // 23 for binary32, 10 for binary16
    unsigned exponent_bits; // 8, 5
};
inline constexpr DivSqrtFormat kBinary32{23, 8}, kBinary16{10, 5};
inline constexpr unsigned kDivSqrtSpecialCycles = 3;
inline constexpr unsigned kDivSqrtSkipCycles = 5;

inline uint32_t divsqrt_exponent(DivSqrtFormat f, uint32_t x) {
    return (x >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
}
// Zero, infinity or NaN, which skip the iterations.
inline bool divsqrt_special(DivSqrtFormat f, uint32_t x) {
    const uint32_t magnitude_mask = (1u << (f.mantissa_bits + f.exponent_bits)) - 1;
    return divsqrt_exponent(f, x) == (1u << f.exponent_bits) - 1 || (x & magnitude_mask) == 0;
}
// A division by a denormal normalises the divisor before iterating (pa_fdsu_ctrl.v: fdsu_dn_stall, the WFI2
// state), one cycle in which the unit does not take the operation (fpnew_divsqrt_th_32.sv: no input
// handshake while fdsu_fpu_ex1_stall): the core holds it in EX one cycle longer. Special operands skip
// this.
inline bool divisor_normalised(DivSqrtFormat f, bool is_sqrt, uint32_t a, uint32_t b) {
    return !is_sqrt && divsqrt_exponent(f, b) == 0 && !divsqrt_special(f, a) && !divsqrt_special(f, b);
}

inline unsigned divsqrt_cycles(const CoreTiming& t, DivSqrtFormat f, bool is_sqrt, uint32_t a, uint32_t b,
                               uint32_t result, uint8_t flags) {
    const uint32_t mant_mask = (1u << f.mantissa_bits) - 1, exp_max = (1u << f.exponent_bits) - 1;
    const uint32_t sign_bit = 1u << (f.mantissa_bits + f.exponent_bits);
    const int bias = static_cast<int>(exp_max / 2);
    auto exponent = [&](uint32_t x) { return divsqrt_exponent(f, x); };
    auto special = [&](uint32_t x) { return divsqrt_special(f, x); };
    if (special(a) || (is_sqrt ? (a & sign_bit) != 0 : special(b))) return kDivSqrtSpecialCycles;
    // The significand with its leading one at bit mantissa_bits, and the unbiased exponent (denormals
    // normalised).
    auto normalised = [&](uint32_t x, int& e) {
        uint32_t m = x & mant_mask;
        if (exponent(x) != 0) {
            e = static_cast<int>(exponent(x)) - bias;
            return m | (mant_mask + 1);
        }
        e = 1 - bias;
        while (!(m & (mant_mask + 1))) {
            m <<= 1;
            --e;
        }
        return m;
    };
    if (is_sqrt) {
        if (flags & fp::kInexact) return t.fdiv_latency;
        int e = 0;
        const uint32_t r = normalised(result, e);
        const unsigned fraction =
            r & mant_mask ? f.mantissa_bits - static_cast<unsigned>(std::countr_zero(r & mant_mask)) : 0;
        return std::min(t.fdiv_exact_latency + (fraction + 1) / 2, t.fdiv_latency);
    }
    int ea = 0, eb = 0;
    const uint64_t sa = normalised(a, ea), sb = normalised(b, eb);
    const unsigned denormal_divisor = divisor_normalised(f, false, a, b) ? 1 : 0;
    const int emin_denormal = 1 - bias - static_cast<int>(f.mantissa_bits);
    if (ea - eb >= bias + 2 || ea - eb <= emin_denormal - 2) return kDivSqrtSkipCycles + denormal_divisor;
    // sa / sb in lowest terms is exact iff its denominator is a power of two, 2^k; the quotient the unit
    // iterates on (below 1 when sa < sb) then has k fraction bits.
    const uint64_t den = sb / std::gcd(sa, sb);
    if (!std::has_single_bit(den)) return t.fdiv_latency + denormal_divisor;
    const auto fraction = static_cast<unsigned>(std::countr_zero(den));
    return std::min(t.fdiv_exact_latency + (fraction + 1) / 2, t.fdiv_latency) + denormal_divisor;
}

// fdiv/fsqrt in two steps around the computation: a class-3 operation, it waits for every operation in
// flight; the result takes `latency` cycles (divsqrt_cycles) from the cycle the unit starts, and the unit
// stays busy until it is done. `normalising` (divisor_normalised): the core holds it one more cycle in EX.
inline void divsqrt_begin(Hart& h) {
    hold_for_type(h, apu_wait(h, 3));
    ++h.stats_.fp_writebacks;
}
inline void divsqrt_end(Hart& h, uint8_t result_slot, unsigned latency, bool normalising) {
    if (h.fpu_arbiter_)
        h.delay_issue(h.fpu_arbiter_->issue(h.hartid(), h.issue_, FpuOperation::DivSqrt, latency),
                      StallKind::FpuContention);
    if (normalising) {
        h.add_stall(StallKind::MultiCycle, 1);
        ++h.stats_.apu_refused_cycles;
        h.stats_.apu_contention_runs_at_entry += h.first_hold();
        h.held_in_ex(true);
    }
    h.ready_[result_slot] = ready_entry(h.issue_ + latency, ReadyCause::Fpu);
    h.pending_ |= uint64_t{1} << result_slot;
    apu_in_flight(h, 3, h.issue_ + latency, result_slot);
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

// An operation with a reserved static rounding mode (isa::reserved_rounding): its operands, no result.
inline void shape_reserved_rounding(DecodedInsn& d) {
    d.exec = reserved_rounding;
    d.dst = kSinkSlot;
    d.cls = InsnClass::System; // no FP operation: nothing to issue, never run ahead
}

} // namespace pulpsim::isa::fpu
