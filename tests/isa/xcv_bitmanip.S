/* xcvbitmanip: extract/extractu/insert/bclr/bset (immediate forms: Is3 = length - 1, Is2 = position;
 * register forms: rs2[9:5], rs2[4:0]), ff1, fl1, clb, cnt, ror and bitrev.
 */
#include "test_macros.h"

/* rs2 operand of the register forms */
#define FIELD(len1, pos) (((len1) << 5) | (pos))

TEST_BEGIN

/* ---- cv.extract: Sext(rs1[min(Is3+Is2,31):Is2]) ---- */
TEST_CASE(1, a0, 0xFFFFFFFF, li a1, 0x0000F000; cv.extract a0, a1, 3, 12)   /* 1111 */
TEST_CASE(2, a0, 7, li a1, 0x00007000; cv.extract a0, a1, 3, 12)            /* 0111 */
TEST_CASE(3, a0, 0xFFFFFFF8, li a1, 0x80000000; cv.extract a0, a1, 7, 28)   /* clamped to 31:28 = 1000 */
TEST_CASE(4, a0, 0x12345678, li a1, 0x12345678; cv.extract a0, a1, 31, 0)
TEST_CASE(5, a0, 0, li a1, 0xABCD1234; cv.extract a0, a1, 0, 0)             /* one bit, 0 */
TEST_CASE(6, a0, 0xFFFFFFFF, li a1, 0x00000001; cv.extract a0, a1, 0, 0)    /* one bit, 1 */
TEST_CASE(7, a0, 0xFFFFABCD, li a1, 0xABCD1234; cv.extract a0, a1, 15, 16)
TEST_CASE(8, a0, 0xFFFFFFFF, li a1, 0x80000000; cv.extract a0, a1, 0, 31)
/* ---- cv.extractu: Zext(...) ---- */
TEST_CASE(9, a0, 0xF, li a1, 0x0000F000; cv.extractu a0, a1, 3, 12)
TEST_CASE(10, a0, 0xA, li a1, 0xA0000000; cv.extractu a0, a1, 7, 28)       /* clamped to 31:28 */
TEST_CASE(11, a0, 0xABCD, li a1, 0xABCD1234; cv.extractu a0, a1, 15, 16)
TEST_CASE(12, a0, 0xFFFFFFFF, li a1, 0xFFFFFFFF; cv.extractu a0, a1, 31, 0)
TEST_CASE(13, a0, 0x1A2, li a1, 0x00068800; cv.extractu a0, a1, 8, 10)     /* bits 18:10 = 1 1010 0010 */
/* ---- register forms ---- */
TEST_CASE(14, a0, 0xFFFFABCD, li a1, 0xABCD1234; li a2, FIELD(15, 16); cv.extractr a0, a1, a2)
TEST_CASE(15, a0, 0xABCD, li a1, 0xABCD1234; li a2, FIELD(15, 16); cv.extractur a0, a1, a2)
TEST_CASE(16, a0, 0xABCD, li a1, 0xABCD1234; li a2, 0xFFFFFC00 | FIELD(15, 16); cv.extractur a0, a1, a2) /* rs2[31:10] ignored */
TEST_CASE(17, a0, 0xFFFFFFF8, li a1, 0x80000000; li a2, FIELD(7, 28); cv.extractr a0, a1, a2)
TEST_CASE(18, a0, 0x4, li a1, 0x00000010; li a2, FIELD(2, 2); cv.extractur a0, a1, a2)       /* bits 4:2 = 100 */
TEST_CASE(19, a0, 0xFFFFFFFC, li a1, 0x00000010; li a2, FIELD(2, 2); cv.extractr a0, a1, a2)  /* Sext(100) = -4 */

/* ---- cv.insert: rD[min(Is3+Is2,31):Is2] = rs1[low bits], the rest of rD unchanged ---- */
TEST_CASE(20, a0, 0xFFFF00FF, li a0, 0xFFFFFFFF; li a1, 0; cv.insert a0, a1, 7, 8)
TEST_CASE(21, a0, 0x00000030, li a0, 0; li a1, 0x123; cv.insert a0, a1, 3, 4)            /* rs1[3:0] = 3 */
TEST_CASE(22, a0, 0xF2345678, li a0, 0x12345678; li a1, 0xABCDEF; cv.insert a0, a1, 7, 28) /* rs1[3:0] to 31:28 */
TEST_CASE(23, a0, 0x87654321, li a0, 0x12345678; li a1, 0x87654321; cv.insert a0, a1, 31, 0)
TEST_CASE(24, a0, 0x80000000, li a0, 0; li a1, 1; cv.insert a0, a1, 0, 31)
TEST_CASE(25, a0, 0x0000000F, li a0, 0; li a1, 0xFFFF; li a2, FIELD(3, 0); cv.insertr a0, a1, a2)
TEST_CASE(26, a0, 0x1234AB78, li a0, 0x12345678; li a1, 0xAB; li a2, FIELD(7, 8); cv.insertr a0, a1, a2)

/* ---- cv.bclr / cv.bset ---- */
TEST_CASE(27, a0, 0xFFFF00FF, li a1, 0xFFFFFFFF; cv.bclr a0, a1, 7, 8)
TEST_CASE(28, a0, 0, li a1, 0xFFFFFFFF; cv.bclr a0, a1, 31, 0)
TEST_CASE(29, a0, 0x3FFFFFFF, li a1, 0xFFFFFFFF; cv.bclr a0, a1, 3, 30)                  /* clamped: 31:30 */
TEST_CASE(30, a0, 0x12345670, li a1, 0x12345678; cv.bclr a0, a1, 3, 0)
TEST_CASE(31, a0, 0x0000FF00, li a1, 0; cv.bset a0, a1, 7, 8)
TEST_CASE(32, a0, 0xC0000000, li a1, 0; cv.bset a0, a1, 3, 30)
TEST_CASE(33, a0, 0x12340001, li a1, 0x12340000; cv.bset a0, a1, 0, 0)
TEST_CASE(34, a0, 0xFFFFFFFF, li a1, 0; cv.bset a0, a1, 31, 0)
TEST_CASE(35, a0, 0xFFFF00FF, li a1, 0xFFFFFFFF; li a2, FIELD(7, 8); cv.bclrr a0, a1, a2)
TEST_CASE(36, a0, 0x0000FF00, li a1, 0; li a2, FIELD(7, 8); cv.bsetr a0, a1, a2)
TEST_CASE(37, a0, 0x80000000, li a1, 0; li a2, 0xFFFFFC00 | FIELD(0, 31); cv.bsetr a0, a1, a2)

/* ---- cv.ror ---- */
TEST_CASE(38, a0, 0x78123456, li a1, 0x12345678; li a2, 8; cv.ror a0, a1, a2)
TEST_CASE(39, a0, 0x12345678, li a1, 0x12345678; li a2, 0; cv.ror a0, a1, a2)
TEST_CASE(40, a0, 0xC0000000, li a1, 0x80000001; li a2, 1; cv.ror a0, a1, a2)
TEST_CASE(41, a0, 0x2468ACF0, li a1, 0x12345678; li a2, 31; cv.ror a0, a1, a2)   /* = rotate left by 1 */

/* ---- cv.ff1: index of the lowest set bit, 32 for 0 ---- */
TEST_CASE(42, a0, 3, li a1, 0x00000008; cv.ff1 a0, a1)
TEST_CASE(43, a0, 31, li a1, 0x80000000; cv.ff1 a0, a1)
TEST_CASE(44, a0, 32, li a1, 0; cv.ff1 a0, a1)
TEST_CASE(45, a0, 0, li a1, 0xFFFFFFFF; cv.ff1 a0, a1)
TEST_CASE(46, a0, 4, li a1, 0x0F0F0F30 - 0x20; cv.ff1 a0, a1)                     /* 0x0F0F0F10 */
/* ---- cv.fl1: index of the highest set bit, 32 for 0 ---- */
TEST_CASE(47, a0, 3, li a1, 0x00000008; cv.fl1 a0, a1)
TEST_CASE(48, a0, 0, li a1, 1; cv.fl1 a0, a1)
TEST_CASE(49, a0, 31, li a1, 0x80000001; cv.fl1 a0, a1)
TEST_CASE(50, a0, 32, li a1, 0; cv.fl1 a0, a1)
TEST_CASE(51, a0, 23, li a1, 0x00F00000; cv.fl1 a0, a1)
/* ---- cv.clb: leading bits equal to bit 31, minus one; 0 for 0 ---- */
TEST_CASE(52, a0, 0, li a1, 0; cv.clb a0, a1)
TEST_CASE(53, a0, 31, li a1, 0xFFFFFFFF; cv.clb a0, a1)
TEST_CASE(54, a0, 30, li a1, 1; cv.clb a0, a1)
TEST_CASE(55, a0, 15, li a1, 0x0000FFFF; cv.clb a0, a1)
TEST_CASE(56, a0, 15, li a1, 0xFFFF0000; cv.clb a0, a1)
TEST_CASE(57, a0, 0, li a1, 0x40000000; cv.clb a0, a1)
TEST_CASE(58, a0, 0, li a1, 0x80000000; cv.clb a0, a1)
TEST_CASE(59, a0, 3, li a1, 0xF7FFFFFF; cv.clb a0, a1)                            /* 1111 0... */
/* ---- cv.cnt ---- */
TEST_CASE(60, a0, 0, li a1, 0; cv.cnt a0, a1)
TEST_CASE(61, a0, 32, li a1, 0xFFFFFFFF; cv.cnt a0, a1)
TEST_CASE(62, a0, 13, li a1, 0x12345678; cv.cnt a0, a1)                           /* 1+1+2+1+2+2+3+1 */
TEST_CASE(63, a0, 1, li a1, 0x80000000; cv.cnt a0, a1)

/* ---- cv.bitrev rD, rs1, Is3 (radix 2^(Is3+1)), Is2 (bits dropped at the top) ---- */
/* the three examples of the manual */
TEST_CASE(64, a0, 0x0CC9A526, li a1, 0xC64A5933; cv.bitrev a0, a1, 0, 4)
TEST_CASE(65, a0, 0x0CC65A19, li a1, 0xC64A5933; cv.bitrev a0, a1, 1, 4)
TEST_CASE(66, a0, 0x216B244B, li a1, 0xC64A5933; cv.bitrev a0, a1, 2, 4)
/* radix-2: bit k <-> bit 31-k */
TEST_CASE(67, a0, 0x80000000, li a1, 1; cv.bitrev a0, a1, 0, 0)
TEST_CASE(68, a0, 1, li a1, 0x80000000; cv.bitrev a0, a1, 0, 0)
TEST_CASE(69, a0, 1, li a1, 1; cv.bitrev a0, a1, 0, 31)                           /* 1 << 31, reversed */
TEST_CASE(70, a0, 0x0000001E, li a1, 0x0000000F; cv.bitrev a0, a1, 0, 27)        /* 0x78000000: bits 30:27 -> 1:4 */
/* Is3 = 3 behaves as radix-2 */
TEST_CASE(71, a0, 0x80000000, li a1, 1; cv.bitrev a0, a1, 3, 0)
/* radix-4: the 2-bit group at 1:0 moves to 31:30 keeping its bit order */
TEST_CASE(72, a0, 0x40000000, li a1, 1; cv.bitrev a0, a1, 1, 0)
TEST_CASE(73, a0, 0x00000002, li a1, 0x80000000; cv.bitrev a0, a1, 1, 0)
/* radix-8: groups 31:29 ... 4:2, bits 1:0 lost; group 4:2 goes to 29:27 and 31:29 to 2:0 */
TEST_CASE(74, a0, 0x08000000, li a1, 7; cv.bitrev a0, a1, 2, 0)                   /* only bit 2 survives */
TEST_CASE(75, a0, 7, li a1, 0xE0000000; cv.bitrev a0, a1, 2, 0)
TEST_CASE(76, a0, 0, li a1, 3; cv.bitrev a0, a1, 2, 0)

TEST_END
