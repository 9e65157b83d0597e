/* Performance counters: mhpmevent selection, mcountinhibit, and counter writes (CV32E40P event bits:
 * 1 INSTR, 2 LD_STALL, 5 LD, 6 ST, 8 BRANCH, 9 BRANCH_TAKEN, 10 COMP_INSTR).
 * A csrr of a counter returns the value before that csrr retires.
 */
#include "test_macros.h"

    .option norvc
TEST_BEGIN
    la s1, data

    /* 1: counters are inhibited out of reset, so mhpmcounter3 does not move */
    li TESTNUM, 1
    li t0, 1 << 5
    csrw mhpmevent3, t0
    lw a0, 0(s1)
    lw a0, 0(s1)
    csrr a1, mhpmcounter3
    bnez a1, fail

    /* 2: LD counts the three loads between enabling and reading */
    li TESTNUM, 2
    csrw mcountinhibit, zero
    lw a0, 0(s1)
    lw a0, 4(s1)
    lw a0, 8(s1)
    csrr a1, mhpmcounter3
    li t6, 3
    bne a1, t6, fail

    /* 3: writing a counter sets it; ST counts stores */
    li TESTNUM, 3
    li t0, 1 << 6
    csrw mhpmevent4, t0
    csrw mhpmcounter4, zero
    sw a0, 12(s1)
    sw a0, 12(s1)
    csrr a1, mhpmcounter4
    li t6, 2
    bne a1, t6, fail

    /* 4: LD_STALL counts load-use hazards: two here (the third load's result is not used next) */
    li TESTNUM, 4
    li t0, 1 << 2
    csrw mhpmevent5, t0
    csrw mhpmcounter5, zero
    lw a0, 0(s1)
    addi a0, a0, 1
    lw a0, 0(s1)
    addi a0, a0, 1
    lw a0, 0(s1)
    nop
    addi a0, a0, 1
    csrr a1, mhpmcounter5
    li t6, 2
    bne a1, t6, fail

    /* 5: BRANCH and BRANCH_TAKEN: three branches, one taken */
    li TESTNUM, 5
    li t0, 1 << 8
    csrw mhpmevent6, t0
    li t0, 1 << 9
    csrw mhpmevent7, t0
    csrw mhpmcounter6, zero
    csrw mhpmcounter7, zero
    bnez zero, fail
    beqz zero, 1f
    j fail
1:  bltz zero, fail
    csrr a1, mhpmcounter6
    csrr a2, mhpmcounter7
    li t6, 3
    bne a1, t6, fail
    li t6, 1
    bne a2, t6, fail

    /* 6: COMP_INSTR counts compressed instructions only */
    li TESTNUM, 6
    li t0, 1 << 10
    csrw mhpmevent8, t0
    csrw mhpmcounter8, zero
    .option rvc
    c.addi a0, 1
    c.addi a0, 1
    .option norvc
    addi a0, a0, 1
    csrr a1, mhpmcounter8
    li t6, 2
    bne a1, t6, fail

    /* 7: minstret advances by the instructions retired between two reads (3 nops + the first csrr) */
    li TESTNUM, 7
    csrr a1, minstret
    nop
    nop
    nop
    csrr a2, minstret
    sub a2, a2, a1
    li t6, 4
    bne a2, t6, fail

    /* 8: inhibiting minstret freezes it */
    li TESTNUM, 8
    li t0, 1 << 2
    csrs mcountinhibit, t0
    csrr a1, minstret
    nop
    nop
    csrr a2, minstret
    bne a1, a2, fail
    csrc mcountinhibit, t0

    /* 9: mcycle advances by the cycles between two reads: csrr (4) + 2 nops */
    li TESTNUM, 9
    csrr a1, mcycle
    nop
    nop
    csrr a2, mcycle
    sub a2, a2, a1
    li t6, 6
    bne a2, t6, fail
TEST_END

    .data
    .balign 4
data: .word 1, 2, 3, 4
