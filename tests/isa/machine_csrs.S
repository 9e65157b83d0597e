/* CV32E40P's machine CSRs where its manual and RTL differ from a bare RISC-V hart (cv32e40p_cs_registers.sv,
 * cv32e40p_decoder.sv):
 * - mstatus.FS (bits 14:13) is read-write with the FPU: Off makes every FP instruction (arithmetic, loads,
 *   stores, moves) and every access to fflags, frm and fcsr an illegal instruction; an instruction that
 *   writes FP registers or flags makes FS Dirty (3), and mstatus.SD (bit 31) reads 1 while it is; an FP
 *   store only reads FP state and leaves FS as it was. pulpsim starts programs with FS = Initial (1).
 * - mtvec keeps a 256-byte aligned base (bits 31:8) and the mode bit 0; bits 7:1 read 0.
 * - The trigger module: tselect, tdata3, mcontext and scontext read 0; tdata1 reads the one mcontrol
 *   trigger (type 2, debug-mode only, action 1, m = 1, execute 0: 0x28001040); tinfo reads 1 << 2; tdata1
 *   and tdata2 change only from debug mode, so machine-mode writes leave them as they were.
 * - mtval is not implemented: it reads 0 and ignores writes. mcause keeps bit 31 and bits 4:0, mie the
 *   enables the core has (31:16 fast, 11 external, 7 timer, 3 software: IRQ_MASK 0xFFFF0888), and mimpid
 *   reads 1 on a core with an FPU or the PULP extensions.
 * The handler records mcause in a5 and the trapping instruction in a6 and skips the trapping 32-bit instruction.
 */
#include "test_macros.h"

#define FS_MASK 0x6000
/* Runs `code` expecting one illegal-instruction trap. */
#define TRAPS(code...) li a5, 0; code; li t6, 2; bne a5, t6, fail
/* a0 = mstatus.FS */
#define READ_FS csrr a0, mstatus; srli a0, a0, 13; andi a0, a0, 3

TEST_BEGIN
    la t0, trap_handler
    csrw mtvec, t0

    TEST_CASE(1, a0, 1, READ_FS)                                         /* Initial at start */
    TEST_CASE(2, a0, 0, csrr a0, mstatus; srli a0, a0, 31)               /* SD clear */
    /* FS = Off: FP instructions and FP CSRs trap and change nothing. */
    TEST_CASE(3, a0, 0, li t0, FS_MASK; csrc mstatus, t0; READ_FS)
    TEST_CASE(4, a5, 2, TRAPS(fadd.s f1, f2, f3))
    TEST_CASE(5, a5, 2, TRAPS(flw f1, 0(sp)))
    TEST_CASE(6, a5, 2, TRAPS(fsw f1, 0(sp)))
    TEST_CASE(7, a5, 2, TRAPS(fmv.w.x f1, zero))
    TEST_CASE(8, a5, 2, TRAPS(fdiv.s f1, f2, f3))
    TEST_CASE(9, a5, 2, TRAPS(csrr a1, fcsr))
    TEST_CASE(10, a5, 2, TRAPS(csrw frm, zero))
    TEST_CASE(11, a0, 0, READ_FS)                                        /* still Off */
    /* Clean (2): a store leaves it, a move makes it Dirty, and SD follows. */
    TEST_CASE(12, a0, 2, li t0, 0x4000; csrs mstatus, t0; fsw f1, 0(sp); READ_FS)
    TEST_CASE(13, a0, 3, fmv.w.x f1, zero; READ_FS)
    TEST_CASE(14, a0, 1, csrr a0, mstatus; srli a0, a0, 31)
    /* A write of fflags, and a load, make Clean Dirty too; a load only in the cycle after its write-back
     * (cv32e40p_cs_registers.sv), so a CSR read right behind it still sees Clean. */
    TEST_CASE(15, a0, 3, li t0, FS_MASK; csrc mstatus, t0; li t0, 0x4000; csrs mstatus, t0; csrw fflags, zero; READ_FS)
    TEST_CASE(16, a0, 3, li t0, FS_MASK; csrc mstatus, t0; li t0, 0x4000; csrs mstatus, t0; flw f1, 0(sp); nop; READ_FS)
    TEST_CASE(32, a0, 2, li t0, FS_MASK; csrc mstatus, t0; li t0, 0x4000; csrs mstatus, t0; flw f1, 0(sp); READ_FS)
    /* A write of mstatus in that cycle wins over the load's Dirty when it writes another FS. */
    TEST_CASE(33, a0, 2, li t0, FS_MASK; csrc mstatus, t0; li t0, 0x4000; csrs mstatus, t0; flw f1, 0(sp); csrs mstatus, 8; csrc mstatus, 8; READ_FS)

    /* mtvec: a 256-byte aligned base and the mode bit. */
    TEST_CASE(17, a0, 0x12345601, csrr t1, mtvec; li t0, 0x123456FF; csrw mtvec, t0; csrr a0, mtvec; csrw mtvec, t1)
    TEST_CASE(18, a0, 0, la t0, trap_handler; csrr a0, mtvec; sub a0, a0, t0)

    /* The trigger module, as machine mode sees it. */
    TEST_CASE(19, a0, 0, li t0, 5; csrw tselect, t0; csrr a0, tselect)
    TEST_CASE(20, a0, 0x28001040, li t0, 0x28001044; csrw tdata1, t0; csrr a0, tdata1)
    TEST_CASE(21, a0, 0, li t0, 0x1c000000; csrw tdata2, t0; csrr a0, tdata2)
    TEST_CASE(22, a0, 0, csrr a0, tdata3)
    TEST_CASE(23, a0, 4, csrr a0, 0x7a4)
    TEST_CASE(24, a0, 0, csrr a0, 0x7a8)
    TEST_CASE(25, a0, 0, csrr a0, 0x7aa)
    TEST_CASE(26, a5, 0, li a5, 0; csrw 0x7a8, zero; csrw 0x7aa, zero)

    /* What CV32E40P keeps of machine-mode writes, and its implementation ID. */
    TEST_CASE(27, a0, 0, li t0, -1; csrw mtval, t0; csrr a0, mtval)
    TEST_CASE(28, a0, 0x8000001F, li t0, -1; csrw mcause, t0; csrr a0, mcause)
    TEST_CASE(29, a0, 0xFFFF0888, li t0, -1; csrw mie, t0; csrr a0, mie; csrw mie, zero)
    TEST_CASE(30, a0, 1, csrr a0, mimpid)
    TEST_CASE(31, a0, 2, TRAPS(csrw mimpid, zero); mv a0, a5)
    j pass

SKIPPING_TRAP_HANDLER

TEST_END
