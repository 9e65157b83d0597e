/* A hardware loop whose body holds two instructions, with a trap handler installed: CV32E40P v2 raises no
 * exception for it, so the run still ends with the error (the handler would count a trap in s2). */
#include "hwloop.h"
    .section .text.init, "ax"
    .globl _start
_start:
    .option norvc
    la t0, handler
    csrw mtvec, t0
    .balign 4
    cv_setupi 0, 4, 1f
    addi a0, a0, 1
    addi a0, a0, 1
1:  csrw mtvec, zero /* the exit call goes to the host */
    li a7, 93
    mv a0, s2
    ecall

    .balign 256 /* mtvec holds a 256-byte aligned base */
handler:
    addi s2, s2, 1
    csrr t5, mepc
    addi t5, t5, 4
    csrw mepc, t5
    mret
