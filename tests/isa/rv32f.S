/* RV32F single-precision floating point: loads/stores and moves, arithmetic with every static rounding
 * mode, fused multiply-add (single rounding), sign injection and min/max. Comparisons, fclass and
 * conversions are in rv32f_cvt.S, the fcsr register in fcsr.S.
 *
 * Expected values follow the F chapter of the RISC-V unprivileged specification and IEEE 754-2008:
 * - a NaN result of an arithmetic instruction is the canonical NaN 0x7fc00000 (payloads are not
 *   propagated), and NV is raised only by a signaling NaN operand or an invalid operation;
 * - sign injection, fmv and loads/stores move bits unchanged (no canonicalization, no flags);
 * - an exact zero sum of opposite-signed operands is +0, except -0 when rounding down;
 * - overflow gives inf or the largest finite value depending on the rounding direction;
 * - underflow is detected after rounding, and UF is raised only for an inexact tiny result;
 * - fused multiply-add rounds once, and raises NV for inf * 0 even when the addend is a quiet NaN;
 * - fmin/fmax return the non-NaN operand when only one is NaN (the canonical NaN when both are), order
 *   -0 below +0, and raise NV only for a signaling NaN.
 *
 * Each case clears fflags, runs, then checks the result and the flags it raised. frm is 0 (RNE)
 * throughout, so instructions without a rounding suffix (dyn) round to nearest, ties to even.
 */
#include "fp_test.h"

TEST_BEGIN

    // ---- flw / fsw / fmv: bit-exact moves, NaN payloads kept, no flags -------------------------------
    TEST_FP(1, f0, 0x40490fdb, 0, la a1, fdata; flw f0, 0(a1))                 // pi
    TEST_FP(2, f0, NTWO, 0, la a1, fdata + 8; flw f0, -4(a1))
    TEST_FP(3, f0, SNAN, 0, la a1, fdata; flw f0, 8(a1))                       // a signaling NaN stays as is
    TEST_FPI(4, a0, ONE, 0, FLI(f1, ONE); la a1, fbuf; fsw f1, 0(a1); lw a0, 0(a1))
    TEST_FPI(5, a0, NQNAN, 0, FLI(f1, NQNAN); la a1, fbuf + 8; fsw f1, -4(a1); lw a0, -4(a1))
    TEST_FPI(6, a0, 0x7f812345, 0, li a1, 0x7f812345; fmv.w.x f1, a1; fmv.x.w a0, f1)
    TEST_FPI(7, a0, N0, 0, FLI(f1, N0); fmv.x.w a0, f1)
    TEST_FP(8, f0, 0x40490fdb, 0, la a1, fdata; flw f1, 0(a1); la a2, fbuf; fsw f1, 12(a2); flw f0, 12(a2))

    // ---- fadd ----------------------------------------------------------------------------------------
    TEST_F2(9, fadd.s, THREE, 0, ONE, TWO)
    TEST_F2(10, fadd.s, FOUR, 0, ONEP5, TWOP5)
    TEST_F2(11, fadd.s, P0, 0, ONE, NONE)              // exact zero sum of opposite signs: +0 ...
    TEST_F2RM(12, fadd.s, rdn, N0, 0, ONE, NONE)       // ... except when rounding down: -0
    TEST_F2(13, fadd.s, N0, 0, N0, N0)
    TEST_F2(14, fadd.s, P0, 0, P0, N0)
    TEST_F2RM(15, fadd.s, rdn, N0, 0, P0, N0)
    TEST_F2(16, fadd.s, CNAN, NV, PINF, NINF)          // inf - inf is invalid
    TEST_F2(17, fadd.s, PINF, 0, PINF, ONE)
    TEST_F2(18, fadd.s, PINF, OF | NX, MAXF, MAXF)     // overflow rounds to inf in RNE ...
    TEST_F2RM(19, fadd.s, rtz, MAXF, OF | NX, MAXF, MAXF) // ... to the largest finite toward zero
    TEST_F2RM(20, fadd.s, rdn, MAXF, OF | NX, MAXF, MAXF)
    TEST_F2RM(21, fadd.s, rup, PINF, OF | NX, MAXF, MAXF)
    TEST_F2RM(22, fadd.s, rmm, PINF, OF | NX, MAXF, MAXF)
    TEST_F2RM(23, fadd.s, rup, NMAXF, OF | NX, NMAXF, NMAXF)
    TEST_F2RM(24, fadd.s, rdn, NINF, OF | NX, NMAXF, NMAXF)
    // 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23
    TEST_F2RM(25, fadd.s, rne, ONE, NX, ONE, EPS24)    // tie to even: 1.0
    TEST_F2RM(26, fadd.s, rtz, ONE, NX, ONE, EPS24)
    TEST_F2RM(27, fadd.s, rdn, ONE, NX, ONE, EPS24)
    TEST_F2RM(28, fadd.s, rup, ONE_ULP, NX, ONE, EPS24)
    TEST_F2RM(29, fadd.s, rmm, ONE_ULP, NX, ONE, EPS24) // tie away from zero
    TEST_F2RM(30, fadd.s, rne, NONE, NX, NONE, NEPS24)
    TEST_F2RM(31, fadd.s, rtz, NONE, NX, NONE, NEPS24)
    TEST_F2RM(32, fadd.s, rdn, 0xbf800001, NX, NONE, NEPS24)
    TEST_F2RM(33, fadd.s, rup, NONE, NX, NONE, NEPS24)
    TEST_F2RM(34, fadd.s, rmm, 0xbf800001, NX, NONE, NEPS24)
    TEST_F2(35, fadd.s, ONE_ULP, NX, ONE, 0x33c00000)  // 1 + 0.75 ulp rounds up
    // 1 + 2^-23 + 2^-24: halfway between 1 + 2^-23 (odd) and 1 + 2^-22 (even)
    TEST_F2(36, fadd.s, 0x3f800002, NX, ONE_ULP, EPS24)
    TEST_F2(37, fadd.s, CNAN, NV, SNAN, ONE)           // sNaN operand: invalid, canonical NaN
    TEST_F2(38, fadd.s, CNAN, 0, ONE, QNAN_P)          // qNaN operand: quiet, payload not propagated
    TEST_F2(39, fadd.s, CNAN, 0, NQNAN, ONE)
    TEST_F2(40, fadd.s, 0x00000002, 0, MINS, MINS)     // exact subnormal: neither UF nor NX
    TEST_F2(41, fadd.s, MAXS, 0, MINN, NMINS)
    TEST_F2(42, fadd.s, ONE, 0, ONE, P0)

    // ---- fsub ----------------------------------------------------------------------------------------
    TEST_F2(43, fsub.s, TWO, 0, THREE, ONE)
    TEST_F2(44, fsub.s, NTWO, 0, ONE, THREE)
    TEST_F2(45, fsub.s, CNAN, NV, PINF, PINF)
    TEST_F2(46, fsub.s, P0, 0, ONE, ONE)
    TEST_F2RM(47, fsub.s, rdn, N0, 0, ONE, ONE)
    TEST_F2(48, fsub.s, NINF, 0, NINF, PINF)
    // 1 - 2^-25 is halfway between 1 - 2^-24 (0x3f7fffff, odd) and 1.0 (even)
    TEST_F2RM(49, fsub.s, rne, ONE, NX, ONE, EPS25)
    TEST_F2RM(50, fsub.s, rtz, 0x3f7fffff, NX, ONE, EPS25)
    TEST_F2RM(51, fsub.s, rdn, 0x3f7fffff, NX, ONE, EPS25)
    TEST_F2RM(52, fsub.s, rup, ONE, NX, ONE, EPS25)
    TEST_F2RM(53, fsub.s, rmm, ONE, NX, ONE, EPS25)
    TEST_F2(54, fsub.s, P0, 0, N0, N0)                 // -0 - -0 = +0 in RNE
    TEST_F2(55, fsub.s, CNAN, NV, ONE, NSNAN)
    TEST_F2(56, fsub.s, 0x00000001, 0, 0x00800001, MINN) // exact subnormal difference: no UF

    // ---- fmul ----------------------------------------------------------------------------------------
    TEST_F2(57, fmul.s, SIX, 0, TWO, THREE)
    TEST_F2(58, fmul.s, 0xc0c00000, 0, NTWO, THREE)
    TEST_F2(59, fmul.s, CNAN, NV, P0, PINF)
    TEST_F2(60, fmul.s, N0, 0, N0, FIVE)
    TEST_F2(61, fmul.s, PINF, 0, NINF, NTWO)
    TEST_F2(62, fmul.s, PINF, OF | NX, MAXF, TWO)
    TEST_F2RM(63, fmul.s, rtz, MAXF, OF | NX, MAXF, TWO)
    TEST_F2RM(64, fmul.s, rup, NMAXF, OF | NX, NMAXF, TWO)
    TEST_F2(65, fmul.s, 0x00400000, 0, MINN, HALF)     // exact subnormal result: no UF
    // 2^-150: half the smallest subnormal, a tie between 0 (even) and 2^-149
    TEST_F2(66, fmul.s, P0, UF | NX, MINS, HALF)
    TEST_F2RM(67, fmul.s, rup, MINS, UF | NX, MINS, HALF)
    TEST_F2RM(68, fmul.s, rdn, NMINS, UF | NX, NMINS, HALF)
    TEST_F2(69, fmul.s, N0, UF | NX, NMINS, HALF)
    TEST_F2(70, fmul.s, 0x00000002, UF | NX, MINS, ONEP5) // 1.5 * 2^-149 ties to 2 * 2^-149
    // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 - 2^-172: rounds to 2^-126 even with an unbounded exponent,
    // so it is not tiny after rounding: NX without UF.
    TEST_F2(71, fmul.s, MINN, NX, ONE_ULP, MAXS)
    // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150 fits 24 bits with an unbounded exponent, so it is tiny; the
    // subnormal rounding ties to the even 2^-126: UF and NX.
    TEST_F2(72, fmul.s, MINN, UF | NX, 0x3f7fffff, MINN)
    TEST_F2(73, fmul.s, 0x3f800002, NX, ONE_ULP, ONE_ULP) // 1 + 2^-22 + 2^-46
    TEST_F2RM(74, fmul.s, rup, 0x3f800003, NX, ONE_ULP, ONE_ULP)
    TEST_F2(75, fmul.s, CNAN, 0, QNAN_P, P0)

    // ---- fdiv ----------------------------------------------------------------------------------------
    TEST_F2RM(76, fdiv.s, rne, 0x3eaaaaab, NX, ONE, THREE) // 1/3 = 0x3eaaaaaa.aaa...
    TEST_F2RM(77, fdiv.s, rtz, 0x3eaaaaaa, NX, ONE, THREE)
    TEST_F2RM(78, fdiv.s, rdn, 0x3eaaaaaa, NX, ONE, THREE)
    TEST_F2RM(79, fdiv.s, rup, 0x3eaaaaab, NX, ONE, THREE)
    TEST_F2RM(80, fdiv.s, rmm, 0x3eaaaaab, NX, ONE, THREE)
    TEST_F2RM(81, fdiv.s, rdn, 0xbeaaaaab, NX, NONE, THREE)
    TEST_F2RM(82, fdiv.s, rup, 0xbeaaaaaa, NX, NONE, THREE)
    TEST_F2(83, fdiv.s, TWO, 0, SIX, THREE)
    TEST_F2(84, fdiv.s, PINF, DZ, ONE, P0)              // finite / 0: divide by zero
    TEST_F2(85, fdiv.s, NINF, DZ, NONE, P0)
    TEST_F2(86, fdiv.s, NINF, DZ, ONE, N0)
    TEST_F2(87, fdiv.s, CNAN, NV, P0, P0)               // 0 / 0 is invalid, not DZ
    TEST_F2(88, fdiv.s, CNAN, NV, PINF, NINF)
    TEST_F2(89, fdiv.s, P0, 0, ONE, PINF)
    TEST_F2(90, fdiv.s, N0, 0, NONE, PINF)
    TEST_F2(91, fdiv.s, PINF, 0, PINF, P0)              // inf / 0: exact inf, no DZ
    TEST_F2(92, fdiv.s, PINF, OF | NX, MAXF, HALF)
    TEST_F2(93, fdiv.s, CNAN, 0, QNAN_P, P0)
    TEST_F2(94, fdiv.s, 0x00400000, 0, MINN, TWO)       // exact subnormal quotient: no UF
    TEST_F2(95, fdiv.s, P0, UF | NX, MINS, TWO)         // 2^-150 ties to 0
    TEST_F2(96, fdiv.s, MINN, 0, MINS, 0x34000000)      // 2^-149 / 2^-23: subnormal operand, normal result
    TEST_F2(97, fdiv.s, PINF, OF | NX, ONE, MINS)       // 2^149 overflows

    // ---- fsqrt ---------------------------------------------------------------------------------------
    TEST_F1(98, fsqrt.s, TWO, 0, FOUR)
    TEST_F1(99, fsqrt.s, 0x3fb504f3, NX, TWO)           // 1.41421354 < sqrt(2)
    TEST_F1RM(100, fsqrt.s, rup, 0x3fb504f4, NX, TWO)
    TEST_F1RM(101, fsqrt.s, rtz, 0x3fb504f3, NX, TWO)
    TEST_F1(102, fsqrt.s, CNAN, NV, NONE)
    TEST_F1(103, fsqrt.s, N0, 0, N0)                     // sqrt(-0) = -0
    TEST_F1(104, fsqrt.s, PINF, 0, PINF)
    TEST_F1(105, fsqrt.s, CNAN, NV, NINF)
    TEST_F1(106, fsqrt.s, 0x1a3504f3, NX, MINS)         // sqrt(2^-149) = 2^-75 * sqrt(2)
    TEST_F1(107, fsqrt.s, CNAN, NV, SNAN)
    TEST_F1(108, fsqrt.s, CNAN, 0, QNAN_P)
    TEST_F1(109, fsqrt.s, 0x3f7fffff, NX, 0x3f7ffffe)   // sqrt(1 - 2^-23) = 1 - 2^-24 - ...: rounds up

    // ---- fused multiply-add: one rounding ------------------------------------------------------------
    TEST_F3(110, fmadd.s, SEVEN, 0, TWO, THREE, ONE)    //   2*3 + 1
    TEST_F3(111, fmsub.s, FIVE, 0, TWO, THREE, ONE)     //   2*3 - 1
    TEST_F3(112, fnmadd.s, 0xc0e00000, 0, TWO, THREE, ONE) // -(2*3) - 1
    TEST_F3(113, fnmsub.s, 0xc0a00000, 0, TWO, THREE, ONE) // -(2*3) + 1
    // a = 1 + 2^-12: a*a = 1 + 2^-11 + 2^-24 exactly. Rounded on its own the product ties to the even
    // 1 + 2^-11, so fmul then fsub gives 0, while the fused forms keep the 2^-24.
    TEST_F3(114, fmsub.s, EPS24, 0, 0x3f800800, 0x3f800800, 0x3f801000)
    TEST_FP(115, f0, P0, NX, FLI(f1, 0x3f800800); FLI(f3, 0x3f801000); fmul.s f0, f1, f1; fsub.s f0, f0, f3)
    TEST_F3(116, fmadd.s, EPS24, 0, 0x3f800800, 0x3f800800, 0xbf801000)
    TEST_F3(117, fnmsub.s, NEPS24, 0, 0x3f800800, 0x3f800800, 0x3f801000)
    TEST_F3(118, fnmadd.s, NEPS24, 0, 0x3f800800, 0x3f800800, 0xbf801000)
    // MAXF*2 - MAXF: the exact product does not overflow inside the fused operation
    TEST_F3(119, fmadd.s, MAXF, 0, MAXF, TWO, NMAXF)
    TEST_F3(120, fmadd.s, CNAN, NV, PINF, P0, CNAN)     // inf * 0 + qNaN still raises NV
    TEST_F3(121, fmadd.s, CNAN, NV, PINF, ONE, NINF)    // inf + -inf
    TEST_F3(122, fmadd.s, CNAN, NV, ONE, ONE, SNAN)
    TEST_F3(123, fmadd.s, CNAN, 0, ONE, QNAN_P, ONE)
    TEST_F3(124, fmadd.s, P0, 0, ONE, ONE, NONE)        // exact zero: +0 ...
    TEST_F3RM(125, fmadd.s, rdn, N0, 0, ONE, ONE, NONE) // ... or -0 rounding down
    TEST_F3(126, fnmadd.s, P0, 0, ONE, ONE, NONE)       // -(1) + 1 = +0
    TEST_F3RM(127, fmadd.s, rup, ONE_ULP, NX, ONE, ONE, EPS24)
    TEST_F3RM(128, fmadd.s, rne, ONE, NX, ONE, ONE, EPS24)
    TEST_F3(129, fmsub.s, N0, 0, N0, ONE, P0)           // -0 - +0 = -0
    TEST_F3(130, fmadd.s, PINF, OF | NX, MAXF, TWO, ONE)

    // ---- sign injection: bit operations, NaNs pass through, no flags ----------------------------------
    TEST_F2(131, fsgnj.s, NONE, 0, ONE, NTWO)
    TEST_F2(132, fsgnj.s, ONE, 0, NONE, TWO)
    TEST_F2(133, fsgnjn.s, ONE, 0, ONE, NTWO)
    TEST_F2(134, fsgnjn.s, NONE, 0, ONE, TWO)
    TEST_F2(135, fsgnjx.s, ONE, 0, NONE, NTWO)
    TEST_F2(136, fsgnjx.s, NONE, 0, NONE, TWO)
    TEST_F2(137, fsgnjx.s, NONE, 0, ONE, N0)
    TEST_F2(138, fsgnj.s, 0xff800001, 0, SNAN, NONE)    // no canonicalization, no NV
    TEST_F2(139, fsgnjn.s, 0x7fc12345, 0, NQNAN, NQNAN)
    TEST_FP(140, f0, N0, 0, FLI(f1, P0); fneg.s f0, f1)
    TEST_FP(141, f0, PINF, 0, FLI(f1, NINF); fabs.s f0, f1)
    TEST_FP(142, f0, QNAN_P, 0, FLI(f1, QNAN_P); fmv.s f0, f1)

    // ---- fmin / fmax ---------------------------------------------------------------------------------
    TEST_F2(143, fmin.s, ONE, 0, ONE, TWO)
    TEST_F2(144, fmax.s, TWO, 0, ONE, TWO)
    TEST_F2(145, fmin.s, NONE, 0, NONE, ONE)
    TEST_F2(146, fmax.s, NMAXF, 0, NINF, NMAXF)
    TEST_F2(147, fmin.s, N0, 0, P0, N0)                 // -0 < +0
    TEST_F2(148, fmin.s, N0, 0, N0, P0)
    TEST_F2(149, fmax.s, P0, 0, N0, P0)
    TEST_F2(150, fmax.s, P0, 0, P0, N0)
    TEST_F2(151, fmin.s, ONE, 0, QNAN_P, ONE)           // one quiet NaN: the other operand, quietly
    TEST_F2(152, fmax.s, ONE, 0, ONE, QNAN_P)
    TEST_F2(153, fmin.s, ONE, NV, SNAN, ONE)            // a signaling NaN raises NV
    TEST_F2(154, fmax.s, ONE, NV, ONE, NSNAN)
    TEST_F2(155, fmin.s, CNAN, 0, QNAN_P, NQNAN)        // both NaN: canonical NaN
    TEST_F2(156, fmax.s, CNAN, NV, SNAN, QNAN_P)
    TEST_F2(157, fmin.s, NINF, 0, NINF, QNAN_P)
    TEST_F2(158, fmax.s, THREE, 0, NQNAN, THREE)
    TEST_F2(159, fmin.s, MINS, 0, MINS, MINN)

    j pass

TEST_END

    .section .data
    .balign 16
fdata:
    .word 0x40490fdb, 0xc0000000, 0x7f800001, 0
fbuf:
    .space 16
