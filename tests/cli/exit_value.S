/* Exits (ecall 93) with the 32-bit value EXIT_VALUE (a -D definition). */
    .section .text.init, "ax"
    .globl _start
_start:
    li a0, EXIT_VALUE
    li a7, 93
    ecall
1:  j 1b
