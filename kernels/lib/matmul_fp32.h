/*
 * The FP32 matmul family of PULP-TrainLib (Table 1 of the paper): 24 kernels computing
 *
 *   C[M][N] = A[M][K] x B[K][N]      (row-major, contiguous, all three in the TCDM)
 *
 * with one signature, run by every core of a team (inside team_fork); each core takes its share of the
 * output with split_range over num_cores():
 *
 *   mm, mm_M                       naive, split over the rows of C (mm) or over its columns (mm_M)
 *   mm_u2, mm_M_u2                 the same with K unrolled by 2 (two partial sums per output)
 *   mm_unroll_UxV, mm_M_unroll_UxV U x V register blocks of C (U rows, V columns), for
 *                                  UxV in 1x2 1x4 1x8 2x1 4x1 8x1 2x2 2x4 4x2 4x4
 *
 *   matmul_args_t t = {.a = a, .b = b, .c = c, .m = M, .n = N, .k = K};
 *   mm_unroll_2x4(&t);                              // on every core of the team
 *   for (unsigned v = 0; v < MATMUL_VARIANTS; ++v)  // or through the table
 *       matmul_variants[v].fn(&t);
 *
 * Leftovers (any M, N, K >= 1): a core's rows go in strips of U, its columns in blocks of V; the rows past
 * the last full strip are done one at a time with 1 x V blocks, the columns past the last full block with
 * U x 1 (or 1 x 1) blocks. A core whose share is smaller than the unroll therefore runs only the smaller
 * blocks (the paper's "all-leftover" case). A zero M, N or K prints "error: <kernel>: zero dimension" and
 * exits 1 (kernel_error.h).
 *
 * Exactness: in every kernel but the K-unrolled ones, each output is one accumulator starting at 0 that
 * takes its products in ascending k with `acc += a * b` (one fmadd.s), so C is bit-identical to the plain
 * loop under clang's default contraction, on any core count. mm_u2 / mm_M_u2 sum the even and the odd k
 * separately and add the two at the end (an odd last k goes to the even sum). The rounding differs: the
 * plain loop is within K * 2^-24 * S of the exact sum and the split one within (K/2 + 1) * 2^-24 * S, where
 * S = sum_k |A(i,k) B(k,j)|, so check them against the plain loop with a tolerance relative to S; 1e-5 * S
 * holds in the worst case up to K ~ 110 (typical errors are ~sqrt(K) times smaller).
 *
 * Performance: the innermost k loop of every kernel is an inline-asm body on CORE-V hardware loop 0
 * (runtime/hwloop.h), so the back-edge costs no instruction and no taken-branch penalty, and its loads
 * come two or more instructions before their first use (no load-use stall). An iteration is R + V flw,
 * R addi + 1 add for the pointers and R x V fmadd.s (mm: 5 instructions per MAC, ~0.19 MAC/cycle on one
 * core at 64x64x64; mm_unroll_4x4: 29 per 16 MACs, ~0.53). The programs therefore need the CORE-V
 * hardware loops (not qemu); the arithmetic is unchanged, so the results are the same bits as before.
 * As in PULP-TrainLib, the naive mm and mm_M treat K = 1 (a Linear layer's weight gradient) as an outer
 * product: a hardware loop over a row of C, 5 instructions per output (flw, fmadd.s with +0, fsw and two
 * pointer adds) instead of a one-trip k loop set up for every output.
 */
#ifndef PULPSIM_MATMUL_FP32_H
#define PULPSIM_MATMUL_FP32_H

typedef struct {
    const float* a; /* [m][k] */
    const float* b; /* [k][n] */
    float* c;       /* [m][n] */
    unsigned m, n, k;
} matmul_args_t;

typedef void (*matmul_fn_t)(const matmul_args_t* args);

typedef struct {
    const char* name;
    matmul_fn_t fn;
    unsigned unroll_rows; /* U: rows of C per block */
    unsigned unroll_cols; /* V: columns of C per block */
    unsigned unroll_k;    /* 2 for the K-unrolled kernels (not bit-exact), else 1 */
    unsigned split_cols;  /* 1: parallel over the columns of C (mm_M...), 0: over its rows */
} matmul_variant_t;
/* pulpsim autotune reads this table from the ELF with this layout (sim/runs/tuner.cpp compare_program,
 * sim/cli/autotune.cpp family_kernels): a change here must change them too. */
_Static_assert(sizeof(matmul_variant_t) == 24 && __builtin_offsetof(matmul_variant_t, unroll_rows) == 8 &&
                   __builtin_offsetof(matmul_variant_t, split_cols) == 20,
               "pulpsim autotune reads matmul_variants[] as 24-byte entries");

#define MATMUL_VARIANTS 24
extern const matmul_variant_t matmul_variants[MATMUL_VARIANTS];

void mm(const matmul_args_t* args);
void mm_M(const matmul_args_t* args);
void mm_u2(const matmul_args_t* args);
void mm_M_u2(const matmul_args_t* args);
void mm_unroll_1x2(const matmul_args_t* args);
void mm_unroll_1x4(const matmul_args_t* args);
void mm_unroll_1x8(const matmul_args_t* args);
void mm_unroll_2x1(const matmul_args_t* args);
void mm_unroll_4x1(const matmul_args_t* args);
void mm_unroll_8x1(const matmul_args_t* args);
void mm_unroll_2x2(const matmul_args_t* args);
void mm_unroll_2x4(const matmul_args_t* args);
void mm_unroll_4x2(const matmul_args_t* args);
void mm_unroll_4x4(const matmul_args_t* args);
void mm_M_unroll_1x2(const matmul_args_t* args);
void mm_M_unroll_1x4(const matmul_args_t* args);
void mm_M_unroll_1x8(const matmul_args_t* args);
void mm_M_unroll_2x1(const matmul_args_t* args);
void mm_M_unroll_4x1(const matmul_args_t* args);
void mm_M_unroll_8x1(const matmul_args_t* args);
void mm_M_unroll_2x2(const matmul_args_t* args);
void mm_M_unroll_2x4(const matmul_args_t* args);
void mm_M_unroll_4x2(const matmul_args_t* args);
void mm_M_unroll_4x4(const matmul_args_t* args);

#endif
