/* Installs a handler that is word aligned but not 256-byte aligned, then executes an illegal instruction.
 * CV32E40P keeps only bits 31:8 of the mtvec base, so the trap goes to _start, which does it all again:
 * the run ends at --max-cycles, and the message says where the traps went. */
    .section .text.init, "ax"
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    .word 0xffffffff
    .balign 64
handler:
    j handler
