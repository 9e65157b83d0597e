/* What the tiled-layer programs share: seeded inputs for the unchecked sweeps, the plain-loop and PyTorch
 * checks of the PointWise steps (kernel_check.h), and the plan line. */
#ifndef TILED_COMMON_H
#define TILED_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dma.h"
#include "kernel_check.h"
#include "tiled_matmul.h"
#include "train_layers.h"

/* Inputs of stream `seed` in (-1, 1) with full mantissas (kernel_check.h). */
static inline void fill_random(float* x, unsigned n, uint32_t seed) {
    uint32_t state = seed * 2654435761u + 12345u;
    fill_random_floats(x, n, &state, 1.0f);
}

/* The plain loop a tiled step must match bit for bit: c[i][j] = the sum over ascending kk of
 * a[i * a_row + kk * a_col] * b[kk * b_row + j * b_col] in one accumulator from 0 (the element strides
 * express transposed operands). */
static inline void reference_matmul(float* c, const float* a, unsigned a_row, unsigned a_col, const float* b,
                                    unsigned b_row, unsigned b_col, unsigned m, unsigned n, unsigned k) {
    for (unsigned i = 0; i < m; ++i)
        for (unsigned j = 0; j < n; ++j) {
            float acc = 0.0f;
            for (unsigned kk = 0; kk < k; ++kk)
                acc += a[i * a_row + kk * a_col] * b[kk * b_row + j * b_col];
            c[i * n + j] = acc;
        }
}

/* A step's result against the plain loop, bit for bit. A build with tuned choices
 * (kernels/lib/tiled_matmul.h) may run a K-unrolled kernel, which sums in another order: there the step is
 * left to the PyTorch check. */
static inline int plain_loop_mismatch(const char* what, const float* got, const float* expected, unsigned n) {
#ifdef PULPSIM_TUNED_CHOICES
    (void)what, (void)got, (void)expected, (void)n;
    return -1;
#else
    return first_mismatch(what, got, expected, n);
#endif
}

/* Checks the three PointWise steps against plain loops, using `scratch` (the largest of the three outputs)
 * for the references; 1 on a mismatch, which it prints. */
static inline int check_pointwise(const pointwise_t* l, float* scratch) {
    const unsigned ci = l->cin, co = l->cout, hw = l->hw;
    int bad = 0;
    reference_matmul(scratch, l->w, ci, 1, l->in, hw, 1, co, hw, ci); /* W in */
    bad |= plain_loop_mismatch("pw_fw out", l->out, scratch, co * hw) >= 0;
    reference_matmul(scratch, l->d_out, hw, 1, l->in, 1, hw, co, ci, hw); /* dOut in^T */
    bad |= plain_loop_mismatch("pw_wg d_w", l->d_w, scratch, co * ci) >= 0;
    reference_matmul(scratch, l->w, 1, ci, l->d_out, hw, 1, ci, hw, co); /* W^T dOut */
    bad |= plain_loop_mismatch("pw_ig d_in", l->d_in, scratch, ci * hw) >= 0;
    return bad;
}

/* Checks the three PointWise outputs within their tolerances of PyTorch's (golden_data.h); 1 if one is
 * outside, which it prints. */
static inline int golden_pointwise(const pointwise_t* l, const golden_t* fw, const golden_t* wg,
                                   const golden_t* ig) {
    int bad = golden_check(fw, l->out);
    bad |= golden_check(wg, l->d_w);
    bad |= golden_check(ig, l->d_in);
    return bad;
}

/* Runs `step_call` (a tiled step returning its tiled_plan_t) in perf region `region` declaring `macs`. */
#define TIMED_STEP(region, macs, step_call)                                                                  \
    ({                                                                                                       \
        region_begin(region, macs);                                                                          \
        const tiled_plan_t plan_ = (step_call);                                                              \
        region_end();                                                                                        \
        plan_;                                                                                               \
    })

static inline void print_plan(const char* region, const tiled_plan_t* p) {
    printf("  %s: tiles %ux%ux%u (M x N x K), %u x %u x %u = %u steps, %lu B per buffer set of %lu B free\n",
           region, p->tm, p->tn, p->tk, p->m_tiles, p->n_tiles, p->k_tiles, p->steps,
           (unsigned long)p->set_bytes, (unsigned long)l1_free_bytes());
}

#endif
