/* Perf regions whose names a report must quote or escape: a comma and a quote, a line break, and bytes
   that are not UTF-8. Bare mode: a7 = 0x7000 opens a region (a0 = name, a1 = MACs), 0x7001 closes it.
   Each region lasts 3 cycles, so it declares at most 12 MACs: more would be more than a core can do. */
    .section .text.init, "ax"
    .globl _start
_start:
    la a0, name_comma
    li a1, 10
    li a7, 0x7000
    ecall
    li a7, 0x7001
    ecall
    la a0, name_newline
    li a1, 11
    li a7, 0x7000
    ecall
    li a7, 0x7001
    ecall
    la a0, name_latin1
    li a1, 12
    li a7, 0x7000
    ecall
    li a7, 0x7001
    ecall
    li a0, 0
    li a7, 93
    ecall
    .section .rodata
name_comma:
    .asciz "fw,\"tile\""
name_newline:
    .asciz "line\nbreak"
name_latin1:
    .asciz "caf\xe9\xff"
    /* A name the program holds but never opens: views limited to it show nothing, and say why. */
name_never:
    .asciz "never_opened"
