/* xcvalu: cv.abs, cv.slet/sletu (the manual's cv.sle/sleu), min/max, sign/zero extension, clipping and
 * the add/sub with normalisation (and rounding) in immediate and register forms.
 */
#include "test_macros.h"

TEST_BEGIN

/* ---- cv.abs ---- */
TEST_CASE(1, a0, 5, li a1, -5; cv.abs a0, a1)
TEST_CASE(2, a0, 7, li a1, 7; cv.abs a0, a1)
TEST_CASE(3, a0, 0, li a1, 0; cv.abs a0, a1)
TEST_CASE(4, a0, 0x80000000, li a1, 0x80000000; cv.abs a0, a1)   /* -(-2^31) wraps to itself */
TEST_CASE(5, a0, 0x7FFFFFFF, li a1, 0x80000001; cv.abs a0, a1)

/* ---- cv.slet (signed <=), cv.sletu (unsigned <=) ---- */
TEST_CASE(6, a0, 1, li a1, -1; li a2, 0; cv.slet a0, a1, a2)
TEST_CASE(7, a0, 1, li a1, 5; li a2, 5; cv.slet a0, a1, a2)
TEST_CASE(8, a0, 0, li a1, 6; li a2, 5; cv.slet a0, a1, a2)
TEST_CASE(9, a0, 0, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.slet a0, a1, a2)
TEST_CASE(10, a0, 0, li a1, -1; li a2, 0; cv.sletu a0, a1, a2)
TEST_CASE(11, a0, 1, li a1, 0; li a2, -1; cv.sletu a0, a1, a2)
TEST_CASE(12, a0, 1, li a1, 3; li a2, 3; cv.sletu a0, a1, a2)
TEST_CASE(13, a0, 1, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.sletu a0, a1, a2)

/* ---- min / max ---- */
TEST_CASE(14, a0, 0xFFFFFFFD, li a1, -3; li a2, 2; cv.min a0, a1, a2)
TEST_CASE(15, a0, 0x80000000, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.min a0, a1, a2)
TEST_CASE(16, a0, 2, li a1, -3; li a2, 2; cv.minu a0, a1, a2)
TEST_CASE(17, a0, 0x7FFFFFFF, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.minu a0, a1, a2)
TEST_CASE(18, a0, 2, li a1, -3; li a2, 2; cv.max a0, a1, a2)
TEST_CASE(19, a0, 0x7FFFFFFF, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.max a0, a1, a2)
TEST_CASE(20, a0, 0xFFFFFFFD, li a1, -3; li a2, 2; cv.maxu a0, a1, a2)
TEST_CASE(21, a0, 0x80000000, li a1, 0x7FFFFFFF; li a2, 0x80000000; cv.maxu a0, a1, a2)
TEST_CASE(22, a0, 9, li a1, 9; li a2, 9; cv.max a0, a1, a2)

/* ---- sign / zero extension ---- */
TEST_CASE(23, a0, 0xFFFF8765, li a1, 0x12348765; cv.exths a0, a1)
TEST_CASE(24, a0, 0x00004321, li a1, 0x87654321; cv.exths a0, a1)
TEST_CASE(25, a0, 0x00008765, li a1, 0x12348765; cv.exthz a0, a1)
TEST_CASE(26, a0, 0xFFFFFFF0, li a1, 0x123456F0; cv.extbs a0, a1)
TEST_CASE(27, a0, 0x0000007F, li a1, 0xFFFFFF7F; cv.extbs a0, a1)
TEST_CASE(28, a0, 0x000000F0, li a1, 0x123456F0; cv.extbz a0, a1)

/* ---- cv.clip rD, rs1, Is2: range [-2^(Is2-1), 2^(Is2-1)-1]; Is2 = 0 gives [-1, 0] ---- */
TEST_CASE(29, a0, 15, li a1, 100; cv.clip a0, a1, 5)                  /* [-16, 15] */
TEST_CASE(30, a0, 0xFFFFFFF0, li a1, -100; cv.clip a0, a1, 5)
TEST_CASE(31, a0, 0xFFFFFFF0, li a1, -16; cv.clip a0, a1, 5)
TEST_CASE(32, a0, 15, li a1, 15; cv.clip a0, a1, 5)
TEST_CASE(33, a0, 7, li a1, 7; cv.clip a0, a1, 5)
TEST_CASE(34, a0, 0xFFFFFFF1, li a1, -15; cv.clip a0, a1, 5)
TEST_CASE(35, a0, 0, li a1, 5; cv.clip a0, a1, 0)
TEST_CASE(36, a0, 0xFFFFFFFF, li a1, -5; cv.clip a0, a1, 0)
TEST_CASE(37, a0, 0, li a1, 0; cv.clip a0, a1, 0)
TEST_CASE(38, a0, 0x3FFFFFFF, li a1, 0x7FFFFFFF; cv.clip a0, a1, 31) /* [-2^30, 2^30-1] */
TEST_CASE(39, a0, 0xC0000000, li a1, 0x80000000; cv.clip a0, a1, 31)
TEST_CASE(40, a0, 0x12345678, li a1, 0x12345678; cv.clip a0, a1, 31)
TEST_CASE(41, a0, 0xFFFFFFFF, li a1, -2; cv.clip a0, a1, 1)           /* [-1, 0] */
/* cv.clipu rD, rs1, Is2: range [0, 2^(Is2-1)-1] */
TEST_CASE(42, a0, 0, li a1, -5; cv.clipu a0, a1, 5)
TEST_CASE(43, a0, 15, li a1, 100; cv.clipu a0, a1, 5)
TEST_CASE(44, a0, 9, li a1, 9; cv.clipu a0, a1, 5)
TEST_CASE(45, a0, 0, li a1, 5; cv.clipu a0, a1, 0)
TEST_CASE(46, a0, 0x3FFFFFFF, li a1, 0x7FFFFFFF; cv.clipu a0, a1, 31)
TEST_CASE(47, a0, 0, li a1, 0x80000000; cv.clipu a0, a1, 31)
/* cv.clipr rD, rs1, rs2: rs2' = rs2 & 0x7FFFFFFF, range [-(rs2'+1), rs2'] */
TEST_CASE(48, a0, 255, li a1, 1000; li a2, 255; cv.clipr a0, a1, a2)
TEST_CASE(49, a0, 0xFFFFFF00, li a1, -1000; li a2, 255; cv.clipr a0, a1, a2)
TEST_CASE(50, a0, 0xFFFFFF00, li a1, -256; li a2, 255; cv.clipr a0, a1, a2)
TEST_CASE(51, a0, 100, li a1, 100; li a2, 255; cv.clipr a0, a1, a2)
TEST_CASE(52, a0, 255, li a1, 1000; li a2, 0x800000FF; cv.clipr a0, a1, a2)  /* bit 31 of rs2 ignored */
TEST_CASE(53, a0, 0x80000000, li a1, 0x80000000; li a2, 0x7FFFFFFF; cv.clipr a0, a1, a2)
TEST_CASE(54, a0, 0xFFFFFFFF, li a1, -7; li a2, 0; cv.clipr a0, a1, a2)  /* [-1, 0] */
/* cv.clipur rD, rs1, rs2: range [0, rs2'] */
TEST_CASE(55, a0, 0, li a1, -5; li a2, 255; cv.clipur a0, a1, a2)
TEST_CASE(56, a0, 255, li a1, 1000; li a2, 255; cv.clipur a0, a1, a2)
TEST_CASE(57, a0, 77, li a1, 77; li a2, 255; cv.clipur a0, a1, a2)
TEST_CASE(58, a0, 0x7FFFFFFF, li a1, 0x7FFFFFFF; li a2, -1; cv.clipur a0, a1, a2) /* rs2' = 0x7FFFFFFF */
TEST_CASE(59, a0, 0, li a1, 0x80000000; li a2, -1; cv.clipur a0, a1, a2)

/* ---- cv.addN / adduN / addRN / adduRN rD, rs1, rs2, Is3 ---- */
TEST_CASE(60, a0, 6, li a1, 7; li a2, 6; cv.addn a0, a1, a2, 1)                /* 13 >>> 1 */
TEST_CASE(61, a0, 0xFFFFFFF9, li a1, -7; li a2, -6; cv.addn a0, a1, a2, 1)     /* -13 >>> 1 = -7 */
TEST_CASE(62, a0, 0x80000000, li a1, 0x7FFFFFFF; li a2, 1; cv.addn a0, a1, a2, 0)
TEST_CASE(63, a0, 0xFFFFFFFF, li a1, -1; li a2, -1; cv.addn a0, a1, a2, 31)    /* -2 >>> 31 */
TEST_CASE(64, a0, 1, li a1, 0x30000000; li a2, 0x10000000; cv.addn a0, a1, a2, 30)
TEST_CASE(65, a0, 0x7FFFFFFF, li a1, -1; li a2, -1; cv.addun a0, a1, a2, 1)    /* 0xFFFFFFFE >> 1 */
TEST_CASE(66, a0, 1, li a1, 0x80000000; li a2, 0x7FFFFFFF; cv.addun a0, a1, a2, 31)
TEST_CASE(67, a0, 13, li a1, 7; li a2, 6; cv.addun a0, a1, a2, 0)
TEST_CASE(68, a0, 3, li a1, 5; li a2, 0; cv.addrn a0, a1, a2, 1)               /* (5 + 1) >>> 1 */
TEST_CASE(69, a0, 0xFFFFFFFE, li a1, -5; li a2, 0; cv.addrn a0, a1, a2, 1)     /* (-5 + 1) >>> 1 = -2 */
TEST_CASE(70, a0, 2, li a1, 7; li a2, 1; cv.addrn a0, a1, a2, 2)               /* (8 + 2) >>> 2 */
TEST_CASE(71, a0, 7, li a1, 3; li a2, 4; cv.addrn a0, a1, a2, 0)               /* no rounding term */
TEST_CASE(72, a0, 0, li a1, -1; li a2, 0; cv.addrn a0, a1, a2, 31)             /* (2^30 - 1) >>> 31 */
TEST_CASE(73, a0, 0, li a1, 0xC0000000; li a2, 0; cv.addrn a0, a1, a2, 31)     /* (-2^30 + 2^30) >>> 31 */
TEST_CASE(74, a0, 0xFFFFFFFF, li a1, 0x80000000; li a2, 0; cv.addrn a0, a1, a2, 31) /* -2^30 >>> 31 */
TEST_CASE(75, a0, 3, li a1, 5; li a2, 0; cv.addurn a0, a1, a2, 1)
TEST_CASE(76, a0, 0x7FFFFFFF, li a1, 0xFFFFFFFE; li a2, 0; cv.addurn a0, a1, a2, 1) /* 0xFFFFFFFF >> 1 */
TEST_CASE(77, a0, 1, li a1, 0x80000000; li a2, 0; cv.addurn a0, a1, a2, 31)    /* 0xC0000000 >> 31 */
TEST_CASE(78, a0, 7, li a1, 3; li a2, 4; cv.addurn a0, a1, a2, 0)
/* ---- cv.subN / subuN / subRN / subuRN ---- */
TEST_CASE(79, a0, 0xFFFFFFFC, li a1, 3; li a2, 10; cv.subn a0, a1, a2, 1)      /* -7 >>> 1 = -4 */
TEST_CASE(80, a0, 7, li a1, 10; li a2, 3; cv.subn a0, a1, a2, 0)
TEST_CASE(81, a0, 0xFFFFFFFF, li a1, 0; li a2, 1; cv.subn a0, a1, a2, 31)
TEST_CASE(82, a0, 0x7FFFFFFC, li a1, 3; li a2, 10; cv.subun a0, a1, a2, 1)    /* 0xFFFFFFF9 >> 1 */
TEST_CASE(83, a0, 1, li a1, 0; li a2, 1; cv.subun a0, a1, a2, 31)             /* 0xFFFFFFFF >> 31 */
TEST_CASE(84, a0, 0xFFFFFFFD, li a1, 3; li a2, 10; cv.subrn a0, a1, a2, 1)    /* (-7 + 1) >>> 1 = -3 */
TEST_CASE(85, a0, 2, li a1, 10; li a2, 3; cv.subrn a0, a1, a2, 2)             /* (7 + 2) >>> 2 */
TEST_CASE(86, a0, 0, li a1, 0; li a2, 0x40000000; cv.subrn a0, a1, a2, 31)    /* (-2^30 + 2^30) >>> 31 */
TEST_CASE(87, a0, 0xFFFFFFF9, li a1, 3; li a2, 10; cv.subrn a0, a1, a2, 0)
TEST_CASE(88, a0, 0x7FFFFFFD, li a1, 3; li a2, 10; cv.suburn a0, a1, a2, 1)   /* 0xFFFFFFFA >> 1 */
TEST_CASE(89, a0, 2, li a1, 10; li a2, 3; cv.suburn a0, a1, a2, 2)
TEST_CASE(90, a0, 1, li a1, 0x80000000; li a2, 0; cv.suburn a0, a1, a2, 31)

/* ---- register forms: rD = (rD +/- rs1 [+ 2^(rs2[4:0]-1)]) >> rs2[4:0] ---- */
TEST_CASE(91, a0, 6, li a0, 7; li a1, 6; li a2, 1; cv.addnr a0, a1, a2)
TEST_CASE(92, a0, 6, li a0, 7; li a1, 6; li a2, 0xFFFFFFE1; cv.addnr a0, a1, a2) /* only rs2[4:0] = 1 */
TEST_CASE(93, a0, 0xFFFFFFF9, li a0, -7; li a1, -6; li a2, 1; cv.addnr a0, a1, a2)
TEST_CASE(94, a0, 0x7FFFFFFF, li a0, -1; li a1, -1; li a2, 1; cv.addunr a0, a1, a2)
TEST_CASE(95, a0, 3, li a0, 5; li a1, 0; li a2, 1; cv.addrnr a0, a1, a2)
TEST_CASE(96, a0, 5, li a0, 5; li a1, 0; li a2, 0; cv.addrnr a0, a1, a2)          /* shift 0: no rounding */
TEST_CASE(97, a0, 0xFFFFFFFF, li a0, 0x80000000; li a1, 0; li a2, 31; cv.addrnr a0, a1, a2)
TEST_CASE(98, a0, 0x7FFFFFFF, li a0, 0xFFFFFFFE; li a1, 0; li a2, 1; cv.addurnr a0, a1, a2)
TEST_CASE(99, a0, 0xFFFFFFFC, li a0, 3; li a1, 10; li a2, 1; cv.subnr a0, a1, a2)  /* (3 - 10) >>> 1 */
TEST_CASE(100, a0, 0x7FFFFFFC, li a0, 3; li a1, 10; li a2, 1; cv.subunr a0, a1, a2)
TEST_CASE(101, a0, 0xFFFFFFFD, li a0, 3; li a1, 10; li a2, 1; cv.subrnr a0, a1, a2)
TEST_CASE(102, a0, 0x7FFFFFFD, li a0, 3; li a1, 10; li a2, 1; cv.suburnr a0, a1, a2)
TEST_CASE(103, a0, 1, li a0, 0x80000000; li a1, 0; li a2, 31; cv.suburnr a0, a1, a2) /* 0xC0000000 >> 31 */
TEST_CASE(104, a0, 0, li a0, 5; cv.subnr a0, a0, zero)                               /* rD == rs1 */
TEST_CASE(105, a0, 20, li a0, 5; li a2, 0; cv.addnr a0, a0, a2; cv.addnr a0, a0, a2) /* 5 -> 10 -> 20 */

TEST_END
