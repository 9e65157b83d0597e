/* What the tiled-layer programs share: seeded inputs and the plan line (checks: kernel_check.h). */
#ifndef TILED_COMMON_H
#define TILED_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dma.h"
#include "kernel_check.h"
#include "tiled_matmul.h"

/* Inputs of stream `seed` in (-1, 1) with full mantissas (kernel_check.h). */
static inline void fill_random(float* x, unsigned n, uint32_t seed) {
    uint32_t state = seed * 2654435761u + 12345u;
    fill_random_floats(x, n, &state, 1.0f);
}

static inline void print_plan(const char* region, const tiled_plan_t* p) {
    printf("  %s: tiles %ux%ux%u (M x N x K), %u x %u x %u = %u steps, %lu B per buffer set of %lu B free\n",
           region, p->tm, p->tn, p->tk, p->m_tiles, p->n_tiles, p->k_tiles, p->steps,
           (unsigned long)p->set_bytes, (unsigned long)l1_free_bytes());
}

#endif
