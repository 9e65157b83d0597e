/* An ecall as a loop body's last instruction, with a handler that returns past it without counting the
 * round (the CV32E40P manual asks it to): the loop leaves its body still counting 1, and the next loop's
 * cv.starti then changes the start of a loop whose count is not 0. */
#include "hwloop.h"
    .section .text.init, "ax"
    .globl _start
_start:
    .option norvc
    la t0, handler
    csrw mtvec, t0
    .balign 4
    cv_loopi_begin 0, 1, 1f
    addi a0, a0, 1
    addi a0, a0, 1
    ecall
1:  cv_loop_end
    .balign 4
    cv_starti 0, 2f
    cv_endi 0, 3f
    cv_counti 0, 2
2:  addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
3:  li a7, 93
    ecall

    .balign 256 /* mtvec holds a 256-byte aligned base */
handler:
    csrr t5, mepc
    addi t5, t5, 4
    csrw mepc, t5
    mret
