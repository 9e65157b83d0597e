/* A hardware loop whose body holds two instructions (at least three are required). */
#include "hwloop.h"
    .section .text.init, "ax"
    .globl _start
_start:
    .option norvc
    .balign 4
    cv_setupi 0, 4, 1f
    addi a0, a0, 1
    addi a0, a0, 1
1:  li a7, 93
    ecall
