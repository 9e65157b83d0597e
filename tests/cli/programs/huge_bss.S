/* A 512 MiB .bss: more than bare mode models. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, big_buffer
    li a7, 93
    ecall
    .section .bss.big, "aw", @nobits
    .globl big_buffer
big_buffer:
    .space 512 * 1024 * 1024
