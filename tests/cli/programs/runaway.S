/* Never ends: only --max-cycles stops it. */
    .section .text.init, "ax"
    .globl _start
_start:
1:  addi a0, a0, 1
    j 1b
