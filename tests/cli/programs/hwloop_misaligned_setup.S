/* A cv.setupi at an address that is 2 mod 4: its PC-relative targets would not be word aligned. */
#include "hwloop.h"
    .section .text.init, "ax"
    .globl _start
_start:
    c.nop
    cv_setupi 0, 4, 1f
    .option norvc
    addi a0, a0, 1
    addi a0, a0, 1
    addi a0, a0, 1
1:  li a7, 93
    ecall
