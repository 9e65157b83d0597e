/* Zicsr: the six CSR instructions (read old value, write/set/clear), the rd = x0 and rs1 = x0 forms, the
 * machine identification CSRs and the mcycle/minstret counters with mcountinhibit. Runs in machine mode
 * on the simulator only (QEMU user mode has no machine CSRs). Writes to read-only CSRs trap: traps.S.
 *
 * Expected values:
 * - csrrw/csrrs/csrrc and their immediate forms return the CSR's old value; set/clear with rs1 = x0 (or
 *   uimm = 0) do not write (unprivileged spec, Zicsr chapter);
 * - misa = 0x40801124: MXL = 1 (RV32), extensions C (bit 2), F (5), I (8), M (12), X (23); writes are
 *   ignored, as on CV32E40P; mvendorid = 0x602 (OpenHW Group), marchid = 4 (CV32E40P), mhartid = 0;
 * - mcountinhibit resets to 0xd (mcycle, minstret and mhpmcounter3, the counters of CV32E40P with
 *   NUM_MHPMCOUNTERS = 1, inhibited), so mcycle and minstret stay at 0 until it is cleared;
 * - minstret counts retired instructions. A CSR instruction reads the counter as it was before the
 *   instruction itself, and when it writes the counter the write replaces that instruction's own
 *   increment (privileged spec: "the write is done instead of the increment"): a value written by one
 *   instruction is the value read by the next.
 */
#include "qemu_exit.h"

TEST_BEGIN

    // ---- read / write / set / clear on mscratch ----------------------------------------------------------
    TEST_CASE(1, a0, 0, csrr a0, mscratch)                                // reset value
    TEST_CASE(2, a0, 0, li a1, 0x12345678; csrrw a0, mscratch, a1)
    TEST_CASE(3, a0, 0x12345678, csrr a0, mscratch)
    TEST_CASE(4, a0, 0x12345678, li a1, 0x0000ff00; csrrs a0, mscratch, a1)
    TEST_CASE(5, a0, 0x1234ff78, csrr a0, mscratch)
    TEST_CASE(6, a0, 0x1234ff78, li a1, 0x12000078; csrrc a0, mscratch, a1)
    TEST_CASE(7, a0, 0x0034ff00, csrr a0, mscratch)
    TEST_CASE(8, a0, 0x0034ff00, csrrwi a0, mscratch, 0x15)              // 5-bit zero-extended immediate
    TEST_CASE(9, a0, 0x15, csrrsi a0, mscratch, 0x0a)
    TEST_CASE(10, a0, 0x1f, csrrci a0, mscratch, 0x11)
    TEST_CASE(11, a0, 0x0e, csrr a0, mscratch)
    TEST_CASE(12, a0, 31, csrrwi a0, mscratch, 31; csrr a0, mscratch)
    // rs1 = x0 / uimm = 0: read without writing
    TEST_CASE(13, a0, 31, csrrs a0, mscratch, x0; csrrc a0, mscratch, x0; csrrsi a0, mscratch, 0;
              csrrci a0, mscratch, 0; csrr a0, mscratch)
    // a set or clear with a zero-valued register other than x0 writes the (unchanged) value back
    TEST_CASE(14, a0, 31, li a1, 0; csrrs a0, mscratch, a1; csrr a0, mscratch)
    // rd == rs1: the old value lands in the register after the CSR took the register's old value
    TEST_CASE(15, a0, 31, li a0, 0x5a5a; csrrw a0, mscratch, a0)
    TEST_CASE(16, a0, 0x5a5a, csrr a0, mscratch)
    // rd = x0: the CSR is still written, x0 stays 0
    TEST_CASE(17, a0, 0xcafe0000, li a1, 0xcafe0000; csrw mscratch, a1; csrr a0, mscratch)
    TEST_CASE(18, a0, 0xcafe00ff, li a1, 0xff; csrs mscratch, a1; csrr a0, mscratch)
    TEST_CASE(19, a0, 0x0afe00ff, li a1, 0xc0000000; csrc mscratch, a1; csrr a0, mscratch)
    TEST_CASE(20, a0, 7, csrwi mscratch, 7; csrr a0, mscratch)
    TEST_CASE(21, a0, 0x1f, csrsi mscratch, 0x18; csrr a0, mscratch)
    TEST_CASE(22, a0, 0x0b, csrci mscratch, 0x14; csrr a0, mscratch)
    TEST_CASE(23, a0, 0, csrrw x0, mscratch, a1; csrrs x0, mscratch, x0; mv a0, x0)
    TEST_CASE(24, a0, 0xc0000000, csrr a0, mscratch)                    // a1 from case 19

    // ---- identification ------------------------------------------------------------------------------
    TEST_CASE(25, a0, 0x40801124, csrr a0, misa)
    TEST_CASE(26, a0, 0x40801124, csrw misa, zero; csrr a0, misa)         // WARL: the write is ignored
    TEST_CASE(27, a0, 0, csrr a0, mhartid)
    TEST_CASE(28, a0, 0x602, csrr a0, mvendorid)
    TEST_CASE(29, a0, 4, csrr a0, marchid)

    // ---- counters: inhibited from reset --------------------------------------------------------------
    TEST_CASE(30, a0, 0xd, csrr a0, mcountinhibit)
    TEST_CASE(31, a0, 0, csrr a0, mcycle)
    TEST_CASE(32, a0, 0, csrr a0, minstret)
    TEST_CASE(33, a0, 0, csrr a0, mcycleh)
    TEST_CASE(34, a0, 0, csrr a0, minstreth)
    TEST_CASE(35, a0, 0, csrr a1, mcycle; nop; nop; nop; csrr a2, mcycle; sub a0, a2, a1)
    TEST_CASE(36, a0, 0, csrr a1, minstret; nop; nop; nop; csrr a2, minstret; sub a0, a2, a1)
    TEST_CASE(37, a0, 0, csrr a0, cycle)                                  // user-level read-only views
    TEST_CASE(38, a0, 0, csrr a0, instret)
    // a frozen counter holds exactly what is written to it
    TEST_CASE(39, a0, 0x1234, li a1, 0x1234; csrw mcycle, a1; nop; csrr a0, mcycle)
    TEST_CASE(40, a0, 0x1234, csrr a0, cycle)
    TEST_CASE(41, a0, 0x5678, li a1, 0x5678; csrw minstret, a1; nop; csrr a0, minstret)
    TEST_CASE(42, a0, 0x9, li a1, 9; csrw minstreth, a1; csrr a0, minstreth)
    TEST_CASE(43, a0, 0x9, csrr a0, instreth)
    TEST_CASE(44, a0, 0x5678, csrr a0, minstret)                          // the high write kept the low half

    // ---- counting ------------------------------------------------------------------------------------
    TEST_CASE(45, a0, 0, csrw mcountinhibit, zero; csrr a0, mcountinhibit)
    // the first csrr retires (1), then three nops (3): the second csrr reads 4 more
    TEST_CASE(46, a0, 4, csrr a1, minstret; nop; nop; nop; csrr a2, minstret; sub a0, a2, a1)
    TEST_CASE(47, a0, 1, csrr a1, minstret; csrr a2, instret; sub a0, a2, a1)
    TEST_CASE(48, a0, 0, csrr a1, minstret; csrr a2, minstret; sub a0, a2, a1; addi a0, a0, -1)
    // mcycle advances by at least one cycle per instruction
    TEST_CASE(49, a0, 0, csrr a1, mcycle; nop; nop; nop; csrr a2, mcycle; sub a0, a2, a1; sltiu a0, a0, 4)
    TEST_CASE(50, a0, 1, csrr a1, mcycle; csrr a2, cycle; sltu a0, a1, a2)
    // a written value is what the next instruction reads (the write replaces the increment) ...
    TEST_CASE(51, a0, 100, li a1, 100; csrw minstret, a1; csrr a0, minstret)
    // ... and counting resumes from it
    TEST_CASE(52, a0, 1002, li a1, 1000; csrw minstret, a1; nop; nop; csrr a0, minstret)
    TEST_CASE(53, a0, 1, csrw mcycle, zero; csrr a0, mcycle; sltiu a0, a0, 16)
    // the 64-bit counters carry into the high half
    TEST_CASE(54, a0, 8, csrwi mcountinhibit, 5; li a1, -2; csrw minstret, a1; li a1, 7; csrw minstreth, a1;
              csrw mcountinhibit, zero; nop; nop; nop; nop; csrwi mcountinhibit, 5; csrr a0, minstreth)
    TEST_CASE(55, a0, 0x12, li a1, -16; csrw mcycle, a1; li a1, 0x11; csrw mcycleh, a1;
              csrw mcountinhibit, zero;
              .rept 20; nop; .endr; csrwi mcountinhibit, 5; csrr a0, mcycleh)
    TEST_CASE(56, a0, 0x12, csrr a0, cycleh)

    // ---- inhibited again: frozen -----------------------------------------------------------------------
    TEST_CASE(57, a0, 5, csrr a0, mcountinhibit)
    TEST_CASE(58, a0, 0, csrr a1, minstret; nop; nop; nop; csrr a2, minstret; sub a0, a2, a1)
    TEST_CASE(59, a0, 0, csrr a1, mcycle; nop; nop; nop; csrr a2, mcycle; sub a0, a2, a1)
    // inhibiting only mcycle leaves minstret counting
    TEST_CASE(60, a0, 3, csrwi mcountinhibit, 1; csrr a1, minstret; nop; nop; csrr a2, minstret;
              sub a0, a2, a1)
    TEST_CASE(61, a0, 0, csrr a1, mcycle; nop; nop; csrr a2, mcycle; sub a0, a2, a1)

    j pass

TEST_END
