/* Self-checking ISA test programs for bare mode.
 *
 * A program is TEST_BEGIN, a list of TEST_* cases, TEST_END. Each case sets gp to its number, runs its
 * instructions and compares one register with a value worked out by hand from the specification. The
 * first mismatch writes (number << 1) | 1 to `tohost` (pulpsim then exits with the case number); if every
 * case passes, 1 is written (exit 0). Registers t5, t6 and gp belong to the macros.
 */
#ifndef PULPSIM_TEST_MACROS_H
#define PULPSIM_TEST_MACROS_H

#define TESTNUM gp

#define TEST_BEGIN                                                                                           \
    .section .text.init, "ax";                                                                               \
    .globl _start;                                                                                           \
    _start:                                                                                                  \
    la sp, test_stack_top;                                                                                   \
    li TESTNUM, 0;

#define TEST_END                                                                                             \
    pass:                                                                                                    \
    li t5, 1;                                                                                                \
    la t6, tohost;                                                                                           \
    sw t5, 0(t6);                                                                                            \
    1 : j 1b;                                                                                                \
    fail:                                                                                                    \
    slli t5, TESTNUM, 1;                                                                                     \
    ori t5, t5, 1;                                                                                           \
    la t6, tohost;                                                                                           \
    sw t5, 0(t6);                                                                                            \
    2 : j 2b;                                                                                                \
    .section .tohost, "aw";                                                                                  \
    .balign 8;                                                                                               \
    .globl tohost;                                                                                           \
    tohost:                                                                                                  \
    .word 0, 0;                                                                                              \
    .section .bss;                                                                                           \
    .balign 16;                                                                                              \
    .space 4096;                                                                                             \
    test_stack_top:

/* Runs `code...` (instructions separated by ';') and checks that integer register `reg` == `expected`. */
#define TEST_CASE(n, reg, expected, code...)                                                                 \
    li TESTNUM, n;                                                                                           \
    code;                                                                                                    \
    li t6, expected;                                                                                         \
    bne reg, t6, fail;

/* Checks the raw bit pattern of FP register `freg` (moved to t5). */
#define TEST_FCASE(n, freg, expected_bits, code...)                                                          \
    li TESTNUM, n;                                                                                           \
    code;                                                                                                    \
    fmv.x.w t5, freg;                                                                                        \
    li t6, expected_bits;                                                                                    \
    bne t5, t6, fail;

/* A trap handler `trap_handler` (aligned as mtvec requires its base) that records mcause in a5 and the
 * trapping 32-bit instruction, read at mepc, in a6 (CV32E40P's mtval always reads 0), and resumes after it. */
#define SKIPPING_TRAP_HANDLER                                                                                \
    .balign 256;                                                                                             \
    trap_handler:                                                                                            \
    csrr a5, mcause;                                                                                         \
    csrr t0, mepc;                                                                                           \
    lw a6, 0(t0);                                                                                            \
    addi t0, t0, 4;                                                                                          \
    csrw mepc, t0;                                                                                           \
    mret;

/* Loads an FP register from a bit pattern. */
#define FLI(freg, bits_) li t5, bits_; fmv.w.x freg, t5

#endif
