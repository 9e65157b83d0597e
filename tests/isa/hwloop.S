/* Hardware loops (XCVhwlp): all eight setup forms, counts 0, 1 and many, nesting, and the loop CSRs.
 * Expected values follow from the CV32E40P manual: a loop body runs lpcount times; with lpcount = 0 the
 * loop is inactive and the body runs once as straight-line code; loop 0 is the inner loop.
 */
#include "test_macros.h"
#include "hwloop.h"

    .option norvc
TEST_BEGIN
    /* 1: cv.setupi with 5 iterations of a 3-instruction body */
    li TESTNUM, 1
    li a0, 0
    .balign 4
    cv_setupi 0, 5, 1f
    addi a0, a0, 1
    addi a0, a0, 2
    addi a0, a0, 3
1:  li t6, 30
    bne a0, t6, fail

    /* 2: cv.setup from a register, 100 iterations */
    li TESTNUM, 2
    li a0, 0
    li a1, 100
    .balign 4
    cv_setup 0, a1, 1f
    addi a0, a0, 1
    nop
    nop
1:  li t6, 100
    bne a0, t6, fail

    /* 3: count 1: the body runs once and the loop ends */
    li TESTNUM, 3
    li a0, 0
    li a1, 1
    .balign 4
    cv_setup 0, a1, 1f
    addi a0, a0, 1
    nop
    nop
1:  li t6, 1
    bne a0, t6, fail
    csrr t5, 0xcc2      /* lpcount0 is 0 after the last iteration */
    bnez t5, fail

    /* 4: count 0: the loop is not active, so the body runs once as ordinary code */
    li TESTNUM, 4
    li a0, 0
    .balign 4
    cv_setup 0, zero, 1f
    addi a0, a0, 1
    nop
    nop
1:  li t6, 1
    bne a0, t6, fail

    /* 5: nested loops: outer (loop 1) 4 times, inner (loop 0) 6 times: a0 = 24, a1 = 4 */
    li TESTNUM, 5
    li a0, 0
    li a1, 0
    li a2, 6
    .balign 4
    cv_setupi 1, 4, 2f
    cv_setup 0, a2, 1f
    addi a0, a0, 1
    nop
    nop
1:  addi a1, a1, 1
    nop
2:  li t6, 24
    bne a0, t6, fail
    li t6, 4
    bne a1, t6, fail

    /* 6: the long forms cv.starti / cv.endi / cv.counti, loop 1 */
    li TESTNUM, 6
    li a0, 0
    .balign 4
    cv_starti 1, 3f
    cv_endi 1, 4f
    cv_counti 1, 7
3:  addi a0, a0, 2
    nop
    nop
4:  li t6, 14
    bne a0, t6, fail

    /* 7: register forms cv.start / cv.end / cv.count, and the loop CSRs while set up */
    li TESTNUM, 7
    li a0, 0
    la a3, 3f
    la a4, 4f
    li a5, 9
    .balign 4
    cv_start 0, a3
    cv_end 0, a4
    csrr t3, 0xcc0      /* lpstart0 */
    csrr t4, 0xcc1      /* lpend0 */
    bne t3, a3, fail
    bne t4, a4, fail
    cv_count 0, a5
3:  addi a0, a0, 3
    nop
    nop
4:  li t6, 27
    bne a0, t6, fail

    /* 8: a load-use inside the body still gives the right values across the back-edge */
    li TESTNUM, 8
    la a3, data
    li a0, 0
    .balign 4
    cv_setupi 0, 4, 1f
    lw a1, 0(a3)
    add a0, a0, a1
    addi a3, a3, 4
1:  li t6, 1 + 2 + 3 + 4
    bne a0, t6, fail

    /* 9: post-loop CSR values of loop 1 (from case 6): start/end stay, count is 0 */
    li TESTNUM, 9
    csrr t5, 0xcc6
    bnez t5, fail
TEST_END

    .data
    .balign 4
data: .word 1, 2, 3, 4
