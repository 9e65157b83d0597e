/* A program that fails inside a region: inside "step" it opens "broken" (declaring far more MACs than its
 * few cycles allow) and exits with status 1 without closing either. A failed run's open region is no result:
 * it shows no run, the run declares no MACs, and the simulator warns of neither, only of the failure inside
 * "broken". */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, outer
    li a1, 0
    li a7, 0x7000
    ecall
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
outer:
    .asciz "step"
name:
    .asciz "broken"
