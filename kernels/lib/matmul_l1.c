/* FP32 matmul on TCDM tiles, parallel over the rows of C (see matmul_l1.h). */
#include "matmul_l1.h"

#include "cluster.h"

#define INLINE static inline __attribute__((always_inline))

/* One k of an R x C block: the products of column k of A's rows and row k of B's columns. */
INLINE void block_step(float acc[4][4], const float* a, unsigned a_rs, const float* b, unsigned b_cs,
                       const unsigned R, const unsigned C) {
    float av[4], bv[4];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
        av[r] = a[r * a_rs];
#pragma clang loop unroll(full)
    for (unsigned j = 0; j < C; ++j)
        bv[j] = b[j * b_cs];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            acc[r][j] += av[r] * bv[j]; /* one fmadd.s, as in the reference loop */
}

/*
 * An R x C block of C (R, C <= 4, compile-time constants after inlining). Register blocking over output
 * elements only: every element keeps one accumulator and takes its products in ascending k, so the block
 * gives exactly what the plain reference loop gives. The k loop does two k per iteration (still in order,
 * into the same accumulators) to halve the pointer updates and the taken branches. a points at A(i0, 0),
 * b at B(0, j0); a_rs / a_ks are A's strides (elements) along i and along k, b_cs / b_ks B's along j and k.
 */
INLINE void block(const float* a, unsigned a_rs, unsigned a_ks, const float* b, unsigned b_cs, unsigned b_ks,
                  float* c, unsigned ldc, unsigned k, unsigned accumulate, const unsigned R,
                  const unsigned C) {
    float acc[4][4];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            acc[r][j] = accumulate ? c[r * ldc + j] : 0.0f;
    unsigned p = 0;
    for (; p + 2 <= k; p += 2) {
        block_step(acc, a, a_rs, b, b_cs, R, C);
        block_step(acc, a + a_ks, a_rs, b + b_ks, b_cs, R, C);
        a += 2 * a_ks;
        b += 2 * b_ks;
    }
    if (p < k) block_step(acc, a, a_rs, b, b_cs, R, C);
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            c[r * ldc + j] = acc[r][j];
}

/* R rows starting at row i, all columns: 4-wide blocks, then a 2- and a 1-wide one for the leftovers. */
INLINE void row_strip(const matmul_l1_t* t, unsigned i, const unsigned R, const unsigned AT,
                      const unsigned BT) {
    const unsigned a_rs = AT ? 1 : t->lda, a_ks = AT ? t->lda : 1;
    const unsigned b_cs = BT ? t->ldb : 1, b_ks = BT ? 1 : t->ldb;
    const float* a = t->a + i * a_rs;
    float* c = t->c + i * t->ldc;
    const unsigned n = t->n, k = t->k, ldc = t->ldc, acc = t->accumulate;
    unsigned j = 0;
    for (; j + 4 <= n; j += 4)
        block(a, a_rs, a_ks, t->b + j * b_cs, b_cs, b_ks, c + j, ldc, k, acc, R, 4);
    if (j + 2 <= n) {
        block(a, a_rs, a_ks, t->b + j * b_cs, b_cs, b_ks, c + j, ldc, k, acc, R, 2);
        j += 2;
    }
    if (j < n) block(a, a_rs, a_ks, t->b + j * b_cs, b_cs, b_ks, c + j, ldc, k, acc, R, 1);
}

/* Rows [first, last) in strips of 4, then 2 and 1; AT / BT are constants so each layout gets its own code. */
INLINE void rows(const matmul_l1_t* t, unsigned first, unsigned last, const unsigned AT, const unsigned BT) {
    unsigned i = first;
    for (; i + 4 <= last; i += 4)
        row_strip(t, i, 4, AT, BT);
    if (i + 2 <= last) {
        row_strip(t, i, 2, AT, BT);
        i += 2;
    }
    if (i < last) row_strip(t, i, 1, AT, BT);
}

static void rows_nn(const matmul_l1_t* t, unsigned first, unsigned last) {
    rows(t, first, last, 0, 0);
}
static void rows_nt(const matmul_l1_t* t, unsigned first, unsigned last) {
    rows(t, first, last, 0, 1);
}
static void rows_tn(const matmul_l1_t* t, unsigned first, unsigned last) {
    rows(t, first, last, 1, 0);
}
static void rows_tt(const matmul_l1_t* t, unsigned first, unsigned last) {
    rows(t, first, last, 1, 1);
}

void matmul_l1_rows(const matmul_l1_t* t, unsigned first, unsigned last) {
    if (last > t->m) last = t->m;
    if (first >= last || t->n == 0) return;
    if (t->k == 0) { /* an empty sum: C keeps its value or becomes 0 */
        if (!t->accumulate)
            for (unsigned i = first; i < last; ++i)
                for (unsigned j = 0; j < t->n; ++j)
                    t->c[i * t->ldc + j] = 0.0f;
        return;
    }
    if (t->a_trans)
        (t->b_trans ? rows_tt : rows_tn)(t, first, last);
    else
        (t->b_trans ? rows_nt : rows_nn)(t, first, last);
}

void matmul_l1(const matmul_l1_t* t, unsigned core, unsigned cores) {
    unsigned first, last;
    split_range(t->m, core, cores, &first, &last);
    matmul_l1_rows(t, first, last);
}
