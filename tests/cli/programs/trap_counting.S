/* Returns to the illegal instruction after every trap, as trap_retry does, but its handler counts the traps
 * in memory: no two traps find the same state, so this is no livelock, and only --max-cycles stops it. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
retry:
    .word 0xffffffff
    j retry
    .balign 256
handler:
    la t0, traps
    lw t1, 0(t0)
    addi t1, t1, 1
    sw t1, 0(t0)
    li t1, 0
    mret
    .data
    .balign 4
traps:
    .word 0
