/* RV32F comparisons, fclass and conversions between single precision and 32-bit integers, with every
 * rounding mode given statically and through frm (rm = dyn).
 *
 * Expected values follow the F chapter of the RISC-V unprivileged specification and IEEE 754-2008:
 * - feq is a quiet comparison (NV only for a signaling NaN); flt and fle signal NV for any NaN; a
 *   comparison with a NaN is false; -0 == +0;
 * - fclass sets exactly one of ten bits (-inf, -normal, -subnormal, -0, +0, +subnormal, +normal, +inf,
 *   sNaN, qNaN);
 * - float-to-integer conversions of out-of-range values and NaNs saturate and raise NV (a NaN gives the
 *   largest integer, whatever its sign); an in-range inexact conversion raises NX; -0.5 truncated to an
 *   unsigned integer is 0 and only inexact, but rounded down it is -1, out of range;
 * - integer-to-float conversions round like arithmetic and never produce -0.
 *
 * Each case clears fflags, runs, then checks the result and the flags it raised. frm is 0 (RNE) except
 * in the dynamic-rounding section, which leaves it 0 again.
 */
#include "fp_test.h"

TEST_BEGIN

    // ---- feq / flt / fle -----------------------------------------------------------------------------
    TEST_FCMP(1, feq.s, 1, 0, ONE, ONE)
    TEST_FCMP(2, feq.s, 0, 0, ONE, TWO)
    TEST_FCMP(3, feq.s, 1, 0, P0, N0)                 // +0 == -0
    TEST_FCMP(4, feq.s, 0, 0, QNAN_P, ONE)            // quiet comparison: no NV for a qNaN
    TEST_FCMP(5, feq.s, 0, 0, CNAN, CNAN)
    TEST_FCMP(6, feq.s, 0, NV, SNAN, ONE)
    TEST_FCMP(7, flt.s, 1, 0, ONE, TWO)
    TEST_FCMP(8, flt.s, 0, 0, TWO, ONE)
    TEST_FCMP(9, flt.s, 0, 0, ONE, ONE)
    TEST_FCMP(10, flt.s, 0, 0, N0, P0)
    TEST_FCMP(11, flt.s, 1, 0, NINF, PINF)
    TEST_FCMP(12, flt.s, 1, 0, MINS, 0x00000002)
    TEST_FCMP(13, flt.s, 1, 0, NTWO, NONE)
    TEST_FCMP(14, flt.s, 0, NV, QNAN_P, ONE)           // signaling comparison: NV for any NaN
    TEST_FCMP(15, flt.s, 0, NV, ONE, CNAN)
    TEST_FCMP(16, fle.s, 1, 0, TWO, TWO)
    TEST_FCMP(17, fle.s, 1, 0, N0, P0)
    TEST_FCMP(18, fle.s, 0, 0, THREE, TWO)
    TEST_FCMP(19, fle.s, 1, 0, NTWO, NONE)
    TEST_FCMP(20, fle.s, 0, NV, CNAN, ONE)
    TEST_FCMP(21, fle.s, 0, NV, ONE, SNAN)

    // ---- fclass: one bit per class -------------------------------------------------------------------
    TEST_FCLASS(22, 0x001, NINF)
    TEST_FCLASS(23, 0x002, NONE)                       // negative normal
    TEST_FCLASS(24, 0x004, 0x807fffff)                 // negative subnormal
    TEST_FCLASS(25, 0x008, N0)
    TEST_FCLASS(26, 0x010, P0)
    TEST_FCLASS(27, 0x020, MINS)                       // positive subnormal
    TEST_FCLASS(28, 0x040, ONE)                        // positive normal
    TEST_FCLASS(29, 0x080, PINF)
    TEST_FCLASS(30, 0x100, SNAN)
    TEST_FCLASS(31, 0x200, CNAN)
    TEST_FCLASS(32, 0x100, NSNAN)                      // the sign does not matter for NaNs
    TEST_FCLASS(33, 0x200, NQNAN)
    TEST_FCLASS(34, 0x040, MINN)
    TEST_FCLASS(35, 0x002, NMAXF)

    // ---- fcvt.w.s: every rounding mode, saturation, NaN ----------------------------------------------
    TEST_FCVT_I(36, fcvt.w.s, rne, 2, NX, TWOP5)       // tie to even
    TEST_FCVT_I(37, fcvt.w.s, rtz, 2, NX, TWOP5)
    TEST_FCVT_I(38, fcvt.w.s, rdn, 2, NX, TWOP5)
    TEST_FCVT_I(39, fcvt.w.s, rup, 3, NX, TWOP5)
    TEST_FCVT_I(40, fcvt.w.s, rmm, 3, NX, TWOP5)       // tie away from zero
    TEST_FCVT_I(41, fcvt.w.s, rne, -2, NX, NTWOP5)
    TEST_FCVT_I(42, fcvt.w.s, rtz, -2, NX, NTWOP5)
    TEST_FCVT_I(43, fcvt.w.s, rdn, -3, NX, NTWOP5)
    TEST_FCVT_I(44, fcvt.w.s, rup, -2, NX, NTWOP5)
    TEST_FCVT_I(45, fcvt.w.s, rmm, -3, NX, NTWOP5)
    TEST_FCVT_I(46, fcvt.w.s, rne, 2, NX, ONEP5)       // tie to even rounds up here
    TEST_FCVT_I(47, fcvt.w.s, rne, -2, NX, NONEP5)
    TEST_FCVT_I(48, fcvt.w.s, rne, 4, NX, THREEP5)
    TEST_FCVT_I(49, fcvt.w.s, rtz, 1, NX, ONEP5)
    TEST_FCVT_I(50, fcvt.w.s, rne, 0, NX, NHALF)
    TEST_FCVT_I(51, fcvt.w.s, rdn, -1, NX, NHALF)
    TEST_FCVT_I(52, fcvt.w.s, rmm, -1, NX, NHALF)
    TEST_FCVT_I(53, fcvt.w.s, rup, 0, NX, NHALF)
    TEST_FCVT_I(54, fcvt.w.s, rtz, 3, 0, THREE)        // exact: no flags
    TEST_FCVT_I(55, fcvt.w.s, rtz, 0, 0, N0)
    TEST_FCVT_I(56, fcvt.w.s, rup, 1, NX, MINS)
    TEST_FCVT_I(57, fcvt.w.s, rdn, -1, NX, NMINS)
    TEST_FCVT_I(58, fcvt.w.s, rtz, 0x80000000, 0, N2_31)   // -2^31 is in range
    TEST_FCVT_I(59, fcvt.w.s, rtz, 0x7fffff80, 0, 0x4effffff) // largest float below 2^31
    TEST_FCVT_I(60, fcvt.w.s, rtz, 0x7fffffff, NV, P2_31)  // 2^31 saturates
    TEST_FCVT_I(61, fcvt.w.s, rtz, 0x80000000, NV, 0xcf000001) // just below -2^31
    TEST_FCVT_I(62, fcvt.w.s, rne, 0x7fffffff, NV, F3E9)
    TEST_FCVT_I(63, fcvt.w.s, rne, 0x80000000, NV, NF3E9)
    TEST_FCVT_I(64, fcvt.w.s, rne, 0x7fffffff, NV, PINF)
    TEST_FCVT_I(65, fcvt.w.s, rne, 0x80000000, NV, NINF)
    TEST_FCVT_I(66, fcvt.w.s, rne, 0x7fffffff, NV, CNAN)   // NaN -> 2^31 - 1, whatever its sign
    TEST_FCVT_I(67, fcvt.w.s, rne, 0x7fffffff, NV, NQNAN)
    TEST_FCVT_I(68, fcvt.w.s, rne, 0x7fffffff, NV, SNAN)

    // ---- fcvt.wu.s -----------------------------------------------------------------------------------
    TEST_FCVT_I(69, fcvt.wu.s, rtz, 0xb2d05e00, 0, F3E9)
    TEST_FCVT_I(70, fcvt.wu.s, rtz, 0xffffff00, 0, 0x4f7fffff)
    TEST_FCVT_I(71, fcvt.wu.s, rne, 2, NX, TWOP5)
    TEST_FCVT_I(72, fcvt.wu.s, rup, 3, NX, TWOP5)
    TEST_FCVT_I(73, fcvt.wu.s, rmm, 3, NX, TWOP5)
    TEST_FCVT_I(74, fcvt.wu.s, rdn, 2, NX, TWOP5)
    TEST_FCVT_I(75, fcvt.wu.s, rtz, 0, NV, NONE)       // negative: out of range
    TEST_FCVT_I(76, fcvt.wu.s, rtz, 0, NX, NHALF)      // -0.5 truncates to 0: in range, only inexact
    TEST_FCVT_I(77, fcvt.wu.s, rne, 0, NX, NHALF)
    TEST_FCVT_I(78, fcvt.wu.s, rdn, 0, NV, NHALF)      // -0.5 rounds down to -1: out of range
    TEST_FCVT_I(79, fcvt.wu.s, rmm, 0, NV, NHALF)
    TEST_FCVT_I(80, fcvt.wu.s, rtz, 0, 0, N0)
    TEST_FCVT_I(81, fcvt.wu.s, rtz, 0xffffffff, NV, P2_32)
    TEST_FCVT_I(82, fcvt.wu.s, rtz, 0xffffffff, NV, PINF)
    TEST_FCVT_I(83, fcvt.wu.s, rtz, 0, NV, NINF)
    TEST_FCVT_I(84, fcvt.wu.s, rtz, 0xffffffff, NV, CNAN)
    TEST_FCVT_I(85, fcvt.wu.s, rtz, 0xffffffff, NV, NQNAN)
    TEST_FCVT_I(86, fcvt.wu.s, rtz, 0x80000000, 0, P2_31)

    // ---- fcvt.s.w / fcvt.s.wu ------------------------------------------------------------------------
    TEST_FCVT_F(87, fcvt.s.w, rne, ONE, 0, 1)
    TEST_FCVT_F(88, fcvt.s.w, rne, NONE, 0, -1)
    TEST_FCVT_F(89, fcvt.s.w, rne, P0, 0, 0)           // +0, never -0
    TEST_FCVT_F(90, fcvt.s.w, rne, N2_31, 0, 0x80000000)
    // 2^31 - 1 lies between 0x4effffff (2^31 - 128) and 2^31, nearer 2^31
    TEST_FCVT_F(91, fcvt.s.w, rne, P2_31, NX, 0x7fffffff)
    TEST_FCVT_F(92, fcvt.s.w, rtz, 0x4effffff, NX, 0x7fffffff)
    TEST_FCVT_F(93, fcvt.s.w, rdn, 0x4effffff, NX, 0x7fffffff)
    TEST_FCVT_F(94, fcvt.s.w, rup, P2_31, NX, 0x7fffffff)
    // 2^24 + 1: a tie between 2^24 (even) and 2^24 + 2
    TEST_FCVT_F(95, fcvt.s.w, rne, 0x4b800000, NX, 16777217)
    TEST_FCVT_F(96, fcvt.s.w, rmm, 0x4b800001, NX, 16777217)
    TEST_FCVT_F(97, fcvt.s.w, rup, 0x4b800001, NX, 16777217)
    TEST_FCVT_F(98, fcvt.s.w, rdn, 0xcb800001, NX, -16777217)
    TEST_FCVT_F(99, fcvt.s.w, rtz, 0xcb800000, NX, -16777217)
    TEST_FCVT_F(100, fcvt.s.w, rne, 0x4b800002, NX, 16777219) // tie to the even 2^24 + 4
    TEST_FCVT_F(101, fcvt.s.wu, rne, P2_32, NX, 0xffffffff) // 2^32 - 1 rounds to 2^32 ...
    TEST_FCVT_F(102, fcvt.s.wu, rtz, 0x4f7fffff, NX, 0xffffffff) // ... or down to 2^32 - 256
    TEST_FCVT_F(103, fcvt.s.wu, rdn, 0x4f7fffff, NX, 0xffffffff)
    TEST_FCVT_F(104, fcvt.s.wu, rup, P2_32, NX, 0xffffffff)
    TEST_FCVT_F(105, fcvt.s.wu, rne, P2_31, 0, 0x80000000)  // unsigned: +2^31, not -2^31
    TEST_FCVT_F(106, fcvt.s.wu, rne, F3E9, 0, 0xb2d05e00)
    TEST_FCVT_F(107, fcvt.s.wu, rmm, 0x4b800001, NX, 16777217)
    TEST_FCVT_F(108, fcvt.s.wu, rne, 0x4b800000, NX, 16777217)
    TEST_FCVT_F(109, fcvt.s.wu, rne, P0, 0, 0)

    // ---- dynamic rounding (rm = dyn): the mode comes from frm, set here with fsrmi / fsrm ----------------
    // frm      1.5 -> int   -2.5 -> int   1/3          -1/3
    // rne      2            -2            0x3eaaaaab   0xbeaaaaab
    // rtz      1            -2            0x3eaaaaaa   0xbeaaaaaa
    // rdn      1            -3            0x3eaaaaaa   0xbeaaaaab
    // rup      2            -2            0x3eaaaaab   0xbeaaaaaa
    // rmm      2            -3            0x3eaaaaab   0xbeaaaaab
#define TEST_DYN(n, mode, i1, i2, q1, q2)                                                                    \
    TEST_FPI(n, a0, i1, NX, fsrmi mode; FLI(f1, ONEP5); fcvt.w.s a0, f1, dyn)                             \
    TEST_FPI(n + 1, a0, i2, NX, fsrmi mode; FLI(f1, NTWOP5); fcvt.w.s a0, f1, dyn)                        \
    TEST_FP(n + 2, f0, q1, NX, fsrmi mode; FLI(f1, ONE); FLI(f2, THREE); fdiv.s f0, f1, f2, dyn)          \
    TEST_FP(n + 3, f0, q2, NX, fsrmi mode; FLI(f1, NONE); FLI(f2, THREE); fdiv.s f0, f1, f2, dyn)
    TEST_DYN(110, 0, 2, -2, 0x3eaaaaab, 0xbeaaaaab)
    TEST_DYN(114, 1, 1, -2, 0x3eaaaaaa, 0xbeaaaaaa)
    TEST_DYN(118, 2, 1, -3, 0x3eaaaaaa, 0xbeaaaaab)
    TEST_DYN(122, 3, 2, -2, 0x3eaaaaab, 0xbeaaaaaa)
    TEST_DYN(126, 4, 2, -3, 0x3eaaaaab, 0xbeaaaaab)
    // the register form, and other instruction kinds under a dynamic mode
    TEST_FP(130, f0, N0, 0, li a1, 2; fsrm a1; FLI(f1, ONE); FLI(f2, NONE); fadd.s f0, f1, f2, dyn) // rdn: -0
    TEST_FP(131, f0, 0x4effffff, NX, li a1, 1; fsrm a1; li a2, 0x7fffffff; fcvt.s.w f0, a2, dyn)   // rtz
    TEST_FP(132, f0, ONE_ULP, NX, fsrmi 3; FLI(f1, ONE); FLI(f2, EPS24); fmadd.s f0, f1, f1, f2, dyn) // rup
    TEST_FP(133, f0, 0x3fb504f4, NX, fsrmi 3; FLI(f1, TWO); fsqrt.s f0, f1, dyn)                     // rup
    TEST_FP(134, f0, ONE_ULP, NX, fsrmi 4; FLI(f1, ONE); FLI(f2, EPS24); fadd.s f0, f1, f2, dyn)     // rmm
    // a static rounding mode overrides frm
    TEST_FPI(135, a0, 2, NX, fsrmi 3; FLI(f1, TWOP5); fcvt.w.s a0, f1, rtz)
    TEST_FP(136, f0, 0x3eaaaaab, NX, fsrmi 1; FLI(f1, ONE); FLI(f2, THREE); fdiv.s f0, f1, f2, rne)
    // fsrm returns the previous mode
    TEST_CASE(137, a0, 1, fsrmi 4; li a1, 1; fsrm a0, a1; fsrm a0, zero)
    TEST_CASE(138, a0, 0, frrm a0)

    j pass

TEST_END
