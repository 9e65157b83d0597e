/* The FP32 matmul family on TCDM data (see matmul_fp32.h). */
#include "matmul_fp32.h"

#include "cluster.h"
#include "hwloop.h"
#include "kernel_error.h"
#include "runtime.h"

#define INLINE static inline __attribute__((always_inline))

/*
 * Inner k loops on hardware loop 0, so the back-edge costs nothing. One iteration loads A(i + r, p) for
 * the R rows into ft0..ft(R-1) and B(p, j + c) for the C columns into BREG(c), advances the pointers, then
 * does the R x C fmadd.s: every load is at least two instructions ahead of its first use (no load-use
 * stall), and each accumulator still takes one fmadd.s per k, in ascending k.
 */
#define BREG0 "ft8"
#define BREG1 "ft9"
#define BREG2 "ft10"
#define BREG3 "ft11"
#define BREG4 "ft4" /* columns 4..7 only in 1 x 8 blocks, where ft1..ft7 hold no row of A */
#define BREG5 "ft5"
#define BREG6 "ft6"
#define BREG7 "ft7"

#define LDA(r) "flw ft" #r ", 0(%[a" #r "])\n\t"
#define LDB(c, off) "flw " BREG##c ", " #off "(%[pb])\n\t"
#define INCA(r) "addi %[a" #r "], %[a" #r "], 4\n\t"
#define INCB "add %[pb], %[pb], %[stride]\n\t"
#define FMA(r, c) "fmadd.s %[acc" #r #c "], ft" #r ", " BREG##c ", %[acc" #r #c "]\n\t"

#define LDA_1 LDA(0)
#define LDA_2 LDA_1 LDA(1)
#define LDA_4 LDA_2 LDA(2) LDA(3)
#define LDA_8 LDA_4 LDA(4) LDA(5) LDA(6) LDA(7)
#define LDB_1 LDB(0, 0)
#define LDB_2 LDB_1 LDB(1, 4)
#define LDB_4 LDB_2 LDB(2, 8) LDB(3, 12)
#define LDB_8 LDB_4 LDB(4, 16) LDB(5, 20) LDB(6, 24) LDB(7, 28)
#define INCA_1 INCA(0)
#define INCA_2 INCA_1 INCA(1)
#define INCA_4 INCA_2 INCA(2) INCA(3)
#define INCA_8 INCA_4 INCA(4) INCA(5) INCA(6) INCA(7)
#define FMA_1(r) FMA(r, 0)
#define FMA_2(r) FMA_1(r) FMA(r, 1)
#define FMA_4(r) FMA_2(r) FMA(r, 2) FMA(r, 3)
#define FMA_8(r) FMA_4(r) FMA(r, 4) FMA(r, 5) FMA(r, 6) FMA(r, 7)
#define FMAS_1(C) FMA_##C(0)
#define FMAS_2(C) FMAS_1(C) FMA_##C(1)
#define FMAS_4(C) FMAS_2(C) FMA_##C(2) FMA_##C(3)
#define FMAS_8(C) FMAS_4(C) FMA_##C(4) FMA_##C(5) FMA_##C(6) FMA_##C(7)

#define OPA(r) [a##r] "+r"(pa[r])
#define OPA_1 OPA(0)
#define OPA_2 OPA_1, OPA(1)
#define OPA_4 OPA_2, OPA(2), OPA(3)
#define OPA_8 OPA_4, OPA(4), OPA(5), OPA(6), OPA(7)
#define OPC(r, c) [acc##r##c] "+f"(acc[r][c])
#define OPC_1(r) OPC(r, 0)
#define OPC_2(r) OPC_1(r), OPC(r, 1)
#define OPC_4(r) OPC_2(r), OPC(r, 2), OPC(r, 3)
#define OPC_8(r) OPC_4(r), OPC(r, 4), OPC(r, 5), OPC(r, 6), OPC(r, 7)
#define OPCS_1(C) OPC_##C(0)
#define OPCS_2(C) OPCS_1(C), OPC_##C(1)
#define OPCS_4(C) OPCS_2(C), OPC_##C(2), OPC_##C(3)
#define OPCS_8(C) OPCS_4(C), OPC_##C(4), OPC_##C(5), OPC_##C(6), OPC_##C(7)

#define FT_CLOBBERS "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11"

#define KLOOP(R, C)                                                                                          \
    __asm__ volatile(HWLOOP_BEGIN(0, "%[k]", 1) LDA_##R LDB_##C INCA_##R INCB FMAS_##R(C) HWLOOP_END(1)      \
                     : OPA_##R, [pb] "+r"(pb), OPCS_##R(C)                                                   \
                     : [k] "r"(k), [stride] "r"(stride)                                                      \
                     : FT_CLOBBERS, "memory")

/*
 * An R x C block of C (R, C <= 8, R * C <= 16, constants after inlining): a at A(i, 0), b at B(0, j), c at
 * C(i, j). Each element has its own accumulator and takes its products in ascending k, so the block gives
 * exactly what the plain loop gives; the unrolling only shares the loads of A and B between outputs.
 */
INLINE void block(const float* a, const float* b, float* c, unsigned n, unsigned k, const unsigned R,
                  const unsigned C) {
    float acc[8][8];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            acc[r][j] = 0.0f;
    if (k != 0) {
        const float* pa[8];
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
            pa[r] = a + r * k;
        const float* pb = b;
        const unsigned stride = n * sizeof(float);
        if (R == 1 && C == 1)
            KLOOP(1, 1);
        else if (R == 1 && C == 2)
            KLOOP(1, 2);
        else if (R == 1 && C == 4)
            KLOOP(1, 4);
        else if (R == 1 && C == 8)
            KLOOP(1, 8);
        else if (R == 2 && C == 1)
            KLOOP(2, 1);
        else if (R == 4 && C == 1)
            KLOOP(4, 1);
        else if (R == 8 && C == 1)
            KLOOP(8, 1);
        else if (R == 2 && C == 2)
            KLOOP(2, 2);
        else if (R == 2 && C == 4)
            KLOOP(2, 4);
        else if (R == 4 && C == 2)
            KLOOP(4, 2);
        else if (R == 4 && C == 4)
            KLOOP(4, 4);
        else
            __builtin_trap();
    }
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            c[r * n + j] = acc[r][j];
}

/*
 * One output with K unrolled by 2: two independent fmadd chains (the even k into s0, the odd k into s1),
 * two k per hardware-loop iteration.
 */
INLINE void block_u2(const float* a, const float* b, float* c, unsigned n, unsigned k) {
    float s0 = 0.0f, s1 = 0.0f;
    const unsigned pairs = k / 2;
    if (pairs != 0) {
        const unsigned stride = n * sizeof(float);
        __asm__ volatile(HWLOOP_BEGIN(0, "%[pairs]", 1) "flw ft0, 0(%[pa])\n\t"
                                                        "flw ft1, 4(%[pa])\n\t"
                                                        "flw ft8, 0(%[pb])\n\t"
                                                        "add %[pb], %[pb], %[stride]\n\t"
                                                        "flw ft9, 0(%[pb])\n\t"
                                                        "add %[pb], %[pb], %[stride]\n\t"
                                                        "addi %[pa], %[pa], 8\n\t"
                                                        "fmadd.s %[s0], ft0, ft8, %[s0]\n\t"
                                                        "fmadd.s %[s1], ft1, ft9, %[s1]\n\t" HWLOOP_END(1)
                         : [pa] "+r"(a), [pb] "+r"(b), [s0] "+f"(s0), [s1] "+f"(s1)
                         : [pairs] "r"(pairs), [stride] "r"(stride)
                         : "ft0", "ft1", "ft8", "ft9", "memory");
    }
    if (k & 1) s0 += a[0] * b[0];
    *c = s0 + s1;
}

/*
 * Rows [i0, i1) x columns [j0, j1) of C in U x V blocks; leftover rows one at a time with 1 x V blocks,
 * leftover columns with U x 1 (1 x 1) blocks. KU = 2 selects the K-unrolled single-output kernel.
 */
INLINE void rect(const matmul_args_t* t, unsigned i0, unsigned i1, unsigned j0, unsigned j1, const unsigned U,
                 const unsigned V, const unsigned KU) {
    const float* A = t->a;
    const float* B = t->b;
    float* C = t->c;
    const unsigned n = t->n, k = t->k;
    if (U == 1 && V == 1 && KU == 1 && k == 1) {
        /* As PULP-TrainLib's naive kernels: K = 1 (a Linear layer's weight gradient, an outer product) is
         * one product per output, without a k loop to set up for each: a row of C on hardware loop 0, 5
         * instructions per output. fmadd.s with +0 keeps the plain loop's bits (a -0 product becomes +0). */
        if (j1 <= j0) return;
        const float zero = 0.0f;
        for (unsigned i = i0; i < i1; ++i) {
            const float a = A[i];
            const float* pb = B + j0;
            float* pc = C + i * n + j0;
            float x, r;
            __asm__ volatile(HWLOOP_BEGIN(0, "%[cnt]", 1) "flw %[x], 0(%[pb])\n\t"
                                                          "addi %[pb], %[pb], 4\n\t"
                                                          "fmadd.s %[r], %[a], %[x], %[z]\n\t"
                                                          "addi %[pc], %[pc], 4\n\t"
                                                          "fsw %[r], -4(%[pc])\n\t" HWLOOP_END(1)
                             : [pb] "+r"(pb), [pc] "+r"(pc), [x] "=&f"(x), [r] "=&f"(r)
                             : [cnt] "r"(j1 - j0), [a] "f"(a), [z] "f"(zero)
                             : "memory");
        }
        return;
    }
    if (KU == 2) {
        for (unsigned i = i0; i < i1; ++i)
            for (unsigned j = j0; j < j1; ++j)
                block_u2(A + i * k, B + j, C + i * n + j, n, k);
        return;
    }
    unsigned i = i0;
    for (; i + U <= i1; i += U) {
        unsigned j = j0;
        for (; j + V <= j1; j += V)
            block(A + i * k, B + j, C + i * n + j, n, k, U, V);
        for (; j < j1; ++j)
            block(A + i * k, B + j, C + i * n + j, n, k, U, 1);
    }
    for (; i < i1; ++i) {
        unsigned j = j0;
        for (; j + V <= j1; j += V)
            block(A + i * k, B + j, C + i * n + j, n, k, 1, V);
        for (; j < j1; ++j)
            block(A + i * k, B + j, C + i * n + j, n, k, 1, 1);
    }
}

/* Parallel over the rows of C (PULP-TrainLib's "N" split) or over its columns ("M" split). */
#define ROWS_KERNEL(name, U, V, KU)                                                                          \
    void name(const matmul_args_t* t) {                                                                      \
        unsigned first, last;                                                                                \
        kernel_require_nonzero(#name, t->m, t->n, t->k);                                                     \
        split_range(t->m, core_id(), num_cores(), &first, &last);                                            \
        rect(t, first, last, 0, t->n, U, V, KU);                                                             \
    }
#define COLS_KERNEL(name, U, V, KU)                                                                          \
    void name(const matmul_args_t* t) {                                                                      \
        unsigned first, last;                                                                                \
        kernel_require_nonzero(#name, t->m, t->n, t->k);                                                     \
        split_range(t->n, core_id(), num_cores(), &first, &last);                                            \
        rect(t, 0, t->m, first, last, U, V, KU);                                                             \
    }

ROWS_KERNEL(mm, 1, 1, 1)
COLS_KERNEL(mm_M, 1, 1, 1)
ROWS_KERNEL(mm_u2, 1, 1, 2)
COLS_KERNEL(mm_M_u2, 1, 1, 2)
ROWS_KERNEL(mm_unroll_1x2, 1, 2, 1)
ROWS_KERNEL(mm_unroll_1x4, 1, 4, 1)
ROWS_KERNEL(mm_unroll_1x8, 1, 8, 1)
ROWS_KERNEL(mm_unroll_2x1, 2, 1, 1)
ROWS_KERNEL(mm_unroll_4x1, 4, 1, 1)
ROWS_KERNEL(mm_unroll_8x1, 8, 1, 1)
ROWS_KERNEL(mm_unroll_2x2, 2, 2, 1)
ROWS_KERNEL(mm_unroll_2x4, 2, 4, 1)
ROWS_KERNEL(mm_unroll_4x2, 4, 2, 1)
ROWS_KERNEL(mm_unroll_4x4, 4, 4, 1)
COLS_KERNEL(mm_M_unroll_1x2, 1, 2, 1)
COLS_KERNEL(mm_M_unroll_1x4, 1, 4, 1)
COLS_KERNEL(mm_M_unroll_1x8, 1, 8, 1)
COLS_KERNEL(mm_M_unroll_2x1, 2, 1, 1)
COLS_KERNEL(mm_M_unroll_4x1, 4, 1, 1)
COLS_KERNEL(mm_M_unroll_8x1, 8, 1, 1)
COLS_KERNEL(mm_M_unroll_2x2, 2, 2, 1)
COLS_KERNEL(mm_M_unroll_2x4, 2, 4, 1)
COLS_KERNEL(mm_M_unroll_4x2, 4, 2, 1)
COLS_KERNEL(mm_M_unroll_4x4, 4, 4, 1)

#define ROWS(name, U, V, KU) {#name, name, U, V, KU, 0}
#define COLS(name, U, V, KU) {#name, name, U, V, KU, 1}

const matmul_variant_t matmul_variants[MATMUL_VARIANTS] = {
    ROWS(mm, 1, 1, 1),
    COLS(mm_M, 1, 1, 1),
    ROWS(mm_u2, 1, 1, 2),
    COLS(mm_M_u2, 1, 1, 2),
    ROWS(mm_unroll_1x2, 1, 2, 1),
    ROWS(mm_unroll_1x4, 1, 4, 1),
    ROWS(mm_unroll_1x8, 1, 8, 1),
    ROWS(mm_unroll_2x1, 2, 1, 1),
    ROWS(mm_unroll_4x1, 4, 1, 1),
    ROWS(mm_unroll_8x1, 8, 1, 1),
    ROWS(mm_unroll_2x2, 2, 2, 1),
    ROWS(mm_unroll_2x4, 2, 4, 1),
    ROWS(mm_unroll_4x2, 4, 2, 1),
    ROWS(mm_unroll_4x4, 4, 4, 1),
    COLS(mm_M_unroll_1x2, 1, 2, 1),
    COLS(mm_M_unroll_1x4, 1, 4, 1),
    COLS(mm_M_unroll_1x8, 1, 8, 1),
    COLS(mm_M_unroll_2x1, 2, 1, 1),
    COLS(mm_M_unroll_4x1, 4, 1, 1),
    COLS(mm_M_unroll_8x1, 8, 1, 1),
    COLS(mm_M_unroll_2x2, 2, 2, 1),
    COLS(mm_M_unroll_2x4, 2, 4, 1),
    COLS(mm_M_unroll_4x2, 4, 2, 1),
    COLS(mm_M_unroll_4x4, 4, 4, 1),
};
