/* The floating-point control and status register: fcsr = frm (bits 7:5) | fflags (bits 4:0), with fflags
 * and frm also accessible as CSRs of their own (F chapter of the RISC-V unprivileged specification).
 *
 * - fflags accrues: each FP instruction ORs in the exceptions it raised (NV 0x10, DZ 0x08, OF 0x04,
 *   UF 0x02, NX 0x01) and nothing ever clears a flag except a CSR write;
 * - writes to fflags keep bits 4:0, writes to frm bits 2:0, and fcsr bits 31:8 read as zero;
 * - any frm value can be written (only executing a dyn instruction with frm = 5, 6 or 7 is illegal);
 * - csrrw/csrrs/csrrc (and the immediate forms) return the old value.
 */
#include "fp_test.h"

/* Clears fflags, runs `code`, checks the accrued fflags. */
#define TEST_FLAGS(n, expected, code...) TEST_CASE(n, a0, expected, csrwi fflags, 0; code; csrr a0, fflags)

TEST_BEGIN

    // ---- reset value and the three views of one register --------------------------------------------
    TEST_CASE(1, a0, 0, csrr a0, fcsr)
    TEST_CASE(2, a0, 0x1f, li a1, 0x1f; csrw fflags, a1; csrr a0, fflags)
    TEST_CASE(3, a0, 0x1f, csrr a0, fcsr)                       // frm 0 | fflags 0x1f
    TEST_CASE(4, a0, 0, csrr a0, frm)
    TEST_CASE(5, a0, 0x1f, li a1, 0xff; csrw fflags, a1; csrr a0, fflags) // only 5 bits
    TEST_CASE(6, a0, 0x1f, csrr a0, fcsr)
    TEST_CASE(7, a0, 7, li a1, 0xff; csrw frm, a1; csrr a0, frm)  // only 3 bits
    TEST_CASE(8, a0, 0xff, csrr a0, fcsr)
    TEST_CASE(9, a0, 0, csrw fcsr, zero; csrr a0, fcsr)
    TEST_CASE(10, a0, 0xff, li a1, -1; csrw fcsr, a1; csrr a0, fcsr) // bits 31:8 read as zero
    TEST_CASE(11, a0, 0x1f, csrr a0, fflags)
    TEST_CASE(12, a0, 7, csrr a0, frm)
    TEST_CASE(13, a0, 3, li a1, 0x65; csrw fcsr, a1; csrr a0, frm)   // frm 3, fflags 5
    TEST_CASE(14, a0, 5, csrr a0, fflags)
    TEST_CASE(15, a0, 0x05, li a1, 0x10; csrw frm, zero; csrw fflags, a1; li a1, 0x05; csrw fflags, a1;
              csrr a0, fcsr)                                   // writing fflags leaves frm alone
    TEST_CASE(16, a0, 0x45, li a1, 2; csrw frm, a1; csrr a0, fcsr)     // and writing frm leaves fflags

    // ---- read-modify-write forms return the old value -------------------------------------------------
    TEST_CASE(17, a0, 0x05, li a1, 0x12; csrrs a0, fflags, a1)
    TEST_CASE(18, a0, 0x17, csrr a0, fflags)
    TEST_CASE(19, a0, 0x17, li a1, 0x03; csrrc a0, fflags, a1)
    TEST_CASE(20, a0, 0x14, csrr a0, fflags)
    TEST_CASE(21, a0, 0x14, csrrwi a0, fflags, 0x09)
    TEST_CASE(22, a0, 0x09, csrrsi a0, fflags, 0x02)
    TEST_CASE(23, a0, 0x0b, csrrci a0, fflags, 0x0a)
    TEST_CASE(24, a0, 0x01, csrr a0, fflags)
    TEST_CASE(25, a0, 2, csrrwi a0, frm, 1)                    // frm was 2 (case 16)
    TEST_CASE(26, a0, 1, csrrsi a0, frm, 2)
    TEST_CASE(27, a0, 3, csrrci a0, frm, 1)
    TEST_CASE(28, a0, 2, csrr a0, frm)
    TEST_CASE(29, a0, 0x41, csrrc a0, fcsr, zero)              // rs1 = x0: a pure read
    TEST_CASE(30, a0, 0x41, li a1, 0x9e; csrrw a0, fcsr, a1)
    TEST_CASE(31, a0, 0x9e, csrrs a0, fcsr, x0)
    // the pseudo-instructions
    TEST_CASE(32, a0, 0x1e, frflags a0)
    TEST_CASE(33, a0, 4, frrm a0)
    TEST_CASE(34, a0, 0x1e, li a1, 0x06; fsflags a0, a1)       // swap: old flags out, new in
    TEST_CASE(35, a0, 0x06, fsflagsi a0, 0x11)
    TEST_CASE(36, a0, 0x91, frcsr a0)
    TEST_CASE(37, a0, 0x91, li a1, 0x20; fscsr a0, a1)
    TEST_CASE(38, a0, 1, frrm a0)
    TEST_CASE(39, a0, 1, fsrmi a0, 0)
    TEST_CASE(40, a0, 0, frcsr a0)

    // ---- each exception on its own ---------------------------------------------------------------------
    TEST_FLAGS(41, NV, FLI(f1, NONE); fsqrt.s f0, f1)
    TEST_FLAGS(42, DZ, FLI(f1, ONE); FLI(f2, P0); fdiv.s f0, f1, f2)
    TEST_FLAGS(43, OF | NX, FLI(f1, MAXF); fadd.s f0, f1, f1)   // overflow is always inexact
    TEST_FLAGS(44, UF | NX, FLI(f1, MINS); FLI(f2, HALF); fmul.s f0, f1, f2)
    TEST_FLAGS(45, NX, FLI(f1, ONE); FLI(f2, THREE); fdiv.s f0, f1, f2)
    TEST_FLAGS(46, 0, FLI(f1, ONE); FLI(f2, THREE); fadd.s f0, f1, f2)
    TEST_FLAGS(47, NV, FLI(f1, CNAN); fcvt.w.s a1, f1, rtz)
    TEST_FLAGS(48, NX, FLI(f1, ONEP5); fcvt.wu.s a1, f1, rtz)
    TEST_FLAGS(49, NV, FLI(f1, SNAN); FLI(f2, ONE); feq.s a1, f1, f2)
    TEST_FLAGS(50, NV, FLI(f1, CNAN); FLI(f2, ONE); fle.s a1, f1, f2)
    TEST_FLAGS(51, NX, li a1, 0x7fffffff; fcvt.s.w f0, a1)
    // moves, sign injection and fclass never raise anything, even on a signaling NaN
    TEST_FLAGS(52, 0, FLI(f1, SNAN); fsgnj.s f0, f1, f1; fsgnjn.s f0, f1, f1; fsgnjx.s f0, f1, f1;
               fclass.s a1, f1; fmv.x.w a1, f1; la a2, fscratch; fsw f1, 0(a2); flw f0, 0(a2))

    // ---- accumulation: flags only ever get added -----------------------------------------------------
    TEST_FLAGS(53, DZ, FLI(f1, ONE); FLI(f2, P0); fdiv.s f0, f1, f2)
    TEST_CASE(54, a0, DZ | NX, FLI(f1, ONE); FLI(f2, THREE); fdiv.s f0, f1, f2; csrr a0, fflags)
    TEST_CASE(55, a0, NV | DZ | NX, FLI(f1, PINF); fsub.s f0, f1, f1; csrr a0, fflags)
    TEST_CASE(56, a0, NV | DZ | OF | NX, FLI(f1, MAXF); FLI(f2, TWO); fmul.s f0, f1, f2; csrr a0, fflags)
    TEST_CASE(57, a0, NV | DZ | OF | UF | NX, FLI(f1, MINS); FLI(f2, HALF); fmul.s f0, f1, f2;
              csrr a0, fflags)
    TEST_CASE(58, a0, 0x1f, FLI(f1, ONE); fadd.s f0, f1, f1; csrr a0, fflags) // an exact op clears nothing
    TEST_CASE(59, a0, 0x1f, csrr a0, fcsr)                     // frm 0
    TEST_CASE(60, a0, 0x1f, fsrmi 3; FLI(f1, ONE); fadd.s f0, f1, f1; csrr a0, fflags) // nor does frm
    TEST_CASE(61, a0, 0x7f, csrr a0, fcsr)
    TEST_CASE(62, a0, 0x60, csrwi fflags, 0; csrr a0, fcsr)
    // a single instruction raising two flags at once, accrued over an earlier one
    TEST_CASE(63, a0, NV | OF | NX, csrwi fflags, NV; FLI(f1, NMAXF); fadd.s f0, f1, f1, rne;
              csrr a0, fflags)

    // ---- frm drives dynamic-rounding instructions, whichever CSR wrote it ------------------------------
    // 1 + -1 is +0 in every mode but RDN, where it is -0; 1 + 2^-24 is 1 + 2^-23 only in RUP and RMM.
    TEST_FP(64, f0, N0, 0, li a1, (2 << 5); csrw fcsr, a1; FLI(f1, ONE); FLI(f2, NONE);
            fadd.s f0, f1, f2, dyn)
    TEST_FP(65, f0, P0, 0, csrwi frm, 0; FLI(f1, ONE); FLI(f2, NONE); fadd.s f0, f1, f2, dyn)
    TEST_FP(66, f0, N0, 0, csrsi frm, 2; FLI(f1, ONE); FLI(f2, NONE); fadd.s f0, f1, f2, dyn)
    TEST_FP(67, f0, ONE_ULP, NX, csrsi frm, 1; FLI(f1, ONE); FLI(f2, EPS24); fadd.s f0, f1, f2, dyn) // RUP
    TEST_FP(68, f0, ONE, NX, csrci frm, 2; FLI(f1, ONE); FLI(f2, EPS24); fadd.s f0, f1, f2, dyn) // 1 = RTZ
    TEST_FP(69, f0, ONE_ULP, NX, li a1, 4; csrw frm, a1; FLI(f1, ONE); FLI(f2, EPS24); fadd.s f0, f1, f2, dyn)
    TEST_FP(70, f0, ONE, NX, li a1, (0 << 5) | NV; csrw fcsr, a1; csrwi fflags, 0; FLI(f1, ONE);
            FLI(f2, EPS24); fadd.s f0, f1, f2, dyn)            // back to RNE: the tie goes to even
    TEST_CASE(71, a0, 0, frcsr a0; andi a0, a0, 0xe0)

    j pass

TEST_END

    .section .data
    .balign 4
fscratch:
    .word 0
