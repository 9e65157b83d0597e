/* Reserved encodings in the Xpulp opcodes raise an illegal-instruction trap (mcause 2) and leave rD alone.
 * The handler records mcause in a5 and the trapping instruction (read at mepc) in a6 and skips the word.
 * Operands: rD = a0, rs1 = a1, rs2 = a2 where the encoding has them.
 */
#include "test_macros.h"

#define ILLEGAL(word) li a0, 0x55; li a5, 0; li a6, 0; .4byte word; li t6, 2; bne a5, t6, fail; li t6, 0x55; bne a0, t6, fail

TEST_BEGIN
    la t0, trap_handler
    csrw mtvec, t0

TEST_CASE(1, a6, 0x00C5D52B, ILLEGAL(0x00C5D52B))  /* custom-1 funct3 101 */
TEST_CASE(2, a6, 0x00C5E52B, ILLEGAL(0x00C5E52B))  /* custom-1 funct3 110 */
TEST_CASE(3, a6, 0x00C5F52B, ILLEGAL(0x00C5F52B))  /* custom-1 funct3 111 */
TEST_CASE(4, a6, 0x06C5B52B, ILLEGAL(0x06C5B52B))  /* custom-1 funct3 011, funct7 0x03: no such load */
TEST_CASE(5, a6, 0x26C5B52B, ILLEGAL(0x26C5B52B))  /* custom-1 funct3 011, funct7 0x13: no such store */
TEST_CASE(6, a6, 0x36C5B52B, ILLEGAL(0x36C5B52B))  /* custom-1 funct3 011, funct7 0x1B: between insertr and bclrr */
TEST_CASE(7, a6, 0x4AC5B52B, ILLEGAL(0x4AC5B52B))  /* custom-1 funct3 011, funct7 0x25: after cnt */
TEST_CASE(8, a6, 0x94C5B52B, ILLEGAL(0x94C5B52B))  /* custom-1 funct3 011, funct7 0x4A: after msu */
TEST_CASE(9, a6, 0xFEC5B52B, ILLEGAL(0xFEC5B52B))  /* custom-1 funct3 011, funct7 0x7F */
TEST_CASE(10, a6, 0x42C5B52B, ILLEGAL(0x42C5B52B))  /* cv.ff1 with rs2 != 0 */
TEST_CASE(11, a6, 0x5015B52B, ILLEGAL(0x5015B52B))  /* cv.abs with rs2 != 0 */
TEST_CASE(12, a6, 0x62C5B52B, ILLEGAL(0x62C5B52B))  /* cv.exthz with rs2 != 0 */
TEST_CASE(13, a6, 0xC225855B, ILLEGAL(0xC225855B))  /* custom-2 funct3 000, f2 11 */
TEST_CASE(14, a6, 0x8225955B, ILLEGAL(0x8225955B))  /* custom-2 funct3 001, f2 10 */
TEST_CASE(15, a6, 0xC825955B, ILLEGAL(0xC825955B))  /* cv.bitrev with bits 29:27 != 0 */
TEST_CASE(16, a6, 0x78C5857B, ILLEGAL(0x78C5857B))  /* SIMD F=0 funct5 01111 */
TEST_CASE(17, a6, 0x02C5857B, ILLEGAL(0x02C5857B))  /* cv.add.h with bit 25 set */
TEST_CASE(18, a6, 0x00C5A57B, ILLEGAL(0x00C5A57B))  /* cv.add with funct3 010 */
TEST_CASE(19, a6, 0x00C5B57B, ILLEGAL(0x00C5B57B))  /* cv.add with funct3 011 */
TEST_CASE(20, a6, 0x70C5857B, ILLEGAL(0x70C5857B))  /* cv.abs.h with rs2 != 0 */
TEST_CASE(21, a6, 0x7005C57B, ILLEGAL(0x7005C57B))  /* cv.abs with funct3 100 (no .sc form) */
TEST_CASE(22, a6, 0xB805E57B, ILLEGAL(0xB805E57B))  /* extract/insert group with funct3 110 */
TEST_CASE(23, a6, 0xC0C5C57B, ILLEGAL(0xC0C5C57B))  /* cv.shuffle with funct3 100 (no .sc form) */
TEST_CASE(24, a6, 0xC815E57B, ILLEGAL(0xC815E57B))  /* funct5 11001 with funct3 110 (shuffleI1 exists for .b only) */
TEST_CASE(25, a6, 0xE015F57B, ILLEGAL(0xE015F57B))  /* cv.shuffle2 with funct3 111 (no .sci form) */
TEST_CASE(26, a6, 0xE8C5857B, ILLEGAL(0xE8C5857B))  /* SIMD F=0 funct5 11101 */
TEST_CASE(27, a6, 0xF0C5957B, ILLEGAL(0xF0C5957B))  /* cv.pack with funct3 001 */
TEST_CASE(28, a6, 0xF8C5857B, ILLEGAL(0xF8C5857B))  /* cv.packlo.b with funct3 000 */
TEST_CASE(29, a6, 0x54C5957B, ILLEGAL(0x54C5957B))  /* cv.cplxmul with odd funct3 */
TEST_CASE(30, a6, 0x5CC5857B, ILLEGAL(0x5CC5857B))  /* cv.cplxconj with rs2 != 0 */
TEST_CASE(31, a6, 0x5C05A57B, ILLEGAL(0x5C05A57B))  /* cv.cplxconj with funct3 010 */
TEST_CASE(32, a6, 0x6CC5857B, ILLEGAL(0x6CC5857B))  /* F=1 funct5 01101 funct3 000 (add.divN has no undivided form) */
TEST_CASE(33, a6, 0x66C5857B, ILLEGAL(0x66C5857B))  /* cv.subrotmj with bit 25 set */
TEST_CASE(34, a6, 0x7CC5857B, ILLEGAL(0x7CC5857B))  /* SIMD F=1 funct5 01111 */
TEST_CASE(35, a6, 0x84C5857B, ILLEGAL(0x84C5857B))  /* SIMD F=1 funct5 10000 */
TEST_CASE(36, a6, 0xFEC5F57B, ILLEGAL(0xFEC5F57B))  /* SIMD F=1 funct5 11111 */
/* Immediates CV32E40P's decoder rejects (cv32e40p_decoder.sv, "Imm6 restrictions"): shifts by the lane
 * width or more, lane indices past the last lane, a .h shuffle selector above 3. */
TEST_CASE(37, a6, 0x4085E57B, ILLEGAL(0x4085E57B))  /* cv.srl.sci.h by 16 */
TEST_CASE(38, a6, 0x4BF5E57B, ILLEGAL(0x4BF5E57B))  /* cv.sra.sci.h by 63 */
TEST_CASE(39, a6, 0x5045F57B, ILLEGAL(0x5045F57B))  /* cv.sll.sci.b by 8 */
TEST_CASE(40, a6, 0xB815857B, ILLEGAL(0xB815857B))  /* cv.extract.h lane 2 */
TEST_CASE(41, a6, 0xB825B57B, ILLEGAL(0xB825B57B))  /* cv.extractu.b lane 4 */
TEST_CASE(42, a6, 0xBA15C57B, ILLEGAL(0xBA15C57B))  /* cv.insert.h lane 3 */
TEST_CASE(43, a6, 0xB825D57B, ILLEGAL(0xB825D57B))  /* cv.insert.b lane 4 */
TEST_CASE(44, a6, 0xC025E57B, ILLEGAL(0xC025E57B))  /* cv.shuffle.sci.h 4 */

TEST_END

.section .text
SKIPPING_TRAP_HANDLER
