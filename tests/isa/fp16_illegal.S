/* Reserved encodings around Zfh and the PULP vectorial FP16 instructions raise an illegal-instruction
 * trap (mcause 2) and leave rD alone; so does a rounding instruction that runs with a reserved frm, while
 * the instructions that do not round ignore frm. The handler records mcause in a5 and the trapping
 * instruction (read at mepc) in a6 and skips the word. Operands: rd = 10, rs1 = 11, rs2 = 12 (rs3 = 13)
 * where the encoding has them. Xfvec words: 10 op5 rs2 rs1 R vfmt rd 0110011 (see sim/core/isa_xfvec.cpp).
 */
#include "test_macros.h"
#include "xfvec.h"

#define ILLEGAL(word) li a0, 0x55; li a5, 0; li a6, 0; .4byte word; li t6, 2; bne a5, t6, fail; li t6, 0x55; bne a0, t6, fail
/* Runs `code` expecting one illegal-instruction trap that leaves fa0 alone; a0 = fa0 afterwards. */
#define TRAPS(code...) li t5, 0x5555aaaa; fmv.w.x fa0, t5; li a5, 0; code; li t6, 2; bne a5, t6, fail; fmv.x.w a0, fa0
/* Runs `code` expecting no trap (a5 stays 0). */
#define NO_TRAP(code...) li a5, 0; code

    .option arch, +zfh

TEST_BEGIN
    la t0, trap_handler
    csrw mtvec, t0

TEST_CASE(1, a6, 0x82C58533, ILLEGAL(0x82C58533))  /* vfadd.s: FP32 vectors need FLEN = 64 */
TEST_CASE(2, a6, 0x82C59533, ILLEGAL(0x82C59533))  /* vfadd.ah: no FP16alt */
TEST_CASE(3, a6, 0x82C5B533, ILLEGAL(0x82C5B533))  /* vfadd.b: no FP8 */
TEST_CASE(4, a6, 0x80C5A533, ILLEGAL(0x80C5A533))  /* op5 00000 */
TEST_CASE(5, a6, 0x94C5A533, ILLEGAL(0x94C5A533))  /* vfdotp.h: not provided */
TEST_CASE(6, a6, 0x96C5A533, ILLEGAL(0x96C5A533))  /* op5 01011, vfmt FP16: vfdotpex names its FP32 result */
TEST_CASE(7, a6, 0x96C59533, ILLEGAL(0x96C59533))  /* vfdotpex.s.ah */
TEST_CASE(8, a6, 0x8EC5A533, ILLEGAL(0x8EC5A533))  /* vfsqrt.h with rs2 != 0 */
TEST_CASE(9, a6, 0x8E05E533, ILLEGAL(0x8E05E533))  /* vfsqrt.h with R = 1 */
TEST_CASE(10, a6, 0x9815E533, ILLEGAL(0x9815E533))  /* vfclass.h with R = 1 */
TEST_CASE(11, a6, 0x9855A533, ILLEGAL(0x9855A533))  /* vfcvt.h.ah */
TEST_CASE(12, a6, 0x9865A533, ILLEGAL(0x9865A533))  /* vfcvt.h.h */
TEST_CASE(13, a6, 0x98458533, ILLEGAL(0x98458533))  /* vfcvt.s.s */
TEST_CASE(14, a6, 0x98758533, ILLEGAL(0x98758533))  /* vfcvt.s.b */
TEST_CASE(15, a6, 0x9885A533, ILLEGAL(0x9885A533))  /* op5 01100, rs2 = 8 */
TEST_CASE(16, a6, 0x98659533, ILLEGAL(0x98659533))  /* vfcvt.ah.h */
TEST_CASE(17, a6, 0xB0C5E533, ILLEGAL(0xB0C5E533))  /* vfcpkb.h.s: needs FLEN = 64 */
TEST_CASE(18, a6, 0xB0C58533, ILLEGAL(0xB0C58533))  /* vfcpka.s.s: needs FLEN = 64 */
TEST_CASE(19, a6, 0xB2C5A533, ILLEGAL(0xB2C5A533))  /* vfcpkc.h.s */
TEST_CASE(20, a6, 0xB4C5A533, ILLEGAL(0xB4C5A533))  /* vfcpka.h.d: no D */
TEST_CASE(21, a6, 0xACC5A533, ILLEGAL(0xACC5A533))  /* vfavg.h: not provided */
TEST_CASE(22, a6, 0xAFE5A533, ILLEGAL(0xAFE5A533))  /* vfnsum.h: not provided */
TEST_CASE(23, a6, 0xBAC58533, ILLEGAL(0xBAC58533))  /* vfndotpex.s.h: not provided */
TEST_CASE(24, a6, 0xBEC5A533, ILLEGAL(0xBEC5A533))  /* op5 11111 */
TEST_CASE(25, a6, 0xC2C5A533, ILLEGAL(0xC2C5A533))  /* OP with bits 31:30 = 11 */
TEST_CASE(26, a6, 0x04C5D553, ILLEGAL(0x04C5D553))  /* fadd.h with the reserved rm 101 */
TEST_CASE(27, a6, 0x04C5E553, ILLEGAL(0x04C5E553))  /* fadd.h with the reserved rm 110 */
TEST_CASE(28, a6, 0x06C58553, ILLEGAL(0x06C58553))  /* fadd.q: no Q */
TEST_CASE(29, a6, 0x5C158553, ILLEGAL(0x5C158553))  /* fsqrt.h with rs2 != 0 */
TEST_CASE(30, a6, 0x24C5B553, ILLEGAL(0x24C5B553))  /* fsgnj.h group, funct3 011 */
TEST_CASE(31, a6, 0x2CC5A553, ILLEGAL(0x2CC5A553))  /* fmin/fmax.h group, funct3 010 */
TEST_CASE(32, a6, 0xA4C5B553, ILLEGAL(0xA4C5B553))  /* feq/flt/fle.h group, funct3 011 */
TEST_CASE(33, a6, 0xC4258553, ILLEGAL(0xC4258553))  /* fcvt.l.h: RV64 only */
TEST_CASE(34, a6, 0xD4358553, ILLEGAL(0xD4358553))  /* fcvt.h.lu: RV64 only */
TEST_CASE(35, a6, 0x40158553, ILLEGAL(0x40158553))  /* fcvt.s.d: no D */
TEST_CASE(36, a6, 0x44158553, ILLEGAL(0x44158553))  /* fcvt.h.d: no D */
TEST_CASE(37, a6, 0x4025D553, ILLEGAL(0x4025D553))  /* fcvt.s.h with the reserved rm 101 */
TEST_CASE(38, a6, 0xE405A553, ILLEGAL(0xE405A553))  /* fmv.x.h / fclass.h group, funct3 010 */
TEST_CASE(39, a6, 0xF4158553, ILLEGAL(0xF4158553))  /* fmv.h.x with rs2 != 0 */
TEST_CASE(40, a6, 0x6CC5D543, ILLEGAL(0x6CC5D543))  /* fmadd.h with the reserved rm 101 */
TEST_CASE(41, a6, 0x6EC5854F, ILLEGAL(0x6EC5854F))  /* fnmadd.q: no Q */
TEST_CASE(42, a6, 0x0005B507, ILLEGAL(0x0005B507))  /* fld: no D */

/* A reserved frm (5, 6, 7) makes the rounding instructions illegal when they execute ... */
TEST_CASE(43, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; fadd.h fa0, fa1, fa2; csrwi frm, 0))
TEST_CASE(44, a0, 0x5555aaaa, TRAPS(csrwi frm, 7; VFADD_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(45, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; VFMAC_R_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(46, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; VFDOTPEX_S_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(47, a0, 0x5555aaaa, TRAPS(csrwi frm, 6; VFCPKA_H_S(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(48, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; VFCVT_S_H(fa0, fa1); csrwi frm, 0))    /* exact, still checked */
TEST_CASE(49, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; VFCVT_H_X(fa0, a1); csrwi frm, 0))
TEST_CASE(50, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; VFDIV_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(51, a0, 0x5555aaaa, TRAPS(csrwi frm, 5; fcvt.s.h fa0, fa1, dyn; csrwi frm, 0))  /* rm = dyn */
/* ... but not the ones that do not round. */
TEST_CASE(52, a5, 0, NO_TRAP(csrwi frm, 5; VFMIN_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(53, a5, 0, NO_TRAP(csrwi frm, 5; VFSGNJX_R_H(fa0, fa1, fa2); csrwi frm, 0))
TEST_CASE(54, a5, 0, NO_TRAP(csrwi frm, 5; VFLE_H(a0, fa1, fa2); csrwi frm, 0))
TEST_CASE(55, a5, 0, NO_TRAP(csrwi frm, 5; VFMV_X_H(a0, fa1); VFCLASS_H(a0, fa1); csrwi frm, 0))
TEST_CASE(56, a5, 0, NO_TRAP(csrwi frm, 5; fmin.h fa0, fa1, fa2; fsgnj.h fa0, fa1, fa2; csrwi frm, 0))
TEST_CASE(57, a5, 0, NO_TRAP(csrwi frm, 5; feq.h a0, fa1, fa2; fclass.h a0, fa1; fmv.x.h a0, fa1;
                            csrwi frm, 0))

TEST_END

.section .text
SKIPPING_TRAP_HANDLER
