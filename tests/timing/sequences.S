/* Hazard micro-sequences for the cycle-exact timing tests (timing_test.cpp holds the expected costs).
 *
 * Each case reads mcycle, runs its sequence, reads mcycle again and stores the difference in results[i].
 * A csrr of mcycle costs 4 cycles and returns the cycles counted before it issued, so an empty sequence measures 4
 * (results[0]) and a sequence's own cost is results[i] - results[0].
 */
#include "hwloop.h"
#include "xfvec.h"

    .option arch, +zfh

/* With RVC enabled the assembler can pad a 2-byte gap with c.nop. */
#define BEGIN .option push; .option rvc; .balign 4; .option pop; csrr t0, mcycle
#define END(i) csrr t1, mcycle; sub t1, t1, t0; sw t1, 4 * (i)(s0)

    .section .text.init, "ax"
    .globl _start
_start:
    .option norvc
    csrw mcountinhibit, zero
    la s0, results
    la s1, data
    li a2, 1
    la t2, one
    flw f1, 0(t2)
    flw f2, 4(t2)  /* 3.0 */
    flw f4, 8(t2)  /* 2.0 */
    li a3, 0
    nop; nop; nop; nop

    BEGIN; END(0)                                   /* baseline */
    BEGIN; addi a0, a0, 1; END(1)
    BEGIN; lw a1, 0(s1); addi a4, a3, 1; END(2)     /* load, independent next */
    BEGIN; lw a1, 0(s1); addi a4, a1, 1; END(3)     /* load-use */
    BEGIN; bne zero, zero, 1f; 1: END(4)            /* branch not taken */
    BEGIN; beq zero, zero, 1f; 1: END(5)            /* branch taken, aligned target */
    BEGIN
    beq zero, zero, 1f
    .option rvc
    c.nop
    .option norvc
1:  END(6)                                          /* branch taken, 32-bit target at pc % 4 == 2 */
    BEGIN; jal zero, 1f; 1: END(7)                  /* jal */
    BEGIN
    jal zero, 1f
    .option rvc
    c.nop
    .option norvc
1:  END(8)                                          /* jal to a misaligned 32-bit target */
    la a5, 1f
    nop; nop
    BEGIN; jalr zero, 0(a5); 1: END(9)              /* jalr, operand ready long ago */
    la a5, 1f
    BEGIN; addi a5, a5, 0; jalr zero, 0(a5); 1: END(10) /* jalr right after its operand's producer */
    li a6, 7
    li a7, 0x80000000
    BEGIN; mul a0, a2, a6; END(11)
    BEGIN; mulh a0, a2, a6; END(12)
    BEGIN; mulh a0, a2, a6; addi a4, a0, 1; END(13)
    BEGIN; div a0, a6, a2; END(14)                  /* divisor 1: 31 leading zeros */
    BEGIN; divu a0, a6, a7; END(15)                 /* divisor 0x80000000: none */
    BEGIN; div a0, a6, zero; END(16)                /* divisor 0 */
    BEGIN; div a0, a2, a6; END(17)                  /* divisor 7: 29 leading zeros */
    BEGIN; fadd.s f3, f1, f1; fadd.s f5, f3, f3; END(18)            /* FP dependency */
    BEGIN; fmul.s f3, f1, f2; fmadd.s f5, f3, f2, f1; fmadd.s f6, f5, f2, f1; END(19)
    BEGIN; fdiv.s f3, f1, f2; fadd.s f5, f3, f3; END(20)            /* 1/3: inexact */
    BEGIN; fdiv.s f3, f1, f4; fadd.s f5, f3, f3; END(21)            /* 1/2: exact */
    BEGIN; fdiv.s f3, f1, f2; addi a0, a0, 1; END(22)               /* integer work continues */
    fadd.s f3, f3, f3   /* wait for that division before the next case */
    BEGIN; fdiv.s f3, f1, f2; fadd.s f5, f1, f1; END(23)            /* FPU busy for any FP op */
    BEGIN; flw f3, 0(t2); fadd.s f5, f3, f3; END(24)                /* FP load-use */
    BEGIN; csrr a0, mscratch; END(25)
    BEGIN; lw a1, 1(s1); END(26)                                    /* misaligned word */
    fsqrt.s f3, f4   /* drain the div/sqrt unit before the next case */
    fadd.s f3, f3, f3
    BEGIN; fsqrt.s f3, f4; fadd.s f5, f3, f3; END(27)               /* sqrt(2): inexact */
    BEGIN
    cv_setupi 0, 10, 2f
    addi a0, a0, 1
    addi a1, a1, 1
    addi a4, a4, 1
2:  END(28)                                                         /* 10 x 3 instructions */
    li a0, 0
    BEGIN
    cv_setupi 0, 4, 2f
    addi a1, a0, 1
    addi a4, a4, 1
    lw a0, 0(s1)
2:  END(29)                                         /* load-use across the loop-back */
    BEGIN
    cv_setupi 1, 3, 4f
    cv_setupi 0, 2, 3f
    addi a0, a0, 1
    addi a1, a1, 1
    addi a4, a4, 1
3:  addi a5, a5, 1
    addi a6, a6, 1
4:  END(30)                                         /* nested: 3 x (1 + 2 x 3 + 2) + 1 */

    /* FP16: the same costs as the binary32 operation of the same kind. */
    la t2, halves
    flw f7, 0(t2)  /* 1.0, NaN-boxed binary16 */
    flw f8, 4(t2)  /* 3.0, NaN-boxed */
    flw f9, 8(t2)  /* pair (3.0, 1.0) */
    flw f10, 12(t2) /* pair (3.0, 3.0) */
    BEGIN; VFMUL_H(f3, f9, f10); VFMAC_H(f5, f3, f10); VFMAC_H(f5, f3, f10); END(31) /* accumulates into rd */
    BEGIN; fadd.h f3, f7, f7; fadd.h f5, f3, f3; END(32)
    BEGIN; VFDOTPEX_S_H(f5, f9, f10); VFDOTPEX_S_H(f5, f9, f10); END(33)
    BEGIN; fdiv.h f3, f7, f8; fadd.s f5, f3, f3; END(34)            /* 1/3: inexact */
    BEGIN; VFDIV_H(f3, f9, f10); fadd.s f5, f3, f3; END(35)         /* lanes 1/3 and 3/3 */
    BEGIN; VFDIV_H(f3, f10, f10); fadd.s f5, f3, f3; END(36)        /* both lanes exact */
    BEGIN; VFCPKA_H_S(f3, f1, f2); VFADD_H(f5, f3, f3); END(37)     /* conversion, then add */

    /* Split loads whose result the next instruction uses (cv32e40p_load_store_unit.sv, controller). */
    BEGIN; lw a1, 1(s1); addi a4, a1, 1; END(38)                     /* misaligned word, then its use */
    BEGIN; lh a1, 3(s1); addi a4, a1, 1; END(39)                     /* halfword across a word, then use */
    BEGIN; lhu a1, 1(s1); addi a4, a1, 1; END(40)                    /* halfword inside the word: aligned */
    BEGIN; lw a1, 1(s1); addi a4, a3, 1; END(41)                     /* misaligned word, independent next */
    BEGIN; flw f3, 1(s1); fadd.s f5, f3, f3; END(42)                 /* misaligned flw, then its use */

    /* Signed division by negative divisors (cv32e40p_alu.sv div_shift, cv32e40p_alu_div.sv). */
    li a5, -1
    BEGIN; div a0, a6, a5; END(43)
    li a5, -2
    BEGIN; rem a0, a6, a5; END(44)
    li a5, -3
    BEGIN; div a0, a6, a5; END(45)
    li a5, -0x10001
    BEGIN; div a0, a6, a5; END(46)
    li a5, -1
    BEGIN; divu a0, a6, a5; END(47)                                  /* unsigned: 0xffffffff, no zeros */
    li a5, 3
    BEGIN; div a0, a6, a5; END(48)

    /* fdiv/fsqrt: the iterations end when the remainder is zero (pa_fdsu_ctrl.v). */
    la t2, divsqrt_operands
    flw f11, 0(t2)   /* 9.0 */
    flw f12, 4(t2)   /* 8.0 */
    flw f13, 8(t2)   /* 2.25 */
    flw f14, 12(t2)  /* 256.0 */
    flw f15, 16(t2)  /* 2^100 */
    flw f16, 20(t2)  /* 2^-120 */
    flw f17, 24(t2)  /* 3 x 2^-149, denormal */
    flw f18, 28(t2)  /* 2^-149, denormal */
    fmv.w.x f19, zero
    BEGIN; fdiv.s f3, f2, f4; fadd.s f5, f3, f3; END(49)             /* 3/2 = 1.5: one fraction bit */
    BEGIN; fdiv.s f3, f11, f12; fadd.s f5, f3, f3; END(50)           /* 9/8 = 1.125: three */
    BEGIN; fdiv.s f3, f1, f19; fadd.s f5, f3, f3; END(51)            /* 1/0: special operand */
    BEGIN; fsqrt.s f3, f13; fadd.s f5, f3, f3; END(52)               /* sqrt(2.25) = 1.5 */
    BEGIN; fsqrt.s f3, f14; fadd.s f5, f3, f3; END(53)               /* sqrt(256) = 16 */
    BEGIN; fdiv.s f3, f15, f16; fadd.s f5, f3, f3; END(54)           /* 2^220: overflow */
    BEGIN; fdiv.s f3, f17, f18; fadd.s f5, f3, f3; END(55)           /* 3: denormal divisor */
    BEGIN                                                            /* 1/3, /3, /3: the third is exact */
    fdiv.s f3, f1, f2
    fdiv.s f3, f3, f2
    fdiv.s f3, f3, f2
    fadd.s f5, f3, f3
    END(56)

    /* What waits for the FP operations in flight (cv32e40p_apu_disp.sv, cv32e40p_id_stage.sv). */
    fadd.s f3, f3, f3
    BEGIN; fdiv.s f3, f1, f2; csrr a1, mscratch; END(57)             /* a CSR after an inexact fdiv */
    fadd.s f3, f3, f3
    BEGIN; fdiv.s f3, f1, f4; csrr a1, mscratch; END(58)             /* ... after an exact one */
    fadd.s f3, f3, f3
    BEGIN; fdiv.s f3, f1, f2; fdiv.s f5, f1, f2; END(59)            /* two independent divisions */
    fadd.s f5, f5, f5
    BEGIN; fadd.s f3, f1, f1; fmin.s f5, f1, f2; END(60)            /* add, then a compare-class op */
    BEGIN; fmin.s f3, f1, f2; fadd.s f5, f1, f1; END(61)            /* and the other way round */
    BEGIN; fadd.s f3, f1, f1; fadd.s f5, f1, f1; fadd.s f6, f1, f1; fadd.s f7, f1, f1; END(62)
    BEGIN; fadd.s f3, f1, f1; fdiv.s f5, f1, f2; END(63)            /* a division after an add */
    fadd.s f5, f5, f5

    /* Fences, jalr linking into its own base register, frm writes (cv32e40p_controller.sv). */
    BEGIN; fence; END(64)
    BEGIN; fence.i; END(65)
    BEGIN; sw a0, 0(s1); fence; END(66)
    la a5, 1f
    BEGIN; addi a5, a5, 0; jalr a5, 0(a5); 1: END(67)               /* rd = rs1, just produced */
    la a5, 1f
    nop; nop
    BEGIN; jalr a5, 0(a5); 1: END(68)                               /* rd = rs1, produced long ago */
    frrm a1
    BEGIN; fsrm a1; END(69)                                         /* writing frm flushes */
    BEGIN; frrm a1; END(70)                                         /* reading it does not */
    BEGIN; fsflags a1; END(71)                                      /* nor does writing fflags */

    /* Divisions whose result overflows or is denormal: the exponents decide whether the unit iterates. */
    li t3, 0x7f7fffff; fmv.w.x f20, t3; li t3, 0x3f000000; fmv.w.x f21, t3
    BEGIN; fdiv.s f3, f20, f21; fadd.s f5, f3, f3; END(72)          /* max / 0.5: ea - eb = 128 */
    li t3, 0x7f000000; fmv.w.x f20, t3
    BEGIN; fdiv.s f3, f20, f21; fadd.s f5, f3, f3; END(73)          /* 2^127 / 0.5 = 2^128 */
    li t3, 0x00000003; fmv.w.x f20, t3; li t3, 0x40000000; fmv.w.x f21, t3
    BEGIN; fdiv.s f3, f20, f21; fadd.s f5, f3, f3; END(74)          /* 3 x 2^-149 / 2: rounded denormal */
    li t3, 0x00800000; fmv.w.x f20, t3; li t3, 0x4b800000; fmv.w.x f21, t3
    BEGIN; fdiv.s f3, f20, f21; fadd.s f5, f3, f3; END(75)          /* 2^-126 / 2^24 = 2^-150 */

    /* Traps and mret (cv32e40p_controller.sv). The handler, trap_return, sets mepc to t4 (4 cycles, a
     * status CSR) and returns (mret): each trap case costs its entry + 4 + 5. */
    la t3, trap_return
    csrw mtvec, t3
    la t4, 1f
    BEGIN; ecall; 1: END(76)
    la t4, 1f
    BEGIN; ebreak; 1: END(77)
    la t4, 1f
    BEGIN; .word 0; 1: END(78)                                      /* c.unimp: illegal in the decoder */
    la t4, 1f
    BEGIN; csrw mvendorid, zero; 1: END(79)                         /* a write of a read-only CSR */
    la t4, 1f
    csrw mepc, t4
    BEGIN; mret; 1: END(80)
    li t3, 5
    fsrm t3
    la t4, 1f
    BEGIN; fadd.s f3, f1, f1; 1: END(81)                            /* dynamic rounding, frm reserved */
    fsrm zero
    csrw mtvec, zero

    /* A div/sqrt result (class 3) takes the ALU's register-file port in the EX cycle of the instruction that
     * issued one cycle before it is ready (cv32e40p_ex_stage.sv). 2.0 / 1.0 is exact: ready 6 cycles on. */
    la t2, one
    flw f1, 0(t2)
    flw f4, 8(t2)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; nop; nop; nop; END(82)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; lw a1, 0(s1); nop; sw a1, 4(s1); nop; nop; END(83)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; sw a1, 4(s1); nop; nop; nop; END(84)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; mulh a0, a2, a6; nop; END(85)

    /* A jump sets the pc in its first cycle in ID (cv32e40p_controller.sv, jump_in_dec), also while the
     * instruction ahead of it is held in EX: its target is fetched during the wait. */
    li a2, 1
    li a6, 7
    BEGIN; div a0, a2, a6; j 1f; 1: END(86)
    la t3, 1f
    BEGIN; mulh a0, a2, a6; jalr t3, 0(t3); 1: END(87)
    BEGIN; lw a0, 1(s1); j 1f; 1: END(88)
    BEGIN; lw a0, 1(s1); jal a0, 1f; 1: END(89)
    la s4, 1f
    li s5, 1
    BEGIN; divu t3, s4, s5; jalr zero, 0(t3); 1: END(90)
    BEGIN; fdiv.s f3, f4, f1; fadd.s f5, f1, f1; j 1f; 1: END(91)
    la t3, 1f
    BEGIN; div a0, a2, a6; jalr zero, 0(t3); 1: END(92)
    BEGIN; lw a0, 1(s1); j 3f; .option push; .option rvc; c.nop; 3: add a1, a2, a3; c.nop; .option pop; END(93)

    /* A taken branch leaves the instruction after it in ID; a CSR instruction there holds ID while an FP
     * result is due (cv32e40p_id_stage.sv: csr_apu_stall) and keeps the target out. */
    BEGIN; fdiv.s f3, f4, f1; beq zero, zero, 1f; csrr a0, mscratch; 1: nop; END(94)
    BEGIN; fdiv.s f3, f4, f1; beq zero, zero, 1f; nop; 1: nop; END(95)
    BEGIN; fdiv.s f3, f4, f1; beq zero, zero, 1f; csrr a0, mscratch; 1: nop; nop; nop; nop; nop; nop; nop; nop; END(96)

    /* A division by a denormal normalises the divisor first (pa_fdsu_ctrl.v: fdsu_dn_stall): the unit takes
     * it a cycle late and the core holds it in EX meanwhile. The result is due as before. */
#define TEN_ADDI addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1; \
    addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1; addi a5, a5, 1
    la t2, divsqrt_operands
    flw f17, 24(t2)  /* 3 x 2^-149, denormal */
    flw f18, 28(t2)  /* 2^-149, denormal */
    BEGIN; fdiv.s f3, f17, f18; TEN_ADDI; fdiv.s f3, f17, f18; END(97)
    BEGIN; fdiv.s f3, f17, f18; j 1f; 1: TEN_ADDI; fdiv.s f3, f17, f18; END(98)
    BEGIN; fsqrt.s f3, f17; TEN_ADDI; fsqrt.s f3, f17; END(99)

    /* An instruction that is no FP operation waits in ID while an FP result for its destination register is
     * in flight (cv32e40p_apu_disp.sv: write_dep_o), as if it read that register. */
    BEGIN; fdiv.s f3, f2, f4; flw f3, 0(s1); TEN_ADDI; END(100)
    BEGIN; fdiv.s f3, f2, f4; flw f5, 0(s1); TEN_ADDI; END(101)
    BEGIN; fadd.s f5, f1, f2; flw f5, 0(s1); TEN_ADDI; END(102)
    BEGIN; fmv.x.w a0, f2; li a0, 5; TEN_ADDI; END(103)
    BEGIN; fmv.x.w a0, f2; li a1, 5; TEN_ADDI; END(104)

    /* A class-3 result whose write waits (here for the load's response, cv32e40p_ex_stage.sv: apu_valid)
     * returns that much later: to its reader, to the APU dispatcher, to a store of it. */
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; lw a1, 0(s1); nop; fadd.s f5, f3, f3; TEN_ADDI; END(105)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; lw a1, 0(s1); nop; fadd.s f5, f1, f1; TEN_ADDI; END(106)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; lw a1, 0(s1); nop; fsw f3, 8(s1); TEN_ADDI; END(107)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; nop; fadd.s f5, f3, f3; TEN_ADDI; END(108)

    /* A jalr in EX when that write comes is not held: ID still shows it during its refetch, which holds the
     * write back into that cycle. A jal is held. */
#define FDIV_3_NOPS fdiv.s f3, f4, f1; nop; nop; nop
    la t3, 1f
    BEGIN; FDIV_3_NOPS; addi a1, a1, 1; jalr zero, 0(t3); 1: addi a2, a2, 1; TEN_ADDI; END(109)
    BEGIN; FDIV_3_NOPS; addi a1, a1, 1; jal zero, 1f; 1: addi a2, a2, 1; TEN_ADDI; END(110)
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; jalr ra, 0(t3); 1: addi a2, a2, 1; TEN_ADDI; END(111)

    /* A load in EX holds the instruction in ID that writes its destination through the ALU port, as a read
     * would (cv32e40p_controller.sv: load_stall_o, regfile_waddr_ex_i == regfile_alu_waddr_id_i). */
    li a2, 1
    li a6, 7
    BEGIN; lw a0, 0(s1); addi a0, a3, 1; END(112)
    BEGIN; lw a0, 0(s1); csrr a0, mscratch; END(113)
    BEGIN; lw a0, 0(s1); mulh a0, a2, a6; END(114)
    BEGIN; lw a0, 1(s1); addi a0, a3, 1; END(115)
    BEGIN; lw a0, 0(s1); fmv.x.w a0, f1; END(116)
    BEGIN; lw a0, 0(s1); jal a0, 1f; 1: END(117)
    /* A class-3 result due while a mulh is past its first EX cycle (mulh_active) goes into the EX cycle of
     * the instruction after it, which it holds only if that one writes through the ALU port. */
    la t2, one
    flw f1, 0(t2)
    flw f4, 8(t2)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; mulh a0, a2, a6; sw a1, 4(s1); nop; END(118)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; mulh a0, a2, a6; csrr a1, mscratch; nop; END(119)
    /* The same write behind a mulh that a store's response kept out of its first EX cycle. */
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; sw a1, 4(s1); mulh a0, a2, a6; nop; END(120)
    /* While a jalr waits in ID behind the instruction in EX, the write is kept out (apu_valid: a jalr in
     * decode and an ALU-port writer in EX): the addi at 5 is not held, and the write comes a cycle later, in
     * an empty EX (121: the jalr waits for the addi) or in the jalr's refetch (122, 123). */
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; addi t3, t3, 0; jalr zero, 0(t3); 1: nop; END(121)
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; addi a1, a1, 1; jalr zero, 0(t3); 1: nop; END(122)
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; addi a1, a1, 1; jalr zero, 0(t3); 1: fadd.s f5, f3, f3; END(123)
    /* Fences write no register: the write goes through in their EX cycle. */
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; fence; nop; END(124)
    BEGIN; fdiv.s f3, f4, f1; nop; nop; nop; nop; fence.i; nop; END(125)
    /* A taken branch over a CSR instruction held by an FP result (94): a 32-bit target that straddles a
     * word boundary takes its second fetch after the hold as well. */
    BEGIN; fdiv.s f3, f4, f1; beq zero, zero, 1f; csrr a0, mscratch; .option push; .option rvc; c.nop
    .option pop; 1: addi a1, a1, 1; nop; END(126)
    /* A jump waits in ID for an FP result to its link register (apu_stall_o), and the controller sets the pc
     * in its first cycle there (jump_in_dec): the target is fetched meanwhile. A jalr sets it once rs1 can
     * be forwarded (jr_stall_o): in 129 only in its last cycle there, and the refetch is left to pay. Single
     * cycle results (latency 0) hold nothing. */
    BEGIN; feq.s a5, f1, f2; jal a5, 1f; 1: nop; END(127)
    BEGIN; feq.s a5, f1, f2; nop; jal a5, 1f; 1: nop; END(128)
    BEGIN; feq.s a5, f1, f2; la t3, 1f; jalr a5, 0(t3); 1: nop; END(129)
    la t3, 1f
    BEGIN; feq.s a5, f1, f2; jalr a5, 0(t3); 1: nop; END(130)
    BEGIN; feq.s a5, f1, f2; jal a5, 1f; .option push; .option rvc; c.nop; .option pop; 1: addi a1, a1, 1
    nop; END(131)
    /* A status CSR (mstatus, mcycle, frm or fcsr written) flushes the pipeline, and the controller decodes
     * what follows in DECODE, not DECODE_HWLOOP: on the last two instructions of a loop body it does not
     * have the loop's start prefetched, but jumps there from ID on the last one (PC_HWLOOP), a refetch cycle
     * at each jump back unless the last instruction waits in ID (134), or is a status CSR itself, whose flush
     * jumps back (135). When the instruction after the CSR is third from the end or further (136), the
     * controller is back in DECODE_HWLOOP before the end. */
    BEGIN; cv_setupi 0, 3, 2f; nop; csrr a4, mstatus; nop; nop; 2: END(132)
    BEGIN; cv_setupi 0, 3, 2f; nop; nop; csrr a4, mstatus; nop; 2: END(133)
    BEGIN; cv_setupi 0, 3, 2f; nop; csrr a4, mstatus; lw a5, 0(s1); addi a6, a5, 1; 2: END(134)
    BEGIN; cv_setupi 0, 3, 2f; nop; nop; csrr a4, mstatus; csrr a5, mstatus; 2: END(135)
    BEGIN; cv_setupi 0, 3, 2f; csrr a4, mstatus; nop; nop; nop; 2: END(136)
    /* An mret after a trap in a loop body is a flush as well: 137 and 138 pay the refetch at each jump back,
     * 139 does not. An mret to the loop's end (140: an ecall as the last instruction) leaves the loop after
     * one round, as the controller counts a round when the last instruction is decoded (hwlp_dec_cnt_o), and
     * a trapping one is not. The loop stays set up with its count: the cases after it set theirs up with
     * cv.setupi, which writes start, end and count at once. */
    la t3, trap_return
    csrw mtvec, t3
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; nop; ecall; 1: nop; nop; 2: END(137)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; nop; nop; ecall; 1: nop; 2: END(138)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; ecall; 1: nop; nop; nop; 2: END(139)
    la t4, 2f
    BEGIN; cv_setupi 0, 3, 2f; nop; nop; nop; ecall; 2: END(140)
    /* An illegal instruction decoded in DECODE_HWLOOP (in a loop body that goes round again, past the first
     * instruction decoded after a set-up or a flush) does not wait to leave ID: the controller halts ID and
     * flushes at once, 4 cycles to the handler from its first cycle in ID, skipping its own waits there
     * (141: the 5 of a decoder-illegal one; 142: a load-use; 143: a CSR access behind fsqrt, though the
     * handler enters ID only once ID lets the CSR instruction go). FLUSH_EX waits for EX to be valid: the
     * cycle a div ends in EX (144), the cycle before an FP operation held there gets the unit (145). The
     * first round's (after the set-up) and the rounds' first instruction after the mret are decoded in DECODE
     * (146, 147); so is a loop's whole round of count 1 (148). */
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; nop; .word 0xffffffff; 1: nop; nop; 2: END(141)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; lw a3, 0(s1); csrw mhartid, a3; 1: nop; nop; 2: END(142)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fsqrt.s f3, f2; csrw mvendorid, zero; 1: nop; nop; 2: END(143)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; div a0, a6, a2; csrw mvendorid, zero; 1: nop; nop; 2: END(144)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fdiv.s f3, f2, f4; fadd.s f5, f4, f1; .word 0xffffffff; 1: nop; nop; 2: END(145)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; csrw mvendorid, zero; 1: fsqrt.s f3, f2; nop; nop; 2: END(146)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fsqrt.s f3, f2; nop; csrw mvendorid, zero; 1: nop; 2: END(147)
    la t4, 1f
    BEGIN; cv_setupi 0, 1, 2f; fsqrt.s f3, f2; csrw mvendorid, zero; 1: nop; nop; 2: END(148)
    csrw mtvec, zero
    /* A jal that waited in ID behind a mulh has its target fetched; when the div/sqrt result, held back
     * while the mulh ran (mulh_active), takes the ALU port in the jal's EX cycle, the jal stays there a cycle
     * and the jump at its target waits in ID behind it, setting the pc as it waits: no refetch (149). Not
     * when the first jal paid its refetch (150). -2^-149 / 2^127 skips the iterations: 5 cycles. */
    li t3, 0x80000001; fmv.w.x f20, t3; li t3, 0x7f000000; fmv.w.x f21, t3
    BEGIN; fdiv.s f3, f20, f21, rup; nop; li a0, 7; mulhsu a0, a0, a2; j 1f; nop; 1: j 2f; nop; 2: nop; END(149)
    BEGIN; fdiv.s f3, f20, f21, rup; nop; nop; nop; j 1f; nop; 1: j 2f; nop; 2: nop; END(150)
    /* cv.insert and cv.extract(u) keep rs2 in use (cv32e40p_decoder.sv: regb_used_o, their funct3 being a
     * register form's), and their rs2 field is bits 4:1 of the index: x1 for a .b index of 2 or 3, which waits
     * for a load to ra as a source would (151, 153), not for an index of 1 (152). */
    BEGIN; lbu ra, 0(s1); cv.insert.b a4, a0, 3; END(151)
    BEGIN; lbu ra, 0(s1); cv.insert.b a4, a0, 1; END(152)
    BEGIN; lw ra, 0(s1); cv.extractu.b a4, a0, 2; END(153)
    /* The APU dispatcher holds an instruction in ID while an FP result is in flight to a register its ALU
     * operand selects name (cv32e40p_id_stage.sv: apu_read_regs), rs1 and rs2 by default, also where those
     * fields hold no register: fence's rs2 field is x31 for iorw, iorw (154) and x19 for rw, rw (156, not
     * a5: 155); cv.setupi's is the count's low bits, x4 for 4 (157). Only at FPU latency 1 or more, and not
     * for a load (158). */
    BEGIN; fcvt.w.s t6, f21; fence; END(154)
    BEGIN; fcvt.w.s a5, f21; fence rw, rw; END(155)
    BEGIN; fcvt.w.s s3, f21; fence rw, rw; END(156)
    BEGIN
    fcvt.w.s tp, f21
    cv_setupi 0, 4, 2f
    addi a0, a0, 1
    addi a1, a1, 1
    addi a4, a4, 1
2:  END(157)
    BEGIN; lw t6, 0(s1); fence; END(158)
    /* The immediate shuffles keep rs2 in use too (regb_used_o): the rs2 field, a3 for cv.shuffleI0.sci.b 26
     * (159), ra for cv.shuffle.sci.h 3 (160, not 1: 161), waits for a load. */
    BEGIN; lbu a3, 0(s1); cv.shufflei0.sci.b a4, a0, 26; END(159)
    BEGIN; lw ra, 0(s1); cv.shuffle.sci.h a4, a0, 3; END(160)
    BEGIN; lw ra, 0(s1); cv.shuffle.sci.h a4, a0, 1; END(161)
    /* That field waits for an FP result only where the APU's read check compares it (its ALU operand b
     * select is regb): for extract (164), not for insert (162) or a shuffle (163), whose operand b is rd
     * or the immediate. The nops keep the closing csrr from waiting for the FP result itself. */
    BEGIN; fcvt.w.s ra, f21; cv.insert.b a4, a0, 3; nop; nop; nop; nop; END(162)
    BEGIN; fcvt.w.s a3, f21; cv.shufflei0.sci.b a4, a0, 26; nop; nop; nop; nop; END(163)
    BEGIN; fcvt.w.s ra, f21; cv.extractu.b a4, a0, 2; nop; nop; nop; nop; END(164)
    /* The conversions and fclass keep their ALU operand b at regb with the FP register file selected: the
     * rs2 field (f0 for fcvt.s.w, fcvt.w.s and fclass.s, f1 for the unsigned forms, f2 for fcvt.s.h) waits
     * for an FP result in flight to it, not for a load (170). fmv.x.w's operand b is rs1 (169), and
     * fcvt.s.wu names f1, not f2 (167). Only a class-2 reader shows it (FPU_OTHERS_LAT = 1); fmv.s keeps
     * the constants in f1 and f2. */
    BEGIN; fmv.s f0, f0; fcvt.s.w f5, a1; nop; nop; nop; END(165)
    BEGIN; fmv.s f1, f1; fcvt.s.wu f5, a1; nop; nop; nop; END(166)
    BEGIN; fmv.s f2, f2; fcvt.s.wu f5, a1; nop; nop; nop; END(167)
    BEGIN; fmv.s f0, f0; fclass.s a5, f1; nop; nop; nop; END(168)
    BEGIN; fmv.s f0, f0; fmv.x.w a5, f1; nop; nop; nop; END(169)
    BEGIN; flw f0, 0(s1); fcvt.s.w f5, a1; nop; nop; nop; END(170)
    BEGIN; fmv.s f0, f0; fcvt.w.s a5, f1; nop; nop; nop; END(171)
    BEGIN; fmv.s f2, f2; fcvt.s.h f5, f1; nop; nop; nop; END(172)

    /* The load stall's comparison of write addresses takes x0 as any register (112-117): a load to x0
     * holds a nop or a jump behind it, not a reader of x0 (a read of x0 is never a hazard). */
    BEGIN; lw zero, 0(s1); nop; END(173)
    BEGIN; lw zero, 0(s1); mul zero, a2, a6; END(174)
    BEGIN; lw zero, 0(s1); csrw mscratch, a3; END(175)
    BEGIN; lw zero, 2(s1); nop; END(176)
    BEGIN; lw zero, 0(s1); addi a4, zero, 1; END(177)
    BEGIN; lw zero, 0(s1); jal zero, 1f; 1: END(178)
    /* A jump that writes a load's destination waits in ID for it too (load_stall_o), with the pc set in its
     * first cycle there: it costs no cycle, but the jump enters EX a cycle later, where a class-3 FP result
     * due through the write port holds it (FPU_OTHERS_LAT = 3). */
    BEGIN; fle.s a4, f1, f2; lw a5, 0(s1); jal a5, 1f; 1: nop; END(179)
    BEGIN; fle.s a4, f1, f2; lw a5, 0(s1); jal zero, 1f; 1: nop; END(180)

    /* An FP operation writing x0: the APU dispatcher holds in ID every instruction one of whose operand
     * selects names x0 (register c defaults to it, REGC_ZERO) until the result is back. The three branches
     * behind each name no x0, so the closing csrr finds no FP operation in flight. */
#define THREE_WITHOUT_X0 beq a2, a3, 2f; beq a2, a3, 2f; beq a2, a3, 2f; 2:
    li a2, 1
    li a3, 2
    BEGIN; fclass.s zero, f1; lui a4, 1; THREE_WITHOUT_X0; END(181)
    BEGIN; fclass.s zero, f1; sw a2, 4 * 182(s0); THREE_WITHOUT_X0; END(182)
    BEGIN; fclass.s zero, f1; sw zero, 4 * 183(s0); THREE_WITHOUT_X0; END(183)
    BEGIN; fclass.s zero, f1; bne a3, zero, 1f; 1: THREE_WITHOUT_X0; END(184)
    BEGIN; fclass.s zero, f1; jal a5, 1f; 1: THREE_WITHOUT_X0; END(185)
    BEGIN; fclass.s zero, f1; cv.mac a4, a2, a3; THREE_WITHOUT_X0; END(186)
    BEGIN; fclass.s zero, f1; fcvt.s.w f5, zero; THREE_WITHOUT_X0; END(187)
    BEGIN; feq.s zero, f1, f2; fmul.s f5, f1, f2; THREE_WITHOUT_X0; END(188)
    BEGIN; feq.s zero, f1, f2; fadd.s f5, f1, f2; THREE_WITHOUT_X0; END(189)
    BEGIN; fmv.x.w zero, f1; nop; THREE_WITHOUT_X0; END(190)

    /* A jalr that waited in ID for its operand (jr_stall) enters EX a cycle later: a class-3 result due
     * then is held into its refetch (its link write in EX, ID still showing it), and a CSR access at the
     * target waits for it (csr_apu_stall). x0 as the link register holds it the same. */
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; addi t3, t3, 0; jalr t2, 0(t3); 1: csrr a0, mscratch; END(191)
    la t3, 1f
    BEGIN; fdiv.s f3, f4, f1; nop; nop; addi t3, t3, 0; jalr zero, 0(t3); 1: csrr a0, mscratch; END(192)

    /* After an mret to the second-to-last instruction of a loop body, the last one hides the refetch of the
     * jump back when it waited in ID, here behind a mulhu, though it is held in EX itself (a split store,
     * a mulh): 137 with the two nops replaced. */
    la t3, trap_return
    csrw mtvec, t3
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; nop; ecall; 1: mulhu a0, a2, a6; sh a3, 3(s1); 2: END(193)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; nop; ecall; 1: mulhu a0, a2, a6; mulh a1, a2, a6; 2: END(194)
    /* An illegal instruction in DECODE_HWLOOP behind an FP operation of latency 1 that the dispatcher held one
     * cycle in EX for one of latency 2 (FPU_OTHERS_LAT = 1): the result that frees it returns in the illegal
     * one's first cycle in ID, before FLUSH_EX, so EX is valid only as the fadd ends: 4 to the handler, as
     * behind a div, not the 3 of 145. With both of latency 1 nothing is held. */
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fmin.s f5, f1, f2; fadd.s f6, f1, f2; .word 0xffffffff; 1: nop; nop; 2: END(195)
    /* The same behind an operation of latency 2 or more held one cycle: it leaves EX as it starts, and the
     * bubble behind it makes EX valid in the next cycle (the illegal instruction never enters EX): 5 to the
     * handler from its first cycle in ID. 196: fmul (latency 2) behind fdiv by zero (3 cycles) at FPU latency
     * 1/1; 197: fadd (latency 3) behind fmin (latency 3) at 2/2. */
    fmv.w.x f7, zero
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fdiv.s f3, f1, f7; nop; fmul.s f6, f1, f2; .word 0xffffffff; 1: nop; nop; 2: END(196)
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fmin.s f5, f1, f2; nop; fadd.s f6, f1, f2; .word 0xffffffff; 1: nop; nop; 2: END(197)
    /* Outside a loop a decoder-illegal instruction enters EX with nothing enabled, so FLUSH_EX waits a cycle
     * more than for a CSR one (5 to the handler, not 4), unless an FP result returns in that cycle
     * (ex_valid_o: apu_valid): at FPU latency 1/1 the fmul's, in the illegal instruction's EX cycle. */
    la t4, 1f
    BEGIN; fmul.s f6, f1, f2; .word 0xffffffff; 1: END(198)
    /* An illegal instruction waits in ID for what the dispatcher compares, as an instruction would: an fadd
     * with the reserved rounding mode 5 for its sources (cv32e40p_decoder.sv: check_fprm flags it after the
     * operands are chosen), here f0; an all-ones word for its rs1 and rs2 fields, x31 (the decoder's default
     * selects). */
    la t4, 1f
    BEGIN; fmul.s f0, f1, f2; .word 0x00005053; 1: END(199)
    la t4, 1f
    BEGIN; fcvt.w.s t6, f1; .word 0xffffffff; 1: END(200)
    /* With frm reserved, an operation with the dynamic rounding mode is illegal: it traps in its first cycle,
     * without waiting for the fdiv by zero (3 cycles) in flight as an fadd would (the dispatcher's order
     * rule). */
    fsrmi 5
    la t4, 1f
    BEGIN; fdiv.s f3, f1, f7, rne; fadd.s f6, f1, f2, dyn; 1: END(201)
    fsrmi 0
    /* An illegal instruction in DECODE_HWLOOP that waits in ID for an FP result in flight (here the fadd with
     * rounding mode 5 for f0, which the fsqrt writes) does not hold the handler: the dispatcher drops that
     * wait once the controller stops decoding (cv32e40p_apu_disp.sv: read_dep_o & is_decoding_i), unlike a
     * CSR access's wait behind the FP operation (143). The handler's nops let the fsqrt end before its csrw,
     * which would wait for it. */
    la t3, trap_after_nops
    csrw mtvec, t3
    la t4, 1f
    BEGIN; cv_setupi 0, 3, 2f; fsqrt.s f0, f2; .word 0x00005053; 1: nop; nop; 2: END(202)
    csrw mtvec, zero

    li t5, 1
    la t6, tohost
    sw t5, 0(t6)
1:  j 1b

    .balign 256 /* CV32E40P's mtvec holds a 256-byte aligned base */
trap_return:
    csrw mepc, t4
    mret

    .balign 256
trap_after_nops:
    .rept 16
    nop
    .endr
    csrw mepc, t4
    mret

    .section .tohost, "aw"
    .balign 8
    .globl tohost
tohost: .word 0, 0

    .data
    .balign 4
data:   .word 0x01020304, 0x05060708
one:    .word 0x3f800000, 0x40400000, 0x40000000
halves: .word 0xffff3c00, 0xffff4200, 0x42003c00, 0x42004200
divsqrt_operands: .word 0x41100000, 0x41000000, 0x40100000, 0x43800000, 0x71800000, 0x03800000, 3, 1
    .globl results
results: .space 4 * 203
