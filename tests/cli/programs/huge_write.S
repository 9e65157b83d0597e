/* A write host call asking for 4 GiB - 1 bytes from a small buffer: bounded by the modelled memory. */
    .section .text.init, "ax"
    .globl _start
_start:
    li a0, 1
    la a1, message
    li a2, -1
    li a7, 64
    ecall
    li a0, 0
    li a7, 93
    ecall
    .section .rodata
message:
    .ascii "hi"
