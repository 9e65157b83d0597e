/* xcvmac: cv.mac / cv.msu (32x32, low 32 bits), the 16x16 multiplications cv.mul{s,hhs,u,hhu}{N,RN}
 * and the multiply-accumulates cv.mac{s,hhs,u,hhu}{N,RN} (shift right by Is3, RN adds 2^(Is3-1) first).
 * "hh" forms use the upper half-words, the others the lower ones; the other halves are ignored.
 */
#include "test_macros.h"

TEST_BEGIN

/* ---- cv.mac rD = rD + rs1 * rs2, cv.msu rD = rD - rs1 * rs2 ---- */
TEST_CASE(1, a0, 22, li a0, 10; li a1, 3; li a2, 4; cv.mac a0, a1, a2)
TEST_CASE(2, a0, 0xFFFFFFF1, li a0, 0; li a1, -3; li a2, 5; cv.mac a0, a1, a2)
TEST_CASE(3, a0, 1, li a0, 1; li a1, 0x10000; li a2, 0x10000; cv.mac a0, a1, a2)   /* 2^32 wraps to 0 */
TEST_CASE(4, a0, 30, li a0, 5; cv.mac a0, a0, a0)                                  /* 5 + 5 * 5 */
TEST_CASE(5, a0, 0xFFFFFFFE, li a0, 10; li a1, 3; li a2, 4; cv.msu a0, a1, a2)
TEST_CASE(6, a0, 0xFFFDFFFF, li a0, 0; li a1, 0x10001; li a2, 0x10001; cv.msu a0, a1, a2) /* -(0x00020001) */
TEST_CASE(7, a0, 0, li a0, 25; li a1, -5; li a2, -5; cv.msu a0, a1, a2)

/* ---- 16x16 multiplications, shift 0 (pseudo-instructions) ---- */
TEST_CASE(8, a0, 0xFFFFFFFA, li a1, 0x1234FFFE; li a2, 0xABCD0003; cv.muls a0, a1, a2)   /* -2 * 3 */
TEST_CASE(9, a0, 0x0002FFFA, li a1, 0x1234FFFE; li a2, 0xABCD0003; cv.mulu a0, a1, a2)   /* 65534 * 3 */
TEST_CASE(10, a0, 0xFFFFFFF2, li a1, 0xFFFE1234; li a2, 0x0007ABCD; cv.mulhhs a0, a1, a2) /* -2 * 7 */
TEST_CASE(11, a0, 0x0006FFF2, li a1, 0xFFFE1234; li a2, 0x0007ABCD; cv.mulhhu a0, a1, a2) /* 65534 * 7 */
TEST_CASE(12, a0, 6, li a1, 0x7FFF0002; li a2, 0x80000003; cv.muls a0, a1, a2)
TEST_CASE(13, a0, 0x40000000, li a1, 0x8000; li a2, 0x8000; cv.muls a0, a1, a2)          /* (-2^15)^2 */
TEST_CASE(14, a0, 0xFFFE0001, li a1, 0xFFFF; li a2, 0xFFFF; cv.mulu a0, a1, a2)

/* ---- cv.mulsN / mulhhsN: arithmetic shift ---- */
TEST_CASE(15, a0, 0x4B, li a1, 100; li a2, 3; cv.mulsn a0, a1, a2, 2)                    /* 300 >>> 2 */
TEST_CASE(16, a0, 0xFFFFFFB5, li a1, 0xFF9C; li a2, 3; cv.mulsn a0, a1, a2, 2)           /* -300 >>> 2 = -75 */
TEST_CASE(17, a0, 0, li a1, 0x8000; li a2, 0x8000; cv.mulsn a0, a1, a2, 31)              /* 2^30 >>> 31 */
TEST_CASE(18, a0, 0xFFFFFFFF, li a1, 0x8000; li a2, 0x7FFF; cv.mulsn a0, a1, a2, 31)     /* negative >>> 31 */
TEST_CASE(19, a0, 0xFFFFFFB5, li a1, 0x00640000; li a2, 0xFFFD0000; cv.mulhhsn a0, a1, a2, 2) /* 100 * -3 >>> 2 */
TEST_CASE(20, a0, 1, li a1, 0x40000000; li a2, 0x00040000; cv.mulhhsn a0, a1, a2, 16)   /* 2^14 * 4 >> 16 */
/* ---- cv.muluN / mulhhuN: logical shift ---- */
TEST_CASE(21, a0, 0xFFFE, li a1, 0xFFFF; li a2, 0xFFFF; cv.mulun a0, a1, a2, 16)         /* 0xFFFE0001 >> 16 */
TEST_CASE(22, a0, 1, li a1, 0xFFFF; li a2, 0xFFFF; cv.mulun a0, a1, a2, 31)
TEST_CASE(23, a0, 0xFFFF, li a1, 0xFFFF0000; li a2, 0x00020000; cv.mulhhun a0, a1, a2, 1) /* 0x1FFFE >> 1 */
TEST_CASE(24, a0, 0x7FFF0000, li a1, 0xFFFF0000; li a2, 0xFFFF1234; cv.mulhhun a0, a1, a2, 1) /* 0xFFFE0001 >> 1 */
/* ---- cv.mulsRN / mulhhsRN: + 2^(Is3-1) then arithmetic shift ---- */
TEST_CASE(25, a0, 4, li a1, 5; li a2, 3; cv.mulsrn a0, a1, a2, 2)                        /* (15 + 2) >>> 2 */
TEST_CASE(26, a0, 0xFFFFFFFC, li a1, 0xFFFB; li a2, 3; cv.mulsrn a0, a1, a2, 2)          /* (-15 + 2) >>> 2 = -4 */
TEST_CASE(27, a0, 0xFFFFFFF1, li a1, 0xFFFB; li a2, 3; cv.mulsrn a0, a1, a2, 0)          /* no rounding term */
TEST_CASE(28, a0, 0, li a1, 0x8000; li a2, 0x7FFF; cv.mulsrn a0, a1, a2, 31)             /* (-2^30 + 2^15 + 2^30) >>> 31 */
TEST_CASE(29, a0, 0xFFFFFFF9, li a1, 0x00050000; li a2, 0xFFFD0000; cv.mulhhsrn a0, a1, a2, 1) /* (-15 + 1) >>> 1 */
/* ---- cv.muluRN / mulhhuRN: + 2^(Is3-1) then logical shift ---- */
TEST_CASE(30, a0, 0xFFFE, li a1, 0xFFFF; li a2, 0xFFFF; cv.mulurn a0, a1, a2, 16)        /* 0xFFFE8001 >> 16 */
TEST_CASE(31, a0, 8, li a1, 3; li a2, 5; cv.mulurn a0, a1, a2, 1)                        /* (15 + 1) >> 1 */
TEST_CASE(32, a0, 4, li a1, 0x00030000; li a2, 0x00050000; cv.mulhhurn a0, a1, a2, 2)   /* (15 + 2) >> 2 */
TEST_CASE(33, a0, 15, li a1, 0x00030000; li a2, 0x00050000; cv.mulhhurn a0, a1, a2, 0)

/* ---- cv.macsN / machhsN: (product + rD) >>> Is3 ---- */
TEST_CASE(34, a0, 100, li a0, 100; li a1, 10; li a2, 10; cv.macsn a0, a1, a2, 1)        /* 200 >>> 1 */
TEST_CASE(35, a0, 0xFFFFFFDF, li a0, -100; li a1, 0xFFF6; li a2, 3; cv.macsn a0, a1, a2, 2) /* -130 >>> 2 = -33 */
TEST_CASE(36, a0, 0xFFFFFFFF, li a0, 0x80000000; li a1, 1; li a2, 1; cv.macsn a0, a1, a2, 31) /* (1 - 2^31) >>> 31 */
TEST_CASE(37, a0, 0xFFFFFFFB, li a0, 0; li a1, 0xFFFF0000; li a2, 0x00050000; cv.machhsn a0, a1, a2, 0) /* -1 * 5 */
TEST_CASE(38, a0, 0x15, li a0, 0x12; li a1, 0x00060000; li a2, 0x00040003; cv.machhsn a0, a1, a2, 1) /* (24 + 18) >>> 1 */
/* ---- cv.macuN / machhuN: (product + rD) >> Is3 ---- */
TEST_CASE(39, a0, 0x10004, li a0, 10; li a1, 0xFFFF; li a2, 2; cv.macun a0, a1, a2, 1)   /* (131070 + 10) >> 1 */
TEST_CASE(40, a0, 0x1000, li a0, 6; li a1, 0xFFFF0000; li a2, 0x00010000; cv.machhun a0, a1, a2, 4) /* 65541 >> 4 */
TEST_CASE(41, a0, 0xFFFFFFFF, li a0, 0xFFFFFFFE; li a1, 1; li a2, 1; cv.macun a0, a1, a2, 0)
/* ---- cv.macsRN / machhsRN ---- */
TEST_CASE(42, a0, 4, li a0, 1; li a1, 3; li a2, 5; cv.macsrn a0, a1, a2, 2)              /* (15 + 1 + 2) >>> 2 */
TEST_CASE(43, a0, 16, li a0, 1; li a1, 3; li a2, 5; cv.macsrn a0, a1, a2, 0)
TEST_CASE(44, a0, 0xFFFFFFFE, li a0, -20; li a1, 0x00030000; li a2, 0x00050000; cv.machhsrn a0, a1, a2, 1) /* (15 - 20 + 1) >>> 1 */
/* ---- cv.macuRN / machhuRN ---- */
TEST_CASE(45, a0, 2, li a0, 1; li a1, 3; li a2, 5; cv.macurn a0, a1, a2, 3)              /* (15 + 1 + 4) >> 3 */
TEST_CASE(46, a0, 5, li a0, 0; li a1, 0x00070000; li a2, 0x00030000; cv.machhurn a0, a1, a2, 2) /* (21 + 2) >> 2 */
TEST_CASE(47, a0, 0x7FFFFFFF, li a0, 0xFFFFFFFD; li a1, 1; li a2, 1; cv.machhurn a0, a1, a2, 1) /* hh = 0: (0xFFFFFFFD + 1) >> 1 */
TEST_CASE(48, a0, 19, li a0, 12; cv.macsn a0, a0, a0, 3)                                 /* rD == rs1 == rs2: (144 + 12) >>> 3 = 19.5 -> 19 */
/* ---- The sum keeps 32 bits before the shift (cv32e40p_mult.sv: short_result takes short_mac[31:0], extended
 * by bit 31 for the signed forms, by zeros for the unsigned ones): a carry out of bit 31 is lost, and a signed
 * sum that overflows turns negative. ---- */
TEST_CASE(49, a0, 0x000FFFE0, li a0, -1; li a1, 0xFFFF; li a2, 0xFFFF; cv.macurn a0, a1, a2, 12) /* 0x1FFFE0800 */
TEST_CASE(50, a0, 0xFFFBFFF0, li a0, 0x7FFFFFFF; li a1, 0x7FFF; li a2, 0x7FFF; cv.macsrn a0, a1, a2, 12) /* 0xBFFF0800 */
TEST_CASE(51, a0, 0xFBFFF000, li a0, 0x7FFFFFFF; li a1, 0x7FFF; li a2, 0x7FFF; cv.macsn a0, a1, a2, 4) /* 0xBFFF0000 */
TEST_CASE(52, a0, 0xFFFFFFFF, li a1, 0x8000; li a2, 0x8000; cv.mulsrn a0, a1, a2, 31)     /* 2^30 + 2^30 = -2^31 */
TEST_CASE(53, a0, 0, li a1, 0xFFFF; li a2, 0xFFFF; cv.mulurn a0, a1, a2, 31)             /* 0x13FFE0001 */
TEST_CASE(54, a0, 0x3FFF0000, li a0, 0x80000000; li a1, -1; li a2, -1; cv.machhun a0, a1, a2, 1) /* 0x17FFE0001 */

TEST_END
