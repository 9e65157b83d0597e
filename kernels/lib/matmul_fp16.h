/*
 * FP16 matmul family on TCDM data:
 *
 *   C[M][N] = A[M][K] x B[K][N]      (row-major; B given as B [K][N] or transposed, bt = B^T as [N][K])
 *
 * matmul_fp16(): FP32 accumulation with vfdotpex.s.h in 2 x 2 register blocks, B transposed.
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
 *
 * The family (matmul_fp16_variants[], one signature, run by every core of a team):
 *
 *   name                 B     accumulation  inner loop, per hardware-loop iteration
 *   mm_fp16              B     FP16 scalar   1 product: flh x2, addi, add, fmadd.h (5 instr / MAC)
 *   mm_fp16_SIMD_RxC     B^T   FP16 pairs    2 k-pairs of an R x C block: 2 (R + C) flw, R + C addi,
 *                                            2 R C vfmac.h (RxC = 2x1 4x1 2x2 2x4 4x4)
 *   mm_fp16_dotp_2x2     B^T   FP32          matmul_fp16() itself (rows of C per core, always)
 *   mm_fp16_dotp_RxC     B^T   FP32          as SIMD_RxC with vfdotpex.s.h (RxC = 1x4 4x4)
 *
 * mm_fp16 accumulates each output in ascending k with one fmadd.h (one FP16 rounding) per product. The
 * SIMD kernels keep the even k in lane 0 and the odd k in lane 1 of one pair (vfmac.h, one FP16 rounding
 * per lane and pair, pairs in ascending order), add the two lanes in FP16 at the end and then an odd last
 * product with one fmadd.h, exactly as vm_T_SIMD (vm_fp16.h) does for one row; every SIMD blocking gives
 * the same bits. Each FP16-accumulating output is within gamma_K * S of the exact sum (S = sum_k |A(i,k)
 * B(k,j)|, gamma_n = n u / (1 - n u), u = 2^-11): at most K FP16 roundings on any path. The dotp kernels
 * sum each output as matmul_fp16() does (pairs in ascending order with vfdotpex.s.h, an odd last product
 * with one fmadd.s, one rounding to FP16), so they give its bits, within (K/2 + 1) FP32 roundings plus one
 * FP16 rounding of the exact result.
 *
 * Split: matmul_fp16() gives each core its rows of C; the other kernels do so when M >= num_cores() and
 * otherwise split the columns of C (M = 1 is a vector-matrix product: a row split would idle all cores but
 * one). Leftovers (any M, N, K >= 1): a core's rows go in strips of R, its columns in blocks of C; the rows
 * past the last full strip use 1 x C blocks, the columns past the last full block R x 1 (1 x 1) blocks; an
 * odd number of k-pairs ends with one pair outside the loop. A zero dimension prints "error: <kernel>: zero
 * dimension" and exits 1. Odd K leaves every other row of A and B^T 2-byte aligned: the misaligned flw cost
 * one extra cycle each.
 *
 * Performance: the inner loops are inline-asm bodies on CORE-V hardware loop 0 (runtime/hwloop.h), every
 * load at least two instructions before its first use (no load-use stall). A SIMD / dotp R x C iteration
 * loads the k-pair of each A row at 0 and the k-pairs of each B^T row at 0 and 4, does the first pair's
 * products row by row while reloading each A row's second pair behind its last use, advances the R + C
 * pointers by 8 and does the second pair: 4x4 is 56 instructions per 64 MACs, 2x2 20 per 16. Outputs leave
 * a block in pairs of columns, one fsw each: the SIMD kernels regroup the lanes of two sums with cv.pack /
 * cv.pack.h and add them with one vfadd.h (an odd K then adds its last products with one vfmac.r.h), the
 * dotp kernels round two sums with one vfcpka.h.s; the roundings are those of the one-output code. On 8
 * cores of pulp-open at 64 x 64 x 64: mm_fp16 1.4 MAC/cycle, SIMD_2x1 4.1, 4x1 4.6, 2x2 5.5, 2x4 6.5, 4x4
 * 7.3, dotp_2x2 5.6, 1x4 5.0, 4x4 8.1; at 1 x 128 x 128 (M = 1) the SIMD ones 3.3 to 4.4 and dotp_1x4 4.5,
 * against 3.4 for vm_T_SIMD. apps/fp16_compare/ runs and checks them all, with the vm_fp16.h kernels when
 * M = 1 (`pulpsim compare`).
 */
#ifndef PULPSIM_MATMUL_FP16_H
#define PULPSIM_MATMUL_FP16_H

typedef struct {
    const _Float16* a; /* [m][k] */
    union {
        const _Float16* bt; /* B^T as [n][k]: the kernels with b_transposed = 1, matmul_fp16() */
        const _Float16* b;  /* B as [k][n]: the kernels with b_transposed = 0 (mm_fp16) */
    };
    _Float16* c; /* [m][n] */
    unsigned m, n, k;
} matmul_fp16_args_t;

typedef void (*matmul_fp16_fn_t)(const matmul_fp16_args_t* args);

typedef struct {
    const char* name;
    matmul_fp16_fn_t fn;
    unsigned b_transposed;      /* 1: args->bt is B^T [n][k]; 0: args->b is B [k][n] */
    unsigned fp16_accumulation; /* 1: FP16 sums (within gamma_K S); 0: FP32 sums rounded once to FP16 */
} matmul_fp16_variant_t;
/* pulpsim autotune reads this table from the ELF (sim/runs/tuner.cpp compare_program): a change in its
 * size must change it too. */
_Static_assert(sizeof(matmul_fp16_variant_t) == 16,
               "pulpsim autotune reads matmul_fp16_variants[] as 16-byte entries");

#define MATMUL_FP16_VARIANTS 9
extern const matmul_fp16_variant_t matmul_fp16_variants[MATMUL_FP16_VARIANTS];

void matmul_fp16(const matmul_fp16_args_t* args);

void mm_fp16(const matmul_fp16_args_t* args);
void mm_fp16_SIMD_2x1(const matmul_fp16_args_t* args);
void mm_fp16_SIMD_4x1(const matmul_fp16_args_t* args);
void mm_fp16_SIMD_2x2(const matmul_fp16_args_t* args);
void mm_fp16_SIMD_2x4(const matmul_fp16_args_t* args);
void mm_fp16_SIMD_4x4(const matmul_fp16_args_t* args);
void mm_fp16_dotp_1x4(const matmul_fp16_args_t* args);
void mm_fp16_dotp_4x4(const matmul_fp16_args_t* args);

#endif
