/*
 * CORE-V hardware loops (XCVhwlp, CV32E40P v2 encodings) for clang 19, which does not know them.
 *
 * The instructions are emitted as `.word`s by assembler macros; this header defines those macros for
 * both .S files (include it from a preprocessed .S) and C files (it emits them as module-level asm,
 * after which any inline asm statement of the translation unit can use them).
 *
 * Encoding: opcode 0x2B (custom-1), funct3 = 100.
 *
 *   31        20 19       15 14  12 11    8  7  6      0
 *  | uimmL[11:0] | rs1/uimmS | 100  | funct4 | L | 0101011 |
 *
 *   funct4  instruction                 effect
 *   0000    cv.starti L, uimmL          lpstart[L] = PC + (uimmL << 2)
 *   0001    cv.start  L, rs1            lpstart[L] = rs1
 *   0010    cv.endi   L, uimmL          lpend[L]   = PC + (uimmL << 2)
 *   0011    cv.end    L, rs1            lpend[L]   = rs1
 *   0100    cv.counti L, uimmL          lpcount[L] = uimmL
 *   0101    cv.count  L, rs1            lpcount[L] = rs1
 *   0110    cv.setupi L, uimmL, uimmS   lpstart[L] = PC + 4, lpend[L] = PC + (uimmS << 2),
 *                                       lpcount[L] = uimmL
 *   0111    cv.setup  L, rs1, uimmL     lpstart[L] = PC + 4, lpend[L] = PC + (uimmL << 2),
 *                                       lpcount[L] = rs1
 *
 * lpend is the address of the first instruction AFTER the body. Immediates are unsigned, so targets
 * lie after the instruction: at most 4095 words away (uimmL), 31 words for cv.setupi's end (uimmS).
 * Counts from an immediate are at most 4095.
 *
 * Rules (CV32E40P user manual, "Hardware Loop constraints"; breaking one is undefined behaviour):
 *  - loop 0 is the inner loop and has priority; nested loops need lpend[1] >= lpend[0] + 8;
 *  - the setup/starti/endi instructions and the body start and end are 32-bit aligned;
 *  - the body has at least 3 instructions and contains no compressed instruction, no branch or jump,
 *    no ecall/mret/wfi/fence, and does not write the loop CSRs of its own loop;
 *  - the loop is entered only through its start; the count must be >= 1.
 * The compiler knows nothing of the loop registers: a loop must start and end inside one asm
 * statement (nested loops included), and calls do not preserve them.
 *
 * Assembler macros (L is 0 or 1, `reg` a register name such as a0 or x10, `label` a label after the
 * instruction):
 *   cv_starti L, label        cv_start L, reg
 *   cv_endi   L, label        cv_end   L, reg
 *   cv_counti L, imm          cv_count L, reg
 *   cv_setupi L, imm, label   cv_setup L, reg, label
 *   cv_loop_begin L, reg, label    aligns, turns off RVC, then cv_setup
 *   cv_loopi_begin L, imm, label   aligns, turns off RVC, then cv_setupi
 *   cv_loop_end                    restores the previous RVC setting (place after the end label)
 *
 * Example (.S):
 *       cv_loop_begin 0, a2, 1f
 *       flw     ft0, 0(a0)
 *       flw     ft1, 0(a1)
 *       addi    a0, a0, 4
 *       addi    a1, a1, 4
 *       fmadd.s fa0, ft0, ft1, fa0
 *   1:  cv_loop_end
 *
 * Example (C): the same body through HWLOOP_BEGIN / HWLOOP_END,
 *   __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1)
 *                    "flw %[x], 0(%[pa])\n\t"
 *                    ...
 *                    HWLOOP_END(1)
 *                    : [pa] "+r"(pa), [x] "=&f"(x), ... : [n] "r"(n) : "memory");
 *
 * The words are computed with `(label - .) >> 2`, which the assembler can only fold when no
 * linker-relaxable instruction (call, la, lui/addi pairs) lies between the instruction and the
 * label; hardware-loop bodies never contain those.
 */
#ifndef PULPSIM_HWLOOP_H
#define PULPSIM_HWLOOP_H

#ifdef __ASSEMBLER__
/* clang-format off */

/* Register name -> number, so the macros can place a register named by the caller in [19:15]. */
.macro __cv_defreg name, num
    .equ .L__cv_reg_\name, \num
.endm
.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    __cv_defreg x\n, \n
.endr
__cv_defreg zero, 0
__cv_defreg ra, 1
__cv_defreg sp, 2
__cv_defreg gp, 3
__cv_defreg tp, 4
__cv_defreg t0, 5
__cv_defreg t1, 6
__cv_defreg t2, 7
__cv_defreg s0, 8
__cv_defreg fp, 8
__cv_defreg s1, 9
.irp n, 0,1,2,3,4,5,6,7
    __cv_defreg a\n, (10 + \n)
.endr
.irp n, 2,3,4,5,6,7,8,9,10,11
    __cv_defreg s\n, (16 + \n)
.endr
__cv_defreg t3, 28
__cv_defreg t4, 29
__cv_defreg t5, 30
__cv_defreg t6, 31

/* One instruction: funct4 f, loop L, bits [19:15] and [31:20]; 0x402B = opcode 0x2B | 100 << 12. */
.macro __cv_hwlp f, L, rs1, imm
    .if ((\L) < 0) || ((\L) > 1)
    .error "hardware loop index must be 0 or 1"
    .endif
    .word 0x402B | ((\f) << 8) | ((\L) << 7) | (((\rs1) & 31) << 15) | (((\imm) & 0xFFF) << 20)
.endm
.macro __cv_check_count n
    .if ((\n) < 0) || ((\n) > 4095)
    .error "hardware loop immediate count must be in [0, 4095]"
    .endif
.endm

.macro cv_starti L, target
    __cv_hwlp 0, \L, 0, (((\target) - .) >> 2)
.endm
.macro cv_start L, rs1
    __cv_hwlp 1, \L, .L__cv_reg_\rs1, 0
.endm
.macro cv_endi L, target
    __cv_hwlp 2, \L, 0, (((\target) - .) >> 2)
.endm
.macro cv_end L, rs1
    __cv_hwlp 3, \L, .L__cv_reg_\rs1, 0
.endm
.macro cv_counti L, count
    __cv_check_count \count
    __cv_hwlp 4, \L, 0, \count
.endm
.macro cv_count L, rs1
    __cv_hwlp 5, \L, .L__cv_reg_\rs1, 0
.endm
.macro cv_setupi L, count, end
    __cv_check_count \count
    __cv_hwlp 6, \L, (((\end) - .) >> 2), \count
.endm
.macro cv_setup L, rs1, end
    __cv_hwlp 7, \L, .L__cv_reg_\rs1, (((\end) - .) >> 2)
.endm

/* Align while RVC is still on, so the assembler leaves padding the linker can fix after
 * relaxation; then no compressed instruction until cv_loop_end. */
.macro cv_loop_begin L, rs1, end
    .balign 4
    .option push
    .option norvc
    cv_setup \L, \rs1, \end
.endm
.macro cv_loopi_begin L, count, end
    .balign 4
    .option push
    .option norvc
    cv_setupi \L, \count, \end
.endm
.macro cv_loop_end
    .option pop
.endm

/* clang-format on */
#else /* C */

/* The same macros as above, as module-level asm (keep both copies in sync; the encoding test
 * assembles both). */
__asm__(".macro __cv_defreg name, num\n"
        "    .equ .L__cv_reg_\\name, \\num\n"
        ".endm\n"
        ".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
        "    __cv_defreg x\\n, \\n\n"
        ".endr\n"
        "__cv_defreg zero, 0\n"
        "__cv_defreg ra, 1\n"
        "__cv_defreg sp, 2\n"
        "__cv_defreg gp, 3\n"
        "__cv_defreg tp, 4\n"
        "__cv_defreg t0, 5\n"
        "__cv_defreg t1, 6\n"
        "__cv_defreg t2, 7\n"
        "__cv_defreg s0, 8\n"
        "__cv_defreg fp, 8\n"
        "__cv_defreg s1, 9\n"
        ".irp n, 0,1,2,3,4,5,6,7\n"
        "    __cv_defreg a\\n, (10 + \\n)\n"
        ".endr\n"
        ".irp n, 2,3,4,5,6,7,8,9,10,11\n"
        "    __cv_defreg s\\n, (16 + \\n)\n"
        ".endr\n"
        "__cv_defreg t3, 28\n"
        "__cv_defreg t4, 29\n"
        "__cv_defreg t5, 30\n"
        "__cv_defreg t6, 31\n"
        ".macro __cv_hwlp f, L, rs1, imm\n"
        "    .if ((\\L) < 0) || ((\\L) > 1)\n"
        "    .error \"hardware loop index must be 0 or 1\"\n"
        "    .endif\n"
        "    .word 0x402B | ((\\f) << 8) | ((\\L) << 7) | (((\\rs1) & 31) << 15) | (((\\imm) & 0xFFF) << "
        "20)\n"
        ".endm\n"
        ".macro __cv_check_count n\n"
        "    .if ((\\n) < 0) || ((\\n) > 4095)\n"
        "    .error \"hardware loop immediate count must be in [0, 4095]\"\n"
        "    .endif\n"
        ".endm\n"
        ".macro cv_starti L, target\n"
        "    __cv_hwlp 0, \\L, 0, (((\\target) - .) >> 2)\n"
        ".endm\n"
        ".macro cv_start L, rs1\n"
        "    __cv_hwlp 1, \\L, .L__cv_reg_\\rs1, 0\n"
        ".endm\n"
        ".macro cv_endi L, target\n"
        "    __cv_hwlp 2, \\L, 0, (((\\target) - .) >> 2)\n"
        ".endm\n"
        ".macro cv_end L, rs1\n"
        "    __cv_hwlp 3, \\L, .L__cv_reg_\\rs1, 0\n"
        ".endm\n"
        ".macro cv_counti L, count\n"
        "    __cv_check_count \\count\n"
        "    __cv_hwlp 4, \\L, 0, \\count\n"
        ".endm\n"
        ".macro cv_count L, rs1\n"
        "    __cv_hwlp 5, \\L, .L__cv_reg_\\rs1, 0\n"
        ".endm\n"
        ".macro cv_setupi L, count, end\n"
        "    __cv_check_count \\count\n"
        "    __cv_hwlp 6, \\L, (((\\end) - .) >> 2), \\count\n"
        ".endm\n"
        ".macro cv_setup L, rs1, end\n"
        "    __cv_hwlp 7, \\L, .L__cv_reg_\\rs1, (((\\end) - .) >> 2)\n"
        ".endm\n"
        ".macro cv_loop_begin L, rs1, end\n"
        "    .balign 4\n"
        "    .option push\n"
        "    .option norvc\n"
        "    cv_setup \\L, \\rs1, \\end\n"
        ".endm\n"
        ".macro cv_loopi_begin L, count, end\n"
        "    .balign 4\n"
        "    .option push\n"
        "    .option norvc\n"
        "    cv_setupi \\L, \\count, \\end\n"
        ".endm\n"
        ".macro cv_loop_end\n"
        "    .option pop\n"
        ".endm\n");

/* Inline-asm fragments. `count` is an asm operand string such as "%[n]" (an "r" operand), `label`
 * a numeric local label that HWLOOP_END places after the body. */
#define HWLOOP_BEGIN(L, count, label) "cv_loop_begin " #L ", " count ", " #label "f\n\t"
#define HWLOOPI_BEGIN(L, count_imm, label) "cv_loopi_begin " #L ", " #count_imm ", " #label "f\n\t"
#define HWLOOP_END(label) #label ":\n\tcv_loop_end\n\t"

#endif /* __ASSEMBLER__ */

#endif /* PULPSIM_HWLOOP_H */
