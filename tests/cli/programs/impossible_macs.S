/* Declares a region of a few cycles with 2^32 - 1 MACs, which no core can do: the run warns that the
 * region's MAC/cycle is wrong, and still exits 0. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, name
    li a1, -1
    li a7, 0x7000
    ecall
    nop
    li a7, 0x7001
    ecall
    li a0, 0
    li a7, 93
    ecall
1:  j 1b

    .section .rodata
name:
    .asciz "dot"
