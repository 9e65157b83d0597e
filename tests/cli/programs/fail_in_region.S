/* A program that fails inside a region: it opens "broken" (declaring far more MACs than its few cycles
 * allow) and exits with status 1 without closing it. A failed run's open region is no result: it shows no
 * run, the run declares no MACs, and the simulator warns of neither. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, name
    li a1, 1000000
    li a7, 0x7000
    ecall
    nop
    li a0, 1
    li a7, 93
    ecall
1:  j 1b

    .section .rodata
name:
    .asciz "broken"
