/* Performance counters at FPU_ADDMUL_LAT = FPU_OTHERS_LAT = 2 (fpu.addmul_latency = fpu.other_latency = 2),
 * where every FP operation has latency 3 and its result returns through the APU dispatcher's class 3 (see
 * hpm_counters.S for the events and the counting window). Every expected count is what the CV32E40P RTL with
 * those parameters gave for the same code (scripts/rtl/compare.py --latency 22).
 */
#include "test_macros.h"
#include "hwloop.h"
#include "hpm_counting.h"

    .option norvc
TEST_BEGIN
    la s1, data
    li t0, 0x6000
    csrs mstatus, t0 /* FS = Dirty */
    csrw mcountinhibit, zero
    flw fa0, 0(s1) /* 3.0 */
    flw fa1, 4(s1) /* 1.0 */

    /* 1: the fadd waits in EX for the fcvt's result to x0 (class 3 behind class 3: stall_type), 2 cycles. In
     * the first only it is APU_TYPE: in the second the sll behind it is in ID and waits for that result as
     * well, since its operand-c select names x0 (cv32e40p_decoder.sv: REGC_ZERO), an address the dispatcher
     * compares with the result's (read_dep_o): APU_DEP, which APU_TYPE leaves out (hpm_events[12]). */
    .macro fadd_held_for_a_result_to_x0
    fcvt.wu.s zero, fa0
    fadd.s fa5, fa0, fa1
    sll a6, t2, sp
    .endm
    li TESTNUM, 1
    COUNT(1 << 12) /* APU_TYPE */
    fadd_held_for_a_result_to_x0
    COUNTED
    EXPECT(1)
    COUNT(1 << 14) /* APU_DEP */
    fadd_held_for_a_result_to_x0
    COUNTED
    EXPECT(1)
    COUNT((1 << 12) | (1 << 14))
    fadd_held_for_a_result_to_x0
    COUNTED
    EXPECT(2)

    /* 2: in DECODE_HWLOOP an illegal word whose selects name x0 (rs1 = rs2 = x0) waits in ID for the result
     * to x0 of the fcvt held in EX just ahead (behind the fmul, class 3 as well). The controller flushes at
     * once, and in that first cycle the dispatcher does not see the held fcvt's request as a dependency
     * (read_dep_req needs valid_req): no APU_DEP in either round of the loop; the fcvt's 2 held cycles
     * are APU_TYPE. */
    .macro held_fcvt_to_x0_then_illegal_in_loop
    .option push; .option rvc; .balign 4; .option pop /* a c.nop if need be */
    cv_setupi 0, 2, 1f
    fmul.s fa5, fa0, fa1
    fcvt.w.s zero, fa0
    .word 0xfe000033
    addi a2, a2, 1
    addi a2, a2, 1
    addi a2, a2, 1
1:
    .endm
    li TESTNUM, 2
    la t0, skip_trapping
    csrw mtvec, t0
    COUNT(1 << 14) /* APU_DEP */
    held_fcvt_to_x0_then_illegal_in_loop
    COUNTED
    EXPECT(0)
    COUNT(1 << 12) /* APU_TYPE */
    held_fcvt_to_x0_then_illegal_in_loop
    COUNTED
    EXPECT(4)
    csrw mtvec, zero

    /* 3: the mulh, past its first EX cycle, keeps the fmul's result from the register file's write port until
     * it leaves EX (cv32e40p_ex_stage.sv: mulh_active), so that result stays in flight meanwhile. The fcvt.w.s
     * in ID behind the mulh compares f0 through its rs2 field (0 for .w), and waits for it all that time:
     * APU_DEP 5. */
    li TESTNUM, 3
    COUNT(1 << 14) /* APU_DEP */
    fmul.s ft0, fa0, fa1
    mulh t4, a0, t3
    fcvt.w.s s10, fa1
    COUNTED
    EXPECT(5)
TEST_END
SKIP_TRAPPING_HANDLER

    .data
    .balign 4
data: .word 0x40400000, 0x3f800000
