/*
 * FP32 matmul on tiles in the TCDM, parallel over the rows of C:
 *
 *   C[i][j] = (accumulate ? C[i][j] : 0) + sum over k = 0 .. K-1, in that order, of A(i,k) * B(k,j)
 *
 * with a single accumulator per element and one fused multiply-add per k, so the result is bit-identical to
 * the plain loop `float acc = c0; for (k...) acc += a * b;` compiled with clang's default FP contraction.
 * A(i,k) is a[i * lda + k] (row-major [M][K]) or, with a_trans, a[k * lda + i] ([K][M]); B(k,j) is
 * b[k * ldb + j] ([K][N]) or, with b_trans, b[j * ldb + k] ([N][K]); C(i,j) is c[i * ldc + j].
 *
 *   matmul_l1_t t = {.m = 16, .n = 32, .k = 64, .a = a, .lda = 64, .b = b, .ldb = 32, .c = c, .ldc = 32};
 *   matmul_l1(&t, core_id(), cores);   // every core of the team, each takes its rows of C
 */
#ifndef PULPSIM_MATMUL_L1_H
#define PULPSIM_MATMUL_L1_H

typedef struct {
    unsigned m, n, k;
    const float* a;
    unsigned lda;
    unsigned a_trans; /* A stored [K][M] */
    const float* b;
    unsigned ldb;
    unsigned b_trans; /* B stored [N][K] */
    float* c;
    unsigned ldc;
    unsigned accumulate; /* start from C's value instead of 0 */
} matmul_l1_t;

/* Core `core` of a team of `cores` computes its share of the rows of C (split_range); no barrier. */
void matmul_l1(const matmul_l1_t* t, unsigned core, unsigned cores);
/* Rows [first, last) of C only, for callers that keep their split across calls. */
void matmul_l1_rows(const matmul_l1_t* t, unsigned first, unsigned last);

#endif
