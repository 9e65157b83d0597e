/* The FP32 matmul family on TCDM data (see matmul_fp32.h). */
#include "matmul_fp32.h"

#include "cluster.h"
#include "runtime.h"

#define INLINE static inline __attribute__((always_inline))

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
    for (unsigned p = 0; p < k; ++p) {
        float av[8], bv[8];
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
            av[r] = a[r * k];
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            bv[j] = b[j];
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
            for (unsigned j = 0; j < C; ++j)
                acc[r][j] += av[r] * bv[j]; /* one fmadd.s, as in the plain loop */
        a += 1;
        b += n;
    }
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            c[r * n + j] = acc[r][j];
}

/* One output with K unrolled by 2: two independent fmadd chains hide the FPU latency of a single one. */
INLINE void block_u2(const float* a, const float* b, float* c, unsigned n, unsigned k) {
    float s0 = 0.0f, s1 = 0.0f;
    unsigned p = 0;
    for (; p + 2 <= k; p += 2) {
        s0 += a[0] * b[0];
        s1 += a[1] * b[n];
        a += 2;
        b += 2 * n;
    }
    if (p < k) s0 += a[0] * b[0];
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
        split_range(t->m, core_id(), num_cores(), &first, &last);                                            \
        rect(t, first, last, 0, t->n, U, V, KU);                                                             \
    }
#define COLS_KERNEL(name, U, V, KU)                                                                          \
    void name(const matmul_args_t* t) {                                                                      \
        unsigned first, last;                                                                                \
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

#define ROWS(name, U, V, KU)                                                                                 \
    { #name, name, U, V, KU, 0 }
#define COLS(name, U, V, KU)                                                                                 \
    { #name, name, U, V, KU, 1 }

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
