/* Zfh scalar half precision, part 1: loads/stores and moves, NaN-boxing, arithmetic with every static
 * rounding mode and through frm, fused multiply-add (single rounding), sign injection and min/max.
 * Comparisons, fclass and conversions are in zfh_cvt.S.
 *
 * Expected values follow the Zfh chapter of the RISC-V unprivileged specification, which gives binary16
 * the rules of binary32 (see rv32f.S), with an 11-bit significand: 1 + 2^-11 is a tie between 1.0 and
 * 1 + 2^-10, the largest finite value is 65504 (0x7bff) and the overflow threshold in round-to-nearest
 * is 65520, the smallest normal 2^-14 (0x0400), the smallest subnormal 2^-24 (0x0001). With FLEN = 32:
 * - every half result is NaN-boxed (bits 31:16 all ones); the macros check the whole register;
 * - an operand that is not properly NaN-boxed reads as the canonical NaN 0x7e00 (quiet, so no NV),
 *   except in fsh and fmv.x.h, which move the low 16 bits unchanged; fmv.x.h sign-extends them and
 *   fmv.h.x and flh box them.
 * Values were worked out with exact rational arithmetic (and Python's struct 'e' for binary16
 * encodings); QEMU, with Zfh enabled, checks them too.
 *
 * Each case clears fflags, runs, then checks the result and the flags it raised. frm is 0 (RNE)
 * throughout, except in the one case that sets it and restores it.
 */
#include "fp16_test.h"

    .option arch, +zfh

TEST_BEGIN

    // ---- flh / fsh / fmv.x.h / fmv.h.x: bits move unchanged, no flags -------------------------------
    TEST_FP(1, f0, BOX(0x4248), 0, la a1, hdata; flh f0, 0(a1))      // 3.140625, boxed
    TEST_FP(2, f0, BOX(H_NTWO), 0, la a1, hdata + 4; flh f0, -2(a1))
    TEST_FP(3, f0, BOX(H_SNAN), 0, la a1, hdata; flh f0, 4(a1))      // a signalling NaN stays as is
    TEST_FPI(4, a0, 0x3c005678, 0, li t0, 0x12345678; la a1, hbuf; sw t0, 0(a1); HLI(f1, H_ONE);
             fsh f1, 2(a1); lw a0, 0(a1))                             // only the addressed half changes
    TEST_FPI(5, a0, 0xfe55, 0, FLI(f1, 0x1234fe55); la a1, hbuf; fsh f1, 0(a1); lhu a0, 0(a1)) // unboxed
    TEST_FPI(6, a0, H_NMINS, 0, la a1, hdata; flh f1, 6(a1); la a2, hbuf; fsh f1, 4(a2); lhu a0, 4(a2))
    TEST_FPI(7, a0, 0xffffbc00, 0, HLI(f1, H_NONE); fmv.x.h a0, f1) // sign-extended
    TEST_FPI(8, a0, H_MAX, 0, HLI(f1, H_MAX); fmv.x.h a0, f1)
    TEST_FPI(9, a0, 0xffffbc00, 0, FLI(f1, 0x0000bc00); fmv.x.h a0, f1) // boxing not checked
    TEST_FP(10, f0, BOX(H_ONE), 0, li a1, 0x12343c00; fmv.h.x f0, a1) // the low half, boxed
    TEST_FP(11, f0, BOX(H_SNAN), 0, li a1, H_SNAN; fmv.h.x f0, a1)

    // ---- operands that are not NaN-boxed read as the canonical NaN -----------------------------------
    TEST_FP(12, f0, BOX(H_CNAN), 0, FLI(f1, 0x00003c00); HLI(f2, H_ONE); fadd.h f0, f1, f2)
    TEST_FP(13, f0, BOX(H_CNAN), 0, FLI(f1, 0xfffe3c00); HLI(f2, H_ONE); fadd.h f0, f1, f2) // one bit off
    TEST_FP(14, f0, BOX(H_CNAN), 0, HLI(f1, H_ONE); FLI(f2, 0x7fff4000); fmul.h f0, f1, f2)
    TEST_FP(15, f0, BOX(0xfe00), 0, FLI(f1, 0x00003c00); HLI(f2, H_NTWO); fsgnj.h f0, f1, f2)
    TEST_FP(16, f0, BOX(H_NONE), 0, HLI(f1, H_ONE); FLI(f2, 0x0000bc00); fsgnjn.h f0, f1, f2) // +NaN's sign
    TEST_FP(17, f0, BOX(H_TWO), 0, FLI(f1, 0x00000000); HLI(f2, H_TWO); fmin.h f0, f1, f2) // a quiet NaN
    TEST_FP(18, f0, BOX(H_CNAN), 0, HLI(f1, H_ONE); HLI(f2, H_ONE); FLI(f3, 0x00003c00);
            fmadd.h f0, f1, f2, f3)                                   // unboxed addend

    // ---- dynamic rounding: rm = dyn takes frm ---------------------------------------------------------
    TEST_FP(19, f0, BOX(H_ONE_ULP), NX, HLI(f1, H_ONE); HLI(f2, H_EPS11); csrwi frm, 3; fadd.h f0, f1, f2;
            csrwi frm, 0)                                             // round up

    // ---- fadd.h ------------------------------------------------------------------------------------------
    TEST_H2(20, fadd.h, H_THREE, 0, H_ONE, H_TWO)
    TEST_H2(21, fadd.h, H_FOUR, 0, H_ONEP5, H_TWOP5)
    TEST_H2(22, fadd.h, H_P0, 0, H_ONE, H_NONE) // exact zero sum of opposite signs: +0 ...
    TEST_H2RM(23, fadd.h, rdn, H_N0, 0, H_ONE, H_NONE) // ... -0 when rounding down
    TEST_H2(24, fadd.h, H_N0, 0, H_N0, H_N0)
    TEST_H2(25, fadd.h, H_P0, 0, H_P0, H_N0)
    TEST_H2RM(26, fadd.h, rdn, H_N0, 0, H_P0, H_N0)
    TEST_H2(27, fadd.h, H_CNAN, NV, H_PINF, H_NINF) // inf - inf is invalid
    TEST_H2(28, fadd.h, H_PINF, 0, H_PINF, H_MAX)
    // 65504 + 65504 overflows: inf or the largest finite value by direction
    TEST_H2RM(29, fadd.h, rne, H_PINF, OF | NX, H_MAX, H_MAX)
    TEST_H2RM(30, fadd.h, rtz, H_MAX, OF | NX, H_MAX, H_MAX)
    TEST_H2RM(31, fadd.h, rdn, H_MAX, OF | NX, H_MAX, H_MAX)
    TEST_H2RM(32, fadd.h, rup, H_PINF, OF | NX, H_MAX, H_MAX)
    TEST_H2RM(33, fadd.h, rmm, H_PINF, OF | NX, H_MAX, H_MAX)
    TEST_H2RM(34, fadd.h, rup, H_NMAX, OF | NX, H_NMAX, H_NMAX)
    TEST_H2RM(35, fadd.h, rdn, H_NINF, OF | NX, H_NMAX, H_NMAX)
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10
    TEST_H2RM(36, fadd.h, rne, H_ONE, NX, H_ONE, H_EPS11)
    TEST_H2RM(37, fadd.h, rtz, H_ONE, NX, H_ONE, H_EPS11)
    TEST_H2RM(38, fadd.h, rdn, H_ONE, NX, H_ONE, H_EPS11)
    TEST_H2RM(39, fadd.h, rup, H_ONE_ULP, NX, H_ONE, H_EPS11)
    TEST_H2RM(40, fadd.h, rmm, H_ONE_ULP, NX, H_ONE, H_EPS11)
    // -1 - 2^-11: the same tie, negative
    TEST_H2RM(41, fadd.h, rne, H_NONE, NX, H_NONE, H_NEPS11)
    TEST_H2RM(42, fadd.h, rtz, H_NONE, NX, H_NONE, H_NEPS11)
    TEST_H2RM(43, fadd.h, rdn, 0xbc01, NX, H_NONE, H_NEPS11)
    TEST_H2RM(44, fadd.h, rup, H_NONE, NX, H_NONE, H_NEPS11)
    TEST_H2RM(45, fadd.h, rmm, 0xbc01, NX, H_NONE, H_NEPS11)
    TEST_H2(46, fadd.h, 0x3c02, NX, H_ONE_ULP, H_EPS11) // tie between odd 1 + 2^-10 and even 1 + 2^-9: up
    TEST_H2(47, fadd.h, H_ONE_ULP, NX, H_ONE, 0x1200) // 1 + 0.75 ulp rounds up
    // 65504 + 16 = 65520: the tie rounds to even 65536, overflow
    TEST_H2(48, fadd.h, H_PINF, OF | NX, H_MAX, 0x4c00)
    TEST_H2(49, fadd.h, H_MAX, NX, H_MAX, 0x4bff) // 65504 + 15.99: below the tie, stays 65504
    TEST_H2(50, fadd.h, H_CNAN, NV, H_SNAN, H_ONE) // signalling NaN: invalid, canonical NaN
    TEST_H2(51, fadd.h, H_CNAN, 0, H_ONE, H_QNAN_P) // quiet NaN: no flag, payload dropped
    TEST_H2(52, fadd.h, H_CNAN, NV, H_NQNAN, H_NSNAN)
    TEST_H2(53, fadd.h, 0x0002, 0, H_MINS, H_MINS) // exact subnormal sum: no flags
    TEST_H2(54, fadd.h, H_MAXS, 0, H_MINN, H_NMINS) // normal minus subnormal: largest subnormal, exact
    TEST_H2(55, fadd.h, 0x3955, 0, 0x3555, 0x3555) // 1/3 + 1/3 exact in binary16

    // ---- fsub.h ------------------------------------------------------------------------------------------
    TEST_H2(56, fsub.h, H_TWO, 0, H_THREE, H_ONE)
    TEST_H2(57, fsub.h, H_NTWO, 0, H_ONE, H_THREE)
    TEST_H2(58, fsub.h, H_CNAN, NV, H_PINF, H_PINF)
    TEST_H2(59, fsub.h, H_P0, 0, H_ONE, H_ONE)
    TEST_H2RM(60, fsub.h, rdn, H_N0, 0, H_ONE, H_ONE)
    // 1 - 2^-12 lies halfway between 1 - 2^-11 (odd) and 1
    TEST_H2RM(61, fsub.h, rne, H_ONE, NX, H_ONE, 0x0c00)
    TEST_H2RM(62, fsub.h, rtz, 0x3bff, NX, H_ONE, 0x0c00)
    TEST_H2RM(63, fsub.h, rdn, 0x3bff, NX, H_ONE, 0x0c00)
    TEST_H2RM(64, fsub.h, rup, H_ONE, NX, H_ONE, 0x0c00)
    TEST_H2RM(65, fsub.h, rmm, H_ONE, NX, H_ONE, 0x0c00)
    TEST_H2(66, fsub.h, 0x0002, 0, H_MINN, 0x03fe) // 2^-14 - (2^-14 - 2^-23) = 2^-23, exact

    // ---- fmul.h ------------------------------------------------------------------------------------------
    TEST_H2(67, fmul.h, 0x4640, 0, H_TWOP5, H_TWOP5)
    TEST_H2(68, fmul.h, 0xc600, 0, H_NTWO, H_THREE)
    TEST_H2(69, fmul.h, H_N0, 0, H_N0, H_THREE)
    TEST_H2(70, fmul.h, H_CNAN, NV, H_PINF, H_P0) // inf * 0 is invalid
    TEST_H2(71, fmul.h, H_NINF, 0, H_NINF, H_TWO)
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: just above a representable value
    TEST_H2RM(72, fmul.h, rne, 0x3c02, NX, H_ONE_ULP, H_ONE_ULP)
    TEST_H2RM(73, fmul.h, rtz, 0x3c02, NX, H_ONE_ULP, H_ONE_ULP)
    TEST_H2RM(74, fmul.h, rdn, 0x3c02, NX, H_ONE_ULP, H_ONE_ULP)
    TEST_H2RM(75, fmul.h, rup, 0x3c03, NX, H_ONE_ULP, H_ONE_ULP)
    TEST_H2RM(76, fmul.h, rmm, 0x3c02, NX, H_ONE_ULP, H_ONE_ULP)
    // 256 * 256 = 65536 overflows
    TEST_H2RM(77, fmul.h, rne, H_PINF, OF | NX, 0x5c00, 0x5c00)
    TEST_H2RM(78, fmul.h, rtz, H_MAX, OF | NX, 0x5c00, 0x5c00)
    TEST_H2RM(79, fmul.h, rdn, H_MAX, OF | NX, 0x5c00, 0x5c00)
    TEST_H2RM(80, fmul.h, rup, H_PINF, OF | NX, 0x5c00, 0x5c00)
    TEST_H2RM(81, fmul.h, rmm, H_PINF, OF | NX, 0x5c00, 0x5c00)
    // 2^-24 * 0.5: half the smallest subnormal, tiny and inexact in every mode
    TEST_H2RM(82, fmul.h, rne, H_P0, UF | NX, H_MINS, H_HALF)
    TEST_H2RM(83, fmul.h, rtz, H_P0, UF | NX, H_MINS, H_HALF)
    TEST_H2RM(84, fmul.h, rdn, H_P0, UF | NX, H_MINS, H_HALF)
    TEST_H2RM(85, fmul.h, rup, H_MINS, UF | NX, H_MINS, H_HALF)
    TEST_H2RM(86, fmul.h, rmm, H_MINS, UF | NX, H_MINS, H_HALF)
    TEST_H2(87, fmul.h, 0x0002, UF | NX, H_MINS, 0x3e00) // 2^-24 * 1.5 = 1.5 ulp: rounds to 2 ulp, underflow
    TEST_H2(88, fmul.h, 0x0200, 0, H_MINN, H_HALF) // 2^-15: exact subnormal, no flags
    // (2^-14 - 2^-24) * (1 + 2^-10): tiny before rounding; rounds to 2^-14 only when rounding up
    TEST_H2RM(89, fmul.h, rne, H_MINN, NX, H_MAXS, H_ONE_ULP)
    TEST_H2RM(90, fmul.h, rtz, H_MAXS, UF | NX, H_MAXS, H_ONE_ULP)
    TEST_H2RM(91, fmul.h, rdn, H_MAXS, UF | NX, H_MAXS, H_ONE_ULP)
    TEST_H2RM(92, fmul.h, rup, H_MINN, NX, H_MAXS, H_ONE_ULP)
    TEST_H2RM(93, fmul.h, rmm, H_MINN, NX, H_MAXS, H_ONE_ULP)
    // 0x3bff * 0x0400 = (1 - 2^-11) * 2^-14: halfway below 2^-14; tininess after rounding
    TEST_H2RM(94, fmul.h, rne, H_MINN, UF | NX, 0x3bff, H_MINN)
    TEST_H2RM(95, fmul.h, rtz, H_MAXS, UF | NX, 0x3bff, H_MINN)
    TEST_H2RM(96, fmul.h, rdn, H_MAXS, UF | NX, 0x3bff, H_MINN)
    TEST_H2RM(97, fmul.h, rup, H_MINN, UF | NX, 0x3bff, H_MINN)
    TEST_H2RM(98, fmul.h, rmm, H_MINN, UF | NX, 0x3bff, H_MINN)
    TEST_H2(99, fmul.h, H_CNAN, NV, H_SNAN, H_P0)

    // ---- fdiv.h ------------------------------------------------------------------------------------------
    TEST_H2RM(100, fdiv.h, rne, 0x3555, NX, H_ONE, H_THREE)
    TEST_H2RM(101, fdiv.h, rtz, 0x3555, NX, H_ONE, H_THREE)
    TEST_H2RM(102, fdiv.h, rdn, 0x3555, NX, H_ONE, H_THREE)
    TEST_H2RM(103, fdiv.h, rup, 0x3556, NX, H_ONE, H_THREE)
    TEST_H2RM(104, fdiv.h, rmm, 0x3555, NX, H_ONE, H_THREE)
    TEST_H2(105, fdiv.h, H_TWO, 0, H_SIX, H_THREE) // exact
    TEST_H2(106, fdiv.h, H_PINF, DZ, H_ONE, H_P0) // division by zero
    TEST_H2(107, fdiv.h, H_NINF, DZ, H_NONE, H_P0)
    TEST_H2(108, fdiv.h, H_CNAN, NV, H_P0, H_P0) // 0/0 invalid
    TEST_H2(109, fdiv.h, H_CNAN, NV, H_PINF, H_NINF) // inf/inf invalid
    TEST_H2(110, fdiv.h, H_N0, 0, H_ONE, H_NINF)
    TEST_H2(111, fdiv.h, H_PINF, OF | NX, H_MAX, H_HALF) // overflow
    TEST_H2(112, fdiv.h, H_P0, UF | NX, H_MINS, H_FOUR) // 2^-26: underflows to zero
    TEST_H2(113, fdiv.h, H_CNAN, 0, H_QNAN_P, H_P0) // quiet NaN: no DZ

    // ---- fsqrt.h -----------------------------------------------------------------------------------------
    TEST_H1RM(114, fsqrt.h, rne, 0x3da8, NX, H_TWO)
    TEST_H1RM(115, fsqrt.h, rtz, 0x3da8, NX, H_TWO)
    TEST_H1RM(116, fsqrt.h, rdn, 0x3da8, NX, H_TWO)
    TEST_H1RM(117, fsqrt.h, rup, 0x3da9, NX, H_TWO)
    TEST_H1RM(118, fsqrt.h, rmm, 0x3da8, NX, H_TWO)
    TEST_H1(119, fsqrt.h, H_TWO, 0, 0x4400) // sqrt(4) = 2, exact
    TEST_H1(120, fsqrt.h, H_N0, 0, H_N0) // sqrt(-0) = -0
    TEST_H1(121, fsqrt.h, H_CNAN, NV, H_NONE) // negative: invalid
    TEST_H1(122, fsqrt.h, H_PINF, 0, H_PINF)
    TEST_H1(123, fsqrt.h, H_CNAN, NV, H_NINF)
    TEST_H1(124, fsqrt.h, 0x1400, 0, 0x0010) // sqrt(2^-20) = 2^-10: subnormal operand, exact
    TEST_H1(125, fsqrt.h, 0x1fff, NX, H_MAXS)
    TEST_H1(126, fsqrt.h, H_CNAN, NV, H_SNAN)

    // ---- fmadd.h fmsub.h fnmsub.h fnmadd.h ---------------------------------------------------------------
    TEST_H3(127, fmadd.h, 0x4700, 0, H_TWO, H_THREE, H_ONE)
    TEST_H3(128, fmsub.h, 0x4500, 0, H_TWO, H_THREE, H_ONE)
    TEST_H3(129, fnmsub.h, 0xc500, 0, H_TWO, H_THREE, H_ONE)
    TEST_H3(130, fnmadd.h, 0xc700, 0, H_TWO, H_THREE, H_ONE)
    // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly: a separate multiply would have rounded it away
    TEST_H3(131, fmsub.h, 0x0010, 0, H_ONE_ULP, H_ONE_ULP, 0x3c02)
    TEST_H3(132, fmadd.h, 0x0010, 0, H_ONE_ULP, H_ONE_ULP, 0xbc02)
    // 1 * 1 + 2^-11: the tie of the addition, rounded once by mode
    TEST_H3RM(133, fmadd.h, rne, H_ONE, NX, H_ONE, H_ONE, H_EPS11)
    TEST_H3RM(134, fmadd.h, rtz, H_ONE, NX, H_ONE, H_ONE, H_EPS11)
    TEST_H3RM(135, fmadd.h, rdn, H_ONE, NX, H_ONE, H_ONE, H_EPS11)
    TEST_H3RM(136, fmadd.h, rup, H_ONE_ULP, NX, H_ONE, H_ONE, H_EPS11)
    TEST_H3RM(137, fmadd.h, rmm, H_ONE_ULP, NX, H_ONE, H_ONE, H_EPS11)
    TEST_H3(138, fmadd.h, H_P0, 0, H_ONE, H_NONE, H_ONE) // exact zero: +0
    TEST_H3RM(139, fmadd.h, rdn, H_N0, 0, H_ONE, H_NONE, H_ONE)
    TEST_H3(140, fmadd.h, H_CNAN, NV, H_PINF, H_P0, H_QNAN_P) // inf * 0 invalid even with a quiet NaN addend
    TEST_H3(141, fmadd.h, H_CNAN, NV, H_PINF, H_ONE, H_NINF) // inf - inf invalid
    TEST_H3(142, fmadd.h, H_MAX, 0, H_MAX, H_TWO, H_NMAX) // intermediate beyond the range, result 65504 exact
    TEST_H3(143, fnmadd.h, H_CNAN, NV, H_SNAN, H_ONE, H_ONE)
    TEST_H3(144, fmadd.h, H_P0, UF | NX, H_MINS, H_HALF, H_P0) // product rounded once: 2^-25 underflows

    // ---- fsgnj.h fsgnjn.h fsgnjx.h -----------------------------------------------------------------------
    TEST_H2(145, fsgnj.h, H_NONE, 0, H_ONE, H_NTWO)
    TEST_H2(146, fsgnj.h, H_ONE, 0, H_NONE, H_TWO)
    TEST_H2(147, fsgnjn.h, H_ONE, 0, H_ONE, H_NTWO)
    TEST_H2(148, fsgnjn.h, H_NONE, 0, H_ONE, H_TWO)
    TEST_H2(149, fsgnjx.h, H_ONE, 0, H_NONE, H_NTWO)
    TEST_H2(150, fsgnjx.h, 0xfc01, 0, H_SNAN, H_NTWO) // NaNs move unchanged, no flags

    // ---- fmin.h fmax.h -----------------------------------------------------------------------------------
    TEST_H2(151, fmin.h, H_ONE, 0, H_ONE, H_TWO)
    TEST_H2(152, fmin.h, H_NONE, 0, H_NONE, H_TWO)
    TEST_H2(153, fmax.h, H_TWO, 0, H_NONE, H_TWO)
    TEST_H2(154, fmin.h, H_N0, 0, H_P0, H_N0) // -0 is below +0
    TEST_H2(155, fmax.h, H_P0, 0, H_N0, H_P0)
    TEST_H2(156, fmin.h, H_THREE, 0, H_QNAN_P, H_THREE) // one NaN: the other operand
    TEST_H2(157, fmax.h, H_THREE, NV, H_THREE, H_SNAN) // ... and NV for a signalling one
    TEST_H2(158, fmin.h, H_CNAN, NV, H_SNAN, H_QNAN_P) // both NaN: canonical NaN
    TEST_H2(159, fmax.h, H_MAX, 0, H_NINF, H_MAX)

    // ---- more fused multiply-adds: signed zeros, overflow, ties and underflow by mode -------------------
    TEST_H3RM(160, fmsub.h, rdn, H_N0, 0, H_ONE, H_ONE, H_ONE) // 1*1 - 1: -0 rounding down
    TEST_H3(161, fnmsub.h, H_P0, 0, H_TWO, H_THREE, H_SIX) // -(2*3) + 6 = +0
    TEST_H3RM(162, fnmsub.h, rdn, H_N0, 0, H_TWO, H_THREE, H_SIX)
    TEST_H3(163, fnmadd.h, H_P0, 0, H_ONE, H_ONE, H_NONE) // -(1*1) + 1 = +0
    TEST_H3(164, fnmadd.h, H_NINF, OF | NX, H_MAX, H_TWO, H_MAX) // -(65504*2) - 65504 overflows
    TEST_H3RM(165, fnmadd.h, rtz, H_NMAX, OF | NX, H_MAX, H_TWO, H_MAX)
    TEST_H3RM(166, fmsub.h, rup, H_ONE, NX, H_ONE, H_ONE, 0x0c00) // 1 - 2^-12, the tie, upward and downward
    TEST_H3RM(167, fmsub.h, rdn, 0x3bff, NX, H_ONE, H_ONE, 0x0c00)
    // -(2^-25) + 0 underflows: -0 in RNE, -2^-24 down
    TEST_H3(168, fnmsub.h, H_N0, UF | NX, H_MINS, H_HALF, H_P0)
    TEST_H3RM(169, fnmsub.h, rdn, H_NMINS, UF | NX, H_MINS, H_HALF, H_P0)
    TEST_H3(170, fnmadd.h, H_CNAN, 0, H_QNAN_P, H_ONE, H_ONE) // quiet NaN: no flag

    j pass

TEST_END

    .section .data
    .balign 16
hdata:
    .half 0x4248, 0xc000, 0x7c01, 0x8001
hbuf:
    .space 16
