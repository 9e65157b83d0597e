/* A handler in the usual shape (saves and restores registers on the stack, then mret) that returns to the
 * illegal instruction it came from: every trap finds the registers and memory as the one before, forever. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li t1, 7
retry:
    .word 0xffffffff
    j retry
    .balign 256
handler:
    addi sp, sp, -16
    sw t0, 0(sp)
    sw t1, 4(sp)
    csrr t0, mcause
    addi t1, t0, 1
    lw t1, 4(sp)
    lw t0, 0(sp)
    addi sp, sp, 16
    mret
