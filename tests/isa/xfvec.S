/* PULP vectorial FP16 (Xfvec with Xf16) on FLEN = 32: every instruction of sim/core/isa_xfvec.cpp, through
 * the macros of kernels/runtime/xfvec.h. A register holds two binary16 lanes, written PAIR(lane1, lane0).
 *
 * Expected values: each lane follows the binary16 rules of zfh.S (which QEMU confirms), with the
 * rounding mode taken from frm; the flags are those of both lanes together; lanes are never NaN-boxed
 * nor checked for boxing. Instruction specifics (see the table in isa_xfvec.cpp):
 * - the ".r" forms use lane 0 of rs2 in both lanes (lane 1 of rs2 is a marker value that must not show);
 * - vfmac: rd = rs1 * rs2 + rd, vfmre: rd = rs1 * rs2 - rd, each with one rounding;
 * - vfdotpex.s.h: FP32 rd += rs1[0]*rs2[0] + rs1[1]*rs2[1], exactly and with one rounding, so
 *   1*1 + 2^-20*2^-20 + 2^-24 rounds to 1 + 2^-23 (rounding 1 + 2^-24 first would give 1.0);
 * - vfcvt.s.h / vfcvtu.s.h read lane 0 / lane 1 only; vfcvt.h.s / vfcvtu.h.s write lane 0 / lane 1 and
 *   keep the other lane of rd; vfcpka.h.s puts rs1 in lane 0 and rs2 in lane 1;
 * - comparisons give 0 or 1 per lane; ne, ge and gt are the inverted eq, lt and le except that an
 *   invalid comparison (a NaN for the ordered ones, a signalling NaN for ne) gives 0;
 * - vfcvt.x.h / vfcvt.xu.h saturate to 16-bit integers in each lane.
 * Values were worked out with exact rational arithmetic and Python's struct 'e' for encodings.
 *
 * Each case clears fflags, runs, then checks the result and the flags it raised. frm is 0 (RNE) except
 * inside the RM cases, which set it back to 0.
 */
#include "fp16_test.h"
#include "xfvec.h"

TEST_BEGIN

    // ---- vfadd.h vfadd.r.h: lane-wise, rounding with frm, flags of both lanes ----------------------------
    TEST_V2(1, VFADD_H, PAIR(H_THREE, H_TWOP5), 0, PAIR(H_ONE, H_TWO), PAIR(H_TWO, H_HALF))
    // lane 0: 1 + 2^-11, lane 1: -1 - 2^-11, the same tie with opposite signs, in every frm mode
    TEST_V2RM(2, VFADD_H, 0, PAIR(H_NONE, H_ONE), NX, PAIR(H_NONE, H_ONE), PAIR(H_NEPS11, H_EPS11))
    TEST_V2RM(3, VFADD_H, 1, PAIR(H_NONE, H_ONE), NX, PAIR(H_NONE, H_ONE), PAIR(H_NEPS11, H_EPS11))
    TEST_V2RM(4, VFADD_H, 2, PAIR(0xbc01, H_ONE), NX, PAIR(H_NONE, H_ONE), PAIR(H_NEPS11, H_EPS11))
    TEST_V2RM(5, VFADD_H, 3, PAIR(H_NONE, H_ONE_ULP), NX, PAIR(H_NONE, H_ONE), PAIR(H_NEPS11, H_EPS11))
    TEST_V2RM(6, VFADD_H, 4, PAIR(0xbc01, H_ONE_ULP), NX, PAIR(H_NONE, H_ONE), PAIR(H_NEPS11, H_EPS11))
    // overflow in lane 0, sNaN in lane 1: both flags
    TEST_V2(7, VFADD_H, PAIR(H_CNAN, H_PINF), NV | OF | NX, PAIR(H_SNAN, H_MAX), PAIR(H_ONE, H_MAX))
    // +0 from opposite signs, +0 + -0
    TEST_V2(8, VFADD_H, PAIR(H_P0, H_P0), 0, PAIR(H_ONE, H_P0), PAIR(H_NONE, H_N0))
    // ... -0 and -0 when rounding down
    TEST_V2RM(9, VFADD_H, 2, PAIR(H_N0, H_N0), 0, PAIR(H_ONE, H_P0), PAIR(H_NONE, H_N0))
    // subnormals add exactly; inf - inf
    TEST_V2(10, VFADD_H, PAIR(0x0002, H_CNAN), NV, PAIR(H_MINS, H_PINF), PAIR(H_MINS, H_NINF))
    // .r: lane 0 of rs2 in both lanes
    TEST_V2(11, VFADD_R_H, PAIR(H_THREE, H_ONEP5), 0, PAIR(H_TWO, H_HALF), PAIR(0x1234, H_ONE))

    // ---- vfsub.h vfsub.r.h -------------------------------------------------------------------------------
    TEST_V2(12, VFSUB_H, PAIR(H_TWO, H_NTWO), 0, PAIR(H_THREE, H_ONE), PAIR(H_ONE, H_THREE))
    // 1 - 1 = -0 rounding down; inf - inf
    TEST_V2RM(13, VFSUB_H, 2, PAIR(H_N0, H_CNAN), NV, PAIR(H_ONE, H_PINF), PAIR(H_ONE, H_PINF))
    // 1 - 2^-12 tie; -1 + 2^-12
    TEST_V2RM(14, VFSUB_H, 0, PAIR(H_ONE, H_NONE), NX, PAIR(H_ONE, H_NONE), PAIR(0x0c00, 0x8c00))
    TEST_V2RM(15, VFSUB_H, 1, PAIR(0x3bff, 0xbbff), NX, PAIR(H_ONE, H_NONE), PAIR(0x0c00, 0x8c00))
    TEST_V2(16, VFSUB_R_H, PAIR(H_ONE, H_NHALF), 0, PAIR(H_TWO, H_HALF), PAIR(H_NONE, H_ONE))

    // ---- vfmul.h vfmul.r.h -------------------------------------------------------------------------------
    TEST_V2(17, VFMUL_H, PAIR(0x4640, 0xc600), 0, PAIR(H_TWOP5, H_NTWO), PAIR(H_TWOP5, H_THREE))
    // tiny and inexact in lane 1; inf * 0 in lane 0
    TEST_V2(18, VFMUL_H, PAIR(H_P0, H_CNAN), NV | UF | NX, PAIR(H_MINS, H_PINF), PAIR(H_HALF, H_P0))
    // 1 + 2^-9 + 2^-20; 256 * 256 overflows
    TEST_V2RM(19, VFMUL_H, 0, PAIR(0x3c02, H_PINF), OF | NX, PAIR(H_ONE_ULP, 0x5c00), PAIR(H_ONE_ULP, 0x5c00))
    TEST_V2RM(20, VFMUL_H, 3, PAIR(0x3c03, H_PINF), OF | NX, PAIR(H_ONE_ULP, 0x5c00), PAIR(H_ONE_ULP, 0x5c00))
    // .r: lane 1 of rs2 (a NaN) unused
    TEST_V2(21, VFMUL_R_H, PAIR(H_SIX, H_NONE), 0, PAIR(H_THREE, H_NHALF), PAIR(0x7fff, H_TWO))

    // ---- vfdiv.h vfdiv.r.h -------------------------------------------------------------------------------
    // 6/3 exact, 1/3 rounded
    TEST_V2RM(22, VFDIV_H, 0, PAIR(H_TWO, 0x3555), NX, PAIR(H_SIX, H_ONE), PAIR(H_THREE, H_THREE))
    TEST_V2RM(23, VFDIV_H, 3, PAIR(H_TWO, 0x3556), NX, PAIR(H_SIX, H_ONE), PAIR(H_THREE, H_THREE))
    // division by zero and 0/0
    TEST_V2(24, VFDIV_H, PAIR(H_NINF, H_CNAN), NV | DZ, PAIR(H_NONE, H_P0), PAIR(H_P0, H_P0))
    TEST_V2(25, VFDIV_R_H, PAIR(H_THREE, H_ONEP5), 0, PAIR(H_SIX, H_THREE), PAIR(H_ONE, H_TWO))

    // ---- vfsqrt.h ----------------------------------------------------------------------------------------
    TEST_V1(26, VFSQRT_H, PAIR(H_TWO, 0x3da8), NX, PAIR(H_FOUR, H_TWO))
    // sqrt(-0) = -0; a negative lane is invalid
    TEST_V1(27, VFSQRT_H, PAIR(H_N0, H_CNAN), NV, PAIR(H_N0, H_NONE))

    // ---- vfmin.h vfmax.h and .r forms: no rounding, NaN rules per lane -----------------------------------
    TEST_V2(28, VFMIN_H, PAIR(H_NONE, H_ONE), 0, PAIR(H_NONE, H_ONE), PAIR(H_TWO, H_TWO))
    TEST_V2(29, VFMAX_H, PAIR(H_TWO, H_TWO), 0, PAIR(H_NONE, H_ONE), PAIR(H_TWO, H_TWO))
    // -0 < +0; one NaN: the other operand
    TEST_V2(30, VFMIN_H, PAIR(H_N0, H_THREE), 0, PAIR(H_N0, H_QNAN_P), PAIR(H_P0, H_THREE))
    // two NaNs: canonical NaN, NV for a signalling one
    TEST_V2(31, VFMAX_H, PAIR(H_P0, H_CNAN), NV, PAIR(H_N0, H_SNAN), PAIR(H_P0, H_SNAN))
    TEST_V2(32, VFMIN_R_H, PAIR(H_TWO, H_NONE), 0, PAIR(H_THREE, H_NONE), PAIR(H_NINF, H_TWO))
    TEST_V2(33, VFMAX_R_H, PAIR(H_THREE, H_TWO), 0, PAIR(H_THREE, H_NONE), PAIR(H_NINF, H_TWO))

    // ---- vfmac.h vfmre.h and .r forms: rd is the addend, one rounding ------------------------------------
    // lane 0: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly; lane 1: 2 * 3 + 1
    TEST_VACC(34, VFMAC_H, PAIR(0x4700, 0x0010), 0, PAIR(H_ONE, 0xbc02), PAIR(H_TWO, H_ONE_ULP),
              PAIR(H_THREE, H_ONE_ULP))
    // ties of the accumulation
    TEST_VACCRM(35, VFMAC_H, 0, PAIR(H_NONE, H_ONE), NX, PAIR(H_NEPS11, H_EPS11), PAIR(H_NONE, H_ONE),
                PAIR(H_ONE, H_ONE))
    TEST_VACCRM(36, VFMAC_H, 3, PAIR(H_NONE, H_ONE_ULP), NX, PAIR(H_NEPS11, H_EPS11), PAIR(H_NONE, H_ONE),
                PAIR(H_ONE, H_ONE))
    TEST_VACCRM(37, VFMAC_H, 4, PAIR(0xbc01, H_ONE_ULP), NX, PAIR(H_NEPS11, H_EPS11), PAIR(H_NONE, H_ONE),
                PAIR(H_ONE, H_ONE))
    // inf * 0 with a quiet NaN addend: NV
    TEST_VACC(38, VFMAC_H, PAIR(H_CNAN, H_MAX), NV, PAIR(H_QNAN_P, H_NMAX), PAIR(H_PINF, H_MAX),
              PAIR(H_P0, H_TWO))
    TEST_VACC(39, VFMAC_R_H, PAIR(H_TWOP5, H_TWO), 0, PAIR(H_ONE, H_ONE), PAIR(H_THREE, H_TWO),
              PAIR(H_CNAN, H_HALF))
    // rs1 * rs2 - rd: 6 - 6 = +0, 6 - 1
    TEST_VACC(40, VFMRE_H, PAIR(0x4500, H_P0), 0, PAIR(H_ONE, H_SIX), PAIR(H_TWO, H_TWO),
              PAIR(H_THREE, H_THREE))
    // ... -0 when rounding down
    TEST_VACCRM(41, VFMRE_H, 2, PAIR(0x4500, H_N0), 0, PAIR(H_ONE, H_SIX), PAIR(H_TWO, H_TWO),
                PAIR(H_THREE, H_THREE))
    TEST_VACC(42, VFMRE_R_H, PAIR(0x4980, H_ONE), 0, PAIR(H_ONE, H_ONE), PAIR(H_THREE, H_HALF),
              PAIR(H_NTWO, H_FOUR))

    // ---- vfsgnj.h vfsgnjn.h vfsgnjx.h and .r forms: sign bits only, no flags -----------------------------
    TEST_V2(43, VFSGNJ_H, PAIR(H_NONE, H_ONE), 0, PAIR(H_ONE, H_NONE), PAIR(H_NTWO, H_TWO))
    TEST_V2(44, VFSGNJN_H, PAIR(H_ONE, H_NONE), 0, PAIR(H_ONE, H_NONE), PAIR(H_NTWO, H_TWO))
    // a signalling NaN moves without NV
    TEST_V2(45, VFSGNJX_H, PAIR(0xfc01, H_ONE), 0, PAIR(H_SNAN, H_NONE), PAIR(H_NTWO, H_NTWO))
    TEST_V2(46, VFSGNJ_R_H, PAIR(H_NONE, H_NONE), 0, PAIR(H_ONE, H_NONE), PAIR(H_TWO, H_NTWO))
    TEST_V2(47, VFSGNJN_R_H, PAIR(H_ONE, H_ONE), 0, PAIR(H_ONE, H_NONE), PAIR(H_TWO, H_NTWO))
    TEST_V2(48, VFSGNJX_R_H, PAIR(H_NONE, H_ONE), 0, PAIR(H_ONE, H_NONE), PAIR(H_TWO, H_NTWO))

    // ---- vfdotpex.s.h vfdotpex.s.r.h: FP32 accumulator, one rounding ------------------------------------
    // 0.5 + 1*2 + 3*4 = 14.5
    TEST_VACC(49, VFDOTPEX_S_H, 0x41680000, 0, 0x3f000000, PAIR(0x4200, H_ONE), PAIR(H_FOUR, H_TWO))
    // -0.5 - 3 + 0.125
    TEST_VACC(50, VFDOTPEX_S_H, 0xc0580000, 0, 0xbf000000, PAIR(0x3400, H_NONEP5), PAIR(H_HALF, H_TWO))
    // 1*1 + 2^-20*2^-20 + 2^-24 (0x33800000): just above the tie between 1 and 1 + 2^-23, in every mode
    TEST_VACCRM(51, VFDOTPEX_S_H, 0, 0x3f800001, NX, 0x33800000, PAIR(0x0010, H_ONE), PAIR(0x0010, H_ONE))
    TEST_VACCRM(52, VFDOTPEX_S_H, 1, 0x3f800000, NX, 0x33800000, PAIR(0x0010, H_ONE), PAIR(0x0010, H_ONE))
    TEST_VACCRM(53, VFDOTPEX_S_H, 2, 0x3f800000, NX, 0x33800000, PAIR(0x0010, H_ONE), PAIR(0x0010, H_ONE))
    TEST_VACCRM(54, VFDOTPEX_S_H, 3, 0x3f800001, NX, 0x33800000, PAIR(0x0010, H_ONE), PAIR(0x0010, H_ONE))
    TEST_VACCRM(55, VFDOTPEX_S_H, 4, 0x3f800001, NX, 0x33800000, PAIR(0x0010, H_ONE), PAIR(0x0010, H_ONE))
    // 1 - 1 + 2^-149, exact
    TEST_VACC(56, VFDOTPEX_S_H, 0x00000001, 0, 0x00000001, PAIR(H_NONE, H_ONE), PAIR(H_ONE, H_ONE))
    // exact zero: +0 ...
    TEST_VACC(57, VFDOTPEX_S_H, 0x00000000, 0, 0x00000000, PAIR(H_NONE, H_ONE), PAIR(H_ONE, H_ONE))
    // ... -0 down
    TEST_VACCRM(58, VFDOTPEX_S_H, 2, 0x80000000, 0, 0x00000000, PAIR(H_NONE, H_ONE), PAIR(H_ONE, H_ONE))
    // -0 + -0 + -0
    TEST_VACC(59, VFDOTPEX_S_H, 0x80000000, 0, 0x80000000, PAIR(H_N0, H_ONE), PAIR(H_ONE, H_N0))
    // 2^-48 + 2^-149
    TEST_VACC(60, VFDOTPEX_S_H, 0x27800000, NX, 0x00000001, PAIR(H_P0, H_MINS), PAIR(H_P0, H_MINS))
    // 2 * 65504^2, exact
    TEST_VACC(61, VFDOTPEX_S_H, 0x4fffc004, 0, 0x00000000, PAIR(H_MAX, H_MAX), PAIR(H_MAX, H_MAX))
    // no overflow in RNE ...
    TEST_VACC(62, VFDOTPEX_S_H, 0x7f7fffff, NX, 0x7f7fffff, PAIR(H_P0, H_MAX), PAIR(H_P0, H_MAX))
    // ... up
    TEST_VACCRM(63, VFDOTPEX_S_H, 3, 0x7f800000, OF | NX, 0x7f7fffff, PAIR(H_P0, H_MAX), PAIR(H_P0, H_MAX))
    // inf - inf
    TEST_VACC(64, VFDOTPEX_S_H, 0x7fc00000, NV, 0xff800000, PAIR(H_ONE, H_PINF), PAIR(H_ONE, H_ONE))
    // inf + inf
    TEST_VACC(65, VFDOTPEX_S_H, 0x7f800000, 0, 0x3f800000, PAIR(H_ONE, H_PINF), PAIR(H_PINF, H_ONE))
    // inf * 0 next to a qNaN
    TEST_VACC(66, VFDOTPEX_S_H, 0x7fc00000, NV, 0x3f800000, PAIR(H_CNAN, H_PINF), PAIR(H_ONE, H_P0))
    // quiet NaN accumulator
    TEST_VACC(67, VFDOTPEX_S_H, 0x7fc00000, 0, 0x7fc12345, PAIR(H_ONE, H_ONE), PAIR(H_ONE, H_ONE))
    // signalling NaN lane
    TEST_VACC(68, VFDOTPEX_S_H, 0x7fc00000, NV, 0x3f800000, PAIR(H_SNAN, H_ONE), PAIR(H_ONE, H_ONE))
    // 1 + 2*3 + 4*3
    TEST_VACC(69, VFDOTPEX_S_R_H, 0x41980000, 0, 0x3f800000, PAIR(H_FOUR, H_TWO), PAIR(0x4500, H_THREE))

    // ---- vfcvt.s.h vfcvtu.s.h: one lane to FP32, exact ---------------------------------------------------
    TEST_FP(70, f0, 0x33800000, 0, FLI(f1, PAIR(H_TWO, H_MINS)); VFCVT_S_H(f0, f1))    // lane 0: 2^-24
    TEST_FP(71, f0, 0x40000000, 0, FLI(f1, PAIR(H_TWO, H_MINS)); VFCVTU_S_H(f0, f1))   // lane 1: 2.0
    TEST_FP(72, f0, 0x3f800000, 0, FLI(f1, PAIR(H_SNAN, H_ONE)); VFCVT_S_H(f0, f1))    // lane 1 not read
    TEST_FP(73, f0, CNAN, NV, FLI(f1, PAIR(H_SNAN, H_ONE)); VFCVTU_S_H(f0, f1))

    // ---- vfcvt.h.s vfcvtu.h.s: FP32 to one lane, the other lane kept ------------------------------------
    TEST_FP(74, f0, PAIR(0x1111, 0x3555), NX, FLI(f0, PAIR(0x1111, 0x2222)); FLI(f1, 0x3eaaaaab);
            VFCVT_H_S(f0, f1))                                                           // 1/3 into lane 0
    TEST_FP(75, f0, PAIR(0x3556, 0x2222), NX, FLI(f0, PAIR(0x1111, 0x2222)); FLI(f1, 0x3eaaaaab);
            csrwi frm, 3; VFCVTU_H_S(f0, f1); csrwi frm, 0)                      // lane 1, rounded up
    TEST_FP(76, f0, PAIR(H_PINF, 0x2222), OF | NX, FLI(f0, PAIR(0x1111, 0x2222)); FLI(f1, 0x477ff000);
            VFCVTU_H_S(f0, f1))                                                          // 65520 overflows

    // ---- vfcpka.h.s: two FP32 values rounded into a pair ------------------------------------------------
    TEST_FP(77, f0, PAIR(0xc100, H_ONE), 0, FLI(f0, 0x12345678); FLI(f1, 0x3f800000); FLI(f2, 0xc0200000);
            VFCPKA_H_S(f0, f1, f2))                                 // rs1 = 1 in lane 0, rs2 = -2.5
    TEST_FP(78, f0, PAIR(H_PINF, 0x3555), OF | NX,
            FLI(f1, 0x3eaaaaab); FLI(f2, 0x49742400); VFCPKA_H_S(f0, f1, f2))
    TEST_FP(79, f0, PAIR(H_MAX, 0x3555), OF | NX, FLI(f1, 0x3eaaaaab); FLI(f2, 0x49742400); csrwi frm, 1;
            VFCPKA_H_S(f0, f1, f2); csrwi frm, 0)                   // 1e6 toward zero: 65504

    // ---- vfmv.x.h vfmv.h.x: all 32 bits, no boxing ------------------------------------------------------
    TEST_FPI(80, a0, 0x12345678, 0, FLI(f1, 0x12345678); VFMV_X_H(a0, f1))
    TEST_FP(81, f0, 0x0000bc00, 0, li a1, 0x0000bc00; VFMV_H_X(f0, a1))

    // ---- vfclass.h: a fclass mask in each lane ----------------------------------------------------------
    TEST_FPI(82, a0, 0x01000008, 0, FLI(f1, PAIR(H_SNAN, H_N0)); VFCLASS_H(a0, f1))
    TEST_FPI(83, a0, 0x00800004, 0, FLI(f1, PAIR(H_PINF, H_NMINS)); VFCLASS_H(a0, f1))
    TEST_FPI(84, a0, 0x02000020, 0, FLI(f1, PAIR(H_QNAN_P, H_MINS)); VFCLASS_H(a0, f1))
    TEST_FPI(85, a0, 0x00400002, 0, FLI(f1, PAIR(H_ONE, H_NONE)); VFCLASS_H(a0, f1))
    TEST_FPI(86, a0, 0x00100001, 0, FLI(f1, PAIR(H_P0, H_NINF)); VFCLASS_H(a0, f1))

    // ---- vfcvt.x.h vfcvt.xu.h: lanes to 16-bit integers, saturating ------------------------------------
    TEST_FPI(87, a0, 0x7ffffffe, NV | NX, FLI(f1, PAIR(0x78e2, 0xc100)); VFCVT_X_H(a0, f1)) // 40000, -2.5
    TEST_FPI(88, a0, 0x7ffffffd, NV | NX, FLI(f1, PAIR(0x78e2, 0xc100)); csrwi frm, 2; VFCVT_X_H(a0, f1);
             csrwi frm, 0)                                                               // -2.5 down: -3
    TEST_FPI(89, a0, 0x80008000, NV, FLI(f1, PAIR(0xf801, 0xf800)); VFCVT_X_H(a0, f1))   // -32800, -32768
    TEST_FPI(90, a0, 0x7ff07fff, NV, FLI(f1, PAIR(0x77ff, 0x7800)); VFCVT_X_H(a0, f1))   // 32752, 32768
    TEST_FPI(91, a0, 0xffe00000, NV, FLI(f1, PAIR(H_MAX, H_NONE)); VFCVT_XU_H(a0, f1))   // 65504, -1
    TEST_FPI(92, a0, 0xffff0002, NV | NX, FLI(f1, PAIR(H_CNAN, H_TWOP5)); VFCVT_XU_H(a0, f1)) // NaN: all ones

    // ---- vfcvt.h.x vfcvt.h.xu: 16-bit integer lanes to binary16 ----------------------------------------
    TEST_FP(93, f0, PAIR(H_NONE, 0x7800), NX, li a1, 0xffff7fff; VFCVT_H_X(f0, a1))     // -1, 32767 -> 32768
    TEST_FP(94, f0, PAIR(0xf800, H_P0), 0, li a1, 0x80000000; VFCVT_H_X(f0, a1))        // -32768, 0
    TEST_FP(95, f0, PAIR(H_PINF, 0x6800), OF | NX, li a1, 0xffff0801; VFCVT_H_XU(f0, a1)) // 65535, 2049
    TEST_FP(96, f0, PAIR(H_MAX, 0x6800), NX, li a1, 0xffff0801; csrwi frm, 1; VFCVT_H_XU(f0, a1);
            csrwi frm, 0)                                                        // toward zero: 65504, no OF

    // ---- comparisons: 0 or 1 per lane -------------------------------------------------------------------
    TEST_VCMP(97, VFEQ_H, 0x00010000, 0, PAIR(H_ONE, H_QNAN_P), PAIR(H_ONE, H_ONE))
    TEST_VCMP(98, VFEQ_H, 0x00010000, NV, PAIR(H_P0, H_SNAN), PAIR(H_N0, H_SNAN))         // +0 == -0
    TEST_VCMP(99, VFNE_H, 0x00000001, 0, PAIR(H_ONE, H_TWO), PAIR(H_ONE, H_ONE))
    TEST_VCMP(100, VFNE_H, 0x00010000, NV, PAIR(H_QNAN_P, H_SNAN), PAIR(H_ONE, H_ONE))   // qNaN: 1, sNaN: 0
    TEST_VCMP(101, VFLT_H, 0x00000001, 0, PAIR(H_N0, H_NONE), PAIR(H_P0, H_ONE))         // -0 < +0 is false
    TEST_VCMP(102, VFLT_H, 0x00000000, NV, PAIR(H_QNAN_P, H_TWO), PAIR(H_ONE, H_ONE))
    TEST_VCMP(103, VFGE_H, 0x00000001, NV, PAIR(H_QNAN_P, H_TWO), PAIR(H_ONE, H_ONE))     // NaN: 0, not 1
    TEST_VCMP(104, VFGE_H, 0x00010001, 0, PAIR(H_N0, H_ONE), PAIR(H_P0, H_ONE))
    TEST_VCMP(105, VFLE_H, 0x00010000, 0, PAIR(H_ONE, H_TWO), PAIR(H_ONE, H_ONE))
    TEST_VCMP(106, VFLE_H, 0x00010000, NV, PAIR(H_NINF, H_ONE), PAIR(H_NMAX, H_CNAN))
    TEST_VCMP(107, VFGT_H, 0x00000001, 0, PAIR(H_ONE, H_TWO), PAIR(H_ONE, H_ONE))
    TEST_VCMP(108, VFGT_H, 0x00010000, NV, PAIR(H_ONE, H_TWO), PAIR(H_NONE, H_SNAN))     // lane 0 invalid: 0
    TEST_VCMP(109, VFEQ_R_H, 0x00010001, 0, PAIR(H_TWO, H_TWO), PAIR(H_CNAN, H_TWO))
    TEST_VCMP(110, VFNE_R_H, 0x00010000, 0, PAIR(H_ONE, H_TWO), PAIR(H_TWO, H_TWO))
    TEST_VCMP(111, VFLT_R_H, 0x00010000, 0, PAIR(H_ONE, H_THREE), PAIR(H_ONE, H_TWO))
    TEST_VCMP(112, VFGE_R_H, 0x00000001, 0, PAIR(H_ONE, H_THREE), PAIR(H_ONE, H_TWO))
    TEST_VCMP(113, VFLE_R_H, 0x00010001, 0, PAIR(H_ONE, H_TWO), PAIR(H_ONE, H_TWO))
    TEST_VCMP(114, VFGT_R_H, 0x00000001, 0, PAIR(H_ONE, H_THREE), PAIR(H_ONE, H_TWO))

    // ---- an accumulation chain: vfmac.h and vfdotpex.s.h over a small dot product -----------------------
    // x = (1, 2, 3, 4), y = (0.5, 0.25, 2, -1): per lane 1*0.5 + 3*2 = 6.5 and 2*0.25 + 4*(-1) = -3.5;
    // the dot product -3.5 + 6.5 + 0.25 (initial FP32 accumulator) = 3.25
    TEST_FP(115, f0, PAIR(0xc300, 0x4680), 0, FLI(f0, 0);
            FLI(f1, PAIR(H_TWO, H_ONE)); FLI(f2, PAIR(0x3400, H_HALF)); VFMAC_H(f0, f1, f2);
            FLI(f1, PAIR(H_FOUR, H_THREE)); FLI(f2, PAIR(H_NONE, H_TWO)); VFMAC_H(f0, f1, f2))
    TEST_FP(116, f0, 0x40500000, 0, FLI(f0, 0x3e800000);
            FLI(f1, PAIR(H_TWO, H_ONE)); FLI(f2, PAIR(0x3400, H_HALF)); VFDOTPEX_S_H(f0, f1, f2);
            FLI(f1, PAIR(H_FOUR, H_THREE)); FLI(f2, PAIR(H_NONE, H_TWO)); VFDOTPEX_S_H(f0, f1, f2))

    j pass

TEST_END
