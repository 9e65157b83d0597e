/* A .bss of 2 GiB - 64 KiB linked at 0x80000000: no room is left for the stack below 4 GiB. Moved down
 * to 0x10000 (bad_input_test.py), its segments and stack make one region larger than bare mode models. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, big_buffer
    li a7, 93
    ecall
    .section .bss.big, "aw", @nobits
    .globl big_buffer
big_buffer:
    .space 0x7fff0000
