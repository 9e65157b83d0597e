// IEEE 754 arithmetic with RISC-V F/Zfh semantics, on bit patterns.
//
// Results follow the RISC-V unprivileged spec: every rounding mode including round-to-nearest-max-magnitude,
// tininess detected after rounding, the canonical NaN for any NaN result, fmin/fmax per IEEE 754-2019
// minimumNumber/maximumNumber (F v2.2), saturating float-to-integer conversions. Exception flags are OR-ed
// into `flags` with the fflags bit layout, so callers can accumulate straight into fcsr.
#pragma once

#include <cstdint>

namespace pulpsim::fp {

// Encodings of the instruction rm field and of frm.
enum class Rounding : uint8_t { NearestEven = 0, TowardZero = 1, Down = 2, Up = 3, NearestMaxMagnitude = 4 };

inline constexpr uint8_t kInexact = 1;
inline constexpr uint8_t kUnderflow = 2;
inline constexpr uint8_t kOverflow = 4;
inline constexpr uint8_t kDivByZero = 8;
inline constexpr uint8_t kInvalid = 16;

inline constexpr uint32_t kCanonicalNaN32 = 0x7fc00000u;
inline constexpr uint16_t kCanonicalNaN16 = 0x7e00u;

// binary32
uint32_t add32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t sub32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t mul32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t div32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t sqrt32(uint32_t a, Rounding rm, uint8_t& flags);
// a*b+c with a single rounding; fmsub/fnmadd/fnmsub are sign flips of the operands done by the caller
// (fmsub = fma(a,b,-c), fnmsub = fma(-a,b,c), fnmadd = fma(-a,b,-c)), which is exact for NaN rules too
// because any NaN result is canonical.
uint32_t fma32(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint8_t& flags);
// For a caller that has computed a*b+c with the host's fused multiply-add rounding to nearest even, `s`:
// whether s is fma32's result and leaves `flags` as they are. That holds for nearly every fmadd of a kernel
// (inexact already raised, s finite and too large to be tiny); otherwise fma32 decides.
inline bool fma32_rne_settled(uint32_t s, uint8_t flags) {
    const uint32_t magnitude = s & 0x7fffffffu;
    return (flags & kInexact) && magnitude >= 0x01000000u && magnitude < 0x7f800000u;
}
uint32_t min32(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t max32(uint32_t a, uint32_t b, uint8_t& flags);
// Comparisons return 0/1. feq raises invalid only for signalling NaNs, flt/fle for any NaN.
uint32_t eq32(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t lt32(uint32_t a, uint32_t b, uint8_t& flags);
uint32_t le32(uint32_t a, uint32_t b, uint8_t& flags);
// fclass.s result: one-hot 10-bit mask.
uint32_t classify32(uint32_t a);
// fcvt.w.s / fcvt.wu.s: saturate on overflow and NaN as the spec's table says, invalid on saturation.
int32_t to_int32(uint32_t a, Rounding rm, uint8_t& flags);
uint32_t to_uint32(uint32_t a, Rounding rm, uint8_t& flags);
uint32_t from_int32(int32_t v, Rounding rm, uint8_t& flags);
uint32_t from_uint32(uint32_t v, Rounding rm, uint8_t& flags);

// binary16 (Zfh and PULP's vectorial FP16)
uint16_t add16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags);
uint16_t sub16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags);
uint16_t mul16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags);
uint16_t div16(uint16_t a, uint16_t b, Rounding rm, uint8_t& flags);
uint16_t sqrt16(uint16_t a, Rounding rm, uint8_t& flags);
uint16_t fma16(uint16_t a, uint16_t b, uint16_t c, Rounding rm, uint8_t& flags);
uint16_t min16(uint16_t a, uint16_t b, uint8_t& flags);
uint16_t max16(uint16_t a, uint16_t b, uint8_t& flags);
uint32_t eq16(uint16_t a, uint16_t b, uint8_t& flags);
uint32_t lt16(uint16_t a, uint16_t b, uint8_t& flags);
uint32_t le16(uint16_t a, uint16_t b, uint8_t& flags);
uint32_t classify16(uint16_t a);
int32_t to_int32_from16(uint16_t a, Rounding rm, uint8_t& flags);
uint32_t to_uint32_from16(uint16_t a, Rounding rm, uint8_t& flags);
uint16_t from_int32_to16(int32_t v, Rounding rm, uint8_t& flags);
uint16_t from_uint32_to16(uint32_t v, Rounding rm, uint8_t& flags);
// Format conversions (fcvt.s.h is exact; fcvt.h.s rounds).
uint32_t f16_to_f32(uint16_t a, uint8_t& flags);
uint16_t f32_to_f16(uint32_t a, Rounding rm, uint8_t& flags);
// binary16 to 16-bit integers (the lanes of PULP's vfcvt.x.h / vfcvt.xu.h), returned as the lane's bit
// pattern: saturating like the 32-bit conversions, at [-2^15, 2^15 - 1] and [0, 2^16 - 1].
uint16_t to_int16_from16(uint16_t a, Rounding rm, uint8_t& flags);
uint16_t to_uint16_from16(uint16_t a, Rounding rm, uint8_t& flags);
// a0*b0 + a1*b1 + c for binary16 a, b and a binary32 c, computed exactly and rounded once to binary32
// (PULP's expanding dot product vfdotpex.s.h). NaN and invalid rules are those of fma32 applied to both
// products; an exact zero sum is +0 (-0 when rounding down) unless every term is -0.
uint32_t dotpex16_to32(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1, uint32_t c, Rounding rm,
                       uint8_t& flags);

namespace detail {
// The integer-only implementations behind the binary32 operations that take a host-FPU shortcut for
// NearestEven; any rounding mode is accepted. Exposed so tests can check the shortcut against them.
uint32_t soft_add32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t soft_mul32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t soft_div32(uint32_t a, uint32_t b, Rounding rm, uint8_t& flags);
uint32_t soft_sqrt32(uint32_t a, Rounding rm, uint8_t& flags);
uint32_t soft_fma32(uint32_t a, uint32_t b, uint32_t c, Rounding rm, uint8_t& flags);
} // namespace detail

} // namespace pulpsim::fp
