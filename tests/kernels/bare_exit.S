/* A program without the runtime (NO_RUNTIME, bare.ld): prints through the write host call and exits
 * through the exit host call with status 0. */
    .section .rodata
message:
    .ascii  "bare program: OK\n"
message_end:

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    li      a0, 1
    la      a1, message
    la      a2, message_end
    sub     a2, a2, a1
    li      a7, 64
    ecall
    li      a0, 0
    li      a7, 93
    ecall
1:  j       1b
