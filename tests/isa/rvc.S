/* RV32C with the F loads/stores (RV32FC): every compressed instruction, written with its explicit c.
 * mnemonic so that each case really runs the 16-bit encoding. c.ebreak is in traps.S.
 *
 * Expected values follow the C chapter of the RISC-V unprivileged specification: each instruction does
 * what its 32-bit expansion does, with the immediate ranges of the 16-bit formats (c.addi4spn: 4..1020
 * step 4, c.addi16sp: -512..496 step 16, c.lui: a nonzero 6-bit signed value << 12, c.lw/c.sw: 0..124,
 * c.lwsp/c.swsp: 0..252), and the link of c.jal/c.jalr is pc + 2.
 * Registers of the 3-bit fields are x8..x15 (s0, s1, a0..a5) and f8..f15 (fs0, fs1, fa0..fa5).
 */
#include "qemu_exit.h"

/* A compressed branch on a1: a0 ends as 1 if it was taken, 2 if it fell through. */
#define TEST_CBR_FWD(n, insn, v, taken)                                                                      \
    TEST_CASE(n, a0, (2 - (taken)), li a1, v; li a0, 0; insn a1, 1f; li a0, 2; j 2f; 1 : li a0, 1; 2 :)
#define TEST_CBR_BWD(n, insn, v, taken)                                                                      \
    TEST_CASE(n, a0, (2 - (taken)), li a1, v; li a0, 0; j 2f; 1 : li a0, 1; j 3f; 2 : insn a1, 1b; li a0, 2; \
              3 :)

TEST_BEGIN

    // scratch room below the stack top for the sp-relative loads and stores
    c.addi16sp sp, -256

    // ---- c.addi4spn: rd' = sp + nzuimm ----------------------------------------------------------------
    TEST_CASE(1, a0, 16, c.addi4spn a0, sp, 16; sub a0, a0, sp)
    TEST_CASE(2, a0, 1020, c.addi4spn s1, sp, 1020; sub a0, s1, sp)
    TEST_CASE(3, a0, 4, c.addi4spn a5, sp, 4; sub a0, a5, sp)

    // ---- c.li / c.lui: 6-bit signed immediates -------------------------------------------------------
    TEST_CASE(4, a0, -32, c.li a0, -32)
    TEST_CASE(5, a0, 31, c.li a0, 31)
    TEST_CASE(6, a0, -1, c.li t1, -1; mv a0, t1)                 // any register but x0
    TEST_CASE(7, a0, 0, li a0, 9; c.li a0, 0)
    TEST_CASE(8, a0, 0x1000, c.lui a0, 1)
    TEST_CASE(9, a0, 0x1f000, c.lui a0, 31)
    TEST_CASE(10, a0, 0xfffff000, c.lui a0, 0xfffff)             // -1 << 12
    TEST_CASE(11, a0, 0xfffe0000, c.lui a0, 0xfffe0)             // -32 << 12
    TEST_CASE(12, a0, 0x00003000, c.lui t2, 3; mv a0, t2)

    // ---- c.addi / c.nop / c.addi16sp -----------------------------------------------------------------
    TEST_CASE(13, a0, 4, li a0, 5; c.addi a0, -1)
    TEST_CASE(14, a0, 4, li a0, 5; c.addi a0, 31; c.addi a0, -32)
    TEST_CASE(15, a0, 0x80000000, li t2, 0x7fffffff; c.addi t2, 1; mv a0, t2)
    TEST_CASE(16, a0, 0x1234, li a0, 0x1234; c.nop; c.nop)
    TEST_CASE(17, a0, 64, mv a1, sp; c.addi16sp sp, -64; sub a0, a1, sp; c.addi16sp sp, 64)
    TEST_CASE(18, a0, 496, mv a1, sp; c.addi16sp sp, 496; sub a0, sp, a1; c.addi16sp sp, -496)
    TEST_CASE(19, a0, -512, mv a1, sp; c.addi16sp sp, -512; sub a0, sp, a1; c.addi16sp sp, 256;
              c.addi16sp sp, 256)

    // ---- c.srli / c.srai / c.andi / c.slli ------------------------------------------------------------
    TEST_CASE(20, a0, 1, li a0, 0x80000000; c.srli a0, 31)
    TEST_CASE(21, a0, 0x7fffffff, li a0, -1; c.srli a0, 1)
    TEST_CASE(22, a0, -1, li a0, 0x80000000; c.srai a0, 31)
    TEST_CASE(23, a0, 0xf8000001, li a0, 0x80000010; c.srai a0, 4)
    TEST_CASE(24, a0, 0x07ffffff, li a5, 0x7ffffff0; c.srai a5, 4; mv a0, a5)
    TEST_CASE(25, a0, 0x12345670, li a0, 0x12345678; c.andi a0, -16)
    TEST_CASE(26, a0, 0x18, li a0, 0x12345678; c.andi a0, 31)
    TEST_CASE(27, a0, 0x12345660, li a0, 0x12345678; c.andi a0, -32)
    TEST_CASE(28, a0, 0, li s0, 0x12345678; c.andi s0, 0; mv a0, s0)
    TEST_CASE(29, a0, 0x80000000, li a0, 1; c.slli a0, 31)
    TEST_CASE(30, a0, 0x23456780, li t0, 0x12345678; c.slli t0, 4; mv a0, t0) // any register

    // ---- c.sub / c.xor / c.or / c.and ---------------------------------------------------------------
    TEST_CASE(31, a0, -2, li a0, 5; li a1, 7; c.sub a0, a1)
    TEST_CASE(32, a0, 0x80000000, li a0, 0; li a1, 0x80000000; c.sub a0, a1)
    TEST_CASE(33, a0, 0xf0f0f0f0, li a0, 0xff00ff00; li a1, 0x0ff00ff0; c.xor a0, a1)
    TEST_CASE(34, a0, 0xfff0fff0, li a0, 0xff00ff00; li a1, 0x0ff00ff0; c.or a0, a1)
    TEST_CASE(35, a0, 0x0f000f00, li a0, 0xff00ff00; li a1, 0x0ff00ff0; c.and a0, a1)
    TEST_CASE(36, a0, 0x7fffffff, li s0, 0x80000000; li s1, 1; c.sub s0, s1; mv a0, s0)
    TEST_CASE(37, a0, 0, li a5, 0x5a5a5a5a; c.xor a5, a5; mv a0, a5)

    // ---- c.mv / c.add: full register numbers ---------------------------------------------------------
    TEST_CASE(38, a0, 0x1234, li a1, 0x1234; c.mv a0, a1)
    TEST_CASE(39, a0, -5, li a1, -5; c.mv t3, a1; mv a0, t3)
    TEST_CASE(40, a0, 7, li a0, 3; li a1, 4; c.add a0, a1)
    TEST_CASE(41, a0, 0xfffffffe, li t0, 0x7fffffff; c.add t0, t0; mv a0, t0)
    TEST_CASE(42, a0, 0, li a0, 1; li t4, -1; c.add a0, t4)

    // ---- c.lw / c.sw: offsets 0..124 from x8..x15 ------------------------------------------------------
    TEST_CASE(43, a0, 0x11111111, la s0, cdata; c.lw a0, 0(s0))
    TEST_CASE(44, a0, 0x80808080, la s0, cdata; c.lw a0, 124(s0))
    TEST_CASE(45, a0, 0xfedcba98, la s1, cbuf; li a1, 0xfedcba98; c.sw a1, 4(s1); lw a0, 4(s1))
    TEST_CASE(46, a0, 0x0badf00d, la a5, cbuf; li a2, 0x0badf00d; c.sw a2, 124(a5); c.lw a4, 124(a5);
              mv a0, a4)
    TEST_CASE(47, a0, 0x22222222, la a0, cdata; c.lw a0, 4(a0))   // base and destination the same

    // ---- c.lwsp / c.swsp: offsets 0..252 from sp, any register ---------------------------------------
    TEST_CASE(48, a0, 0xdeadbeef, li a1, 0xdeadbeef; c.swsp a1, 0(sp); c.lwsp a0, 0(sp))
    TEST_CASE(49, a0, 0x13579bdf, li t0, 0x13579bdf; c.swsp t0, 252(sp); c.lwsp t1, 252(sp); mv a0, t1)
    TEST_CASE(50, a0, 0xdeadbeef, c.lwsp ra, 0(sp); mv a0, ra)
    TEST_CASE(51, a0, 0x13579bdf, lw a0, 252(sp))              // c.swsp wrote sp + 252

    // ---- c.flw / c.fsw / c.flwsp / c.fswsp: bit-exact --------------------------------------------------
    TEST_CASE(52, a0, 0x3f800000, la s0, cdata; c.flw fa0, 8(s0); fmv.x.w a0, fa0)
    TEST_CASE(53, a0, 0x7f800001, la s0, cdata; c.flw fs1, 120(s0); fmv.x.w a0, fs1) // a signaling NaN
    TEST_CASE(54, a0, 0xc0490fdb, la s1, cbuf; li a1, 0xc0490fdb; fmv.w.x fa5, a1; c.fsw fa5, 12(s1);
              lw a0, 12(s1))
    TEST_CASE(55, a0, 0x7fc12345, la s1, cbuf; li a1, 0x7fc12345; fmv.w.x fs0, a1; c.fsw fs0, 124(s1);
              c.flw fa1, 124(s1); fmv.x.w a0, fa1)
    TEST_CASE(56, a0, 0x40400000, li a1, 0x40400000; fmv.w.x ft0, a1; c.fswsp ft0, 8(sp); c.flwsp ft1, 8(sp);
              fmv.x.w a0, ft1)
    TEST_CASE(57, a0, 0xff800000, li a1, 0xff800000; fmv.w.x ft11, a1; c.fswsp ft11, 248(sp); lw a0, 248(sp))
    TEST_CASE(58, a0, 0xdeadbeef, c.flwsp ft2, 0(sp); fmv.x.w a0, ft2) // a word written by c.swsp

    // ---- c.j -----------------------------------------------------------------------------------------
    TEST_CASE(59, a0, 1, li a0, 1; c.j 1f; li a0, 2; 1 :)
    TEST_CASE(60, a0, 1, li a0, 0; j 2f; 1 : li a0, 1; j 3f; 2 : c.j 1b; li a0, 2; 3 :)

    // ---- c.jal (RV32 only): ra = pc + 2 ----------------------------------------------------------------
    TEST_CASE(61, a0, 2, 4 : c.jal 1f; li a0, 99; j 2f; 1 : la a1, 4b; sub a0, ra, a1; 2 :)
    TEST_CASE(62, a0, 2, j 3f; 1 : la a1, 4f; sub a0, ra, a1; j 2f; 3 : nop; 4 : c.jal 1b; li a0, 99; 2 :)

    // ---- c.jr / c.jalr: c.jalr links pc + 2, c.jr links nothing ----------------------------------------
    TEST_CASE(63, a0, 5, la a1, 1f; li a0, 5; c.jr a1; li a0, 99; 1 :)
    TEST_CASE(64, a0, 0x77, li ra, 0x77; la a1, 1f; c.jr a1; li ra, 0; 1 : mv a0, ra)
    TEST_CASE(65, a0, 2, la a1, 1f; 4 : c.jalr a1; li a0, 99; j 2f; 1 : la a2, 4b; sub a0, ra, a2; 2 :)
    // c.jalr ra: jumps to the old ra, then overwrites it with the link
    TEST_CASE(66, a0, 2, la ra, 1f; 4 : c.jalr ra; li a0, 99; j 2f; 1 : la a2, 4b; sub a0, ra, a2; 2 :)
    // a call through c.jalr returning with c.jr ra
    TEST_CASE(67, a0, 10, li a0, 3; la t0, add_seven; c.jalr t0)

    // ---- c.beqz / c.bnez --------------------------------------------------------------------------
    TEST_CBR_FWD(68, c.beqz, 0, 1)
    TEST_CBR_FWD(69, c.beqz, 5, 0)
    TEST_CBR_BWD(70, c.beqz, 0, 1)
    TEST_CBR_BWD(71, c.beqz, -1, 0)
    TEST_CBR_FWD(72, c.bnez, 0x80000000, 1)
    TEST_CBR_FWD(73, c.bnez, 0, 0)
    TEST_CBR_BWD(74, c.bnez, 1, 1)
    TEST_CBR_BWD(75, c.bnez, 0, 0)

    // ---- a run of compressed instructions (every parcel 2-byte aligned, some 4-byte) -----------------
    TEST_CASE(76, a0, 45, c.li a0, 0; c.li a1, 9; 1 : c.add a0, a1; c.addi a1, -1; c.bnez a1, 1b)

    j pass

add_seven:
    c.addi a0, 7
    c.jr ra

TEST_END

    .section .data
    .balign 16
cdata:
    .word 0x11111111, 0x22222222, 0x3f800000
    .fill 27, 4, 0
    .word 0x7f800001, 0x80808080    // offsets 120 and 124
cbuf:
    .space 128
