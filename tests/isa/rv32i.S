/* RV32I base integer instructions: register and immediate arithmetic with edge operands, lui/auipc,
 * loads and stores (sign/zero extension, negative offsets, misaligned addresses), every branch taken and
 * not taken in both directions, jal/jalr link values, x0 writes, fences.
 *
 * Expected values follow the RISC-V unprivileged specification (RV32I chapter). Misaligned loads and
 * stores complete in hardware on CV32E40P (and in QEMU), so they are ordinary cases here.
 */
#include "qemu_exit.h"

#define INT_MIN 0x80000000
#define INT_MAX 0x7fffffff

/* Register-register op: rd = a1 op a2. */
#define TEST_RR(n, insn, expected, v1, v2) TEST_CASE(n, a0, expected, li a1, v1; li a2, v2; insn a0, a1, a2)
/* Register-immediate op: rd = a1 op imm. */
#define TEST_RI(n, insn, expected, v1, imm) TEST_CASE(n, a0, expected, li a1, v1; insn a0, a1, imm)

/* A conditional branch on (v1, v2): a0 ends as 1 if it was taken, 2 if it fell through. */
#define TEST_BR_FWD(n, insn, v1, v2, taken)                                                                  \
    TEST_CASE(n, a0, (2 - (taken)), li a1, v1; li a2, v2; li a0, 0; insn a1, a2, 1f; li a0, 2; j 2f;       \
              1 : li a0, 1; 2 :)
/* The same with the branch target behind the branch. */
#define TEST_BR_BWD(n, insn, v1, v2, taken)                                                                  \
    TEST_CASE(n, a0, (2 - (taken)), li a1, v1; li a2, v2; li a0, 0; j 2f; 1 : li a0, 1; j 3f;              \
              2 : insn a1, a2, 1b; li a0, 2; 3 :)

TEST_BEGIN

    // ---- add / sub: wrap-around modulo 2^32, no overflow trap ----------------------------------------
    TEST_RR(1, add, 3, 1, 2)
    TEST_RR(2, add, INT_MIN, INT_MAX, 1)
    TEST_RR(3, add, 0, -1, 1)
    TEST_RR(4, add, 0, INT_MIN, INT_MIN)
    TEST_RR(5, add, -2, -1, -1)
    TEST_RR(6, sub, -1, 0, 1)
    TEST_RR(7, sub, INT_MAX, INT_MIN, 1)
    TEST_RR(8, sub, -2, 5, 7)
    TEST_RR(9, sub, INT_MIN, 0, INT_MIN) // -INT_MIN == INT_MIN
    TEST_RR(10, sub, 0, -1, -1)

    // ---- logic ---------------------------------------------------------------------------------------
    TEST_RR(11, and, 0x0f000f00, 0xff00ff00, 0x0ff00ff0)
    TEST_RR(12, or, 0xfff0fff0, 0xff00ff00, 0x0ff00ff0)
    TEST_RR(13, xor, 0xf0f0f0f0, 0xff00ff00, 0x0ff00ff0)
    TEST_RR(14, and, 0, -1, 0)
    TEST_RR(15, xor, 0, 0x12345678, 0x12345678)

    // ---- register shifts: only rs2[4:0] is used --------------------------------------------------------
    TEST_RR(16, sll, INT_MIN, 1, 31)
    TEST_RR(17, sll, 0x12345678, 0x12345678, 0)
    TEST_RR(18, sll, 1, 1, 32)            // amount 32 -> 0
    TEST_RR(19, sll, 2, 1, 0xffffffe1)    // amount 0b00001 -> 1
    TEST_RR(20, sll, 0xfffffff0, -1, 4)
    TEST_RR(21, srl, 1, INT_MIN, 31)
    TEST_RR(22, srl, INT_MIN, INT_MIN, 0)
    TEST_RR(23, srl, 0x40000000, INT_MIN, 33) // amount 1
    TEST_RR(24, srl, 0x0fffffff, -1, 4)       // zeros shifted in
    TEST_RR(25, sra, -1, INT_MIN, 31)
    TEST_RR(26, sra, 0xc0000000, INT_MIN, 1)  // sign bits shifted in
    TEST_RR(27, sra, 0, INT_MAX, 31)
    TEST_RR(28, sra, -1, INT_MIN, 0x3f)       // amount 31
    TEST_RR(29, sra, 0x81234567, 0x81234567, 64) // amount 0
    TEST_RR(30, sra, 0x07ffffff, INT_MAX, 4)

    // ---- set-less-than: signed and unsigned orderings differ for negative values ----------------------
    TEST_RR(31, slt, 1, INT_MIN, 0)
    TEST_RR(32, slt, 0, 0, INT_MIN)
    TEST_RR(33, slt, 1, -1, 1)
    TEST_RR(34, slt, 0, 1, -1)
    TEST_RR(35, slt, 0, -7, -7)
    TEST_RR(36, slt, 1, INT_MIN, INT_MAX)
    TEST_RR(37, sltu, 1, 1, 0xffffffff)
    TEST_RR(38, sltu, 0, 0xffffffff, 1)
    TEST_RR(39, sltu, 0, INT_MIN, INT_MAX)
    TEST_RR(40, sltu, 0, 5, 5)
    TEST_CASE(41, a0, 1, li a1, 5; sltu a0, x0, a1)   // snez
    TEST_CASE(42, a0, 0, sltu a0, x0, x0)

    // ---- immediates: 12-bit, sign-extended ---------------------------------------------------------
    TEST_RI(43, addi, -1, 0, -1)
    TEST_RI(44, addi, 0x7ff, 0, 2047)
    TEST_RI(45, addi, 0xfffff800, 0, -2048)
    TEST_RI(46, addi, INT_MIN, INT_MAX, 1)
    TEST_RI(47, addi, INT_MAX, INT_MIN, -1)
    TEST_RI(48, andi, 0x12345678, 0x12345678, -1)   // imm 0xfff -> 0xffffffff
    TEST_RI(49, andi, 0x7ff, -1, 0x7ff)
    TEST_RI(50, andi, 0x12345670, 0x12345678, -16)
    TEST_RI(51, andi, 0, 0x800, 0x7ff)         // bit 11 of the operand is not in the mask
    TEST_RI(52, ori, 0xfffff800, 0, -2048)
    TEST_RI(53, ori, 0x123405a5, 0x12340000, 0x5a5)
    TEST_RI(54, xori, 0xedcba987, 0x12345678, -1)   // not
    TEST_RI(55, xori, 0x00ff07f0, 0x00ff00ff, 0x70f)
    TEST_RI(56, xori, 0xff00f0ff, 0x00ff0f00, -1)
    TEST_RI(57, slti, 1, -1, 0)
    TEST_RI(58, slti, 0, 0, -1)
    TEST_RI(59, slti, 0, 2047, 2047)
    TEST_RI(60, slti, 1, -2049, -2048)
    TEST_RI(61, slti, 1, INT_MIN, -2048)
    TEST_RI(62, sltiu, 1, 5, -1)        // the immediate is sign-extended, then compared unsigned
    TEST_RI(63, sltiu, 0, 0xffffffff, -1)
    TEST_RI(64, sltiu, 1, 0, 1)         // seqz
    TEST_RI(65, sltiu, 0, 7, 1)
    TEST_RI(66, sltiu, 0, INT_MIN, 2047)
    TEST_RI(67, slli, INT_MIN, 1, 31)
    TEST_RI(68, slli, 0xabcdef01, 0xabcdef01, 0)
    TEST_RI(69, slli, 0x34567890, 0x03456789, 4)
    TEST_RI(70, srli, 1, 0x80000001, 31)
    TEST_RI(71, srli, INT_MAX, -1, 1)
    TEST_RI(72, srli, 0x81234567, 0x81234567, 0)
    TEST_RI(73, srai, -1, INT_MIN, 31)
    TEST_RI(74, srai, 0xf8000001, 0x80000010, 4)
    TEST_RI(75, srai, 0x07ffffff, 0x7ffffff0, 4)
    TEST_RI(76, srai, -1, -1, 17)

    // ---- lui / auipc ---------------------------------------------------------------------------------
    TEST_CASE(77, a0, 0x12345000, lui a0, 0x12345)
    TEST_CASE(78, a0, 0xfffff000, lui a0, 0xfffff)
    TEST_CASE(79, a0, INT_MIN, lui a0, 0x80000)
    TEST_CASE(80, a0, 0x1234589a, lui a0, 0x12346; addi a0, a0, -0x766) // negative low part
    // auipc adds its immediate << 12 to its own address: compare with the label's absolute address.
    TEST_CASE(81, a0, 0, 1 : auipc a0, 0; lui a1, %hi(1b); addi a1, a1, %lo(1b); sub a0, a0, a1)
    TEST_CASE(82, a0, 0x1000, 1 : auipc a0, 1; lui a1, %hi(1b); addi a1, a1, %lo(1b); sub a0, a0, a1)
    TEST_CASE(83, a0, 0xfffff000, 1 : auipc a0, 0xfffff; lui a1, %hi(1b); addi a1, a1, %lo(1b);
              sub a0, a0, a1)
    TEST_CASE(84, a0, 0x12345678, 1 : auipc a1, %pcrel_hi(ldata_word2); lw a0, %pcrel_lo(1b)(a1))

    // ---- loads: sign and zero extension (ldata is 81 02 83 7f ff fe 01 80 78 56 34 12 ...) -----------
    TEST_CASE(85, a0, 0xffffff81, la a1, ldata; lb a0, 0(a1))
    TEST_CASE(86, a0, 0x81, la a1, ldata; lbu a0, 0(a1))
    TEST_CASE(87, a0, 0x02, la a1, ldata; lb a0, 1(a1))
    TEST_CASE(88, a0, 0x7f, la a1, ldata; lb a0, 3(a1))
    TEST_CASE(89, a0, 0xffffffff, la a1, ldata; lb a0, 4(a1))
    TEST_CASE(90, a0, 0xff, la a1, ldata; lbu a0, 4(a1))
    TEST_CASE(91, a0, 0x0281, la a1, ldata; lh a0, 0(a1))
    TEST_CASE(92, a0, 0x7f83, la a1, ldata; lh a0, 2(a1))
    TEST_CASE(93, a0, 0xfffffeff, la a1, ldata; lh a0, 4(a1))
    TEST_CASE(94, a0, 0xfeff, la a1, ldata; lhu a0, 4(a1))
    TEST_CASE(95, a0, 0xffff8001, la a1, ldata; lh a0, 6(a1))
    TEST_CASE(96, a0, 0x8001, la a1, ldata; lhu a0, 6(a1))
    TEST_CASE(97, a0, 0x7f830281, la a1, ldata; lw a0, 0(a1))
    TEST_CASE(98, a0, 0x8001feff, la a1, ldata; lw a0, 4(a1))
    // negative offsets from ldata + 8
    TEST_CASE(99, a0, 0x8001feff, la a1, ldata + 8; lw a0, -4(a1))
    TEST_CASE(100, a0, 0xffffff80, la a1, ldata + 8; lb a0, -1(a1))
    TEST_CASE(101, a0, 0x81, la a1, ldata + 8; lbu a0, -8(a1))
    TEST_CASE(102, a0, 0xffff8001, la a1, ldata + 8; lh a0, -2(a1))
    TEST_CASE(103, a0, 0x7f83, la a1, ldata + 8; lhu a0, -6(a1))
    TEST_CASE(104, a0, 0x7f830281, la a1, ldata + 2048; lw a0, -2048(a1)) // most negative offset
    TEST_CASE(105, a0, 0x12345678, la a1, ldata - 2039; lw a0, 2047(a1)) // most positive offset
    // misaligned loads: bytes assembled little-endian across the word boundary
    TEST_CASE(106, a0, 0xff7f8302, la a1, ldata; lw a0, 1(a1))
    TEST_CASE(107, a0, 0xfeff7f83, la a1, ldata; lw a0, 2(a1))
    TEST_CASE(108, a0, 0x01feff7f, la a1, ldata; lw a0, 3(a1))
    TEST_CASE(109, a0, 0x56788001, la a1, ldata; lw a0, 6(a1))
    TEST_CASE(110, a0, 0xffff8302, la a1, ldata; lh a0, 1(a1))
    TEST_CASE(111, a0, 0xff7f, la a1, ldata; lhu a0, 3(a1))        // straddles two words
    TEST_CASE(112, a0, 0xffffff7f, la a1, ldata; lh a0, 3(a1))
    TEST_CASE(113, a0, 0x01fe, la a1, ldata; lh a0, 5(a1))
    TEST_CASE(114, a0, 0x7880, la a1, ldata; lhu a0, 7(a1))
    TEST_CASE(115, a0, 0x3456, la a1, ldata + 12; lh a0, -3(a1))   // misaligned with a negative offset

    // ---- stores: only the addressed bytes change ------------------------------------------------------
    TEST_CASE(116, a0, 0x12345678, la a1, sbuf; li a2, 0x12345678; sw a2, 0(a1); lw a0, 0(a1))
    TEST_CASE(117, a0, 0x1122ab44, la a1, sbuf; li a2, 0x11223344; sw a2, 0(a1); li a2, 0xffffffab;
              sb a2, 1(a1); lw a0, 0(a1))
    TEST_CASE(118, a0, 0x05223344, la a1, sbuf; li a2, 0x11223344; sw a2, 0(a1); li a2, 0x12345605;
              sb a2, 3(a1); lw a0, 0(a1))
    TEST_CASE(119, a0, 0xbeef3344, la a1, sbuf; li a2, 0x11223344; sw a2, 0(a1); li a2, 0xdeadbeef;
              sh a2, 2(a1); lw a0, 0(a1))
    TEST_CASE(120, a0, 0x1122beef, la a1, sbuf; li a2, 0x11223344; sw a2, 0(a1); li a2, 0xdeadbeef;
              sh a2, 0(a1); lw a0, 0(a1))
    TEST_CASE(121, a0, 0xffffff80, la a1, sbuf; li a2, 0x180; sb a2, 2(a1); lb a0, 2(a1))
    TEST_CASE(122, a0, 0xffff8765, la a1, sbuf; li a2, 0x48765; sh a2, 2(a1); lh a0, 2(a1))
    // negative offsets
    TEST_CASE(123, a0, 0xcafef00d, la a1, sbuf + 16; li a2, 0xcafef00d; sw a2, -16(a1); lw a0, -16(a1))
    TEST_CASE(124, a0, 0x0000a500, la a1, sbuf + 16; sw x0, -12(a1); li a2, 0xa5; sb a2, -11(a1);
              lw a0, -12(a1))
    TEST_CASE(125, a0, 0x12340000, la a1, sbuf + 16; sw x0, -8(a1); li a2, 0x1234; sh a2, -6(a1);
              lw a0, -8(a1))
    // misaligned stores, the two words around them zeroed first
    TEST_CASE(126, a0, 0xb2c3d400, la a1, sbuf; sw x0, 0(a1); sw x0, 4(a1); li a2, 0xa1b2c3d4;
              sw a2, 1(a1); lw a0, 0(a1))
    TEST_CASE(127, a0, 0x000000a1, lw a0, 4(a1)) // second half of case 126
    TEST_CASE(128, a0, 0xd4000000, la a1, sbuf; sw x0, 0(a1); sw x0, 4(a1); li a2, 0xa1b2c3d4;
              sw a2, 3(a1); lw a0, 0(a1))
    TEST_CASE(129, a0, 0x00a1b2c3, lw a0, 4(a1))
    TEST_CASE(130, a0, 0xa1b2c3d4, lw a0, 3(a1)) // read back through a misaligned load
    TEST_CASE(131, a0, 0x34000000, la a1, sbuf; sw x0, 0(a1); sw x0, 4(a1); li a2, 0x1234; sh a2, 3(a1);
              lw a0, 0(a1))
    TEST_CASE(132, a0, 0x00000012, lw a0, 4(a1))
    TEST_CASE(133, a0, 0x00123400, la a1, sbuf; sw x0, 0(a1); li a2, 0x1234; sh a2, 1(a1); lw a0, 0(a1))
    TEST_CASE(134, a0, 0xc3d40000, la a1, sbuf + 8; sw x0, -8(a1); sw x0, -4(a1); li a2, 0xa1b2c3d4;
              sw a2, -6(a1); lw a0, -8(a1))
    TEST_CASE(135, a0, 0x0000a1b2, lw a0, -4(a1))

    // ---- branches: taken and not taken, target ahead and behind --------------------------------------
    TEST_BR_FWD(136, beq, 5, 5, 1)
    TEST_BR_FWD(137, beq, 5, 6, 0)
    TEST_BR_BWD(138, beq, -1, -1, 1)
    TEST_BR_BWD(139, beq, 0, INT_MIN, 0)
    TEST_BR_FWD(140, bne, 5, 6, 1)
    TEST_BR_FWD(141, bne, 5, 5, 0)
    TEST_BR_BWD(142, bne, INT_MIN, INT_MAX, 1)
    TEST_BR_BWD(143, bne, -1, -1, 0)
    TEST_BR_FWD(144, blt, -1, 1, 1)
    TEST_BR_FWD(145, blt, 1, -1, 0)
    TEST_BR_FWD(146, blt, 7, 7, 0)
    TEST_BR_BWD(147, blt, INT_MIN, INT_MAX, 1)
    TEST_BR_BWD(148, blt, INT_MAX, INT_MIN, 0)
    TEST_BR_FWD(149, bge, 1, -1, 1)
    TEST_BR_FWD(150, bge, -1, 1, 0)
    TEST_BR_FWD(151, bge, 7, 7, 1)
    TEST_BR_BWD(152, bge, INT_MIN, INT_MIN, 1)
    TEST_BR_BWD(153, bge, INT_MIN, INT_MAX, 0)
    TEST_BR_FWD(154, bltu, 1, 0xffffffff, 1)
    TEST_BR_FWD(155, bltu, 0xffffffff, 1, 0)
    TEST_BR_FWD(156, bltu, 7, 7, 0)
    TEST_BR_BWD(157, bltu, INT_MAX, INT_MIN, 1)
    TEST_BR_BWD(158, bltu, INT_MIN, INT_MAX, 0)
    TEST_BR_FWD(159, bgeu, 0xffffffff, 1, 1)
    TEST_BR_FWD(160, bgeu, 1, 0xffffffff, 0)
    TEST_BR_FWD(161, bgeu, 0, 0, 1)
    TEST_BR_BWD(162, bgeu, INT_MIN, INT_MAX, 1)
    TEST_BR_BWD(163, bgeu, INT_MAX, INT_MIN, 0)

    // ---- jal / jalr: link = address of the next instruction; skipped code must not run ----------------
    TEST_CASE(164, a0, 0, li a1, 0; jal a0, 1f; 2 : li a1, 1; 1 : la a2, 2b; sub a0, a0, a2; or a0, a0, a1)
    TEST_CASE(165, a0, 0, j 3f; 1 : la a2, 4f; sub a0, a0, a2; j 5f; 3 : jal a0, 1b; 4 : li a0, 99; 5 :)
    TEST_CASE(166, a0, 0, li a0, 0; jal x0, 1f; li a0, 99; 1 :) // j: no link, x0 stays 0
    TEST_CASE(167, a0, 0, la a1, 1f; jalr a0, 0(a1); 2 : li a0, 99; j 3f; 1 : la a2, 2b; sub a0, a0, a2; 3 :)
    TEST_CASE(168, a0, 0, la a1, 1f - 12; jalr a0, 12(a1); 2 : li a0, 99; j 3f; 1 : la a2, 2b; sub a0, a0, a2;
              3 :)
    TEST_CASE(169, a0, 0, la a1, 1f + 16; jalr a0, -16(a1); 2 : li a0, 99; j 3f; 1 : la a2, 2b;
              sub a0, a0, a2; 3 :)
    // the target's bit 0 is cleared: an odd base, then an odd offset
    TEST_CASE(170, a0, 0, la a1, 1f + 1; jalr a0, 0(a1); 2 : li a0, 99; j 3f; 1 : la a2, 2b; sub a0, a0, a2;
              3 :)
    TEST_CASE(171, a0, 0, la a1, 1f; jalr a0, 1(a1); 2 : li a0, 99; j 3f; 1 : la a2, 2b; sub a0, a0, a2; 3 :)
    // rd == rs1: the target uses the old value, then the link overwrites it
    TEST_CASE(172, a0, 0, la a0, 1f; jalr a0, 0(a0); 2 : li a0, 99; j 3f; 1 : la a2, 2b; sub a0, a0, a2; 3 :)
    TEST_CASE(173, a0, 5, la a1, 1f; li a0, 5; jalr x0, 0(a1); li a0, 99; 1 :) // jr: no link
    // call and return through ra
    TEST_CASE(174, a0, 42, li a0, 0; jal ra, add_forty_two)
    TEST_CASE(175, a0, 0, jal ra, add_forty_two; 2 : la a1, 2b; sub a0, ra, a1)

    // ---- writes to x0 are discarded (the instructions still execute: the load must not fault) --------
    TEST_CASE(176, a0, 0, addi x0, x0, 5; mv a0, x0)
    TEST_CASE(177, a0, 0, lui x0, 0x12345; add a0, x0, x0)
    TEST_CASE(178, a0, 0, li a1, 7; add x0, a1, a1; mv a0, x0)
    TEST_CASE(179, a0, 0, la a1, ldata; lw x0, 0(a1); or a0, x0, x0)
    TEST_CASE(180, a0, 0, auipc x0, 1; sltu a0, x0, x0)

    // ---- fences: no architectural effect in a single hart -------------------------------------------
    TEST_CASE(181, a0, 0x0bad, li a0, 0x0bad; fence; fence rw, rw; fence iorw, iorw; fence r, w;
              fence.tso; fence.i)
#ifndef QEMU_EXIT
    // fence.i makes a store to the code visible to instruction fetch: the patched function returns 42.
    // (Only on the simulator: QEMU maps the code read-only.)
    TEST_CASE(182, a0, 7, jal ra, patchable)
    TEST_CASE(183, a0, 42, la a1, patchable; li a2, 0x02a00513; /* addi a0, x0, 42 */ sw a2, 0(a1);
              fence.i; jal ra, patchable)
#endif

    j pass

add_forty_two:
    addi a0, a0, 42
    ret

    .option push
    .option norvc
patchable:
    addi a0, x0, 7
    ret
    .option pop

TEST_END

    .section .data
    .balign 16
ldata:
    .byte 0x81, 0x02, 0x83, 0x7f
    .byte 0xff, 0xfe, 0x01, 0x80
ldata_word2:
    .word 0x12345678
    .word 0x9abcdef0
    .balign 16
sbuf:
    .space 32
