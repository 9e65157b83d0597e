/* Start-up on the test bench: the FPU on (mstatus.FS), the counters running, the stack at the top of the RAM,
 * main(), then the exit register. */
    .section .text.init, "ax"
    .globl _start
_start:
    li t0, 0x2000
    csrs mstatus, t0
    csrw mcountinhibit, zero
    li sp, 0x400000
    call main
    li t0, 0x20000004
    sw a0, 0(t0)
1:  j 1b
