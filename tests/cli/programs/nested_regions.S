/* Perf regions inside another, and one the program leaves open: "outer" (8 MACs) runs "inner" (1 MAC) twice;
 * then "left_open" (2 MACs) opens and the program exits without closing it. The run's MACs are those of the
 * outermost regions (8 + 2), each region keeps its own (outer 8, inner 2, left_open 2), and the run warns
 * that left_open was still open at the exit. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, name_outer
    li a1, 8
    li a7, 0x7000
    ecall
    la s0, name_inner
    li s1, 2
1:  mv a0, s0
    li a1, 1
    li a7, 0x7000
    ecall
    nop
    nop
    li a7, 0x7001
    ecall
    addi s1, s1, -1
    bnez s1, 1b
    li a7, 0x7001
    ecall
    la a0, name_left_open
    li a1, 2
    li a7, 0x7000
    ecall
    nop
    nop
    li a0, 0
    li a7, 93
    ecall
2:  j 2b

    .section .rodata
name_outer:
    .asciz "outer"
name_inner:
    .asciz "inner"
name_left_open:
    .asciz "left_open"
