/* Shared definitions of the binary16 test programs (Zfh and the PULP vectorial FP16 instructions):
 * named binary16 bit patterns and case macros on top of fp_test.h.
 *
 * A scalar half value lives NaN-boxed in an f register (bits 31:16 all ones): HLI loads one boxed, and
 * the TEST_H* macros check the whole register, so they also check that results are boxed. A packed
 * pair (two lanes, lane 0 in bits 15:0) is written PAIR(lane1, lane0).
 */
#ifndef PULPSIM_FP16_TEST_H
#define PULPSIM_FP16_TEST_H

#include "fp_test.h"

// binary16 bit patterns
#define H_P0 0x0000
#define H_N0 0x8000
#define H_ONE 0x3c00
#define H_NONE 0xbc00
#define H_TWO 0x4000
#define H_NTWO 0xc000
#define H_THREE 0x4200
#define H_FOUR 0x4400
#define H_SIX 0x4600
#define H_HALF 0x3800
#define H_NHALF 0xb800
#define H_ONEP5 0x3e00   // 1.5
#define H_NONEP5 0xbe00
#define H_TWOP5 0x4100   // 2.5
#define H_PINF 0x7c00
#define H_NINF 0xfc00
#define H_CNAN 0x7e00    // canonical quiet NaN
#define H_QNAN_P 0x7e55  // quiet NaN with a payload
#define H_NQNAN 0xfe55   // negative quiet NaN with a payload
#define H_SNAN 0x7c01    // signalling NaN
#define H_NSNAN 0xfd00   // negative signalling NaN
#define H_MAX 0x7bff     // largest finite, 65504
#define H_NMAX 0xfbff
#define H_MINN 0x0400    // smallest normal, 2^-14
#define H_MAXS 0x03ff    // largest subnormal, 2^-14 - 2^-24
#define H_MINS 0x0001    // smallest subnormal, 2^-24
#define H_NMINS 0x8001
#define H_EPS11 0x1000   // 2^-11: half an ulp of 1.0
#define H_NEPS11 0x9000
#define H_ONE_ULP 0x3c01 // 1 + 2^-10

#define BOX(h) (0xffff0000 | (h))
#define PAIR(lane1, lane0) (((lane1) << 16) | (lane0))

/* Loads an f register with a NaN-boxed binary16 value. */
#define HLI(freg, h) FLI(freg, BOX(h))

/* f0 = insn(a) / insn(a, b) / insn(a, b, c) on boxed operands, optionally with a static rounding mode;
 * checks the boxed result and the flags. */
#define TEST_H1(n, insn, h, flags, a) TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); insn f0, f1)
#define TEST_H1RM(n, insn, rm, h, flags, a) TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); insn f0, f1, rm)
#define TEST_H2(n, insn, h, flags, a, b)                                                                     \
    TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); HLI(f2, b); insn f0, f1, f2)
#define TEST_H2RM(n, insn, rm, h, flags, a, b)                                                               \
    TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); HLI(f2, b); insn f0, f1, f2, rm)
#define TEST_H3(n, insn, h, flags, a, b, c)                                                                  \
    TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); HLI(f2, b); HLI(f3, c); insn f0, f1, f2, f3)
#define TEST_H3RM(n, insn, rm, h, flags, a, b, c)                                                            \
    TEST_FP(n, f0, BOX(h), flags, HLI(f1, a); HLI(f2, b); HLI(f3, c); insn f0, f1, f2, f3, rm)
/* a0 = compare(a, b) / fclass.h(a) / fcvt-to-integer(a). */
#define TEST_HCMP(n, insn, expected, flags, a, b)                                                            \
    TEST_FPI(n, a0, expected, flags, HLI(f1, a); HLI(f2, b); insn a0, f1, f2)
#define TEST_HCLASS(n, expected, a) TEST_FPI(n, a0, expected, 0, HLI(f1, a); fclass.h a0, f1)
#define TEST_HCVT_I(n, insn, rm, expected, flags, a)                                                         \
    TEST_FPI(n, a0, expected, flags, HLI(f1, a); insn a0, f1, rm)
/* f0 = fcvt-from-integer(value), boxed. */
#define TEST_HCVT_F(n, insn, rm, h, flags, value) TEST_FP(n, f0, BOX(h), flags, li a1, value; insn f0, a1, rm)

/* Packed pairs (the PULP vectorial instructions, macros of xfvec.h): f0 = op(f1[, f2]), or f0 = op(f1, f2)
 * reading f0 = acc first; the RM forms run with frm = rm and set it back to 0. */
#define TEST_V1(n, op, pair, flags, a) TEST_FP(n, f0, pair, flags, FLI(f1, a); op(f0, f1))
#define TEST_V2(n, op, pair, flags, a, b) TEST_FP(n, f0, pair, flags, FLI(f1, a); FLI(f2, b); op(f0, f1, f2))
#define TEST_V2RM(n, op, rm, pair, flags, a, b)                                                              \
    TEST_FP(n, f0, pair, flags, FLI(f1, a); FLI(f2, b); csrwi frm, rm; op(f0, f1, f2); csrwi frm, 0)
#define TEST_VACC(n, op, result, flags, acc, a, b)                                                           \
    TEST_FP(n, f0, result, flags, FLI(f0, acc); FLI(f1, a); FLI(f2, b); op(f0, f1, f2))
#define TEST_VACCRM(n, op, rm, result, flags, acc, a, b)                                                     \
    TEST_FP(n, f0, result, flags, FLI(f0, acc); FLI(f1, a); FLI(f2, b); csrwi frm, rm; op(f0, f1, f2);       \
            csrwi frm, 0)
/* a0 = op(f1, f2): comparisons, 0 or 1 in each lane. */
#define TEST_VCMP(n, op, expected, flags, a, b)                                                              \
    TEST_FPI(n, a0, expected, flags, FLI(f1, a); FLI(f2, b); op(a0, f1, f2))

#endif
