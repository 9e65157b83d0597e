/* Polls a word of RAM that nothing will ever write: a livelock, found although no instruction jumps to
 * itself. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, flag
1:  lw t1, 0(t0)
    beqz t1, 1b
    li a0, 0
    li a7, 93
    ecall

    .data
    .p2align 2
flag:
    .word 0
