/* A hardware-loop body holding a compressed instruction (not allowed). */
#include "hwloop.h"
    .section .text.init, "ax"
    .globl _start
_start:
    .balign 4
    cv_setupi 0, 4, 1f
    .option norvc
    addi a0, a0, 1
    .option rvc
    c.addi a0, 1
    c.addi a0, 1
    .option norvc
    addi a0, a0, 1
1:  li a7, 93
    ecall
