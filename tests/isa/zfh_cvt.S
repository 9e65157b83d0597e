/* Zfh scalar half precision, part 2: comparisons, fclass and conversions to and from binary32 and 32-bit
 * integers, with every rounding mode given statically and through frm (rm = dyn).
 *
 * Expected values follow the Zfh chapter of the RISC-V unprivileged specification, with the rules of
 * rv32f_cvt.S for comparisons, fclass and integer conversions; binary16 specifics:
 * - fcvt.s.h is exact (a binary16 subnormal is a binary32 normal); a NaN becomes the canonical binary32
 *   NaN, with NV for a signalling one;
 * - fcvt.h.s rounds: 65520 is the halfway point between 65504 and 65536 (overflow in RNE, RMM, RUP);
 *   tininess is detected after rounding, so 2^-14 - 2^-25 rounds up to 2^-14 in RNE and still
 *   underflows;
 * - every binary16 value fits a 32-bit integer (|x| <= 65504), so only infinities, NaNs and negative
 *   values for fcvt.wu.h saturate; integers of 65520 and more overflow binary16 in RNE;
 * - an operand that is not NaN-boxed reads as the canonical (quiet) NaN.
 * Values were worked out with exact rational arithmetic; QEMU, with Zfh enabled, checks them too.
 *
 * Each case clears fflags, runs, then checks the result and the flags it raised. frm is 0 (RNE) except
 * in the dynamic-rounding cases, which restore it.
 */
#include "fp16_test.h"

    .option arch, +zfh

TEST_BEGIN

    // ---- operands that are not NaN-boxed, dynamic rounding ------------------------------------------
    TEST_FPI(1, a0, 0, 0, FLI(f1, 0x00003c00); HLI(f2, H_ONE); feq.h a0, f1, f2)   // quiet NaN: no flag
    TEST_FPI(2, a0, 0, NV, FLI(f1, 0x00003c00); HLI(f2, H_ONE); flt.h a0, f2, f1)
    TEST_FPI(3, a0, 0x200, 0, FLI(f1, 0x00003c00); fclass.h a0, f1)                  // quiet NaN class
    TEST_FP(4, f0, CNAN, 0, FLI(f1, 0x7fff3c00); fcvt.s.h f0, f1)
    TEST_FPI(5, a0, 0x7fffffff, NV, FLI(f1, 0x00003c00); fcvt.w.h a0, f1)
    TEST_FPI(6, a0, 2, NX, HLI(f1, H_TWOP5); csrwi frm, 2; fcvt.w.h a0, f1; csrwi frm, 0)   // rdn
    TEST_FP(7, f0, BOX(0x6801), NX, li a1, 2049; csrwi frm, 3; fcvt.h.w f0, a1; csrwi frm, 0) // rup: 2050

    // ---- feq.h flt.h fle.h -------------------------------------------------------------------------------
    TEST_HCMP(8, feq.h, 1, 0, H_ONE, H_ONE)
    TEST_HCMP(9, feq.h, 0, 0, H_ONE, H_TWO)
    TEST_HCMP(10, feq.h, 1, 0, H_P0, H_N0) // +0 == -0
    TEST_HCMP(11, feq.h, 0, 0, H_QNAN_P, H_ONE) // quiet comparison: no flag for a quiet NaN
    TEST_HCMP(12, feq.h, 0, NV, H_SNAN, H_ONE)
    TEST_HCMP(13, flt.h, 1, 0, H_NONE, H_ONE)
    TEST_HCMP(14, flt.h, 0, 0, H_ONE, H_ONE)
    TEST_HCMP(15, flt.h, 0, 0, H_N0, H_P0) // -0 < +0 is false
    TEST_HCMP(16, flt.h, 0, NV, H_QNAN_P, H_ONE) // signalling comparison: NV for any NaN
    TEST_HCMP(17, flt.h, 1, 0, H_NINF, H_NMAX)
    TEST_HCMP(18, fle.h, 1, 0, H_ONE, H_ONE)
    TEST_HCMP(19, fle.h, 0, 0, H_TWO, H_ONE)
    TEST_HCMP(20, fle.h, 1, 0, H_N0, H_P0)
    TEST_HCMP(21, fle.h, 0, NV, H_ONE, H_CNAN)
    TEST_HCMP(22, fle.h, 1, 0, H_NMINS, H_MINS)

    // ---- fclass.h ----------------------------------------------------------------------------------------
    TEST_HCLASS(23, 0x001, H_NINF)
    TEST_HCLASS(24, 0x002, H_NONE)
    TEST_HCLASS(25, 0x004, H_NMINS)
    TEST_HCLASS(26, 0x008, H_N0)
    TEST_HCLASS(27, 0x010, H_P0)
    TEST_HCLASS(28, 0x020, H_MINS)
    TEST_HCLASS(29, 0x040, H_ONE)
    TEST_HCLASS(30, 0x080, H_PINF)
    TEST_HCLASS(31, 0x100, H_SNAN)
    TEST_HCLASS(32, 0x200, H_QNAN_P)

    // ---- fcvt.s.h: exact ---------------------------------------------------------------------------------
    TEST_FP(33, f0, 0x3f800000, 0, HLI(f1, H_ONE); fcvt.s.h f0, f1)
    TEST_FP(34, f0, 0xc0000000, 0, HLI(f1, H_NTWO); fcvt.s.h f0, f1)
    TEST_FP(35, f0, 0x477fe000, 0, HLI(f1, H_MAX); fcvt.s.h f0, f1)
    TEST_FP(36, f0, 0x33800000, 0, HLI(f1, H_MINS); fcvt.s.h f0, f1) // a subnormal becomes a normal 2^-24
    TEST_FP(37, f0, 0xb3800000, 0, HLI(f1, H_NMINS); fcvt.s.h f0, f1)
    TEST_FP(38, f0, 0x80000000, 0, HLI(f1, H_N0); fcvt.s.h f0, f1)
    TEST_FP(39, f0, 0xff800000, 0, HLI(f1, H_NINF); fcvt.s.h f0, f1)
    TEST_FP(40, f0, 0x7fc00000, 0, HLI(f1, H_QNAN_P); fcvt.s.h f0, f1) // NaN: canonical, payload dropped
    TEST_FP(41, f0, 0x7fc00000, NV, HLI(f1, H_SNAN); fcvt.s.h f0, f1) // signalling NaN: invalid
    TEST_FP(42, f0, 0x3eaaa000, 0, HLI(f1, 0x3555); fcvt.s.h f0, f1)

    // ---- fcvt.h.s: rounds --------------------------------------------------------------------------------
    TEST_FP(43, f0, BOX(H_ONE), 0, FLI(f1, 0x3f800000); fcvt.h.s f0, f1)
    TEST_FP(44, f0, BOX(0xc100), 0, FLI(f1, 0xc0200000); fcvt.h.s f0, f1)
    // 1/3 in binary32 to binary16, every mode
    TEST_FP(45, f0, BOX(0x3555), NX, FLI(f1, 0x3eaaaaab); fcvt.h.s f0, f1, rne)
    TEST_FP(46, f0, BOX(0x3555), NX, FLI(f1, 0x3eaaaaab); fcvt.h.s f0, f1, rtz)
    TEST_FP(47, f0, BOX(0x3555), NX, FLI(f1, 0x3eaaaaab); fcvt.h.s f0, f1, rdn)
    TEST_FP(48, f0, BOX(0x3556), NX, FLI(f1, 0x3eaaaaab); fcvt.h.s f0, f1, rup)
    TEST_FP(49, f0, BOX(0x3555), NX, FLI(f1, 0x3eaaaaab); fcvt.h.s f0, f1, rmm)
    // 65520 is halfway between 65504 and 65536: overflow in RNE/RMM/RUP
    TEST_FP(50, f0, BOX(H_PINF), OF | NX, FLI(f1, 0x477ff000); fcvt.h.s f0, f1, rne)
    TEST_FP(51, f0, BOX(H_MAX), NX, FLI(f1, 0x477ff000); fcvt.h.s f0, f1, rtz)
    TEST_FP(52, f0, BOX(H_MAX), NX, FLI(f1, 0x477ff000); fcvt.h.s f0, f1, rdn)
    TEST_FP(53, f0, BOX(H_PINF), OF | NX, FLI(f1, 0x477ff000); fcvt.h.s f0, f1, rup)
    TEST_FP(54, f0, BOX(H_PINF), OF | NX, FLI(f1, 0x477ff000); fcvt.h.s f0, f1, rmm)
    // below the halfway point: 65504, inexact
    TEST_FP(55, f0, BOX(H_MAX), NX, FLI(f1, 0x477fef00); fcvt.h.s f0, f1)
    TEST_FP(56, f0, BOX(H_NMAX), OF | NX, FLI(f1, 0xc9742400); fcvt.h.s f0, f1, rtz)
    TEST_FP(57, f0, BOX(H_MINS), 0, FLI(f1, 0x33800000); fcvt.h.s f0, f1) // smallest subnormal, exact
    // half of it: tie to even 0, underflow
    TEST_FP(58, f0, BOX(H_P0), UF | NX, FLI(f1, 0x33000000); fcvt.h.s f0, f1)
    TEST_FP(59, f0, BOX(H_MINS), UF | NX, FLI(f1, 0x33000000); fcvt.h.s f0, f1, rup)
    // 0.75 of the smallest subnormal: rounds up to it
    TEST_FP(60, f0, BOX(H_MINS), UF | NX, FLI(f1, 0x33400000); fcvt.h.s f0, f1)
    // just below 2^-14 ... rounds to 2^-14 but is tiny
    TEST_FP(61, f0, BOX(H_MINN), UF | NX, FLI(f1, 0x387fe000); fcvt.h.s f0, f1)
    TEST_FP(62, f0, BOX(H_MAXS), UF | NX, FLI(f1, 0x387fe000); fcvt.h.s f0, f1, rtz)
    TEST_FP(63, f0, BOX(H_PINF), 0, FLI(f1, 0x7f800000); fcvt.h.s f0, f1)
    TEST_FP(64, f0, BOX(H_CNAN), NV, FLI(f1, 0xff800001); fcvt.h.s f0, f1) // signalling NaN
    TEST_FP(65, f0, BOX(H_CNAN), 0, FLI(f1, 0x7fc12345); fcvt.h.s f0, f1) // quiet NaN: canonical binary16 NaN
    TEST_FP(66, f0, BOX(H_N0), 0, FLI(f1, 0x80000000); fcvt.h.s f0, f1)
    // binary32 subnormal: 0 with underflow
    TEST_FP(67, f0, BOX(H_P0), UF | NX, FLI(f1, 0x00000001); fcvt.h.s f0, f1)
    TEST_FP(68, f0, BOX(H_MINS), UF | NX, FLI(f1, 0x00000001); fcvt.h.s f0, f1, rup)

    // ---- fcvt.w.h fcvt.wu.h ------------------------------------------------------------------------------
    TEST_HCVT_I(69, fcvt.w.h, rne, 0x00000002, NX, H_TWOP5)
    TEST_HCVT_I(70, fcvt.w.h, rtz, 0x00000002, NX, H_TWOP5)
    TEST_HCVT_I(71, fcvt.w.h, rdn, 0x00000002, NX, H_TWOP5)
    TEST_HCVT_I(72, fcvt.w.h, rup, 0x00000003, NX, H_TWOP5)
    TEST_HCVT_I(73, fcvt.w.h, rmm, 0x00000003, NX, H_TWOP5)
    TEST_HCVT_I(74, fcvt.w.h, rne, 0xfffffffe, NX, 0xc100)
    TEST_HCVT_I(75, fcvt.w.h, rtz, 0xfffffffe, NX, 0xc100)
    TEST_HCVT_I(76, fcvt.w.h, rdn, 0xfffffffd, NX, 0xc100)
    TEST_HCVT_I(77, fcvt.w.h, rup, 0xfffffffe, NX, 0xc100)
    TEST_HCVT_I(78, fcvt.w.h, rmm, 0xfffffffd, NX, 0xc100)
    TEST_HCVT_I(79, fcvt.w.h, rne, 0x0000ffe0, 0, H_MAX)
    TEST_HCVT_I(80, fcvt.w.h, rne, 0xffff0020, 0, H_NMAX)
    TEST_HCVT_I(81, fcvt.w.h, rne, 0x7fffffff, NV, H_PINF) // saturates, invalid
    TEST_HCVT_I(82, fcvt.w.h, rne, 0x80000000, NV, H_NINF)
    TEST_HCVT_I(83, fcvt.w.h, rne, 0x7fffffff, NV, H_QNAN_P) // NaN gives the largest value
    TEST_HCVT_I(84, fcvt.w.h, rup, 0x00000001, NX, H_MINS)
    TEST_HCVT_I(85, fcvt.wu.h, rne, 0x0000ffe0, 0, H_MAX)
    TEST_HCVT_I(86, fcvt.wu.h, rne, 0x00000000, NV, H_NONE) // negative: saturates to 0, invalid
    TEST_HCVT_I(87, fcvt.wu.h, rne, 0x00000000, NX, 0xb400) // -0.25 rounds to 0: inexact only
    TEST_HCVT_I(88, fcvt.wu.h, rdn, 0x00000000, NV, 0xb800) // -0.5 rounds down to -1: invalid
    TEST_HCVT_I(89, fcvt.wu.h, rne, 0x00000000, NV, H_NINF)
    TEST_HCVT_I(90, fcvt.wu.h, rne, 0xffffffff, NV, H_SNAN)

    // ---- fcvt.h.w fcvt.h.wu ------------------------------------------------------------------------------
    TEST_HCVT_F(91, fcvt.h.w, rne, H_P0, 0, 0)
    TEST_HCVT_F(92, fcvt.h.w, rne, 0xc200, 0, -3)
    TEST_HCVT_F(93, fcvt.h.w, rne, 0x6800, NX, 2049) // 2049 is halfway between 2048 and 2050: even 2048
    TEST_HCVT_F(94, fcvt.h.w, rne, 0x6802, NX, 2051) // 2051: tie to even 2052
    // 65519 rounds to 65504 except upward; 65520 is the tie to 65536, an overflow
    TEST_HCVT_F(95, fcvt.h.w, rne, H_MAX, NX, 65519)
    TEST_HCVT_F(96, fcvt.h.w, rtz, H_MAX, NX, 65519)
    TEST_HCVT_F(97, fcvt.h.w, rdn, H_MAX, NX, 65519)
    TEST_HCVT_F(98, fcvt.h.w, rup, H_PINF, OF | NX, 65519)
    TEST_HCVT_F(99, fcvt.h.w, rmm, H_MAX, NX, 65519)
    TEST_HCVT_F(100, fcvt.h.w, rne, H_PINF, OF | NX, 65520)
    TEST_HCVT_F(101, fcvt.h.w, rtz, H_MAX, NX, 65520)
    TEST_HCVT_F(102, fcvt.h.w, rdn, H_MAX, NX, 65520)
    TEST_HCVT_F(103, fcvt.h.w, rup, H_PINF, OF | NX, 65520)
    TEST_HCVT_F(104, fcvt.h.w, rmm, H_PINF, OF | NX, 65520)
    TEST_HCVT_F(105, fcvt.h.w, rne, H_NINF, OF | NX, -2147483648)
    TEST_HCVT_F(106, fcvt.h.w, rtz, H_NMAX, OF | NX, -2147483648)
    TEST_HCVT_F(107, fcvt.h.wu, rne, H_PINF, OF | NX, -1)
    TEST_HCVT_F(108, fcvt.h.wu, rtz, H_MAX, OF | NX, -1)
    TEST_HCVT_F(109, fcvt.h.wu, rne, 0x63d0, 0, 1000)

    j pass

TEST_END
