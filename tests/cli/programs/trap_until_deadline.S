/* Retries a trapping instruction until mcycle (counting: CV32E40P starts with it inhibited) passes a
 * deadline, then exits 5. Between two traps the
 * registers and memory are the same each time; only the counter it reads moves on, so it is no livelock. */
    .section .text.init, "ax"
    .globl _start
_start:
    csrw mcountinhibit, zero
    la t0, handler
    csrw mtvec, t0
retry:
    .word 0xffffffff
    j retry
    .balign 256
handler:
    csrr t0, mcycle
    li t1, 20000
    bgeu t0, t1, done
    li t0, 0
    li t1, 0
    mret
done:
    csrw mtvec, zero
    li a0, 5
    li a7, 93
    ecall
1:  j 1b
