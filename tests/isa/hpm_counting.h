/* What the performance-counter programs share: counting an event window, and a trap handler for the
 * illegal instructions some windows hold.
 */
#ifndef PULPSIM_HPM_COUNTING_H
#define PULPSIM_HPM_COUNTING_H

/* mhpmcounter3 counting `events` over the instructions that follow up to COUNTED: the count in a1. */
#define COUNT(events) li t0, events; csrw mhpmevent3, t0; csrr a0, mhpmcounter3
#define COUNTED csrr a1, mhpmcounter3; sub a1, a1, a0
#define EXPECT(n) li t6, n; bne a1, t6, fail

/* A handler that goes on after the trapping instruction (a 32-bit one), at a base CV32E40P's mtvec can hold:
 * 256-byte aligned. Place it after TEST_END. */
#define SKIP_TRAPPING_HANDLER                                                                                \
    .text;                                                                                                   \
    .balign 256;                                                                                             \
    skip_trapping:                                                                                           \
    csrr t5, mepc;                                                                                           \
    addi t5, t5, 4;                                                                                          \
    csrw mepc, t5;                                                                                           \
    mret

#endif
