/* With a trap handler installed, a hardware-loop setup that breaks the CV32E40P rules raises an
 * illegal-instruction trap (mcause 2; mtval reads 0, as CV32E40P does not implement it) instead of ending
 * the run. */
#include "test_macros.h"
#include "hwloop.h"

    .option norvc
TEST_BEGIN
    la t0, handler
    csrw mtvec, t0
    li s2, 0            /* traps taken */

    /* 1: a body of two instructions */
    li TESTNUM, 1
    .balign 4
bad_setup:
    cv_setupi 0, 4, 1f
    addi a0, a0, 1
    addi a0, a0, 1
1:  li t6, 1
    bne s2, t6, fail
    csrr t5, mcause
    li t6, 2
    bne t5, t6, fail
    csrr t5, mepc       /* the handler stepped mepc past the setup instruction */
    la t6, bad_setup + 4
    bne t5, t6, fail
    csrr t5, mtval
    bnez t5, fail
    csrr t5, 0xcc2      /* the malformed loop was not armed */
    bnez t5, fail
TEST_END

    .text
    .balign 256 /* mtvec holds a 256-byte aligned base */
handler:
    addi s2, s2, 1
    csrr t5, mepc
    addi t5, t5, 4
    csrw mepc, t5
    mret
