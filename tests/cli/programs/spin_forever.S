/* Sets a value, then jumps to itself: nothing can ever change, so the run stops as a livelock at once
 * instead of at --max-cycles. A loop that changes a register (runaway.S) is not one. */
    .section .text.init, "ax"
    .globl _start
_start:
    li a0, 3
1:  bnez a0, 1b
