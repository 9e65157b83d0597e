/*
 * FP32 matmul on tensors in L2, computed in the TCDM tile by tile by a team of cores:
 *
 *   C = (accumulate ? C : 0) + op(A) * op(B),   op(A) is M x K, op(B) is K x N, C is M x N (row-major)
 *
 * A is stored [M][K], or [K][M] with a_trans; B is [K][N], or [N][K] with b_trans. The tiles (Tm, Tn, Tk)
 * are chosen at run time so that two buffer sets (A tile + B tile + C tile each) fit in the free TCDM
 * (l1_free_bytes()); the DMA moves them with 2-D transfers while the team computes the other set
 * (dma_double_buffer). When K is tiled, a C tile stays in the TCDM over its k-tiles, taken in ascending
 * order, and is written back once: every element is one accumulator over k = 0 .. K-1 in order, so the
 * result is bit-identical to the plain loop `acc += a * b` (matmul_l1.h).
 *
 *   tiled_matmul_t mm = {.m = 256, .n = 64, .k = 256, .a = w, .b = in, .c = out};
 *   tiled_plan_t plan = tiled_matmul(&mm, num_cores());   // from core 0, outside a team
 *
 * The tiles minimise an estimate of the pipeline's cycles (compute per core, DMA time per step, the first
 * copies in and the last copy out, which nothing hides); the DMA's speed is measured once per program with
 * two small copies. A zero dimension, a null or misaligned tensor, C overlapping A or B, or a TCDM too small
 * for even a 1x1x1 tile set prints one line on stderr and ends the program with exit status 1.
 */
#ifndef PULPSIM_TILED_MATMUL_H
#define PULPSIM_TILED_MATMUL_H

#include <stdint.h>

#include "matmul_fp32.h"

typedef struct {
    unsigned m, n, k;
    const float* a;
    unsigned a_trans; /* A stored [K][M] */
    const float* b;
    unsigned b_trans; /* B stored [N][K] */
    float* c;
    unsigned accumulate; /* C += op(A) * op(B) */
} tiled_matmul_t;

typedef struct {
    unsigned tm, tn, tk;                /* tile sizes; a dimension's last tile may be smaller */
    unsigned m_tiles, n_tiles, k_tiles; /* tiles along each dimension */
    unsigned steps;                     /* m_tiles * n_tiles * k_tiles pipeline steps */
    uint32_t set_bytes;                 /* TCDM of one buffer set (A + B + C tile) */
} tiled_plan_t;

/* Chooses the tiles for `cores` cores and `l1_bytes` of TCDM; returns 0 when not even 1x1x1 fits. */
int tiled_matmul_plan(const tiled_matmul_t* mm, unsigned cores, uint32_t l1_bytes, tiled_plan_t* plan);

/* Plans, then runs on cores 0 .. cores-1 (team_fork); call it from core 0 outside a team. */
tiled_plan_t tiled_matmul(const tiled_matmul_t* mm, unsigned cores);

/* Caps the TCDM the tiles may use below l1_free_bytes() (0: no cap), e.g. to force K tiling in a test. */
void tiled_matmul_set_l1_limit(uint32_t bytes);
/* The TCDM bytes the tiled steps may use: the free TCDM, capped by tiled_matmul_set_l1_limit(). */
uint32_t tiled_l1_budget(void);

/*
 * A tuned choice instead of the planner's (pulpsim autotune measures them; a tuning file or the host sets
 * them): fixed tiles, a kernel of the matmul family for the tiles, and guard zones between the TCDM
 * buffers. The family kernels neither accumulate nor read transposed operands, so `kernel` needs A stored
 * [M][K], B stored [K][N], no accumulate and K in one tile (tk = K); otherwise, and when the tiles with
 * their guard zones do not fit the TCDM budget, the program ends with a message. tm = 0: the planner picks
 * the tiles; kernel NULL: matmul_l1. guard_bytes (a multiple of 4) separate and follow the six buffers,
 * each gap a guard zone (runtime.h) while the matmul runs.
 */
typedef struct {
    unsigned tm, tn, tk;
    matmul_fn_t kernel;
    uint32_t guard_bytes;
} tiled_choice_t;
/* Applies to the following tiled_matmul() calls; NULL goes back to the tuned choices and the planner. */
void tiled_matmul_set_choice(const tiled_choice_t* choice);

/*
 * Tuned choices: when no choice with tiles is set, tiled_matmul() looks its call up in a table of these
 * and runs the first entry that matches its matmul, layout (not accumulating), team size and the
 * platform's TCDM size; a call not in the table, or whose tiles do not fit the TCDM this program leaves
 * free, gets the planner (with the set choice's guard bytes and kernel). A build configured with
 * -DPULPSIM_TUNING=tuning.yaml (kernels/CMakeLists.txt) compiles in the table of that tuning file, made by
 * kernels/tools/tuned_choices.py into tuned_choices.h; other builds have an empty one.
 */
typedef struct {
    unsigned cores;
    uint32_t tcdm_size;
    unsigned m, n, k, a_trans, b_trans;
    tiled_choice_t choice;
} tuned_matmul_t;
/* Replaces the build's table for the following calls (as apps/tiled_tune does to measure one pair the way a
 * tuned build runs it); NULL: no tuned choices. The table must outlive the calls. */
void tiled_matmul_set_tuned(const tuned_matmul_t* table, unsigned count);
/* The table in use and its number of entries. */
unsigned tiled_matmul_get_tuned(const tuned_matmul_t** table);
/* The entry of the table in use for this call (NULL: none), as tiled_matmul() looks it up. */
const tuned_matmul_t* tiled_matmul_tuned(const tiled_matmul_t* mm, unsigned cores);
/* TCDM bytes that tiles tm x tn x tk take with their guard zones, double-buffered. */
uint64_t tiled_matmul_footprint(unsigned tm, unsigned tn, unsigned tk, uint32_t guard_bytes);
/* Prints "error: <printf-style message>" on stderr and ends the program with exit status 1. */
void __attribute__((noreturn, format(printf, 1, 2))) kernel_fail(const char* format, ...);

#endif
