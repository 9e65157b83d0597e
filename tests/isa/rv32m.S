/* RV32M: multiplication (low and the three high-word forms) and division/remainder, signed and unsigned,
 * including the cases the M chapter of the unprivileged specification defines instead of trapping:
 * division by zero (quotient all ones, remainder = dividend) and INT_MIN / -1 (quotient INT_MIN,
 * remainder 0). Division truncates toward zero; the remainder takes the sign of the dividend.
 */
#include "qemu_exit.h"

#define INT_MIN 0x80000000
#define INT_MAX 0x7fffffff

#define TEST_RR(n, insn, expected, v1, v2) TEST_CASE(n, a0, expected, li a1, v1; li a2, v2; insn a0, a1, a2)

TEST_BEGIN

    // ---- mul: low 32 bits, the same for signed and unsigned operands ---------------------------------
    TEST_RR(1, mul, 21, 3, 7)
    TEST_RR(2, mul, -21, -3, 7)
    TEST_RR(3, mul, 21, -3, -7)
    TEST_RR(4, mul, INT_MIN, INT_MIN, -1)
    TEST_RR(5, mul, 1, -1, -1)
    TEST_RR(6, mul, 0x242d2080, 0x12345678, 0x9abcdef0)
    TEST_RR(7, mul, 0, 0x10000, 0x10000)          // 2^32 wraps to 0
    TEST_RR(8, mul, 0, INT_MIN, 2)
    TEST_RR(9, mul, 0, 0, -1)

    // ---- mulh: high word of signed x signed ---------------------------------------------------------
    TEST_RR(10, mulh, 0, -1, -1)                  // 1
    TEST_RR(11, mulh, -1, -1, 1)                  // -1 = 0xffffffff_ffffffff
    TEST_RR(12, mulh, 0x40000000, INT_MIN, INT_MIN) // 2^62
    TEST_RR(13, mulh, 0, INT_MIN, -1)             // 2^31
    TEST_RR(14, mulh, 0x3fffffff, INT_MAX, INT_MAX) // 2^62 - 2^32 + 1
    TEST_RR(15, mulh, 0xc0000000, INT_MIN, INT_MAX) // -2^62 + 2^31
    TEST_RR(16, mulh, 0xf8cc93d6, 0x12345678, 0x9abcdef0) // rs2 negative: mulhu - rs1
    TEST_RR(17, mulh, 1, 0x10000, 0x10000)
    TEST_RR(18, mulh, -1, 0x10000, -0x10000)      // -2^32

    // ---- mulhsu: rs1 signed, rs2 unsigned ----------------------------------------------------------
    TEST_RR(19, mulhsu, -1, -1, 0xffffffff)       // -(2^32 - 1)
    TEST_RR(20, mulhsu, INT_MIN, INT_MIN, 0xffffffff) // -2^63 + 2^31
    TEST_RR(21, mulhsu, 0, 1, 0xffffffff)
    TEST_RR(22, mulhsu, 0x7ffffffe, INT_MAX, 0xffffffff)
    TEST_RR(23, mulhsu, 0xc0000000, INT_MIN, INT_MIN) // rs2 = +2^31: -2^62
    TEST_RR(24, mulhsu, 0x0b00ea4e, 0x12345678, 0x9abcdef0) // rs1 positive: same as mulhu
    TEST_RR(25, mulhsu, -1, -1, 1)

    // ---- mulhu: high word of unsigned x unsigned ----------------------------------------------------
    TEST_RR(26, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff) // 2^64 - 2^33 + 1
    TEST_RR(27, mulhu, 1, INT_MIN, 2)
    TEST_RR(28, mulhu, 0x0b00ea4e, 0x12345678, 0x9abcdef0)
    TEST_RR(29, mulhu, 0x40000000, INT_MIN, INT_MIN)
    TEST_RR(30, mulhu, 0, 0xffffffff, 1)

    // ---- div: rounds toward zero ------------------------------------------------------------------
    TEST_RR(31, div, 3, 20, 6)
    TEST_RR(32, div, -3, -20, 6)
    TEST_RR(33, div, -3, 20, -6)
    TEST_RR(34, div, 3, -20, -6)
    TEST_RR(35, div, 0, 5, 6)
    TEST_RR(36, div, 0, -5, 6)
    TEST_RR(37, div, -1, 20, 0)                   // divide by zero: all ones
    TEST_RR(38, div, -1, -5, 0)
    TEST_RR(39, div, -1, 0, 0)
    TEST_RR(40, div, INT_MIN, INT_MIN, -1)        // overflow: the quotient is the dividend
    TEST_RR(41, div, INT_MIN, INT_MIN, 1)
    TEST_RR(42, div, -1, INT_MIN, INT_MAX)        // -2^31 / (2^31 - 1) = -1.00000000047
    TEST_RR(43, div, 0xf6e5d4c4, 0x12345679, -2)  // -152709948.5 truncates to -152709948

    // ---- divu -----------------------------------------------------------------------------------------
    TEST_RR(44, divu, 3, 20, 6)
    TEST_RR(45, divu, INT_MAX, 0xffffffff, 2)
    TEST_RR(46, divu, 0, INT_MIN, 0xffffffff)
    TEST_RR(47, divu, 1, 0xffffffff, 0xffffffff)
    TEST_RR(48, divu, 0x0aaaaaa9, -20, 24)        // 4294967276 / 24 = 178956969 rem 20
    TEST_RR(49, divu, 0xffffffff, 20, 0)          // divide by zero: 2^32 - 1
    TEST_RR(50, divu, 0xffffffff, 0, 0)
    TEST_RR(51, divu, 0, INT_MIN, -1)             // no signed overflow case in unsigned division

    // ---- rem: the sign of the dividend ------------------------------------------------------------
    TEST_RR(52, rem, 2, 20, 6)
    TEST_RR(53, rem, -2, -20, 6)
    TEST_RR(54, rem, 2, 20, -6)
    TEST_RR(55, rem, -2, -20, -6)
    TEST_RR(56, rem, -5, -5, 0)                   // divide by zero: the dividend
    TEST_RR(57, rem, 20, 20, 0)
    TEST_RR(58, rem, 0, INT_MIN, -1)              // overflow: 0
    TEST_RR(59, rem, -1, INT_MIN, INT_MAX)
    TEST_RR(60, rem, 0, 24, -6)                   // exact division

    // ---- remu ----------------------------------------------------------------------------------------
    TEST_RR(61, remu, 2, 20, 6)
    TEST_RR(62, remu, 0xf, 0xffffffff, 0x10)
    TEST_RR(63, remu, 0xfffffff5, -11, 0)         // divide by zero: the dividend
    TEST_RR(64, remu, INT_MIN, INT_MIN, 0xffffffff)
    TEST_RR(65, remu, 20, -20, 24)                // 4294967276 = 178956969 * 24 + 20
    TEST_RR(66, remu, 0, 0xffffffff, 0xffffffff)

    // ---- operand aliasing and x0 ---------------------------------------------------------------------
    TEST_CASE(67, a0, 49, li a0, 7; mul a0, a0, a0)
    TEST_CASE(68, a0, 1, li a0, -9; div a0, a0, a0)
    TEST_CASE(69, a0, 0, li a0, -9; rem a0, a0, a0)
    TEST_CASE(70, a0, 0, li a1, 3; mul x0, a1, a1; mv a0, x0)
    TEST_CASE(71, a0, -1, div a0, x0, x0)         // 0 / 0 by way of x0
    TEST_CASE(72, a0, 0, rem a0, x0, x0)
    // divide right after a multiply that feeds it
    TEST_CASE(73, a0, 7, li a1, 3; li a2, 14; mul a3, a1, a2; li a4, 6; divu a0, a3, a4)

    j pass

TEST_END
