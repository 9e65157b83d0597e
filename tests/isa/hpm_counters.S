/* Performance counters as CV32E40P with NUM_MHPMCOUNTERS = 1 has them: mcycle, minstret and mhpmcounter3,
 * whose mhpmevent3 selects events by bit (0 CYCLES, 1 INSTR, 2 LD_STALL, 3 JMP_STALL, 5 LD, 6 ST, 7 JUMP,
 * 8 BRANCH, 9 BRANCH_TAKEN, 10 COMP_INSTR, 11 PIPE_STALL, 12 APU_TYPE, 13 APU_CONT, 14 APU_DEP, 15 APU_WB).
 * A csrr of a counter returns the count before its own cycle; a write to a counter, mcountinhibit or
 * mhpmevent3 applies from the cycle after the writing instruction's. Every expected count below is what the
 * CV32E40P RTL (openhwgroup/cv32e40p, FPU_ADDMUL_LAT = FPU_OTHERS_LAT = 0) gave for the same code between
 * two reads of mhpmcounter3 (scripts/rtl/compare.py).
 */
#include "test_macros.h"
#include "hwloop.h"
#include "hpm_counting.h"

    .option norvc
TEST_BEGIN
    la s1, data
    li t0, 0x6000
    csrs mstatus, t0 /* FS = Dirty */
    flw fa0, 16(s1)  /* 3.0 */
    flw fa1, 20(s1)  /* 1.0 */
    flw fa2, 24(s1)  /* 7.0 */

    /* 1: counters are inhibited out of reset, so mhpmcounter3 does not move */
    li TESTNUM, 1
    li t0, 1 << 5
    csrw mhpmevent3, t0
    lw a0, 0(s1)
    lw a0, 0(s1)
    csrr a1, mhpmcounter3
    bnez a1, fail

    /* 2: the core has one event counter: mcountinhibit keeps bits 0, 2 and 3, mhpmevent4 and mhpmcounter4
     * read 0 */
    li TESTNUM, 2
    li t0, -1
    csrw mcountinhibit, t0
    csrr a1, mcountinhibit
    li t6, 0xd
    bne a1, t6, fail
    li t0, 1
    csrw mhpmevent4, t0
    csrw mhpmcounter4, t0
    csrr a1, mhpmevent4
    bnez a1, fail
    csrr a1, mhpmcounter4
    bnez a1, fail

    /* 3: the write that enables a counter takes effect after its own cycle: mcycle reads 3 at the csrr right
     * behind it (the csrw costs 4 cycles, the first not counted), minstret 0 (the csrw not counted) */
    li TESTNUM, 3
    csrw mcountinhibit, zero
    csrr a1, mcycle
    li t6, 3
    bne a1, t6, fail
    csrwi mcountinhibit, 0x5
    csrw minstret, zero
    csrwi mcountinhibit, 0
    csrr a1, minstret
    bnez a1, fail

    /* 4: a value written to mcycle is read at the next instruction with that instruction's cycles but the
     * first: 100 + 4 - 1 */
    li TESTNUM, 4
    li t0, 100
    csrw mcycle, t0
    csrr a1, mcycle
    li t6, 103
    bne a1, t6, fail

    /* 5: LD counts the loads (and the first csrr nothing) */
    li TESTNUM, 5
    COUNT(1 << 5)
    lw a2, 0(s1)
    lw a2, 4(s1)
    lw a2, 8(s1)
    COUNTED
    EXPECT(3)

    /* 6: ST counts stores; INSTR the instructions from the first csrr on */
    li TESTNUM, 6
    COUNT(1 << 6)
    sw a2, 12(s1)
    sw a2, 12(s1)
    COUNTED
    EXPECT(2)
    COUNT(1 << 1)
    nop
    nop
    COUNTED
    EXPECT(3)

    /* 7: LD_STALL counts load-use hazards: two here (the third load's result is not used next) */
    li TESTNUM, 7
    COUNT(1 << 2)
    lw a2, 0(s1)
    addi a2, a2, 1
    lw a2, 0(s1)
    addi a2, a2, 1
    lw a2, 0(s1)
    nop
    addi a2, a2, 1
    COUNTED
    EXPECT(2)

    /* 8: behind a load split in two accesses, an instruction that only writes the load's register waits,
     * but not as a load stall of the event's (load_stall_o compares write addresses when not misaligned);
     * one that reads it is one */
    li TESTNUM, 8
    COUNT(1 << 2)
    lw a2, 3(s1)
    li a2, 1
    COUNTED
    EXPECT(0)
    COUNT(1 << 2)
    lw a2, 3(s1)
    add a3, a2, a2
    COUNTED
    EXPECT(1)

    /* 9: BRANCH and BRANCH_TAKEN: three branches, one taken; both events together: 4 cycles */
    li TESTNUM, 9
    COUNT(1 << 8)
    bnez zero, fail
    beqz zero, 1f
    j fail
1:  bltz zero, fail
    COUNTED
    EXPECT(3)
    COUNT(3 << 8)
    bnez zero, fail
    beqz zero, 1f
    j fail
1:  bltz zero, fail
    COUNTED
    EXPECT(4)

    /* 10: COMP_INSTR counts compressed instructions only; JUMP counts jal and jalr, not fence.i */
    li TESTNUM, 10
    COUNT(1 << 10)
    .option rvc
    c.addi a2, 1
    c.addi a2, 1
    .option norvc
    addi a2, a2, 1
    COUNTED
    EXPECT(2)
    COUNT(1 << 7)
    fence.i
    jal t1, 1f
1:  COUNTED
    EXPECT(1)

    /* 11: LD and INSTR fire in the same cycle for a load: it counts once */
    li TESTNUM, 11
    COUNT((1 << 5) | (1 << 1))
    lw a2, 0(s1)
    nop
    COUNTED
    EXPECT(3)

    /* 12: APU_TYPE: an fdiv behind an fdiv (3.0 / 1.0, 7 cycles) waits 6 cycles in EX; PIPE_STALL is 0 on a
     * core outside a cluster */
    li TESTNUM, 12
    COUNT(1 << 12)
    fdiv.s fa3, fa0, fa1
    fdiv.s fa4, fa0, fa1
    COUNTED
    EXPECT(6)
    COUNT(1 << 11)
    fdiv.s fa3, fa0, fa1
    fdiv.s fa4, fa0, fa1
    lw a2, 0(s1)
    addi a2, a2, 1
    COUNTED
    EXPECT(0)

    /* 13: APU_DEP: an fadd that reads the fdiv's result (3.0 / 7.0, 19 cycles) waits 18 cycles in ID, and 17
     * behind a div in EX, which it waits for without an FP dependency once the result is back */
    li TESTNUM, 13
    COUNT(1 << 14)
    fdiv.s fa3, fa0, fa2
    fadd.s fa4, fa3, fa1
    COUNTED
    EXPECT(18)
    li a3, 7
    li a4, 3
    COUNT(1 << 14)
    fdiv.s fa3, fa0, fa2
    div a5, a3, a4
    fadd.s fa4, fa3, fa1
    COUNTED
    EXPECT(17)

    /* 14: an fadd held in EX behind an fdiv (APU_TYPE) with an fsw behind it that reads the fdiv's
     * register: the fsw's wait counts as APU_DEP from its first cycle in ID */
    li TESTNUM, 14
    COUNT(1 << 12)
    fdiv.s fa5, fa0, fa2
    fadd.s fa5, fa3, fa1
    fsw fa5, 28(s1)
    COUNTED
    EXPECT(1)
    COUNT(1 << 14)
    fdiv.s fa5, fa0, fa2
    fadd.s fa5, fa3, fa1
    fsw fa5, 28(s1)
    COUNTED
    EXPECT(17)

    /* 15: APU_WB: the fdiv's result takes the write port from an addi in EX; APU_CONT: a divisor that is
     * denormal makes the div/sqrt unit refuse the fdiv for a cycle */
    li TESTNUM, 15
    COUNT(1 << 15)
    fdiv.s fa3, fa0, fa2
    .rept 20
    addi a2, a0, 1
    .endr
    COUNTED
    EXPECT(1)
    flw fa4, 32(s1) /* the largest denormal */
    COUNT(1 << 13)
    fdiv.s fa3, fa0, fa4
    COUNTED
    EXPECT(1)

    /* 16: minstret advances by the instructions retired between two reads (3 nops + the first csrr) */
    li TESTNUM, 16
    csrr a1, minstret
    nop
    nop
    nop
    csrr a2, minstret
    sub a2, a2, a1
    li t6, 4
    bne a2, t6, fail

    /* 17: inhibiting minstret freezes it */
    li TESTNUM, 17
    li t0, 1 << 2
    csrs mcountinhibit, t0
    csrr a1, minstret
    nop
    nop
    csrr a2, minstret
    bne a1, a2, fail
    csrc mcountinhibit, t0

    /* 18: mcycle advances by the cycles between two reads: csrr (4) + 2 nops */
    li TESTNUM, 18
    csrr a1, mcycle
    nop
    nop
    csrr a2, mcycle
    sub a2, a2, a1
    li t6, 6
    bne a2, t6, fail

    /* 19: INSTR with an APU event: a cycle in which both fire counts once. Each run of APU cycles above
     * starts in the cycle of an INSTR event: the held instruction's own (APU_TYPE, APU_CONT, APU_WB) or the
     * one ahead of the waiting instruction (APU_DEP). So each count is one less than the two events' sum. */
    li TESTNUM, 19
    COUNT((1 << 12) | (1 << 1)) /* APU_TYPE 6 + INSTR 3 */
    fdiv.s fa3, fa0, fa1
    fdiv.s fa4, fa0, fa1
    COUNTED
    EXPECT(8)
    COUNT((1 << 14) | (1 << 1)) /* APU_DEP 18 + INSTR 3 */
    fdiv.s fa3, fa0, fa2
    fadd.s fa4, fa3, fa1
    COUNTED
    EXPECT(20)
    li a3, 7
    li a4, 3
    COUNT((1 << 14) | (1 << 1)) /* APU_DEP 17 + INSTR 4 */
    fdiv.s fa3, fa0, fa2
    div a5, a3, a4
    fadd.s fa4, fa3, fa1
    COUNTED
    EXPECT(20)
    COUNT((1 << 14) | (1 << 1)) /* APU_DEP 17 + INSTR 4 */
    fdiv.s fa5, fa0, fa2
    fadd.s fa5, fa3, fa1
    fsw fa5, 28(s1)
    COUNTED
    EXPECT(20)
    COUNT((1 << 15) | (1 << 1)) /* APU_WB 1 + INSTR 22 */
    fdiv.s fa3, fa0, fa2
    .rept 20
    addi a2, a0, 1
    .endr
    COUNTED
    EXPECT(22)
    flw fa4, 32(s1) /* the largest denormal */
    COUNT((1 << 13) | (1 << 1)) /* APU_CONT 1 + INSTR 2 */
    fdiv.s fa3, fa0, fa4
    COUNTED
    EXPECT(2)

    /* 20: JUMP or COMP_INSTR with APU_WB: a run of APU_WB starts in the cycle of the held instruction's
     * events, counted once when that instruction is a jal or a compressed one. */
    li TESTNUM, 20
    COUNT((1 << 15) | (1 << 7)) /* APU_WB 1 + JUMP 3: the fdiv's result takes the port from the first jal */
    fdiv.s fa3, fa0, fa1
    addi a2, a0, 1
    jal x0, 1f
1:  jal x0, 2f
2:  jal x0, 3f
3:  COUNTED
    EXPECT(3)
    COUNT((1 << 15) | (1 << 10)) /* APU_WB 1 + COMP_INSTR 20: from a c.addi */
    fdiv.s fa3, fa0, fa2
    .option push
    .option rvc
    .rept 20
    c.addi a2, 1
    .endr
    .option pop
    COUNTED
    EXPECT(20)

    /* 21: LD, ST, JUMP, BRANCH or COMP_INSTR with APU_DEP: a run of APU_DEP starts in the cycle of the
     * events of the instruction ahead of the waiting one, counted once when that instruction has the event.
     * The fsw waits in ID for the fdiv's result (APU_DEP 17) behind the one instruction between them. */
    li TESTNUM, 21
    COUNT((1 << 14) | (1 << 5)) /* APU_DEP 17 + LD 1: behind a lw */
    fdiv.s fa3, fa0, fa2
    lw a5, 0(s1)
    fsw fa3, 28(s1)
    COUNTED
    EXPECT(17)
    COUNT((1 << 14) | (1 << 6)) /* APU_DEP 17 + ST 2: behind a sw, the fsw's own ST after the run */
    fdiv.s fa3, fa0, fa2
    sw a5, 8(s1)
    fsw fa3, 28(s1)
    COUNTED
    EXPECT(18)
    COUNT((1 << 14) | (1 << 8)) /* APU_DEP 17 + BRANCH 1: behind a branch not taken */
    fdiv.s fa3, fa0, fa2
    bne a0, a0, fail
    fsw fa3, 28(s1)
    COUNTED
    EXPECT(17)
    COUNT((1 << 14) | (1 << 10)) /* APU_DEP 17 + COMP_INSTR 1: behind a c.addi */
    fdiv.s fa3, fa0, fa2
    .option push
    .option rvc
    c.addi a5, 1
    .option pop
    fsw fa3, 28(s1)
    COUNTED
    EXPECT(17)
    COUNT((1 << 14) | (1 << 5)) /* APU_DEP 17 + LD 1: the run starts in a misaligned lw's first EX cycle */
    fdiv.s fa3, fa0, fa2
    lw a5, 1(s1)
    fsw fa3, 28(s1)
    COUNTED
    EXPECT(17)

    /* 22: an illegal instruction decoded in DECODE_HWLOOP (past the first of a body that goes round again)
     * that waits in ID for an FP result in flight: the controller flushes at once, and the APU dispatcher
     * compares registers only while it decodes (cv32e40p_apu_disp.sv: read_dep_o), so APU_DEP counts the
     * first cycle of that wait only, once a round. Here the fadd with rounding mode 5 reads f0, which the
     * fdiv writes. In a round of count 1 the controller stays in DECODE and counts the whole wait: 18 cycles
     * from the cycle after the fdiv's to its result (19). */
    .macro fdiv_then_illegal_in_loop rounds
    .option push; .option rvc; .balign 4; .option pop /* a c.nop if need be */
    cv_setupi 0, \rounds, 1f
    fdiv.s ft0, fa0, fa2
    .word 0x00005053
    addi a2, a2, 1
    addi a2, a2, 1
    addi a2, a2, 1
1:
    .endm
    li TESTNUM, 22
    la t0, skip_trapping
    csrw mtvec, t0
    COUNT(1 << 14)
    fdiv_then_illegal_in_loop 2
    COUNTED
    EXPECT(2)
    COUNT(1 << 14)
    fdiv_then_illegal_in_loop 1
    COUNTED
    EXPECT(18)

    /* 23: the same behind a mulh, which EX holds while the illegal instruction has its first cycle in ID:
     * that cycle is APU_DEP, once a round, whether the wait ends during the hold or after it. */
    li TESTNUM, 23
    COUNT(1 << 14)
    .option push; .option rvc; .balign 4; .option pop /* a c.nop if need be */
    cv_setupi 0, 2, 1f
    fdiv.s ft0, fa0, fa2
    mulh a5, a0, a2
    .word 0x00005053
    addi a2, a2, 1
    addi a2, a2, 1
1:  COUNTED
    EXPECT(2)
    csrw mtvec, zero
TEST_END
SKIP_TRAPPING_HANDLER

    .data
    .balign 4
data: .word 1, 2, 3, 4, 0x40400000, 0x3f800000, 0x40e00000, 0, 0x007fffff
