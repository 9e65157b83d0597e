/* Machine-mode synchronous exceptions through a direct-mode trap handler: ecall, ebreak and c.ebreak,
 * illegal instructions (undefined encodings, extensions the core lacks, reserved rounding modes, reserved
 * compressed encodings, writes to read-only CSRs, CSRs that do not exist), load/store/fetch access faults
 * on unmapped addresses, and the mstatus MIE/MPIE/MPP updates of a trap and of mret. Runs on the simulator
 * only (machine mode).
 *
 * Expected values follow the RISC-V privileged specification (machine level):
 * - mcause: 1 instruction access fault, 2 illegal instruction, 3 breakpoint, 5 load access fault,
 *   7 store access fault, 11 environment call from M-mode;
 * - mepc = the address of the trapping instruction (for a fetch fault, the address fetched);
 * - mtval reads 0 after every trap and ignores writes: CV32E40P does not implement it
 *   (cv32e40p_cs_registers.sv reads CSR_MTVAL as 0; its manual lists the register as read-only 0), so a
 *   handler finds the trapping instruction at mepc;
 * - on a trap MPIE <- MIE, MIE <- 0, MPP <- M; mret sets MIE <- MPIE, MPIE <- 1, MPP <- M (the only
 *   mode), and jumps to mepc, whose bit 0 is always 0;
 * - CSR instructions that would write a read-only CSR (csrrw always; csrrs/csrrc unless rs1 = x0;
 *   the immediate forms unless uimm = 0) raise an illegal instruction and leave rd unchanged.
 * In bare mode nothing is mapped at 0x00001000 (only the program's pages and the stack above them).
 *
 * The handler records mcause in s2, the trapping instruction (read at mepc, a 16-bit one zero-extended;
 * not for a fetch fault) in s3, mepc in s4, mstatus in s5 and mtval in s7, counts traps in s6, and
 * resumes after the trapping instruction (2 or 4 bytes, from its low bits), or, for a fetch fault, at ra.
 * It uses t0 and t1, so the cases keep nothing in them across a trap.
 */
#include "qemu_exit.h"

#define UNMAPPED 0x00001000

/* Runs `code` expected to trap exactly once with `cause` (checked in s2 and s6). */
#define TEST_TRAP(n, cause, code...)                                                                         \
    TEST_CASE(n, s2, cause, li s2, -1; li s6, 0; code)                                                       \
    TEST_CASE(n, s6, 1, nop)
/* Checks that the last trap's mepc was `label`. */
#define TEST_MEPC(n, label) TEST_CASE(n, a3, 0, la a4, label; sub a3, s4, a4)

TEST_BEGIN

    la t0, trap_handler
    csrw mtvec, t0
    TEST_CASE(1, a0, 0, la t0, trap_handler; csrr a0, mtvec; sub a0, a0, t0)

    // ---- ecall -----------------------------------------------------------------------------------------
    TEST_TRAP(2, 11, li a0, 0; ecall_site : ecall; li a0, 5) // mret resumes right after the ecall
    TEST_MEPC(3, ecall_site)
    TEST_CASE(4, s7, 0, nop)                                  // mtval
    TEST_CASE(5, a0, 5, nop)

    // ---- ebreak / c.ebreak ---------------------------------------------------------------------------
    TEST_TRAP(6, 3, .option push; .option norvc; ebreak_site : ebreak; .option pop)
    TEST_MEPC(7, ebreak_site)
    TEST_TRAP(8, 3, li a0, 0; li a1, 0; cebreak_site : c.ebreak; c.li a0, 7; c.li a1, 9)
    TEST_MEPC(9, cebreak_site)
    TEST_CASE(10, a0, 7, nop)                                 // resumed 2 bytes on, not 4

    // ---- illegal instructions --------------------------------------------------------------------------
    TEST_TRAP(11, 2, ill_ones : .word 0xffffffff)
    TEST_MEPC(12, ill_ones)
    TEST_CASE(13, s3, 0xffffffff, nop)
    TEST_TRAP(14, 2, li a0, 0; ill_zero : .half 0x0000; c.li a0, 3) // all-zero 16-bit parcel
    TEST_MEPC(15, ill_zero)
    TEST_CASE(16, s3, 0, nop)
    TEST_CASE(17, a0, 3, nop)
    TEST_TRAP(18, 2, .word 0x0000202f)                        // amoadd.w: no A extension
    TEST_CASE(19, s3, 0x0000202f, nop)
    TEST_TRAP(20, 2, .word 0x42000053)                        // fcvt.d.s: no D extension
    TEST_CASE(21, s3, 0x42000053, nop)
    TEST_TRAP(22, 2, .word 0x00005053)                        // fadd.s with the reserved rm = 5
    TEST_CASE(23, s3, 0x00005053, nop)
    TEST_TRAP(24, 2, .word 0x00006053)                        // rm = 6
    TEST_CASE(25, s3, 0x00006053, nop)
    // dyn with an invalid frm (5..7) is illegal; a valid frm makes the same instruction legal again
    TEST_TRAP(26, 2, fsrmi 5; fadd.s f0, f1, f2, dyn; fsrmi 0)
    TEST_CASE(27, s3, 0x0020f053, nop)                        // fadd.s f0, f1, f2, dyn
    TEST_TRAP(28, 2, fsrmi 7; fcvt.w.s a0, f1, dyn; fsrmi 0)
    TEST_CASE(29, s6, 0, li s6, 0; fadd.s f0, f1, f2, dyn; fcvt.w.s a0, f1, dyn)
    // reserved compressed encodings
    TEST_TRAP(30, 2, .half 0x6501)                            // c.lui a0, 0 (nzimm = 0)
    TEST_CASE(31, s3, 0x6501, nop)
    TEST_TRAP(32, 2, .half 0x6101)                            // c.addi16sp sp, 0 (nzimm = 0)
    TEST_CASE(33, s3, 0x6101, nop)
    TEST_TRAP(34, 2, .half 0x4002)                            // c.lwsp x0, 0(sp) (rd = 0)
    TEST_TRAP(35, 2, .half 0x8002)                            // c.jr x0 (rs1 = 0)
    TEST_TRAP(36, 2, .half 0x2000)                            // c.fld: no D extension
    TEST_TRAP(37, 2, .half 0x2002)                            // c.fldsp
    TEST_CASE(38, s3, 0x2002, nop)

    // ---- CSRs: writes to read-only registers, registers that do not exist --------------------------------
    TEST_TRAP(39, 2, csrw_cycle : csrw cycle, t0)
    TEST_MEPC(40, csrw_cycle)
    TEST_CASE(41, s3, 0xc0029073, nop)                        // csrrw x0, cycle, t0
    TEST_TRAP(42, 2, li t0, 0x80000000; csrw 0xcc0, t0)      // hardware-loop lpstart0: read-only CSR
    TEST_CASE(43, s3, 0xcc029073, nop)
    TEST_TRAP(44, 2, csrw mvendorid, t0)
    TEST_TRAP(45, 2, csrw mhartid, zero)
    TEST_TRAP(46, 2, csrwi instret, 0)                        // csrrwi always writes, even uimm = 0
    TEST_TRAP(47, 2, li a0, 0x1234; li t0, 0; csrrs a0, cycle, t0) // rs1 != x0: a write, even of 0 bits
    TEST_CASE(48, a0, 0x1234, nop)                            // rd not written by the trapping instruction
    TEST_TRAP(49, 2, csrrsi a0, marchid, 1)
    TEST_TRAP(50, 2, li a0, 0x4321; csrr a0, satp)            // no S-mode: satp does not exist
    TEST_CASE(51, a0, 0x4321, nop)
    TEST_TRAP(52, 2, csrr a0, dcsr)                           // debug CSRs exist only in debug mode
    // returns from modes the core does not have or is not in
    TEST_TRAP(53, 2, .word 0x10200073)                        // sret: no S-mode
    TEST_TRAP(54, 2, .word 0x7b200073)                        // dret outside debug mode
    TEST_CASE(55, s3, 0x7b200073, nop)
    // reads of read-only CSRs (rs1 = x0, uimm = 0) are fine
    TEST_CASE(56, s6, 0, li s6, 0; csrr a0, cycle; csrr a0, instret; csrrc a0, mvendorid, x0;
              csrrsi a0, marchid, 0; csrrci a0, mhartid, 0; csrr a0, 0xcc0; csrr a0, 0xcc2)

    // ---- access faults: nothing is mapped at UNMAPPED ----------------------------------------------------
    TEST_TRAP(57, 5, li a1, UNMAPPED; li a0, 0x55; lw_site : lw a0, 0(a1))
    TEST_MEPC(58, lw_site)
    TEST_CASE(59, s7, 0, nop)                                 // mtval reads 0, not the address
    TEST_CASE(60, a0, 0x55, nop)                              // the destination is not written
    TEST_TRAP(61, 5, li a1, UNMAPPED; lw x0, 4(a1))          // a load into x0 still accesses memory
    TEST_CASE(62, s7, 0, nop)
    TEST_TRAP(63, 5, li a1, UNMAPPED; lb a0, 3(a1))
    TEST_CASE(64, s7, 0, nop)
    TEST_TRAP(65, 5, li a1, UNMAPPED + 0x10; lhu a0, -6(a1))
    TEST_CASE(66, s7, 0, nop)
    TEST_TRAP(67, 5, li a1, UNMAPPED; flw fa0, 8(a1))
    TEST_CASE(68, s7, 0, nop)
    TEST_TRAP(69, 5, li a0, 0; li a1, UNMAPPED; clw_site : c.lw a2, 4(a1); c.li a0, 1) // compressed: +2
    TEST_MEPC(70, clw_site)
    TEST_CASE(71, s7, 0, nop)
    TEST_CASE(72, a0, 1, nop)
    TEST_TRAP(73, 7, li a1, UNMAPPED; sw_site : sw a0, 0(a1))
    TEST_MEPC(74, sw_site)
    TEST_CASE(75, s7, 0, nop)
    TEST_TRAP(76, 7, li a1, UNMAPPED; sh a0, 2(a1))
    TEST_CASE(77, s7, 0, nop)
    TEST_TRAP(78, 7, li a1, UNMAPPED; sb a0, 1(a1))
    TEST_CASE(79, s7, 0, nop)
    TEST_TRAP(80, 7, li a1, UNMAPPED; fsw fa0, 12(a1))
    TEST_CASE(81, s7, 0, nop)
    TEST_TRAP(82, 7, li a1, UNMAPPED; c.sw a0, 0(a1))
    // fetch from an unmapped address: mepc is the target; the handler returns to ra
    TEST_TRAP(83, 1, li a1, UNMAPPED; li a0, 0; jalr ra, 0(a1); li a0, 6)
    TEST_CASE(84, s4, UNMAPPED, nop)
    TEST_CASE(85, s7, 0, nop)
    TEST_CASE(86, a0, 6, nop)

    // ---- mstatus on a trap and on mret ---------------------------------------------------------------
    // MIE = 0 at the trap: MPIE = 0, MIE = 0, MPP = M inside; after mret MIE = 0, MPIE = 1.
    TEST_CASE(87, a0, 0x1800, csrci mstatus, 8; ecall; li a1, 0x1888; and a0, s5, a1)
    TEST_CASE(88, a0, 0x80, csrr a0, mstatus; andi a0, a0, 0x88)
    // MIE = 1 at the trap: MPIE = 1, MIE = 0 inside; after mret MIE = 1, MPIE = 1.
    TEST_CASE(89, a0, 0x1880, csrsi mstatus, 8; ecall; li a1, 0x1888; and a0, s5, a1)
    TEST_CASE(90, a0, 0x1888, csrr a0, mstatus; li a1, 0x1888; and a0, a0, a1)
    TEST_CASE(91, a0, 0x1880, csrci mstatus, 8; csrr a0, mstatus; li a1, 0x1888; and a0, a0, a1)
    // mret on its own: jumps to mepc, MIE <- MPIE, MPIE <- 1
    TEST_CASE(92, a0, 0x88, li a0, 0; li a1, 0x1880; csrw mstatus, a1; la a1, 1f; csrw mepc, a1; mret;
              li a0, 99; j 2f; 1 : csrr a0, mstatus; andi a0, a0, 0x88; 2 :)
    TEST_CASE(93, a0, 0x80, li a0, 0; li a1, 0x1808; csrw mstatus, a1; la a1, 1f; csrw mepc, a1; mret;
              li a0, 99; j 2f; 1 : csrr a0, mstatus; andi a0, a0, 0x88; 2 :)
    // MPP can only hold M
    TEST_CASE(94, a0, 0x1800, csrw mstatus, zero; csrr a0, mstatus; li a1, 0x1800; and a0, a0, a1)
    TEST_CASE(95, a0, 0x80000002, li a1, 0x80000003; csrw mepc, a1; csrr a0, mepc) // mepc[0] = 0
    // back-to-back traps: one handler entry each
    TEST_CASE(96, s6, 3, li s6, 0; ecall; ecall; .option push; .option norvc; ebreak; .option pop)
    // mtval ignores writes
    TEST_CASE(97, a0, 0, li t0, 0x123; csrw mtval, t0; csrr a0, mtval)

    j pass

    .balign 256 /* mtvec holds a 256-byte aligned base */
trap_handler:
    csrr s2, mcause
    csrr s7, mtval
    csrr s4, mepc
    csrr s5, mstatus
    addi s6, s6, 1
    li t0, 1
    beq s2, t0, 2f            // instruction access fault: there is no instruction to step over
    lhu s3, 0(s4)
    andi t0, s3, 3
    addi t1, s4, 2
    xori t0, t0, 3
    bnez t0, 1f               // low bits != 11: a 16-bit instruction
    lhu t0, 2(s4)
    slli t0, t0, 16
    or s3, s3, t0
    addi t1, t1, 2
1:  csrw mepc, t1
    mret
2:  csrw mepc, ra
    mret

TEST_END
