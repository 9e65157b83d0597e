/* xcvmem: post-increment loads and stores (immediate and register offsets), register-register loads and
 * stores; xcvelw: cv.elw behaves as a load word on a single core.
 *
 * src holds the bytes (offset: value)
 *   0: 81 02 83 04   4: F5 86 07 88   8: 44 33 22 11   12: BB AA 99 88
 * so, little-endian: half@0 = 0x0281, half@2 = 0x0483, half@4 = 0x86F5, half@6 = 0x8807,
 * word@0 = 0x04830281, word@8 = 0x11223344, word@12 = 0x8899AABB.
 */
#include "test_macros.h"

TEST_BEGIN

/* ---- post-increment loads, immediate offset: rD = Mem(rs1); rs1 += Sext(imm) ---- */
TEST_CASE(1, a0, 0xFFFFFF81, la a1, src; cv.lb a0, (a1), 1)                     /* sext(0x81) */
TEST_CASE(2, a3, 1, la a1, src; cv.lb a0, (a1), 1; la a2, src; sub a3, a1, a2)  /* rs1 advanced by 1 */
TEST_CASE(3, a0, 0x83, la a1, src + 2; cv.lbu a0, (a1), -1)                     /* zext(0x83) */
TEST_CASE(4, a3, 1, la a1, src + 2; cv.lbu a0, (a1), -1; la a2, src; sub a3, a1, a2) /* 2 - 1 */
TEST_CASE(5, a0, 0xFFFF86F5, la a1, src + 4; cv.lh a0, (a1), 2)                 /* sext(0x86F5) */
TEST_CASE(6, a3, 6, la a1, src + 4; cv.lh a0, (a1), 2; la a2, src; sub a3, a1, a2)
TEST_CASE(7, a0, 0x00000483, la a1, src + 2; cv.lh a0, (a1), 0)                 /* positive half */
TEST_CASE(8, a0, 0x00008807, la a1, src + 6; cv.lhu a0, (a1), -6)               /* zext(0x8807) */
TEST_CASE(9, a3, 0, la a1, src + 6; cv.lhu a0, (a1), -6; la a2, src; sub a3, a1, a2)
TEST_CASE(10, a0, 0x11223344, la a1, src + 8; cv.lw a0, (a1), 4)
TEST_CASE(11, a3, 12, la a1, src + 8; cv.lw a0, (a1), 4; la a2, src; sub a3, a1, a2)
TEST_CASE(12, a3, 2055, la a1, src + 8; cv.lw a0, (a1), 2047; la a2, src; sub a3, a1, a2) /* 8 + 2047 */
TEST_CASE(13, a3, -2040, la a1, src + 8; cv.lw a0, (a1), -2048; la a2, src; sub a3, a1, a2) /* 8 - 2048 */
/* rD == rs1: the loaded value wins over the incremented address */
TEST_CASE(14, a1, 0x8899AABB, la a1, src + 12; cv.lw a1, (a1), 4)
TEST_CASE(15, a1, 0xFFFFFFF5, la a1, src + 4; cv.lb a1, (a1), 100)
TEST_CASE(16, a1, 0x000086F5, la a1, src + 4; cv.lhu a1, (a1), -4)
/* rD = x0: only the address register changes */
TEST_CASE(17, a3, 4, la a1, src; cv.lw x0, (a1), 4; la a2, src; sub a3, a1, a2)
/* misaligned accesses: bytes 02 83 04 F5 and 04 F5 */
TEST_CASE(18, a0, 0xF5048302, la a1, src + 1; cv.lw a0, (a1), 4)
TEST_CASE(19, a0, 0xFFFFF504, la a1, src + 3; cv.lh a0, (a1), 4)

/* ---- post-increment loads, register offset: rD = Mem(rs1); rs1 += rs2 ---- */
TEST_CASE(20, a0, 0x81, la a1, src; li a2, 3; cv.lbu a0, (a1), a2)
TEST_CASE(21, a3, 3, la a1, src; li a2, 3; cv.lbu a0, (a1), a2; la a4, src; sub a3, a1, a4)
TEST_CASE(22, a0, 0xFFFFFF88, la a1, src + 7; li a2, -2; cv.lb a0, (a1), a2)  /* sext(0x88) */
TEST_CASE(23, a3, 5, la a1, src + 7; li a2, -2; cv.lb a0, (a1), a2; la a4, src; sub a3, a1, a4)
TEST_CASE(24, a0, 0x00000483, la a1, src + 2; li a2, 6; cv.lh a0, (a1), a2)
TEST_CASE(25, a3, 8, la a1, src + 2; li a2, 6; cv.lh a0, (a1), a2; la a4, src; sub a3, a1, a4)
TEST_CASE(26, a0, 0x000086F5, la a1, src + 4; li a2, 100; cv.lhu a0, (a1), a2)
TEST_CASE(27, a0, 0x8899AABB, la a1, src + 12; li a2, -12; cv.lw a0, (a1), a2)
TEST_CASE(28, a3, 0, la a1, src + 12; li a2, -12; cv.lw a0, (a1), a2; la a4, src; sub a3, a1, a4)
TEST_CASE(29, a1, 0x11223344, la a1, src + 8; li a2, 4; cv.lw a1, (a1), a2)  /* rD == rs1 */
TEST_CASE(30, a1, 0xFFFFFF83, la a1, src + 2; li a2, 1; cv.lb a1, (a1), a2)  /* rD == rs1 */
/* rs2 == rs1: the offset is the old base */
TEST_CASE(31, a3, 0, la a1, src; mv a2, a1; cv.lbu a0, (a1), a1; slli a2, a2, 1; sub a3, a1, a2) /* rs1 = 2 * src */

/* ---- register-register loads: rD = Mem(rs1 + rs2), rs1 unchanged ---- */
TEST_CASE(32, a0, 0xFFFFFF86, la a1, src; li a2, 5; cv.lb a0, a2(a1))
TEST_CASE(33, a3, 0, la a1, src; li a2, 5; cv.lb a0, a2(a1); la a4, src; sub a3, a1, a4)
TEST_CASE(34, a0, 0x86, la a1, src; li a2, 5; cv.lbu a0, a2(a1))
TEST_CASE(35, a0, 0xFFFF86F5, la a1, src + 8; li a2, -4; cv.lh a0, a2(a1))
TEST_CASE(36, a0, 0x00008807, la a1, src + 8; li a2, -2; cv.lhu a0, a2(a1))
TEST_CASE(37, a0, 0x11223344, la a1, src + 16; li a2, -8; cv.lw a0, a2(a1))
TEST_CASE(38, a1, 0x04830281, la a1, src; li a2, 0; cv.lw a1, a2(a1))            /* rD == rs1 */
TEST_CASE(39, a0, 0x0483, la a2, src; li a1, 2; cv.lhu a0, a2(a1))               /* base/offset swapped */

/* ---- post-increment stores, immediate offset: Mem(rs1) = rs2; rs1 += Sext(imm) ---- */
TEST_CASE(40, a3, 0xA5, la a1, dst; li a0, 0x123456A5; cv.sb a0, (a1), 1; la a4, dst; lbu a3, 0(a4))
TEST_CASE(41, a3, 1, la a1, dst; li a0, 0x5A; cv.sb a0, (a1), 1; la a4, dst; sub a3, a1, a4)
TEST_CASE(42, a3, 0xBEEF, la a1, dst + 6; li a0, 0x1234BEEF; cv.sh a0, (a1), -2; la a4, dst; lhu a3, 6(a4))
TEST_CASE(43, a3, 4, la a1, dst + 6; li a0, 0; cv.sh a0, (a1), -2; la a4, dst; sub a3, a1, a4)
TEST_CASE(44, a3, 0xCAFEF00D, la a1, dst + 8; li a0, 0xCAFEF00D; cv.sw a0, (a1), 4; la a4, dst; lw a3, 8(a4))
TEST_CASE(45, a3, 12, la a1, dst + 8; cv.sw a0, (a1), 4; la a4, dst; sub a3, a1, a4)
/* rs2 == rs1: the old address is stored */
TEST_CASE(46, a3, 0, la a1, dst + 12; cv.sw a1, (a1), 4; la a4, dst + 12; lw a3, 0(a4); sub a3, a3, a4)
TEST_CASE(47, a3, 4, la a1, dst + 12; cv.sw a1, (a1), 4; la a4, dst + 12; sub a3, a1, a4)

/* ---- post-increment stores, register offset: Mem(rs1) = rs2; rs1 += rs3 ---- */
TEST_CASE(48, a3, 0x77, la a1, dst + 16; li a2, 0x377; li a4, 3; cv.sb a2, (a1), a4; la a4, dst; lbu a3, 16(a4))
TEST_CASE(49, a3, 19, la a1, dst + 16; li a2, 0x377; li a4, 3; cv.sb a2, (a1), a4; la a4, dst; sub a3, a1, a4)
TEST_CASE(50, a3, 0x5678, la a1, dst + 20; li a2, 0x12345678; li a4, -2; cv.sh a2, (a1), a4; la a4, dst; lhu a3, 20(a4))
TEST_CASE(51, a3, 18, la a1, dst + 20; li a2, 0x12345678; li a4, -2; cv.sh a2, (a1), a4; la a4, dst; sub a3, a1, a4)
TEST_CASE(52, a3, 0x0BADF00D, la a1, dst + 24; li a2, 0x0BADF00D; li a4, 4; cv.sw a2, (a1), a4; la a4, dst; lw a3, 24(a4))
TEST_CASE(53, a3, 28, la a1, dst + 24; li a2, 1; li a4, 4; cv.sw a2, (a1), a4; la a4, dst; sub a3, a1, a4)

/* ---- register-register stores: Mem(rs1 + rs3) = rs2, rs1 unchanged ---- */
TEST_CASE(54, a3, 0xAB, la a1, dst; li a2, 0xFFAB; li a4, 28; cv.sb a2, a4(a1); la a4, dst; lbu a3, 28(a4))
TEST_CASE(55, a3, 0, la a1, dst; li a2, 0xFFAB; li a4, 28; cv.sb a2, a4(a1); la a4, dst; sub a3, a1, a4)
TEST_CASE(56, a3, 0xFACE, la a1, dst + 32; li a2, 0xFACE; li a4, -2; cv.sh a2, a4(a1); la a4, dst; lhu a3, 30(a4))
TEST_CASE(57, a3, 0x13579BDF, la a1, dst; li a2, 0x13579BDF; li a4, 32; cv.sw a2, a4(a1); la a4, dst; lw a3, 32(a4))
/* misaligned store: bytes 11 22 33 44 at dst+37..40 */
TEST_CASE(58, a3, 0x11, la a1, dst + 37; li a2, 0x44332211; cv.sw a2, (a1), 0; la a4, dst; lbu a3, 37(a4))
TEST_CASE(59, a3, 0x44, la a4, dst; lbu a3, 40(a4))

/* ---- cv.elw: rD = Mem32(Sext(imm) + rs1) ---- */
TEST_CASE(60, a0, 0x11223344, la a1, src; cv.elw a0, 8(a1))
TEST_CASE(61, a0, 0x8899AABB, la a1, src + 16; cv.elw a0, -4(a1))
TEST_CASE(62, a1, 0x04830281, la a1, src; cv.elw a1, 0(a1))
TEST_CASE(63, a3, 0, la a1, src; cv.elw a0, 4(a1); la a4, src; sub a3, a1, a4)  /* no write-back */

TEST_END

.section .data
.balign 16
src:
    .byte 0x81, 0x02, 0x83, 0x04, 0xF5, 0x86, 0x07, 0x88
    .word 0x11223344, 0x8899AABB
.balign 16
dst:
    .space 48
