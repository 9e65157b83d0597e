/*
 * PULP vectorial FP16 instructions (Xfvec with Xf16, as in RI5CY / CV32E40P with FPnew) for clang 19,
 * which does not know them. With FLEN = 32 an f register holds two binary16 lanes: lane 0 in bits 15:0,
 * lane 1 in bits 31:16 (a packed pair as it lies in memory: load it with flw, store it with fsw).
 *
 * Encoding: major opcode OP (0x33), bits 31:30 = 10, op5 in 29:25, R (replicate lane 0 of rs2, the ".r"
 * forms) in bit 14, result format in 13:12 (10 = FP16, 00 = FP32). sim/core/isa_xfvec.cpp has the table
 * and the semantics; every rounding instruction uses frm.
 *
 * Each macro expands to one `.insn r` line. In a preprocessed .S file the operands are register names:
 *
 *     VFMAC_H(fa0, ft0, ft1)              # fa0[i] += ft0[i] * ft1[i]
 *     VFDOTPEX_S_H(fa1, ft0, ft1)         # fa1 (FP32) += ft0[0]*ft1[0] + ft0[1]*ft1[1]
 *
 * In C they are string literals for inline asm, with the operands as strings:
 *
 *     float acc, a, b;   // 32-bit containers of FP16 pairs (or of an FP32 value for the .s forms)
 *     __asm__(VFDOTPEX_S_H("%[acc]", "%[a]", "%[b]") : [acc] "+f"(acc) : [a] "f"(a), [b] "f"(b));
 *
 * Operands that name an integer register are marked x (vfmv, vfcvt to/from integers, comparisons,
 * vfclass); the rest are f registers.
 */
#ifndef PULPSIM_XFVEC_H
#define PULPSIM_XFVEC_H

/* One R-type word: funct3 = R << 2 | format, funct7 = 10 << 5 | op5; `fixed` is a register whose number
 * is the constant rs2 field of the one-operand instructions. */
#ifdef __ASSEMBLER__
#define XFVEC_R(funct3, funct7, rd, rs1, rs2) .insn r 0x33, funct3, funct7, rd, rs1, rs2
#define XFVEC_R1(funct3, funct7, rd, rs1, fixed) .insn r 0x33, funct3, funct7, rd, rs1, fixed
#else
#define XFVEC_R(funct3, funct7, rd, rs1, rs2)                                                                \
    ".insn r 0x33, " #funct3 ", " #funct7 ", " rd ", " rs1 ", " rs2 "\n\t"
#define XFVEC_R1(funct3, funct7, rd, rs1, fixed)                                                             \
    ".insn r 0x33, " #funct3 ", " #funct7 ", " rd ", " rs1 ", " #fixed "\n\t"
#endif

/* Arithmetic on pairs (rd, rs1, rs2: f registers). */
#define VFADD_H(rd, rs1, rs2) XFVEC_R(2, 0x41, rd, rs1, rs2)
#define VFADD_R_H(rd, rs1, rs2) XFVEC_R(6, 0x41, rd, rs1, rs2)
#define VFSUB_H(rd, rs1, rs2) XFVEC_R(2, 0x42, rd, rs1, rs2)
#define VFSUB_R_H(rd, rs1, rs2) XFVEC_R(6, 0x42, rd, rs1, rs2)
#define VFMUL_H(rd, rs1, rs2) XFVEC_R(2, 0x43, rd, rs1, rs2)
#define VFMUL_R_H(rd, rs1, rs2) XFVEC_R(6, 0x43, rd, rs1, rs2)
#define VFDIV_H(rd, rs1, rs2) XFVEC_R(2, 0x44, rd, rs1, rs2)
#define VFDIV_R_H(rd, rs1, rs2) XFVEC_R(6, 0x44, rd, rs1, rs2)
#define VFMIN_H(rd, rs1, rs2) XFVEC_R(2, 0x45, rd, rs1, rs2)
#define VFMIN_R_H(rd, rs1, rs2) XFVEC_R(6, 0x45, rd, rs1, rs2)
#define VFMAX_H(rd, rs1, rs2) XFVEC_R(2, 0x46, rd, rs1, rs2)
#define VFMAX_R_H(rd, rs1, rs2) XFVEC_R(6, 0x46, rd, rs1, rs2)
#define VFSQRT_H(rd, rs1) XFVEC_R1(2, 0x47, rd, rs1, x0)
/* rd[i] = rs1[i] * rs2[i] + rd[i] (vfmac) and rs1[i] * rs2[i] - rd[i] (vfmre), one rounding. */
#define VFMAC_H(rd, rs1, rs2) XFVEC_R(2, 0x48, rd, rs1, rs2)
#define VFMAC_R_H(rd, rs1, rs2) XFVEC_R(6, 0x48, rd, rs1, rs2)
#define VFMRE_H(rd, rs1, rs2) XFVEC_R(2, 0x49, rd, rs1, rs2)
#define VFMRE_R_H(rd, rs1, rs2) XFVEC_R(6, 0x49, rd, rs1, rs2)
/* FP32 rd += rs1[0]*rs2[0] + rs1[1]*rs2[1], computed exactly and rounded once. */
#define VFDOTPEX_S_H(rd, rs1, rs2) XFVEC_R(0, 0x4B, rd, rs1, rs2)
#define VFDOTPEX_S_R_H(rd, rs1, rs2) XFVEC_R(4, 0x4B, rd, rs1, rs2)
#define VFSGNJ_H(rd, rs1, rs2) XFVEC_R(2, 0x4D, rd, rs1, rs2)
#define VFSGNJ_R_H(rd, rs1, rs2) XFVEC_R(6, 0x4D, rd, rs1, rs2)
#define VFSGNJN_H(rd, rs1, rs2) XFVEC_R(2, 0x4E, rd, rs1, rs2)
#define VFSGNJN_R_H(rd, rs1, rs2) XFVEC_R(6, 0x4E, rd, rs1, rs2)
#define VFSGNJX_H(rd, rs1, rs2) XFVEC_R(2, 0x4F, rd, rs1, rs2)
#define VFSGNJX_R_H(rd, rs1, rs2) XFVEC_R(6, 0x4F, rd, rs1, rs2)

/* Comparisons: x rd gets 0 or 1 in each 16-bit lane. */
#define VFEQ_H(xrd, rs1, rs2) XFVEC_R(2, 0x50, xrd, rs1, rs2)
#define VFEQ_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x50, xrd, rs1, rs2)
#define VFNE_H(xrd, rs1, rs2) XFVEC_R(2, 0x51, xrd, rs1, rs2)
#define VFNE_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x51, xrd, rs1, rs2)
#define VFLT_H(xrd, rs1, rs2) XFVEC_R(2, 0x52, xrd, rs1, rs2)
#define VFLT_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x52, xrd, rs1, rs2)
#define VFGE_H(xrd, rs1, rs2) XFVEC_R(2, 0x53, xrd, rs1, rs2)
#define VFGE_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x53, xrd, rs1, rs2)
#define VFLE_H(xrd, rs1, rs2) XFVEC_R(2, 0x54, xrd, rs1, rs2)
#define VFLE_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x54, xrd, rs1, rs2)
#define VFGT_H(xrd, rs1, rs2) XFVEC_R(2, 0x55, xrd, rs1, rs2)
#define VFGT_R_H(xrd, rs1, rs2) XFVEC_R(6, 0x55, xrd, rs1, rs2)

/* Moves, classification and conversions (op5 0x0C, the operation in the rs2 field). */
#define VFMV_X_H(xrd, rs1) XFVEC_R1(2, 0x4C, xrd, rs1, x0)
#define VFMV_H_X(rd, xrs1) XFVEC_R1(6, 0x4C, rd, xrs1, x0)
#define VFCLASS_H(xrd, rs1) XFVEC_R1(2, 0x4C, xrd, rs1, x1)
#define VFCVT_X_H(xrd, rs1) XFVEC_R1(2, 0x4C, xrd, rs1, x2)  /* lanes to int16 */
#define VFCVT_XU_H(xrd, rs1) XFVEC_R1(6, 0x4C, xrd, rs1, x2) /* lanes to uint16 */
#define VFCVT_H_X(rd, xrs1) XFVEC_R1(2, 0x4C, rd, xrs1, x3)  /* int16 lanes to FP16 */
#define VFCVT_H_XU(rd, xrs1) XFVEC_R1(6, 0x4C, rd, xrs1, x3) /* uint16 lanes to FP16 */
/* FP32 rs1 to FP16 in lane 0 (vfcvt) or lane 1 (vfcvtu) of rd; the other lane of rd is kept. */
#define VFCVT_H_S(rd, rs1) XFVEC_R1(2, 0x4C, rd, rs1, x4)
#define VFCVTU_H_S(rd, rs1) XFVEC_R1(6, 0x4C, rd, rs1, x4)
/* Lane 0 (vfcvt) or lane 1 (vfcvtu) of rs1 to FP32 rd. */
#define VFCVT_S_H(rd, rs1) XFVEC_R1(0, 0x4C, rd, rs1, x6)
#define VFCVTU_S_H(rd, rs1) XFVEC_R1(4, 0x4C, rd, rs1, x6)
/* rd = {FP16(rs2), FP16(rs1)}: two FP32 values rounded and packed, rs1 into lane 0. */
#define VFCPKA_H_S(rd, rs1, rs2) XFVEC_R(2, 0x58, rd, rs1, rs2)

#endif
