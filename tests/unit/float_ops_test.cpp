// IEEE 754 arithmetic with RISC-V F/Zfh semantics (core/float_ops): rounding in every mode, exception flags,
// NaN rules, fmin/fmax, comparisons, fclass, integer and format conversions, and a randomized check of the
// host-FPU shortcut for round-to-nearest-even against the exact integer implementation.
//
// Expected values come from the definitions in IEEE 754-2019 and the RISC-V unprivileged spec (F, Zfh):
// binary32 has a 24-bit significand (ulp of 1.0 is 2^-23), binary16 an 11-bit one (ulp of 1.0 is 2^-10);
// tininess is detected after rounding and underflow is only signalled when the result is also inexact.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <type_traits>
#include <vector>

#include "core/float_ops.hpp"

namespace pulpsim::fp {
namespace {

constexpr Rounding kRNE = Rounding::NearestEven;
constexpr Rounding kRTZ = Rounding::TowardZero;
constexpr Rounding kRDN = Rounding::Down;
constexpr Rounding kRUP = Rounding::Up;
constexpr Rounding kRMM = Rounding::NearestMaxMagnitude;
// Tables indexed by mode below use this order.
constexpr std::array<Rounding, 5> kAllModes = {kRNE, kRTZ, kRDN, kRUP, kRMM};

constexpr uint8_t kNX = kInexact;
constexpr uint8_t kUF = kUnderflow;
constexpr uint8_t kOF = kOverflow;
constexpr uint8_t kDZ = kDivByZero;
constexpr uint8_t kNV = kInvalid;

// binary32 encodings.
constexpr uint32_t kPosZero = 0x00000000;
constexpr uint32_t kNegZero = 0x80000000;
constexpr uint32_t kOne = 0x3f800000;
constexpr uint32_t kNegOne = 0xbf800000;
constexpr uint32_t kTwo = 0x40000000;
constexpr uint32_t kHalf = 0x3f000000;
constexpr uint32_t kPosInf = 0x7f800000;
constexpr uint32_t kNegInf = 0xff800000;
constexpr uint32_t kQNaN = 0x7fc00000;
constexpr uint32_t kQNaNPayload = 0xffc12345; // quiet, negative, nonzero payload
constexpr uint32_t kSNaN = 0x7f800001;
constexpr uint32_t kSNaNNeg = 0xffa00000;
constexpr uint32_t kMax = 0x7f7fffff; // (2 - 2^-23) * 2^127
constexpr uint32_t kNegMax = 0xff7fffff;
constexpr uint32_t kMinNormal = 0x00800000; // 2^-126
constexpr uint32_t kMinSub = 0x00000001;    // 2^-149
constexpr uint32_t kMaxSub = 0x007fffff;    // 2^-126 - 2^-149

// binary16 encodings.
constexpr uint16_t kHPosZero = 0x0000;
constexpr uint16_t kHNegZero = 0x8000;
constexpr uint16_t kHOne = 0x3c00;
constexpr uint16_t kHNegOne = 0xbc00;
constexpr uint16_t kHMax = 0x7bff; // 65504
constexpr uint16_t kHInf = 0x7c00;
constexpr uint16_t kHNegInf = 0xfc00;
constexpr uint16_t kHQNaN = 0x7e00;
constexpr uint16_t kHSNaN = 0x7c01;
constexpr uint16_t kHMinSub = 0x0001; // 2^-24

// A result and the flags raised while computing it, compared together; failures print both.
template <class T> struct Out {
    T value;
    uint8_t flags;
    bool operator==(const Out&) const = default;
};
using R32 = Out<uint32_t>;
using R16 = Out<uint16_t>;
using RInt = Out<int32_t>;

template <class T> void PrintTo(const Out<T>& r, std::ostream* os) {
    if constexpr (std::is_same_v<T, int32_t>)
        *os << "{" << r.value;
    else
        *os << "{0x" << std::hex << uint32_t(r.value);
    *os << ", flags 0x" << std::hex << unsigned(r.flags) << std::dec << "}";
}

// Calls fn(args..., flags) with cleared flags.
template <class Fn, class... Args> auto run(Fn fn, Args... args) {
    uint8_t flags = 0;
    const auto value = fn(args..., flags);
    return Out<std::remove_const_t<decltype(value)>>{value, flags};
}

uint32_t neg32(uint32_t a) {
    return a ^ 0x80000000u;
}

// ---- rounding ----------------------------------------------------------------------------------------

TEST(FloatOps, AddRoundsTiesInEveryMode) {
    // 1 + 2^-24 lies exactly halfway between 1.0 and its successor 1 + 2^-23.
    constexpr uint32_t kHalfUlpOfOne = 0x33800000;                      // 2^-24
    EXPECT_EQ(run(add32, kOne, kHalfUlpOfOne, kRNE), (R32{kOne, kNX})); // tie: 1.0 has the even significand
    EXPECT_EQ(run(add32, kOne, kHalfUlpOfOne, kRTZ), (R32{kOne, kNX}));
    EXPECT_EQ(run(add32, kOne, kHalfUlpOfOne, kRDN), (R32{kOne, kNX}));
    EXPECT_EQ(run(add32, kOne, kHalfUlpOfOne, kRUP), (R32{0x3f800001, kNX}));
    EXPECT_EQ(run(add32, kOne, kHalfUlpOfOne, kRMM), (R32{0x3f800001, kNX})); // tie away from zero

    // The negated sum mirrors: RDN and RMM move away from zero, RUP and RTZ towards it.
    EXPECT_EQ(run(add32, kNegOne, neg32(kHalfUlpOfOne), kRNE), (R32{kNegOne, kNX}));
    EXPECT_EQ(run(add32, kNegOne, neg32(kHalfUlpOfOne), kRTZ), (R32{kNegOne, kNX}));
    EXPECT_EQ(run(add32, kNegOne, neg32(kHalfUlpOfOne), kRDN), (R32{0xbf800001, kNX}));
    EXPECT_EQ(run(add32, kNegOne, neg32(kHalfUlpOfOne), kRUP), (R32{kNegOne, kNX}));
    EXPECT_EQ(run(add32, kNegOne, neg32(kHalfUlpOfOne), kRMM), (R32{0xbf800001, kNX}));

    // 1 + 3*2^-24 = 1 + 1.5 ulp: halfway between 0x3f800001 (odd) and 0x3f800002 (even).
    constexpr uint32_t kThreeHalfUlps = 0x34400000;                            // 1.5 * 2^-23
    EXPECT_EQ(run(add32, kOne, kThreeHalfUlps, kRNE), (R32{0x3f800002, kNX})); // tie to even goes up here
    EXPECT_EQ(run(add32, kOne, kThreeHalfUlps, kRTZ), (R32{0x3f800001, kNX}));
    EXPECT_EQ(run(add32, kOne, kThreeHalfUlps, kRDN), (R32{0x3f800001, kNX}));
    EXPECT_EQ(run(add32, kOne, kThreeHalfUlps, kRUP), (R32{0x3f800002, kNX}));
    EXPECT_EQ(run(add32, kOne, kThreeHalfUlps, kRMM), (R32{0x3f800002, kNX}));

    // 1 + 2^-25 is below the halfway point: only RUP leaves 1.0.
    constexpr uint32_t kQuarterUlpOfOne = 0x33000000; // 2^-25
    EXPECT_EQ(run(add32, kOne, kQuarterUlpOfOne, kRNE), (R32{kOne, kNX}));
    EXPECT_EQ(run(add32, kOne, kQuarterUlpOfOne, kRMM), (R32{kOne, kNX}));
    EXPECT_EQ(run(add32, kOne, kQuarterUlpOfOne, kRUP), (R32{0x3f800001, kNX}));
}

TEST(FloatOps, ExactResultsRaiseNoFlagInAnyMode) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(add32, kOne, kOne, rm), (R32{kTwo, 0}));
        EXPECT_EQ(run(sub32, kTwo, kHalf, rm), (R32{0x3fc00000, 0}));         // 1.5
        EXPECT_EQ(run(mul32, 0x40400000u, kHalf, rm), (R32{0x3fc00000, 0}));  // 3 * 0.5
        EXPECT_EQ(run(div32, 0x40400000u, kTwo, rm), (R32{0x3fc00000, 0}));   // 3 / 2
        EXPECT_EQ(run(sqrt32, 0x40800000u, rm), (R32{kTwo, 0}));              // sqrt(4)
        EXPECT_EQ(run(fma32, kTwo, kTwo, kNegOne, rm), (R32{0x40400000, 0})); // 2*2-1 = 3
    }
}

TEST(FloatOps, ExactZeroSumIsPositiveExceptWhenRoundingDown) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        const uint32_t zero = rm == kRDN ? kNegZero : kPosZero;
        EXPECT_EQ(run(add32, kOne, kNegOne, rm), (R32{zero, 0}));
        EXPECT_EQ(run(sub32, kOne, kOne, rm), (R32{zero, 0}));
        EXPECT_EQ(run(add32, kPosZero, kNegZero, rm), (R32{zero, 0}));
        EXPECT_EQ(run(add32, kNegZero, kNegZero, rm), (R32{kNegZero, 0})); // same signs keep the sign
        EXPECT_EQ(run(add32, kPosZero, kPosZero, rm), (R32{kPosZero, 0}));
        EXPECT_EQ(run(sub32, kNegZero, kPosZero, rm), (R32{kNegZero, 0})); // -0 - +0 = -0 + -0
        // fma: the product (-1)*(+0) = -0 added to +0.
        EXPECT_EQ(run(fma32, kNegOne, kPosZero, kPosZero, rm), (R32{zero, 0}));
        EXPECT_EQ(run(add16, kHOne, kHNegOne, rm), (R16{uint16_t(rm == kRDN ? kHNegZero : kHPosZero), 0}));
    }
}

TEST(FloatOps, DivisionAndSquareRootRoundInEveryMode) {
    // 1/3 = 2^-2 * 1.010101...b; the bits after the 23rd fraction bit are 1010..., above half.
    const std::array<uint32_t, 5> third = {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaab};
    // sqrt(2) = 1.41421356...: 0x3fb504f3 = 1.4142135381..., 0x3fb504f4 = 1.4142136573..., nearer the first.
    const std::array<uint32_t, 5> root2 = {0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4, 0x3fb504f3};
    // -1/3: directed modes swap roles.
    const std::array<uint32_t, 5> neg_third = {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(div32, kOne, 0x40400000u, kAllModes[i]), (R32{third[i], kNX}));
        EXPECT_EQ(run(div32, kNegOne, 0x40400000u, kAllModes[i]), (R32{neg_third[i], kNX}));
        EXPECT_EQ(run(sqrt32, kTwo, kAllModes[i]), (R32{root2[i], kNX}));
    }
}

TEST(FloatOps, FlagsAccumulateInsteadOfBeingReplaced) {
    uint8_t flags = kDZ;
    EXPECT_EQ(add32(kOne, kOne, kRNE, flags), kTwo);
    EXPECT_EQ(flags, kDZ); // an exact operation leaves earlier flags alone
    EXPECT_EQ(div32(kOne, 0x40400000u, kRNE, flags), 0x3eaaaaabu);
    EXPECT_EQ(flags, kDZ | kNX);
    EXPECT_EQ(add16(kHOne, 0x1000, kRTZ, flags), kHOne); // 1 + 2^-11 is inexact in binary16
    EXPECT_EQ(flags, kDZ | kNX);
}

// ---- overflow and underflow --------------------------------------------------------------------------

TEST(FloatOps, OverflowGoesToInfinityOrMaxFiniteByMode) {
    // 2 * max = 2^128 * (2 - 2^-23): above every finite value. Modes that round towards zero's side of
    // the result stop at the largest finite value, the others go to infinity; both signal OF|NX.
    const std::array<uint32_t, 5> pos = {kPosInf, kMax, kMax, kPosInf, kPosInf};
    const std::array<uint32_t, 5> neg = {kNegInf, kNegMax, kNegInf, kNegMax, kNegInf};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(run(mul32, kMax, kTwo, rm), (R32{pos[i], kOF | kNX}));
        EXPECT_EQ(run(mul32, kNegMax, kTwo, rm), (R32{neg[i], kOF | kNX}));
        EXPECT_EQ(run(add32, kMax, kMax, rm), (R32{pos[i], kOF | kNX}));
        EXPECT_EQ(run(sub32, kNegMax, kMax, rm), (R32{neg[i], kOF | kNX}));
        EXPECT_EQ(run(div32, kMax, kHalf, rm), (R32{pos[i], kOF | kNX}));
        EXPECT_EQ(run(fma32, kMax, kTwo, kNegOne, rm), (R32{pos[i], kOF | kNX}));
    }
}

TEST(FloatOps, RoundingCarryIntoOverflowDependsOnMode) {
    // max + 2^103 is exactly half an ulp (ulp = 2^104) above max. Max has an odd significand, so RNE and
    // RMM round up to 2^128 and overflow; RTZ/RDN round to max, which is no overflow at all (just NX).
    constexpr uint32_t kHalfUlpOfMax = 0x73000000; // 2^103
    EXPECT_EQ(run(add32, kMax, kHalfUlpOfMax, kRNE), (R32{kPosInf, kOF | kNX}));
    EXPECT_EQ(run(add32, kMax, kHalfUlpOfMax, kRMM), (R32{kPosInf, kOF | kNX}));
    EXPECT_EQ(run(add32, kMax, kHalfUlpOfMax, kRUP), (R32{kPosInf, kOF | kNX}));
    EXPECT_EQ(run(add32, kMax, kHalfUlpOfMax, kRTZ), (R32{kMax, kNX}));
    EXPECT_EQ(run(add32, kMax, kHalfUlpOfMax, kRDN), (R32{kMax, kNX}));
    // max + 2^102 is below the halfway point: only RUP overflows.
    EXPECT_EQ(run(add32, kMax, 0x72800000u, kRNE), (R32{kMax, kNX}));
    EXPECT_EQ(run(add32, kMax, 0x72800000u, kRMM), (R32{kMax, kNX}));
    EXPECT_EQ(run(add32, kMax, 0x72800000u, kRUP), (R32{kPosInf, kOF | kNX}));
}

TEST(FloatOps, ExactSubnormalResultRaisesNoUnderflow) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        // 2^-126 * 0.5 = 2^-127 = 0x00400000, exact: tiny but not inexact, so no UF.
        EXPECT_EQ(run(mul32, kMinNormal, kHalf, rm), (R32{0x00400000, 0}));
        EXPECT_EQ(run(div32, kMinNormal, kTwo, rm), (R32{0x00400000, 0}));
        // Subnormal sums are always exact.
        EXPECT_EQ(run(add32, kMinSub, kMinSub, rm), (R32{0x00000002, 0}));
        EXPECT_EQ(run(sub32, kMinNormal, kMinSub, rm), (R32{kMaxSub, 0}));
        EXPECT_EQ(run(fma32, kMinNormal, kHalf, kMinSub, rm), (R32{0x00400001, 0}));
    }
}

TEST(FloatOps, HalfOfSmallestSubnormalUnderflowsPerMode) {
    // 2^-149 * 0.5 = 2^-150 is halfway between 0 (even) and 2^-149 (odd); always tiny and inexact.
    const std::array<uint32_t, 5> pos = {kPosZero, kPosZero, kPosZero, kMinSub, kMinSub};
    const std::array<uint32_t, 5> neg = {kNegZero, kNegZero, 0x80000001, kNegZero, 0x80000001};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(mul32, kMinSub, kHalf, kAllModes[i]), (R32{pos[i], kUF | kNX}));
        EXPECT_EQ(run(mul32, kMinSub, 0xbf000000u, kAllModes[i]), (R32{neg[i], kUF | kNX}));
        EXPECT_EQ(run(div32, kMinSub, kTwo, kAllModes[i]), (R32{pos[i], kUF | kNX}));
    }
    // 2^-149 * 2^-149 is far below any subnormal: zero in RNE, smallest subnormal in RUP.
    EXPECT_EQ(run(mul32, kMinSub, kMinSub, kRNE), (R32{kPosZero, kUF | kNX}));
    EXPECT_EQ(run(mul32, kMinSub, kMinSub, kRUP), (R32{kMinSub, kUF | kNX}));
}

TEST(FloatOps, TininessIsDetectedAfterRounding) {
    // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 * (1 - 2^-46). Rounded to 24 bits with an unbounded exponent
    // this is 2^-126 in RNE/RUP/RMM, so the result is not tiny: inexact only. In RTZ/RDN it rounds to
    // 2^-126 * (1 - 2^-23) (encoded as the largest subnormal), which is tiny: UF|NX.
    const std::array<R32, 5> just_below = {R32{kMinNormal, kNX}, R32{kMaxSub, kUF | kNX},
                                           R32{kMaxSub, kUF | kNX}, R32{kMinNormal, kNX},
                                           R32{kMinNormal, kNX}};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(mul32, 0x3f800001u, kMaxSub, kAllModes[i]), just_below[i]);
        EXPECT_EQ(run(detail::soft_mul32, 0x3f800001u, kMaxSub, kAllModes[i]), just_below[i]);
    }
    // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150 is exactly representable with 24 bits and an unbounded
    // exponent, and is below 2^-126: tiny. As a subnormal it is a tie between 0x007fffff (odd) and
    // 0x00800000 (even), so RNE returns the smallest normal yet signals underflow.
    EXPECT_EQ(run(mul32, 0x3f7fffffu, kMinNormal, kRNE), (R32{kMinNormal, kUF | kNX}));
    EXPECT_EQ(run(mul32, 0x3f7fffffu, kMinNormal, kRTZ), (R32{kMaxSub, kUF | kNX}));
    // fma: (1 - 2^-24)/2 * 2^-126 + 2^-127 = 2^-126 - 2^-151, the midpoint between 2^-126 - 2^-150 (odd
    // significand) and 2^-126 at 24 bits: RNE rounds it up to 2^-126, so it is not tiny.
    EXPECT_EQ(run(fma32, 0x3effffffu, kMinNormal, 0x00400000u, kRNE), (R32{kMinNormal, kNX}));
    EXPECT_EQ(run(fma32, 0x3effffffu, kMinNormal, 0x00400000u, kRTZ), (R32{kMaxSub, kUF | kNX}));
    EXPECT_EQ(run(detail::soft_fma32, 0x3effffffu, kMinNormal, 0x00400000u, kRNE), (R32{kMinNormal, kNX}));
    // Its mirror image below zero.
    EXPECT_EQ(run(fma32, 0xbeffffffu, kMinNormal, 0x80400000u, kRNE), (R32{0x80800000, kNX}));

    // Exact values a hair either side of that midpoint 2^-126 - 2^-151: both round to 2^-126, but only the
    // one below it is tiny. 0x21801001 = (2^23 + 4097) * 2^-83 and 0x91ffe002 = -(2^24 - 8190) * 2^-115,
    // whose product is -(2^47 + 2) * 2^-198 = -2^-151 * (1 + 2^-46); adding 2^-126 leaves
    // 2^-126 - 2^-151 - 2^-197.
    EXPECT_EQ(run(fma32, 0x21801001u, 0x91ffe002u, kMinNormal, kRNE), (R32{kMinNormal, kUF | kNX}));
    EXPECT_EQ(run(fma32, 0x21801001u, 0x91ffe002u, kMinNormal, kRTZ), (R32{kMaxSub, kUF | kNX}));
    // (1 + 2^-23) * 2^-60 times -(1 - 2^-23) * 2^-91 is -2^-151 * (1 - 2^-46): 2^-197 above the midpoint.
    EXPECT_EQ(run(fma32, 0x21800001u, 0x91fffffeu, kMinNormal, kRNE), (R32{kMinNormal, kNX}));

    // (1 - 2^-24) / 2^126 = 2^-126 - 2^-150, the same tiny tie as the product above, through division.
    EXPECT_EQ(run(div32, 0x3f7fffffu, 0x7e800000u, kRNE), (R32{kMinNormal, kUF | kNX}));
    EXPECT_EQ(run(div32, 0x3f7fffffu, 0x7e800000u, kRUP), (R32{kMinNormal, kUF | kNX}));
    EXPECT_EQ(run(div32, 0x3f7fffffu, 0x7e800000u, kRDN), (R32{kMaxSub, kUF | kNX}));
    // 2^-126 itself divided exactly: not tiny, no flag.
    EXPECT_EQ(run(div32, 0x3f000000u, 0x7e000000u, kRNE), (R32{kMinNormal, 0}));
}

// ---- invalid operations, division by zero, NaNs -------------------------------------------------------

TEST(FloatOps, InvalidOperationsGiveCanonicalNaN) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(mul32, kPosZero, kPosInf, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(mul32, kNegInf, kPosZero, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kPosZero, kPosInf, kOne, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kNegInf, kNegZero, kOne, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(add32, kPosInf, kNegInf, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(sub32, kPosInf, kPosInf, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kPosInf, kOne, kNegInf, rm), (R32{kQNaN, kNV})); // inf - inf inside the fma
        EXPECT_EQ(run(sqrt32, kNegOne, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(sqrt32, kNegInf, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(sqrt32, 0x80000001u, rm), (R32{kQNaN, kNV})); // negative subnormal
        EXPECT_EQ(run(div32, kPosZero, kNegZero, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(div32, kPosInf, kNegInf, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(mul16, kHPosZero, kHInf, rm), (R16{kHQNaN, kNV}));
        EXPECT_EQ(run(sqrt16, kHNegOne, rm), (R16{kHQNaN, kNV}));
        EXPECT_EQ(run(div16, kHPosZero, kHPosZero, rm), (R16{kHQNaN, kNV}));
    }
}

TEST(FloatOps, SquareRootOfSignedZeroAndInfinity) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(sqrt32, kNegZero, rm), (R32{kNegZero, 0})); // IEEE: sqrt(-0) = -0, not invalid
        EXPECT_EQ(run(sqrt32, kPosZero, rm), (R32{kPosZero, 0}));
        EXPECT_EQ(run(sqrt32, kPosInf, rm), (R32{kPosInf, 0}));
        EXPECT_EQ(run(sqrt16, kHNegZero, rm), (R16{kHNegZero, 0}));
    }
}

TEST(FloatOps, DivisionByZeroGivesSignedInfinity) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(div32, kOne, kPosZero, rm), (R32{kPosInf, kDZ}));
        EXPECT_EQ(run(div32, kNegOne, kPosZero, rm), (R32{kNegInf, kDZ}));
        EXPECT_EQ(run(div32, kOne, kNegZero, rm), (R32{kNegInf, kDZ}));
        EXPECT_EQ(run(div32, kMinSub, kNegZero, rm), (R32{kNegInf, kDZ}));
        EXPECT_EQ(run(div32, kPosInf, kPosZero, rm), (R32{kPosInf, 0})); // infinity is exact: no DZ
        EXPECT_EQ(run(div32, kOne, kPosInf, rm), (R32{kPosZero, 0}));
        EXPECT_EQ(run(div32, kQNaN, kPosZero, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(div16, kHNegOne, kHPosZero, rm), (R16{kHNegInf, kDZ}));
    }
}

TEST(FloatOps, NaNOperandsGiveCanonicalNaNAndSignalOnlyWhenSignalling) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(add32, kSNaN, kOne, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(add32, kOne, kSNaNNeg, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(add32, kSNaN, kQNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(add32, kQNaN, kOne, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(add32, kOne, kQNaNPayload, rm), (R32{kQNaN, 0})); // payload and sign are dropped
        EXPECT_EQ(run(add32, kQNaNPayload, kPosInf, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(sub32, kSNaN, kSNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(mul32, kQNaN, kPosZero, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(mul32, kSNaNNeg, kPosZero, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(div32, kPosZero, kQNaN, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(sqrt32, kQNaNPayload, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(sqrt32, kSNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kQNaN, kOne, kOne, rm), (R32{kQNaN, 0}));
        EXPECT_EQ(run(fma32, kOne, kOne, kSNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(add16, 0x7c01, kHOne, rm), (R16{kHQNaN, kNV}));
        EXPECT_EQ(run(add16, 0xfe55, kHOne, rm), (R16{kHQNaN, 0}));
    }
}

// ---- fused multiply-add -------------------------------------------------------------------------------

TEST(FloatOps, FmaRoundsOnceWhereMulThenAddRoundsTwice) {
    // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly, representable (0xa8800000): no flag in any mode.
    constexpr uint32_t kOnePlus = 0x3f800001;
    constexpr uint32_t kOneMinus = 0x3f7ffffe;
    constexpr uint32_t kMinus2Pow46 = 0xa8800000;
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(fma32, kOnePlus, kOneMinus, kNegOne, rm), (R32{kMinus2Pow46, 0}));
        EXPECT_EQ(run(detail::soft_fma32, kOnePlus, kOneMinus, kNegOne, rm), (R32{kMinus2Pow46, 0}));
    }
    // The separate product 1 - 2^-46 is within a quarter ulp (2^-25) of 1.0 and rounds to it, so the sum
    // then cancels to +0: the accumulated flags are NX from the multiply alone.
    uint8_t flags = 0;
    const uint32_t product = mul32(kOnePlus, kOneMinus, kRNE, flags);
    EXPECT_EQ(product, kOne);
    EXPECT_EQ(add32(product, kNegOne, kRNE, flags), kPosZero);
    EXPECT_EQ(flags, kNX);

    // binary16: (1 + 2^-10)(1 - 2^-10) - 1 = -2^-20 = -16 * 2^-24, an exact subnormal.
    for (const Rounding rm : kAllModes)
        EXPECT_EQ(run(fma16, uint16_t(0x3c01), uint16_t(0x3bfe), kHNegOne, rm), (R16{0x8010, 0}));
}

TEST(FloatOps, FmaWithZeroAddendRoundsTheProductOnce) {
    // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: just above 0x3f800002 by far less than half an ulp.
    const std::array<uint32_t, 5> expected = {0x3f800002, 0x3f800002, 0x3f800002, 0x3f800003, 0x3f800002};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(fma32, 0x3f800001u, 0x3f800001u, kPosZero, kAllModes[i]), (R32{expected[i], kNX}));
        EXPECT_EQ(run(fma32, 0x3f800001u, 0x3f800001u, kNegZero, kAllModes[i]), (R32{expected[i], kNX}));
    }
}

TEST(FloatOps, FmaInfinityTimesZeroIsInvalidEvenWithQuietNaNAddend) {
    // RISC-V F: fma(inf, 0, qNaN) raises NV (IEEE leaves it implementation-defined).
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(fma32, kPosZero, kPosInf, kQNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kNegInf, kPosZero, kQNaNPayload, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma32, kPosInf, kNegZero, kSNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(detail::soft_fma32, kPosZero, kPosInf, kQNaN, rm), (R32{kQNaN, kNV}));
        EXPECT_EQ(run(fma16, kHInf, kHPosZero, kHQNaN, rm), (R16{kHQNaN, kNV}));
        // A finite product with a quiet NaN addend is quiet.
        EXPECT_EQ(run(fma32, kOne, kPosInf, kQNaN, rm), (R32{kQNaN, 0}));
        // Infinities that do not cancel pass through.
        EXPECT_EQ(run(fma32, kPosInf, kOne, kPosInf, rm), (R32{kPosInf, 0}));
        EXPECT_EQ(run(fma32, kOne, kOne, kNegInf, rm), (R32{kNegInf, 0}));
    }
}

// ---- min/max and comparisons --------------------------------------------------------------------------

TEST(FloatOps, MinMaxFollowRiscVNaNAndSignedZeroRules) {
    // One quiet NaN: the other operand, no flag (both orders).
    EXPECT_EQ(run(min32, kQNaN, kOne), (R32{kOne, 0}));
    EXPECT_EQ(run(min32, kOne, kQNaN), (R32{kOne, 0}));
    EXPECT_EQ(run(max32, kQNaNPayload, kOne), (R32{kOne, 0}));
    EXPECT_EQ(run(max32, kOne, kQNaN), (R32{kOne, 0}));
    // One signalling NaN: still the other operand, but NV.
    EXPECT_EQ(run(min32, kSNaN, kOne), (R32{kOne, kNV}));
    EXPECT_EQ(run(max32, kOne, kSNaNNeg), (R32{kOne, kNV}));
    // Both NaN: the canonical NaN, NV only if one is signalling.
    EXPECT_EQ(run(min32, kQNaN, kQNaN), (R32{kQNaN, 0}));
    EXPECT_EQ(run(max32, kQNaNPayload, 0x7fc00001u), (R32{kQNaN, 0}));
    EXPECT_EQ(run(min32, kSNaN, kQNaN), (R32{kQNaN, kNV}));
    EXPECT_EQ(run(max32, kQNaN, kSNaN), (R32{kQNaN, kNV}));
    // -0 < +0 for both operand orders.
    EXPECT_EQ(run(min32, kNegZero, kPosZero), (R32{kNegZero, 0}));
    EXPECT_EQ(run(min32, kPosZero, kNegZero), (R32{kNegZero, 0}));
    EXPECT_EQ(run(max32, kNegZero, kPosZero), (R32{kPosZero, 0}));
    EXPECT_EQ(run(max32, kPosZero, kNegZero), (R32{kPosZero, 0}));
    // Ordinary ordering, including negatives (larger magnitude is smaller) and infinities.
    EXPECT_EQ(run(min32, kNegOne, kTwo), (R32{kNegOne, 0}));
    EXPECT_EQ(run(max32, 0xc0000000u, kNegOne), (R32{kNegOne, 0}));
    EXPECT_EQ(run(min32, 0xc0000000u, kNegOne), (R32{0xc0000000, 0}));
    EXPECT_EQ(run(max32, kMax, kPosInf), (R32{kPosInf, 0}));
    EXPECT_EQ(run(min32, kNegInf, kNegMax), (R32{kNegInf, 0}));
    EXPECT_EQ(run(max32, kMinSub, kPosZero), (R32{kMinSub, 0}));
    EXPECT_EQ(run(min32, 0x80000001u, kNegZero), (R32{0x80000001, 0}));
    // binary16.
    EXPECT_EQ(run(min16, kHQNaN, kHOne), (R16{kHOne, 0}));
    EXPECT_EQ(run(max16, kHOne, kHSNaN), (R16{kHOne, kNV}));
    EXPECT_EQ(run(min16, kHQNaN, kHSNaN), (R16{kHQNaN, kNV}));
    EXPECT_EQ(run(min16, kHPosZero, kHNegZero), (R16{kHNegZero, 0}));
    EXPECT_EQ(run(max16, kHNegZero, kHPosZero), (R16{kHPosZero, 0}));
    EXPECT_EQ(run(max16, kHNegOne, kHMax), (R16{kHMax, 0}));
}

TEST(FloatOps, ComparisonsSignalPerRiscVRules) {
    // feq: quiet comparison, NV only for signalling NaNs. flt/fle: signalling, NV for any NaN.
    EXPECT_EQ(run(eq32, kQNaN, kOne), (R32{0, 0}));
    EXPECT_EQ(run(eq32, kQNaN, kQNaN), (R32{0, 0}));
    EXPECT_EQ(run(eq32, kSNaN, kOne), (R32{0, kNV}));
    EXPECT_EQ(run(eq32, kOne, kSNaNNeg), (R32{0, kNV}));
    EXPECT_EQ(run(lt32, kQNaN, kOne), (R32{0, kNV}));
    EXPECT_EQ(run(lt32, kOne, kQNaN), (R32{0, kNV}));
    EXPECT_EQ(run(le32, kQNaN, kOne), (R32{0, kNV}));
    EXPECT_EQ(run(le32, kQNaN, kQNaN), (R32{0, kNV}));
    EXPECT_EQ(run(lt32, kSNaN, kOne), (R32{0, kNV}));
    // Signed zeros compare equal.
    EXPECT_EQ(run(eq32, kNegZero, kPosZero), (R32{1, 0}));
    EXPECT_EQ(run(le32, kPosZero, kNegZero), (R32{1, 0}));
    EXPECT_EQ(run(lt32, kNegZero, kPosZero), (R32{0, 0}));
    // Ordering across signs and magnitudes.
    EXPECT_EQ(run(eq32, kOne, kOne), (R32{1, 0}));
    EXPECT_EQ(run(eq32, kOne, 0x3f800001u), (R32{0, 0}));
    EXPECT_EQ(run(lt32, kNegOne, kOne), (R32{1, 0}));
    EXPECT_EQ(run(lt32, kOne, kNegOne), (R32{0, 0}));
    EXPECT_EQ(run(lt32, 0xc0000000u, kNegOne), (R32{1, 0})); // -2 < -1
    EXPECT_EQ(run(lt32, kNegOne, 0xc0000000u), (R32{0, 0}));
    EXPECT_EQ(run(le32, kOne, kOne), (R32{1, 0}));
    EXPECT_EQ(run(lt32, kOne, kOne), (R32{0, 0}));
    EXPECT_EQ(run(lt32, kNegInf, kNegMax), (R32{1, 0}));
    EXPECT_EQ(run(le32, kMax, kPosInf), (R32{1, 0}));
    EXPECT_EQ(run(lt32, kPosInf, kPosInf), (R32{0, 0}));
    EXPECT_EQ(run(lt32, 0x80000001u, kPosZero), (R32{1, 0}));
    // binary16.
    EXPECT_EQ(run(eq16, kHQNaN, kHOne), (R32{0, 0}));
    EXPECT_EQ(run(eq16, kHSNaN, kHOne), (R32{0, kNV}));
    EXPECT_EQ(run(lt16, kHQNaN, kHOne), (R32{0, kNV}));
    EXPECT_EQ(run(le16, kHOne, kHQNaN), (R32{0, kNV}));
    EXPECT_EQ(run(eq16, kHNegZero, kHPosZero), (R32{1, 0}));
    EXPECT_EQ(run(lt16, kHNegOne, kHPosZero), (R32{1, 0}));
    EXPECT_EQ(run(le16, kHMax, kHOne), (R32{0, 0}));
}

// ---- fclass --------------------------------------------------------------------------------------------

TEST(FloatOps, Classify32CoversAllTenClasses) {
    EXPECT_EQ(classify32(kNegInf), 1u << 0);
    EXPECT_EQ(classify32(kNegOne), 1u << 1);
    EXPECT_EQ(classify32(kNegMax), 1u << 1);
    EXPECT_EQ(classify32(0x80800000u), 1u << 1); // -2^-126 is normal
    EXPECT_EQ(classify32(0x80000001u), 1u << 2);
    EXPECT_EQ(classify32(0x807fffffu), 1u << 2);
    EXPECT_EQ(classify32(kNegZero), 1u << 3);
    EXPECT_EQ(classify32(kPosZero), 1u << 4);
    EXPECT_EQ(classify32(kMinSub), 1u << 5);
    EXPECT_EQ(classify32(kMaxSub), 1u << 5);
    EXPECT_EQ(classify32(kMinNormal), 1u << 6);
    EXPECT_EQ(classify32(kOne), 1u << 6);
    EXPECT_EQ(classify32(kMax), 1u << 6);
    EXPECT_EQ(classify32(kPosInf), 1u << 7);
    EXPECT_EQ(classify32(kSNaN), 1u << 8);
    EXPECT_EQ(classify32(0x7fbfffffu), 1u << 8); // quiet bit clear, rest set
    EXPECT_EQ(classify32(kSNaNNeg), 1u << 8);    // the sign of a NaN does not matter
    EXPECT_EQ(classify32(kQNaN), 1u << 9);
    EXPECT_EQ(classify32(kQNaNPayload), 1u << 9);
}

TEST(FloatOps, Classify16CoversAllTenClasses) {
    EXPECT_EQ(classify16(kHNegInf), 1u << 0);
    EXPECT_EQ(classify16(kHNegOne), 1u << 1);
    EXPECT_EQ(classify16(0x8400), 1u << 1); // -2^-14, smallest normal
    EXPECT_EQ(classify16(0x8001), 1u << 2);
    EXPECT_EQ(classify16(0x83ff), 1u << 2);
    EXPECT_EQ(classify16(kHNegZero), 1u << 3);
    EXPECT_EQ(classify16(kHPosZero), 1u << 4);
    EXPECT_EQ(classify16(kHMinSub), 1u << 5);
    EXPECT_EQ(classify16(0x03ff), 1u << 5);
    EXPECT_EQ(classify16(kHOne), 1u << 6);
    EXPECT_EQ(classify16(kHMax), 1u << 6);
    EXPECT_EQ(classify16(kHInf), 1u << 7);
    EXPECT_EQ(classify16(kHSNaN), 1u << 8);
    EXPECT_EQ(classify16(0xfdff), 1u << 8);
    EXPECT_EQ(classify16(kHQNaN), 1u << 9);
    EXPECT_EQ(classify16(0xffff), 1u << 9);
}

// ---- float to integer ----------------------------------------------------------------------------------

TEST(FloatOps, ToInt32SaturatesAtTheBoundariesInEveryMode) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        // 0x4effffff = (2^24 - 1) * 2^7 = 2147483520, the largest float below 2^31.
        EXPECT_EQ(run(to_int32, 0x4effffffu, rm), (RInt{2147483520, 0}));
        EXPECT_EQ(run(to_int32, 0x4f000000u, rm), (RInt{INT32_MAX, kNV})); // 2^31
        EXPECT_EQ(run(to_int32, 0xcf000000u, rm), (RInt{INT32_MIN, 0}));   // -2^31 fits exactly
        EXPECT_EQ(run(to_int32, 0xcf000001u, rm), (RInt{INT32_MIN, kNV})); // -(2^31 + 256)
        EXPECT_EQ(run(to_int32, kPosInf, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_int32, kNegInf, rm), (RInt{INT32_MIN, kNV}));
        // Any NaN, whatever its sign, converts to the largest positive value.
        EXPECT_EQ(run(to_int32, kQNaN, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_int32, kQNaNPayload, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_int32, kSNaNNeg, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_int32, kNegZero, rm), (RInt{0, 0}));
        EXPECT_EQ(run(to_int32, kNegOne, rm), (RInt{-1, 0}));
        EXPECT_EQ(run(to_int32, 0x4b800001u, rm), (RInt{16777218, 0})); // 2^24 + 2
    }
}

TEST(FloatOps, ToUint32SaturatesAtTheBoundariesInEveryMode) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        // 0x4f7fffff = (2^24 - 1) * 2^8 = 4294967040, the largest float below 2^32.
        EXPECT_EQ(run(to_uint32, 0x4f7fffffu, rm), (R32{4294967040u, 0}));
        EXPECT_EQ(run(to_uint32, 0x4f800000u, rm), (R32{0xffffffff, kNV})); // 2^32
        EXPECT_EQ(run(to_uint32, 0x4f000000u, rm), (R32{0x80000000, 0}));   // 2^31 fits unsigned
        EXPECT_EQ(run(to_uint32, kPosInf, rm), (R32{0xffffffff, kNV}));
        EXPECT_EQ(run(to_uint32, kNegInf, rm), (R32{0, kNV}));
        EXPECT_EQ(run(to_uint32, kQNaN, rm), (R32{0xffffffff, kNV}));
        EXPECT_EQ(run(to_uint32, kSNaNNeg, rm), (R32{0xffffffff, kNV}));
        EXPECT_EQ(run(to_uint32, kNegOne, rm), (R32{0, kNV}));
        EXPECT_EQ(run(to_uint32, 0xcf000000u, rm), (R32{0, kNV}));
        EXPECT_EQ(run(to_uint32, kNegZero, rm), (R32{0, 0}));
    }
}

TEST(FloatOps, ToIntegerRoundsInEveryMode) {
    struct Case {
        uint32_t in;
        std::array<int32_t, 5> out; // RNE, RTZ, RDN, RUP, RMM
    };
    const Case cases[] = {
        {0x40200000, {2, 2, 2, 3, 3}},      // 2.5: RNE picks the even neighbour
        {0xc0200000, {-2, -2, -3, -2, -3}}, // -2.5
        {0x3fc00000, {2, 1, 1, 2, 2}},      // 1.5: RNE goes up to the even 2
        {0x3f000000, {0, 0, 0, 1, 1}},      // 0.5
        {0xbf000000, {0, 0, -1, 0, -1}},    // -0.5 (a zero result is +0 as an integer)
        {0x3f000001, {1, 0, 0, 1, 1}},      // 0.5 + 2^-24 is above the tie
        {0x3f7fffff, {1, 0, 0, 1, 1}},      // 1 - 2^-24
        {0xbf666666, {-1, 0, -1, 0, -1}},   // -0.9
        {0x00000001, {0, 0, 0, 1, 0}},      // 2^-149
        {0x80000001, {0, 0, -1, 0, 0}},     // -2^-149
    };
    for (const Case& c : cases) {
        for (size_t i = 0; i < kAllModes.size(); ++i) {
            SCOPED_TRACE(testing::Message() << std::hex << c.in << " mode " << i);
            EXPECT_EQ(run(to_int32, c.in, kAllModes[i]), (RInt{c.out[i], kNX}));
            if (!(c.in & 0x80000000u)) {
                EXPECT_EQ(run(to_uint32, c.in, kAllModes[i]), (R32{uint32_t(c.out[i]), kNX}));
            }
        }
    }
}

TEST(FloatOps, ToUint32OfSmallNegativesDependsOnTheRoundedValue) {
    // fcvt.wu.s: a negative input that rounds to zero is an in-range inexact result; one that rounds to a
    // negative integer is out of range and saturates to 0 with NV alone.
    const std::array<uint8_t, 5> minus_half = {kNX, kNX, kNV, kNX, kNV}; // -0.5 rounds to -1 in RDN/RMM
    const std::array<uint8_t, 5> minus_0_9 = {kNV, kNX, kNV, kNX, kNV};  // -0.9 stays above -1 in RTZ/RUP
    const std::array<uint8_t, 5> minus_tiny = {kNX, kNX, kNV, kNX, kNX}; // -2^-149 reaches -1 only in RDN
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(to_uint32, 0xbf000000u, kAllModes[i]), (R32{0, minus_half[i]}));
        EXPECT_EQ(run(to_uint32, 0xbf666666u, kAllModes[i]), (R32{0, minus_0_9[i]}));
        EXPECT_EQ(run(to_uint32, 0x80000001u, kAllModes[i]), (R32{0, minus_tiny[i]}));
    }
}

TEST(FloatOps, Binary16ToIntegerConversions) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(to_int32_from16, kHMax, rm), (RInt{65504, 0}));
        EXPECT_EQ(run(to_int32_from16, uint16_t(0xfbff), rm), (RInt{-65504, 0}));
        EXPECT_EQ(run(to_int32_from16, kHInf, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_int32_from16, kHNegInf, rm), (RInt{INT32_MIN, kNV}));
        EXPECT_EQ(run(to_int32_from16, kHQNaN, rm), (RInt{INT32_MAX, kNV}));
        EXPECT_EQ(run(to_uint32_from16, kHMax, rm), (R32{65504, 0}));
        EXPECT_EQ(run(to_uint32_from16, kHNegOne, rm), (R32{0, kNV}));
        EXPECT_EQ(run(to_uint32_from16, kHSNaN, rm), (R32{0xffffffff, kNV}));
        EXPECT_EQ(run(to_uint32_from16, kHNegInf, rm), (R32{0, kNV}));
    }
    // 2.5 in binary16 is 0x4100.
    const std::array<int32_t, 5> two_and_half = {2, 2, 2, 3, 3};
    for (size_t i = 0; i < kAllModes.size(); ++i)
        EXPECT_EQ(run(to_int32_from16, uint16_t(0x4100), kAllModes[i]), (RInt{two_and_half[i], kNX}));
}

// ---- integer to float ----------------------------------------------------------------------------------

TEST(FloatOps, FromInt32RoundsInEveryMode) {
    // 2^24 + 1 needs 25 bits: halfway between 2^24 (0x4b800000, even) and 2^24 + 2 (0x4b800001).
    const std::array<uint32_t, 5> pos = {0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001, 0x4b800001};
    const std::array<uint32_t, 5> neg = {0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000, 0xcb800001};
    // 2^31 - 1: floats below 2^31 are 128 apart, and 2^31 - 1 is 1 below 2^31 (0x4f000000) and 127 above
    // 0x4effffff.
    const std::array<uint32_t, 5> int_max = {0x4f000000, 0x4effffff, 0x4effffff, 0x4f000000, 0x4f000000};
    // 2^32 - 1: 1 below 2^32 (0x4f800000), 255 above 0x4f7fffff.
    const std::array<uint32_t, 5> uint_max = {0x4f800000, 0x4f7fffff, 0x4f7fffff, 0x4f800000, 0x4f800000};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(run(from_int32, 16777217, rm), (R32{pos[i], kNX}));
        EXPECT_EQ(run(from_int32, -16777217, rm), (R32{neg[i], kNX}));
        EXPECT_EQ(run(from_uint32, 16777217u, rm), (R32{pos[i], kNX}));
        EXPECT_EQ(run(from_int32, INT32_MAX, rm), (R32{int_max[i], kNX}));
        EXPECT_EQ(run(from_uint32, 0xffffffffu, rm), (R32{uint_max[i], kNX}));
        // Exact conversions.
        EXPECT_EQ(run(from_int32, INT32_MIN, rm), (R32{0xcf000000, 0}));
        EXPECT_EQ(run(from_uint32, 0x80000000u, rm), (R32{0x4f000000, 0}));
        EXPECT_EQ(run(from_int32, 16777216, rm), (R32{0x4b800000, 0}));
        EXPECT_EQ(run(from_int32, -1, rm), (R32{kNegOne, 0}));
        EXPECT_EQ(run(from_int32, 0, rm), (R32{kPosZero, 0})); // +0 even when rounding down
        EXPECT_EQ(run(from_uint32, 0u, rm), (R32{kPosZero, 0}));
    }
}

TEST(FloatOps, FromInt32ToBinary16RoundsAndOverflows) {
    // 2049 = 2^11 + 1 needs 12 bits: tie between 2048 (0x6800, even) and 2050 (0x6801).
    const std::array<uint16_t, 5> tie = {0x6800, 0x6800, 0x6800, 0x6801, 0x6801};
    // 65520 is halfway between 65504 (odd significand) and 65536, so nearest modes overflow.
    const std::array<R16, 5> big = {R16{kHInf, kOF | kNX}, R16{kHMax, kNX}, R16{kHMax, kNX},
                                    R16{kHInf, kOF | kNX}, R16{kHInf, kOF | kNX}};
    // -2^31 is beyond every binary16 value: overflow in every mode.
    const std::array<uint16_t, 5> int_min = {kHNegInf, 0xfbff, kHNegInf, 0xfbff, kHNegInf};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(run(from_int32_to16, 2049, rm), (R16{tie[i], kNX}));
        EXPECT_EQ(run(from_uint32_to16, 2049u, rm), (R16{tie[i], kNX}));
        EXPECT_EQ(run(from_int32_to16, 65520, rm), big[i]);
        EXPECT_EQ(run(from_int32_to16, INT32_MIN, rm), (R16{int_min[i], kOF | kNX}));
        EXPECT_EQ(run(from_int32_to16, 65504, rm), (R16{kHMax, 0}));
        EXPECT_EQ(run(from_int32_to16, -1, rm), (R16{kHNegOne, 0}));
    }
}

// ---- binary16 arithmetic and format conversions ---------------------------------------------------------

TEST(FloatOps, Binary16OverflowAtTheTopOfTheRange) {
    // 65504 + 16 = 65520: the ulp at 65504 is 32, so this is the tie between 65504 (odd significand 0x3ff)
    // and 65536 (beyond the format), which RNE resolves upwards into an overflow.
    constexpr uint16_t kSixteen = 0x4c00;
    const std::array<R16, 5> tie = {R16{kHInf, kOF | kNX}, R16{kHMax, kNX}, R16{kHMax, kNX},
                                    R16{kHInf, kOF | kNX}, R16{kHInf, kOF | kNX}};
    // 65504 + 8 is below the tie: only RUP overflows.
    const std::array<R16, 5> below = {R16{kHMax, kNX}, R16{kHMax, kNX}, R16{kHMax, kNX},
                                      R16{kHInf, kOF | kNX}, R16{kHMax, kNX}};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(add16, kHMax, kSixteen, kAllModes[i]), tie[i]);
        EXPECT_EQ(run(add16, kHMax, uint16_t(0x4800), kAllModes[i]), below[i]);
    }
    EXPECT_EQ(run(mul16, kHMax, uint16_t(0x4000), kRNE), (R16{kHInf, kOF | kNX}));
    EXPECT_EQ(run(mul16, kHMax, uint16_t(0xc000), kRTZ), (R16{0xfbff, kOF | kNX}));
}

TEST(FloatOps, Binary16RoundingAndSubnormals) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(add16, kHMinSub, kHMinSub, rm), (R16{0x0002, 0})); // 2^-24 + 2^-24, exact
        EXPECT_EQ(run(mul16, uint16_t(0x0400), uint16_t(0x3800), rm), (R16{0x0200, 0})); // 2^-14 / 2, exact
        EXPECT_EQ(run(sub16, kHOne, kHOne, rm), (R16{uint16_t(rm == kRDN ? kHNegZero : kHPosZero), 0}));
    }
    // 1 + 2^-11 is half an ulp above 1.0.
    const std::array<uint16_t, 5> tie = {kHOne, kHOne, kHOne, 0x3c01, 0x3c01};
    // 2^-24 * 0.5: halfway between 0 and the smallest subnormal.
    const std::array<uint16_t, 5> tiny = {0x0000, 0x0000, 0x0000, 0x0001, 0x0001};
    // 1/3 = 2^-2 * 1.0101010101|0101...: below half, so 0x3555 unless rounding up.
    const std::array<uint16_t, 5> third = {0x3555, 0x3555, 0x3555, 0x3556, 0x3555};
    // sqrt(2) = 1.0110101000|0010011...b.
    const std::array<uint16_t, 5> root2 = {0x3da8, 0x3da8, 0x3da8, 0x3da9, 0x3da8};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(run(add16, kHOne, uint16_t(0x1000), rm), (R16{tie[i], kNX}));
        EXPECT_EQ(run(mul16, kHMinSub, uint16_t(0x3800), rm), (R16{tiny[i], kUF | kNX}));
        EXPECT_EQ(run(div16, kHOne, uint16_t(0x4200), rm), (R16{third[i], kNX}));
        EXPECT_EQ(run(sqrt16, uint16_t(0x4000), rm), (R16{root2[i], kNX}));
    }
}

TEST(FloatOps, Binary32ToBinary16Conversion) {
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(f32_to_f16, kOne, rm), (R16{kHOne, 0}));
        EXPECT_EQ(run(f32_to_f16, 0x477fe000u, rm), (R16{kHMax, 0}));    // 65504
        EXPECT_EQ(run(f32_to_f16, 0x33800000u, rm), (R16{kHMinSub, 0})); // 2^-24
        EXPECT_EQ(run(f32_to_f16, kNegZero, rm), (R16{kHNegZero, 0}));
        EXPECT_EQ(run(f32_to_f16, kPosInf, rm), (R16{kHInf, 0}));
        EXPECT_EQ(run(f32_to_f16, kNegInf, rm), (R16{kHNegInf, 0}));
        EXPECT_EQ(run(f32_to_f16, kQNaN, rm), (R16{kHQNaN, 0}));
        EXPECT_EQ(run(f32_to_f16, kQNaNPayload, rm), (R16{kHQNaN, 0}));
        EXPECT_EQ(run(f32_to_f16, kSNaN, rm), (R16{kHQNaN, kNV}));
        EXPECT_EQ(run(f32_to_f16, kSNaNNeg, rm), (R16{kHQNaN, kNV}));
    }
    // 0x477ff000 = 65520, the tie above 65504 (see Binary16OverflowAtTheTopOfTheRange).
    const std::array<R16, 5> tie = {R16{kHInf, kOF | kNX}, R16{kHMax, kNX}, R16{kHMax, kNX},
                                    R16{kHInf, kOF | kNX}, R16{kHInf, kOF | kNX}};
    // 1.5 * 2^-24 (0x33c00000): halfway between subnormals 0x0001 (odd) and 0x0002 (even).
    const std::array<uint16_t, 5> sub = {0x0002, 0x0001, 0x0001, 0x0002, 0x0002};
    // 2^-25 (0x33000000): halfway between 0 and 0x0001.
    const std::array<uint16_t, 5> quarter = {0x0000, 0x0000, 0x0000, 0x0001, 0x0001};
    // 0x387ff000 = 2^-14 - 2^-26: at 11 bits with unbounded exponent it is the tie 1.1111111111|1 * 2^-15,
    // which RNE/RMM/RUP round up to 2^-14 (not tiny); as a subnormal it is 2^-26 below 0x0400, less than
    // half the subnormal spacing 2^-24. RTZ/RDN give 0x03ff and are tiny.
    const std::array<R16, 5> edge = {R16{0x0400, kNX}, R16{0x03ff, kUF | kNX}, R16{0x03ff, kUF | kNX},
                                     R16{0x0400, kNX}, R16{0x0400, kNX}};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(run(f32_to_f16, 0x477ff000u, rm), tie[i]);
        EXPECT_EQ(run(f32_to_f16, 0x33c00000u, rm), (R16{sub[i], kUF | kNX}));
        EXPECT_EQ(run(f32_to_f16, 0x33000000u, rm), (R16{quarter[i], kUF | kNX}));
        EXPECT_EQ(run(f32_to_f16, 0x387ff000u, rm), edge[i]);
    }
    EXPECT_EQ(run(f32_to_f16, 0x501502f9u, kRNE), (R16{kHInf, kOF | kNX})); // 1e10
    EXPECT_EQ(run(f32_to_f16, 0x501502f9u, kRTZ), (R16{kHMax, kOF | kNX}));
}

TEST(FloatOps, Binary16ToBinary32IsExact) {
    EXPECT_EQ(run(f16_to_f32, kHMax), (R32{0x477fe000, 0}));            // 65504
    EXPECT_EQ(run(f16_to_f32, kHMinSub), (R32{0x33800000, 0}));         // 2^-24
    EXPECT_EQ(run(f16_to_f32, uint16_t(0x03ff)), (R32{0x387fc000, 0})); // 1023 * 2^-24
    EXPECT_EQ(run(f16_to_f32, uint16_t(0x0400)), (R32{0x38800000, 0})); // 2^-14
    EXPECT_EQ(run(f16_to_f32, kHOne), (R32{kOne, 0}));
    EXPECT_EQ(run(f16_to_f32, kHNegZero), (R32{kNegZero, 0}));
    EXPECT_EQ(run(f16_to_f32, kHNegInf), (R32{kNegInf, 0}));
    EXPECT_EQ(run(f16_to_f32, kHQNaN), (R32{kQNaN, 0}));
    EXPECT_EQ(run(f16_to_f32, uint16_t(0xfe01)), (R32{kQNaN, 0}));
    EXPECT_EQ(run(f16_to_f32, kHSNaN), (R32{kQNaN, kNV}));
    EXPECT_EQ(run(f16_to_f32, uint16_t(0xfdff)), (R32{kQNaN, kNV}));

    // Every finite or infinite half: re-bias the exponent (15 -> 127) and widen the fraction (10 -> 23
    // bits); subnormal halves become normal floats. Converting back is exact in every mode.
    int mismatches = 0;
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const uint32_t sign = (h & 0x8000) << 16;
        const uint32_t exp = (h >> 10) & 0x1f;
        const uint32_t frac = h & 0x3ff;
        if (exp == 0x1f && frac != 0) continue; // NaN
        uint32_t expected;
        if (exp == 0x1f)
            expected = sign | 0x7f800000;
        else if (exp != 0)
            expected = sign | ((exp + 112) << 23) | (frac << 13);
        else if (frac == 0)
            expected = sign;
        else {
            const int lead = std::bit_width(frac) - 1; // value = 2^(lead - 24) * 1.xxx
            expected = sign | (uint32_t(lead + 103) << 23) | ((frac - (1u << lead)) << (23 - lead));
        }
        const R32 wide = run(f16_to_f32, uint16_t(h));
        if (wide != R32{expected, 0} && ++mismatches <= 10)
            ADD_FAILURE() << std::hex << "f16_to_f32(0x" << h << ") = 0x" << wide.value << " flags "
                          << unsigned(wide.flags) << ", expected 0x" << expected;
        for (const Rounding rm : kAllModes) {
            const R16 back = run(f32_to_f16, expected, rm);
            if (back != R16{uint16_t(h), 0} && ++mismatches <= 10)
                ADD_FAILURE() << std::hex << "f32_to_f16(0x" << expected << ", mode " << int(rm) << ") = 0x"
                              << back.value << " flags " << unsigned(back.flags);
        }
    }
    EXPECT_EQ(mismatches, 0);
}

// ---- host shortcut against the exact implementation -------------------------------------------------

// Operand generator biased to the places where rounding and flags are delicate.
class Operands {
  public:
    explicit Operands(uint64_t seed) : rng_(seed) {}

    uint32_t bits() { return uint32_t(rng_()); }
    uint32_t below(uint32_t n) { return uint32_t(rng_() % n); }
    uint32_t sign() { return below(2) ? 0x80000000u : 0u; }
    uint32_t with_exp(int biased) {
        biased = biased < 0 ? 0 : biased > 254 ? 254 : biased;
        return sign() | (uint32_t(biased) << 23) | (bits() & 0x7fffff);
    }

    uint32_t any() {
        switch (below(12)) {
        case 0:
        case 1: return kSpecials[below(uint32_t(kSpecials.size()))] ^ sign();
        case 2: return sign() | (bits() & 0x7fffff);           // subnormal (or zero)
        case 3: return sign() | (bits() & 0x0000000f);         // few-bit subnormal
        case 4: return sign() | (0x3f800000 + below(33) - 16); // within 16 ulps of 1.0
        case 5: return with_exp(253 + int(below(2)));          // near the overflow threshold
        case 6: return sign() | (kMax - below(8));             // just below max
        case 7: return with_exp(1 + int(below(2)));            // smallest normal binades
        case 8: return sign() | (kMinNormal + below(9) - 4);   // around 2^-126
        case 9: return with_exp(int(below(255)));              // any finite exponent
        default: return bits();
        }
    }

    // A second operand chosen relative to the first: cancellation for add/sub, products and quotients at
    // the overflow and underflow thresholds.
    uint32_t partner(uint32_t a) {
        const int ea = int((a >> 23) & 0xff);
        switch (below(8)) {
        case 0: return (a ^ 0x80000000u) + below(9) - 4; // nearly -a (add) or nearly a (sub)
        case 1: return (a + below(9) - 4) ^ sign();
        case 2: return with_exp(128 - ea + int(below(5)) - 2); // product near 2^-126
        case 3: return with_exp(381 - ea + int(below(5)) - 2); // product near 2^127
        case 4: return with_exp(ea + 126 + int(below(5)) - 2); // quotient near 2^-126
        case 5: return with_exp(ea - 127 + int(below(5)) - 2); // quotient near 2^127
        default: return any();
        }
    }

    // An addend for a*b chosen to cancel the product, to sit near the underflow threshold, or at random.
    uint32_t addend(uint32_t a, uint32_t b) {
        switch (below(5)) {
        case 0: {
            const float p = std::bit_cast<float>(a) * std::bit_cast<float>(b);
            return (std::bit_cast<uint32_t>(p) ^ 0x80000000u) + below(5) - 2;
        }
        case 1: return sign() | (kMinNormal + below(9) - 4);
        case 2: return sign() | (bits() & 0x00ffffff); // subnormal or smallest normal binade
        default: return any();
        }
    }

  private:
    static constexpr std::array<uint32_t, 20> kSpecials = {
        kPosZero,   kPosInf,    kQNaN,      kQNaNPayload, kSNaN,      0x7fbfffff, kOne,
        kTwo,       kHalf,      kMax,       kMinNormal,   kMinSub,    kMaxSub,    0x3f800001,
        0x3f7fffff, 0x33800000, 0x4b800000, 0x00400000,   0x7f000000, 0x3effffff};
    std::mt19937_64 rng_;
};

TEST(FloatOps, HostShortcutMatchesSoftImplementationForNearestEven) {
    const auto soft_sub32 = [](uint32_t a, uint32_t b, Rounding rm, uint8_t& flags) {
        return detail::soft_add32(a, b ^ 0x80000000u, rm, flags); // a - b = a + (-b), also for NaN rules
    };
    Operands gen(0x5eed'f10a'7000'0001ull);
    int mismatches = 0;
    long checked = 0;
    const auto check = [&](const char* op, R32 fast, R32 exact, uint32_t a, uint32_t b, uint32_t c) {
        ++checked;
        if (fast == exact) return;
        if (++mismatches <= 20)
            ADD_FAILURE() << op << std::hex << "(0x" << a << ", 0x" << b << ", 0x" << c << "): fast 0x"
                          << fast.value << " flags 0x" << unsigned(fast.flags) << ", exact 0x" << exact.value
                          << " flags 0x" << unsigned(exact.flags);
    };
    const auto check_all = [&](uint32_t a, uint32_t b, uint32_t c) {
        check("add32", run(add32, a, b, kRNE), run(detail::soft_add32, a, b, kRNE), a, b, 0);
        check("sub32", run(sub32, a, b, kRNE), run(soft_sub32, a, b, kRNE), a, b, 0);
        check("mul32", run(mul32, a, b, kRNE), run(detail::soft_mul32, a, b, kRNE), a, b, 0);
        check("div32", run(div32, a, b, kRNE), run(detail::soft_div32, a, b, kRNE), a, b, 0);
        check("sqrt32", run(sqrt32, a, kRNE), run(detail::soft_sqrt32, a, kRNE), a, 0, 0);
        check("fma32", run(fma32, a, b, c, kRNE), run(detail::soft_fma32, a, b, c, kRNE), a, b, c);
    };
    for (int i = 0; i < 300000; ++i) {
        const uint32_t a = gen.any();
        const uint32_t b = gen.partner(a);
        check_all(a, b, gen.addend(a, b));
    }
    // Every pair (and triple for fma) of a small set of edge values, with both signs.
    std::vector<uint32_t> edges = {kPosZero,   kPosInf,    kQNaN,      kSNaN,      kOne,       kHalf,
                                   kMax,       kMinNormal, kMinSub,    kMaxSub,    0x3f800001, 0x3f7fffff,
                                   0x3effffff, 0x00400000, 0x33800000, 0x7f000000, 0x40400000, 0x2f800000};
    for (size_t i = 0, n = edges.size(); i < n; ++i)
        edges.push_back(edges[i] ^ 0x80000000u);
    for (const uint32_t a : edges)
        for (const uint32_t b : edges)
            for (const uint32_t c : edges)
                check_all(a, b, c);
    EXPECT_EQ(mismatches, 0) << "out of " << checked << " comparisons";
}

TEST(FloatOps, DirectedModesBracketTheNearestResult) {
    // For a non-NaN result: RDN <= RNE <= RUP; RNE and RMM each equal RDN or RUP; RTZ equals RDN for a
    // positive and RUP for a negative result; RDN and RUP agree in value exactly when the result is exact.
    // And negating the exact result mirrors the modes: RDN(x) = -RUP(-x) with the same flags, which also
    // holds for the signed zeros of exact cancellation (-0 in RDN, +0 in RUP).
    Operands gen(0x0b5e'55ed'0000'0002ull);
    const auto as_float = [](uint32_t bits) { return std::bit_cast<float>(bits); };
    int mismatches = 0;
    const auto report = [&](const char* what, const char* op, uint32_t a, uint32_t b, uint32_t c) {
        if (++mismatches <= 20)
            ADD_FAILURE() << what << " in " << op << std::hex << " for 0x" << a << ", 0x" << b << ", 0x" << c;
    };
    using Fn = R32 (*)(uint32_t, uint32_t, uint32_t, Rounding);
    struct Op {
        const char* name;
        Fn fn;
        // Operands to negate so that the exact result is negated; sqrt has no such symmetry.
        bool mirrorable;
        uint32_t flip_a, flip_b, flip_c;
    };
    const Op ops[] = {
        {"soft_add32",
         [](uint32_t a, uint32_t b, uint32_t, Rounding rm) { return run(detail::soft_add32, a, b, rm); },
         true, 0x80000000u, 0x80000000u, 0},
        {"soft_mul32",
         [](uint32_t a, uint32_t b, uint32_t, Rounding rm) { return run(detail::soft_mul32, a, b, rm); },
         true, 0x80000000u, 0, 0},
        {"soft_div32",
         [](uint32_t a, uint32_t b, uint32_t, Rounding rm) { return run(detail::soft_div32, a, b, rm); },
         true, 0x80000000u, 0, 0},
        {"soft_sqrt32",
         [](uint32_t a, uint32_t, uint32_t, Rounding rm) { return run(detail::soft_sqrt32, a, rm); }, false,
         0, 0, 0},
        {"soft_fma32",
         [](uint32_t a, uint32_t b, uint32_t c, Rounding rm) { return run(detail::soft_fma32, a, b, c, rm); },
         true, 0x80000000u, 0, 0x80000000u},
    };
    for (int i = 0; i < 60000; ++i) {
        const uint32_t a = gen.any();
        const uint32_t b = gen.partner(a);
        const uint32_t c = gen.addend(a, b);
        for (const Op& op : ops) {
            const R32 rne = op.fn(a, b, c, kRNE);
            if (rne.value == kQNaN) continue;
            const R32 rtz = op.fn(a, b, c, kRTZ);
            const R32 rdn = op.fn(a, b, c, kRDN);
            const R32 rup = op.fn(a, b, c, kRUP);
            const R32 rmm = op.fn(a, b, c, kRMM);
            if (!(as_float(rdn.value) <= as_float(rne.value) && as_float(rne.value) <= as_float(rup.value)))
                report("RNE outside [RDN, RUP]", op.name, a, b, c);
            if (rne.value != rdn.value && rne.value != rup.value)
                report("RNE is neither RDN nor RUP", op.name, a, b, c);
            if (rmm.value != rdn.value && rmm.value != rup.value)
                report("RMM is neither RDN nor RUP", op.name, a, b, c);
            const bool negative = rdn.value & 0x80000000u;
            if (rtz.value != (negative ? rup.value : rdn.value))
                report("RTZ is not the directed result towards zero", op.name, a, b, c);
            const bool exact = as_float(rdn.value) == as_float(rup.value);
            for (const R32& r : {rne, rtz, rdn, rup, rmm})
                if (exact == bool(r.flags & kNX)) report("NX disagrees with RDN == RUP", op.name, a, b, c);
            if (op.mirrorable) {
                const R32 mirrored = op.fn(a ^ op.flip_a, b ^ op.flip_b, c ^ op.flip_c, kRUP);
                if (mirrored != R32{neg32(rdn.value), rdn.flags})
                    report("RDN(x) != -RUP(-x)", op.name, a, b, c);
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
}

// ---- 16-bit integer lanes and the expanding dot product (PULP vectorial FP16) -------------------------

TEST(FloatOps, Binary16ToInt16SaturatesPerLaneFormat) {
    // 32752 (0x77ff) and -32768 (0xf800) fit; 32768 (0x7800) and -32800 (0xf801) saturate with NV only.
    for (const Rounding rm : kAllModes) {
        SCOPED_TRACE(int(rm));
        EXPECT_EQ(run(to_int16_from16, uint16_t(0x77ff), rm), (R16{0x7ff0, 0}));
        EXPECT_EQ(run(to_int16_from16, uint16_t(0xf800), rm), (R16{0x8000, 0}));
        EXPECT_EQ(run(to_int16_from16, uint16_t(0x7800), rm), (R16{0x7fff, kNV}));
        EXPECT_EQ(run(to_int16_from16, uint16_t(0xf801), rm), (R16{0x8000, kNV}));
        EXPECT_EQ(run(to_int16_from16, kHInf, rm), (R16{0x7fff, kNV}));
        EXPECT_EQ(run(to_int16_from16, kHNegInf, rm), (R16{0x8000, kNV}));
        EXPECT_EQ(run(to_int16_from16, kHSNaN, rm), (R16{0x7fff, kNV}));
        EXPECT_EQ(run(to_uint16_from16, kHMax, rm), (R16{0xffe0, 0}));
        EXPECT_EQ(run(to_uint16_from16, kHInf, rm), (R16{0xffff, kNV}));
        EXPECT_EQ(run(to_uint16_from16, kHNegOne, rm), (R16{0, kNV}));
        EXPECT_EQ(run(to_uint16_from16, kHQNaN, rm), (R16{0xffff, kNV}));
        EXPECT_EQ(run(to_uint16_from16, kHNegZero, rm), (R16{0, 0}));
    }
    // -2.5 (0xc100): -2, -2, -3, -2, -3; 2.5 (0x4100) unsigned: 2, 2, 2, 3, 3.
    const std::array<uint16_t, 5> minus_two_and_half = {0xfffe, 0xfffe, 0xfffd, 0xfffe, 0xfffd};
    const std::array<uint16_t, 5> two_and_half = {2, 2, 2, 3, 3};
    // -0.5 (0xb800) unsigned: 0 (inexact) unless rounded down or away to -1 (invalid).
    const std::array<R16, 5> minus_half = {R16{0, kNX}, R16{0, kNX}, R16{0, kNV}, R16{0, kNX}, R16{0, kNV}};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(run(to_int16_from16, uint16_t(0xc100), kAllModes[i]), (R16{minus_two_and_half[i], kNX}));
        EXPECT_EQ(run(to_uint16_from16, uint16_t(0x4100), kAllModes[i]), (R16{two_and_half[i], kNX}));
        EXPECT_EQ(run(to_uint16_from16, uint16_t(0xb800), kAllModes[i]), minus_half[i]);
    }
}

R32 dotpex(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1, uint32_t c, Rounding rm) {
    uint8_t flags = 0;
    const uint32_t value = dotpex16_to32(a0, b0, a1, b1, c, rm, flags);
    return {value, flags};
}

TEST(FloatOps, DotProductRoundsOnceInEveryMode) {
    // 1*1 + 2^-20*2^-20 + 2^-24: 1 + 2^-24 alone is the tie between 1 and 1 + 2^-23 (RNE: 1), and the
    // 2^-40 above it decides for the successor. Rounding 1 + 2^-24 first would give 1.0.
    const std::array<uint32_t, 5> above_tie = {0x3f800001, kOne, kOne, 0x3f800001, 0x3f800001};
    // 1 - 2^-48 (c = 1, products -2^-24 * 2^-24): just below 1, so down and toward zero give 1 - 2^-24.
    const std::array<uint32_t, 5> below_one = {kOne, 0x3f7fffff, 0x3f7fffff, kOne, kOne};
    // -(1 + 2^-149): products -1, c = -2^-149 far below the product's last bit.
    const std::array<uint32_t, 5> minus_one_and_tiny = {kNegOne, kNegOne, 0xbf800001, kNegOne, kNegOne};
    for (size_t i = 0; i < kAllModes.size(); ++i) {
        SCOPED_TRACE(i);
        const Rounding rm = kAllModes[i];
        EXPECT_EQ(dotpex(kHOne, kHOne, 0x0010, 0x0010, 0x33800000, rm), (R32{above_tie[i], kNX}));
        EXPECT_EQ(dotpex(0x8001, kHMinSub, kHPosZero, kHOne, kOne, rm), (R32{below_one[i], kNX}));
        EXPECT_EQ(dotpex(kHNegOne, kHOne, kHPosZero, kHPosZero, 0x80000001, rm),
                  (R32{minus_one_and_tiny[i], kNX}));
        // Exact: 0.5 + 1*2 + 3*4 = 14.5, and a cancellation of the products that leaves c alone.
        EXPECT_EQ(dotpex(kHOne, 0x4000, 0x4200, 0x4400, kHalf, rm), (R32{0x41680000, 0}));
        EXPECT_EQ(dotpex(kHOne, kHOne, kHNegOne, kHOne, kMinSub, rm), (R32{kMinSub, 0}));
        EXPECT_EQ(dotpex(kHMax, kHMax, kHMax, kHMax, kPosZero, rm), (R32{0x4fffc004, 0})); // 2 * 65504^2
    }
}

TEST(FloatOps, DotProductZerosInfinitiesAndNaNs) {
    // Exact zero from cancelling terms: +0, -0 when rounding down; three zero terms keep -0 only if all
    // are -0 (or, rounding down, if any is).
    EXPECT_EQ(dotpex(kHOne, kHOne, kHNegOne, kHOne, kPosZero, kRNE), (R32{kPosZero, 0}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHNegOne, kHOne, kNegZero, kRNE), (R32{kPosZero, 0}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHNegOne, kHOne, kPosZero, kRDN), (R32{kNegZero, 0}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHOne, kHOne, 0xc0000000, kRNE), (R32{kPosZero, 0})); // 2 - 2
    EXPECT_EQ(dotpex(kHNegZero, kHOne, kHOne, kHNegZero, kNegZero, kRNE), (R32{kNegZero, 0}));
    EXPECT_EQ(dotpex(kHNegZero, kHOne, kHPosZero, kHOne, kNegZero, kRNE), (R32{kPosZero, 0}));
    EXPECT_EQ(dotpex(kHNegZero, kHOne, kHPosZero, kHOne, kNegZero, kRDN), (R32{kNegZero, 0}));
    // Infinities: same signs add up, opposite signs are invalid, inf * 0 is invalid even next to a quiet
    // NaN; any NaN gives the canonical NaN, invalid only when signalling.
    EXPECT_EQ(dotpex(kHInf, kHOne, kHOne, kHInf, kOne, kRNE), (R32{kPosInf, 0}));
    EXPECT_EQ(dotpex(kHInf, kHNegOne, kHOne, kHOne, kNegInf, kRNE), (R32{kNegInf, 0}));
    EXPECT_EQ(dotpex(kHInf, kHOne, kHOne, kHOne, kNegInf, kRNE), (R32{kQNaN, kNV}));
    EXPECT_EQ(dotpex(kHInf, kHOne, kHNegInf, kHOne, kOne, kRNE), (R32{kQNaN, kNV}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHOne, kHOne, kPosInf, kRNE), (R32{kPosInf, 0}));
    EXPECT_EQ(dotpex(kHInf, kHPosZero, kHQNaN, kHOne, kOne, kRNE), (R32{kQNaN, kNV}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHOne, kHOne, kQNaNPayload, kRNE), (R32{kQNaN, 0}));
    EXPECT_EQ(dotpex(kHOne, kHSNaN, kHOne, kHOne, kOne, kRNE), (R32{kQNaN, kNV}));
    EXPECT_EQ(dotpex(kHOne, kHOne, kHOne, kHOne, kSNaN, kRNE), (R32{kQNaN, kNV}));
    // Overflow only through the accumulator: the products stay below 2^33.
    EXPECT_EQ(dotpex(kHMax, kHMax, kHPosZero, kHPosZero, kMax, kRNE), (R32{kMax, kNX}));
    EXPECT_EQ(dotpex(kHMax, kHMax, kHPosZero, kHPosZero, kMax, kRUP), (R32{kPosInf, kOF | kNX}));
    EXPECT_EQ(dotpex(kHMinSub, kHMinSub, kHPosZero, kHPosZero, kMinSub, kRNE), (R32{0x27800000, kNX}));
}

TEST(FloatOps, DotProductMatchesAnExactSumWhereOneExists) {
    // With operands of moderate exponents the exact sum spans fewer than 64 bits, so an x87 long double
    // holds it exactly and its conversion to float rounds it once, to nearest even.
    if constexpr (std::numeric_limits<long double>::digits < 64) GTEST_SKIP() << "needs 64-bit long double";
    std::mt19937_64 rng(0xd07e'0000'0016'0032ull);
    // binary16 with an exponent in [-5, 5] and any significand and sign; binary32 with one in [-8, 8].
    const auto half = [&] { return uint16_t((rng() & 0x83ff) | ((10 + rng() % 11) << 10)); };
    const auto single = [&] { return uint32_t((rng() & 0x807fffff) | ((119 + rng() % 17) << 23)); };
    const auto to_ld = [](uint32_t bits) { return static_cast<long double>(std::bit_cast<float>(bits)); };
    int mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        const uint16_t a0 = half(), b0 = half(), a1 = half(), b1 = half();
        const uint32_t c = single();
        uint8_t ignored = 0;
        const long double exact = to_ld(f16_to_f32(a0, ignored)) * to_ld(f16_to_f32(b0, ignored)) +
                                  to_ld(f16_to_f32(a1, ignored)) * to_ld(f16_to_f32(b1, ignored)) + to_ld(c);
        if (exact == 0) continue; // the sign of an exact zero is tested above
        const float rounded = static_cast<float>(exact);
        const R32 expected{std::bit_cast<uint32_t>(rounded),
                           uint8_t(static_cast<long double>(rounded) != exact)};
        const R32 got = dotpex(a0, b0, a1, b1, c, kRNE);
        if (got != expected && ++mismatches <= 20)
            ADD_FAILURE() << std::hex << "dotpex(0x" << a0 << ", 0x" << b0 << ", 0x" << a1 << ", 0x" << b1
                          << ", 0x" << c << "): 0x" << got.value << " flags 0x" << unsigned(got.flags)
                          << ", exact sum gives 0x" << expected.value << " flags 0x"
                          << unsigned(expected.flags);
    }
    EXPECT_EQ(mismatches, 0);
}

TEST(FloatOps, DotProductWithOneProductIsTheFusedMultiplyAdd) {
    // a1 * b1 = +0 changes nothing but the sign of an exact zero, so every nonzero result must equal fma32
    // of the widened operands in every mode; the operands range over all binary16 and binary32 values.
    std::mt19937_64 rng(0xf3a0'0000'0016'0001ull);
    int mismatches = 0;
    for (int i = 0; i < 200000; ++i) {
        const uint16_t a = uint16_t(rng()), b = uint16_t(rng());
        const uint32_t c = uint32_t(rng() >> 7) ^ (rng() & 1 ? 0x80000000u : 0u);
        const Rounding rm = kAllModes[i % kAllModes.size()];
        uint8_t ignored = 0;
        const R32 fused = run(fma32, f16_to_f32(a, ignored), f16_to_f32(b, ignored), c, rm);
        if ((fused.value & 0x7fffffffu) == 0) continue;
        const R32 got = dotpex(a, b, kHPosZero, kHPosZero, c, rm);
        // fma32 of a widened signalling NaN sees a quiet one: compare the NV flag only from fma's view.
        const bool snan_in =
            ((a & 0x7fff) > 0x7c00 && !(a & 0x200)) || ((b & 0x7fff) > 0x7c00 && !(b & 0x200));
        const R32 expected{fused.value, uint8_t(fused.flags | (snan_in ? kNV : 0))};
        if (got != expected && ++mismatches <= 20)
            ADD_FAILURE() << std::hex << "dotpex(0x" << a << ", 0x" << b << ", 0, 0, 0x" << c << ", rm "
                          << int(rm) << "): 0x" << got.value << " flags 0x" << unsigned(got.flags)
                          << ", fma32 0x" << expected.value << " flags 0x" << unsigned(expected.flags);
    }
    EXPECT_EQ(mismatches, 0);
}

} // namespace
} // namespace pulpsim::fp
