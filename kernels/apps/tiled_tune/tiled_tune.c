/*
 * One tiled matmul C = op(A) op(B) on tensors in L2 (tiled_matmul.h) with the tiles and the kernel written
 * into the program by the host before the run, so that `pulpsim autotune` measures every (tile, kernel)
 * pair of a training step with one ELF:
 *
 *   tune_m, tune_n, tune_k      the step's matmul (A is M x K, B is K x N)
 *   tune_a_trans, tune_b_trans  A stored [K][M], B stored [N][K] (PointWise WG and IG)
 *   tune_tm, tune_tn, tune_tk   the tiles (tune_tm = 0: the build's tuned choice or the planner's tiles)
 *   tune_kernel                 index into matmul_variants[], or MATMUL_VARIANTS for matmul_l1
 *   tune_guard                  bytes of guard zone after each TCDM buffer (runtime.h)
 *
 * The pair to measure becomes a one-entry table of tuned choices (tiled_matmul_set_tuned), so tiled_matmul
 * runs it through the same look-up as a program built with a tuning file: the same ELF built that way and
 * run with tune_tm = 0 runs the instructions the tuner measured for the first entry of its table, in its
 * cycles within the few of the look-up's passes over the table (kernels/lib/README.md).
 *
 * The matmul runs in the perf region "step" (M N K MACs), DMA included; then every element is checked
 * against the plain loop: bit for bit, or within (1.5 K + 2) 2^-24 S for the K-unrolled kernels (see
 * matmul_fp32.h). A, B and C lie back to back in a static L2 arena with guard zones around them.
 * Exit 1 with one line on a bad request, a tensor that does not fit the arena, or a wrong result.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "cluster.h"
#include "dma.h"
#include "kernel_check.h"
#include "matmul_fp32.h"
#include "runtime.h"
#include "tiled_matmul.h"

/* In .data even when zero: the start-up code clears .bss after the host has written it. */
#define HOST_SET __attribute__((section(".data")))
volatile uint32_t tune_m = 48, tune_n = 40, tune_k = 56;
HOST_SET volatile uint32_t tune_a_trans = 0, tune_b_trans = 0;
volatile uint32_t tune_tm = 16, tune_tn = 16, tune_tk = 56;
volatile uint32_t tune_kernel = MATMUL_VARIANTS;
volatile uint32_t tune_guard = 16;
/* For the host: how many entries matmul_variants[] has (it reads their names from the ELF). */
volatile const uint32_t tune_variant_count = MATMUL_VARIANTS;

#ifndef ARENA_FLOATS
#define ARENA_FLOATS (108u * 1024u) /* with the program, just under pulp-open's 512 KiB of L2 */
#endif
#define GAP 4u /* floats of guard zone around each L2 tensor */
static float arena[ARENA_FLOATS] __attribute__((aligned(64)));
/* For the host, which refuses steps whose tensors do not fit the arena before running anything. */
volatile const uint32_t tune_arena_floats = ARENA_FLOATS;

static float a_at(const float* a, unsigned i, unsigned kk, unsigned m, unsigned k, unsigned trans) {
    return trans ? a[kk * m + i] : a[i * k + kk];
}
static float b_at(const float* b, unsigned kk, unsigned j, unsigned n, unsigned k, unsigned trans) {
    return trans ? b[j * k + kk] : b[kk * n + j];
}

int main(void) {
    const unsigned m = tune_m, n = tune_n, k = tune_k, a_trans = tune_a_trans != 0,
                   b_trans = tune_b_trans != 0;
    const unsigned kernel = tune_kernel;
    if (m == 0 || n == 0 || k == 0) {
        printf("tiled tune: every dimension must be at least 1 (got %ux%ux%u)\n", m, n, k);
        return 1;
    }
    if (kernel > tune_variant_count) {
        printf("tiled tune: kernel %u is not a matmul variant (0..%u) or matmul_l1 (%u)\n", kernel,
               MATMUL_VARIANTS - 1u, MATMUL_VARIANTS);
        return 1;
    }
    const uint64_t floats = (uint64_t)m * k + (uint64_t)k * n + (uint64_t)m * n + 4u * GAP;
    if (floats > tune_arena_floats) {
        printf("tiled tune: A, B and C (%ux%ux%u) need %lu floats of L2, the arena has %u\n", m, n, k,
               (unsigned long)floats, ARENA_FLOATS);
        return 1;
    }
    float* a = arena + GAP;
    float* b = a + m * k + GAP;
    float* c = b + k * n + GAP;
    guard_zone(arena, GAP * 4u, "before A");
    guard_zone(a + m * k, GAP * 4u, "after A");
    guard_zone(b + k * n, GAP * 4u, "after B");
    guard_zone(c + m * n, GAP * 4u, "after C");
    uint32_t state = 0x2545f491u;
    fill_random_floats(a, m * k, &state, 1.0f);
    fill_random_floats(b, k * n, &state, 1.0f);

    /* Outside the region: the planner's guard zones when no entry applies, and the pair as the only entry. */
    const tiled_choice_t planner = {.guard_bytes = tune_guard};
    tiled_matmul_set_choice(&planner);
    static tuned_matmul_t pair;
    pair = (tuned_matmul_t){.cores = num_cores(),
                            .tcdm_size = *(volatile uint32_t*)(EU_BASE + EU_TCDM_SIZE),
                            .m = m,
                            .n = n,
                            .k = k,
                            .a_trans = a_trans,
                            .b_trans = b_trans,
                            .choice = {.tm = tune_tm,
                                       .tn = tune_tn,
                                       .tk = tune_tk,
                                       .kernel = kernel < MATMUL_VARIANTS ? matmul_variants[kernel].fn : 0,
                                       .guard_bytes = tune_guard}};
    /* Both ways run the same instructions, so the caches hold the same lines when the region starts. */
    const tuned_matmul_t* table;
    unsigned entries = tiled_matmul_get_tuned(&table);
    if (tune_tm) table = &pair, entries = 1;
    tiled_matmul_set_tuned(table, entries);
    const tiled_matmul_t mm = {
        .m = m, .n = n, .k = k, .a = a, .a_trans = a_trans, .b = b, .b_trans = b_trans, .c = c};
    region_begin("step", m * n * k);
    const tiled_plan_t plan = tiled_matmul(&mm, num_cores());
    region_end();

    /* Whatever ran: the pair (which must not have fallen back to the planner), or a tuned entry of the build,
     * or the planner with matmul_l1. */
    const tuned_matmul_t* tuned = tiled_matmul_tuned(&mm, num_cores());
    const unsigned tm = tune_tm < m ? tune_tm : m, tn = tune_tn < n ? tune_tn : n,
                   tk = tune_tk < k ? tune_tk : k;
    if (tune_tm && (plan.tm != tm || plan.tn != tn || plan.tk != tk)) {
        printf("tiled tune: tiles %ux%ux%u with %u-byte guard zones do not fit the %lu bytes of free TCDM\n",
               tm, tn, tk, (unsigned)tune_guard, (unsigned long)l1_free_bytes());
        return 1;
    }
    const matmul_fn_t ran =
        tuned && tuned->choice.tm == plan.tm && tuned->choice.tn == plan.tn && tuned->choice.tk == plan.tk
            ? tuned->choice.kernel
            : 0;
    unsigned used = MATMUL_VARIANTS;
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v)
        if (matmul_variants[v].fn == ran) used = v;
    const int unrolled_k = used < MATMUL_VARIANTS && matmul_variants[used].unroll_k != 1;
    const float tolerance = (1.5f * (float)k + 2.0f) * 0x1p-24f;
    for (unsigned i = 0; i < m; ++i)
        for (unsigned j = 0; j < n; ++j) {
            float acc = 0.0f, mag = 0.0f;
            for (unsigned kk = 0; kk < k; ++kk)
                acc += a_at(a, i, kk, m, k, a_trans) * b_at(b, kk, j, n, k, b_trans);
            for (unsigned kk = 0; kk < k; ++kk)
                mag += fabsf(a_at(a, i, kk, m, k, a_trans)) * fabsf(b_at(b, kk, j, n, k, b_trans));
            const float got = c[i * n + j];
            if (unrolled_k ? !(fabsf(got - acc) <= tolerance * mag) : float_bits(got) != float_bits(acc)) {
                printf("tiled tune: %s with tiles %ux%ux%u: mismatch at [%u][%u]: %08lx, expected %08lx\n",
                       used < MATMUL_VARIANTS ? matmul_variants[used].name : "matmul_l1", plan.tm, plan.tn,
                       plan.tk, i, j, (unsigned long)float_bits(got), (unsigned long)float_bits(acc));
                return 1;
            }
        }
    printf("tiled tune %ux%ux%u tiles %ux%ux%u %s on %u cores: OK\n", m, n, k, plan.tm, plan.tn, plan.tk,
           used < MATMUL_VARIANTS ? matmul_variants[used].name : "matmul_l1", num_cores());
    return 0;
}
