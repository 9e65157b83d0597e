/*
 * FP16 matmul with FP32 accumulation:
 *
 *   C[M][N] = A[M][K] x B[K][N], B given transposed: bt = B^T as [N][K] (row-major, in the TCDM)
 *
 * B^T makes the k-pairs of both operands contiguous, so each pair of products is one vfdotpex.s.h
 * (exact products, FP32 sum rounded once) on two flw; each output is rounded once to FP16 at the end.
 * Register blocks of 2 x 2 outputs share the loads (4 flw, 4 vfdotpex per k-pair); an odd M or N ends
 * with 1 x 2, 2 x 1 or 1 x 1 blocks, an odd K with one scalar product per output. Every core of the team
 * (inside team_fork) takes its rows of C with split_range over num_cores(). Rows of odd K are misaligned
 * every other row, which the core absorbs (one cycle per misaligned flw).
 *
 * Error: within K/2 + 1 FP32 roundings of the exact sum plus one FP16 rounding; when every partial sum
 * is representable in FP32 (e.g. inputs that are multiples of 2^-6 and K < 4096), C is the exact result
 * rounded to FP16.
 * A zero dimension prints "error: matmul_fp16: zero dimension" and exits 1 (kernel_error.h).
 */
#ifndef PULPSIM_MATMUL_FP16_H
#define PULPSIM_MATMUL_FP16_H

typedef struct {
    const _Float16* a;  /* [m][k] */
    const _Float16* bt; /* [n][k] */
    _Float16* c;        /* [m][n] */
    unsigned m, n, k;
} matmul_fp16_args_t;

void matmul_fp16(const matmul_fp16_args_t* args);

#endif
