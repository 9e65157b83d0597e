/* Stores to an address no memory answers. */
    .section .text.init, "ax"
    .globl _start
_start:
    li t0, 0x40000000
    sw t0, 0(t0)
    li a7, 93
    ecall
