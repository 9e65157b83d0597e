/* Shared definitions of the floating-point test programs: fflags bits, named single-precision bit
 * patterns and case macros that check a result together with the exception flags it raised.
 */
#ifndef PULPSIM_FP_TEST_H
#define PULPSIM_FP_TEST_H

#include "qemu_exit.h"

// fflags bits
#define NV 0x10
#define DZ 0x08
#define OF 0x04
#define UF 0x02
#define NX 0x01

// single-precision bit patterns
#define P0 0x00000000
#define N0 0x80000000
#define PINF 0x7f800000
#define NINF 0xff800000
#define CNAN 0x7fc00000   // canonical quiet NaN
#define QNAN_P 0x7fc12345 // quiet NaN with a payload
#define NQNAN 0xffc12345  // negative quiet NaN with a payload
#define SNAN 0x7f800001   // signaling NaN
#define NSNAN 0xffa00000  // negative signaling NaN
#define MAXF 0x7f7fffff   // largest finite, (2 - 2^-23) * 2^127
#define NMAXF 0xff7fffff
#define MINN 0x00800000   // smallest normal, 2^-126
#define MAXS 0x007fffff   // largest subnormal
#define MINS 0x00000001   // smallest subnormal, 2^-149
#define NMINS 0x80000001
#define ONE 0x3f800000
#define NONE 0xbf800000
#define TWO 0x40000000
#define NTWO 0xc0000000
#define THREE 0x40400000
#define FOUR 0x40800000
#define FIVE 0x40a00000
#define SIX 0x40c00000
#define SEVEN 0x40e00000
#define HALF 0x3f000000
#define NHALF 0xbf000000
#define ONEP5 0x3fc00000  // 1.5
#define NONEP5 0xbfc00000
#define TWOP5 0x40200000  // 2.5
#define NTWOP5 0xc0200000
#define THREEP5 0x40600000 // 3.5
#define EPS24 0x33800000  // 2^-24: half an ulp of 1.0
#define NEPS24 0xb3800000
#define EPS25 0x33000000  // 2^-25: half an ulp of the numbers just below 1.0
#define ONE_ULP 0x3f800001 // 1 + 2^-23
#define F3E9 0x4f32d05e   // 3e9 (exact: 0xb2d05e00)
#define NF3E9 0xcf32d05e
#define P2_31 0x4f000000  // 2^31
#define N2_31 0xcf000000  // -2^31
#define P2_32 0x4f800000  // 2^32

/* Checks FP register `freg` == `bits` and the flags raised by `code` == `flags`. */
#define TEST_FP(n, freg, bits, flags, code...)                                                               \
    li TESTNUM, n;                                                                                           \
    csrwi fflags, 0;                                                                                         \
    code;                                                                                                    \
    fmv.x.w t5, freg;                                                                                        \
    li t6, bits;                                                                                             \
    bne t5, t6, fail;                                                                                        \
    csrr t5, fflags;                                                                                         \
    li t6, flags;                                                                                            \
    bne t5, t6, fail;

/* Checks integer register `reg` == `expected` and the flags raised by `code` == `flags`. */
#define TEST_FPI(n, reg, expected, flags, code...)                                                           \
    li TESTNUM, n;                                                                                           \
    csrwi fflags, 0;                                                                                         \
    code;                                                                                                    \
    li t6, expected;                                                                                         \
    bne reg, t6, fail;                                                                                       \
    csrr t5, fflags;                                                                                         \
    li t6, flags;                                                                                            \
    bne t5, t6, fail;

/* f0 = insn(a) / insn(a, b) / insn(a, b, c), optionally with a static rounding mode. */
#define TEST_F1(n, insn, bits, flags, a) TEST_FP(n, f0, bits, flags, FLI(f1, a); insn f0, f1)
#define TEST_F1RM(n, insn, rm, bits, flags, a) TEST_FP(n, f0, bits, flags, FLI(f1, a); insn f0, f1, rm)
#define TEST_F2(n, insn, bits, flags, a, b)                                                                  \
    TEST_FP(n, f0, bits, flags, FLI(f1, a); FLI(f2, b); insn f0, f1, f2)
#define TEST_F2RM(n, insn, rm, bits, flags, a, b)                                                            \
    TEST_FP(n, f0, bits, flags, FLI(f1, a); FLI(f2, b); insn f0, f1, f2, rm)
#define TEST_F3(n, insn, bits, flags, a, b, c)                                                               \
    TEST_FP(n, f0, bits, flags, FLI(f1, a); FLI(f2, b); FLI(f3, c); insn f0, f1, f2, f3)
#define TEST_F3RM(n, insn, rm, bits, flags, a, b, c)                                                         \
    TEST_FP(n, f0, bits, flags, FLI(f1, a); FLI(f2, b); FLI(f3, c); insn f0, f1, f2, f3, rm)
/* a0 = compare(a, b) / fclass(a) / fcvt-to-integer(a). */
#define TEST_FCMP(n, insn, expected, flags, a, b)                                                            \
    TEST_FPI(n, a0, expected, flags, FLI(f1, a); FLI(f2, b); insn a0, f1, f2)
#define TEST_FCLASS(n, expected, a) TEST_FPI(n, a0, expected, 0, FLI(f1, a); fclass.s a0, f1)
#define TEST_FCVT_I(n, insn, rm, expected, flags, a)                                                         \
    TEST_FPI(n, a0, expected, flags, FLI(f1, a); insn a0, f1, rm)
/* f0 = fcvt-from-integer(value). */
#define TEST_FCVT_F(n, insn, rm, bits, flags, value)                                                        \
    TEST_FP(n, f0, bits, flags, li a1, value; insn f0, a1, rm)

#endif
