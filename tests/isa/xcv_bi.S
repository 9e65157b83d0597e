/* xcvbi: cv.beqimm / cv.bneimm rs1, Imm5, target: branch when rs1 ==/!= Sext(Imm5).
 * Each case sets a0 to 1 on the taken path and to 2 on the fall-through path.
 */
#include "test_macros.h"

#define TAKEN(op, reg, imm) li a0, 2; op reg, imm, 10f; j 11f; 10: li a0, 1; 11:

TEST_BEGIN

/* beqimm */
TEST_CASE(1, a0, 1, li a1, -16; TAKEN(cv.beqimm, a1, -16))        /* most negative Imm5 */
TEST_CASE(2, a0, 2, li a1, 0x10; TAKEN(cv.beqimm, a1, -16))       /* Imm5 is sign-extended, not 0x10 */
TEST_CASE(3, a0, 1, li a1, 15; TAKEN(cv.beqimm, a1, 15))          /* most positive Imm5 */
TEST_CASE(4, a0, 2, li a1, 14; TAKEN(cv.beqimm, a1, 15))
TEST_CASE(5, a0, 1, TAKEN(cv.beqimm, zero, 0))
TEST_CASE(6, a0, 1, li a1, -1; TAKEN(cv.beqimm, a1, -1))
TEST_CASE(7, a0, 2, li a1, 0x1F; TAKEN(cv.beqimm, a1, -1))
TEST_CASE(8, a0, 2, li a1, 0x7FFFFFF0; TAKEN(cv.beqimm, a1, -16))  /* upper bits compared too */

/* bneimm */
TEST_CASE(9, a0, 1, li a1, 15; TAKEN(cv.bneimm, a1, 14))
TEST_CASE(10, a0, 2, li a1, 15; TAKEN(cv.bneimm, a1, 15))
TEST_CASE(11, a0, 2, li a1, -1; TAKEN(cv.bneimm, a1, -1))
TEST_CASE(12, a0, 1, li a1, 0x1F; TAKEN(cv.bneimm, a1, -1))
TEST_CASE(13, a0, 2, li a1, -16; TAKEN(cv.bneimm, a1, -16))
TEST_CASE(14, a0, 1, TAKEN(cv.bneimm, zero, 1))

/* backward branch: a loop of 5 iterations adding 3 */
TEST_CASE(15, a0, 15, li a0, 0; li a1, 5; 20: addi a0, a0, 3; addi a1, a1, -1; cv.bneimm a1, 0, 20b)
TEST_CASE(16, a0, 12, li a0, 0; li a1, -4; 21: addi a0, a0, 3; addi a1, a1, 1; cv.beqimm a1, -3, 21b; cv.bneimm a1, 0, 21b)

/* long forward offset (uses Imm12[11]): the skipped zeros would be illegal instructions */
TEST_CASE(17, a0, 7, li a0, 7; li a1, 3; cv.beqimm a1, 3, 30f; .skip 3000; li a0, 0; 30:)
/* long backward offset */
TEST_CASE(18, a0, 42, li a0, 0; j 32f; 31: li a0, 42; j 33f; .skip 3000; 32: li a1, 9; cv.bneimm a1, 8, 31b; li a0, 1; 33:)

TEST_END
