/* Runs into an undefined encoding: pulpsim must stop with "illegal instruction 0xffffffff at pc ...". */
    .section .text.init, "ax"
    .globl _start
_start:
    li a0, 1
    .word 0xffffffff
