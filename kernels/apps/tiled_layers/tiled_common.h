/* What the tiled-layer programs share: deterministic inputs, the bit-exact check and the plan line. */
#ifndef TILED_COMMON_H
#define TILED_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dma.h"
#include "tiled_matmul.h"

/* Floats in [-1, 1) with 24 significant bits, from an LCG: full mantissas make every sum round, so a
 * different order of the k terms changes the result and the bit-exact check notices it. */
static inline void fill_random(float* x, unsigned n, uint32_t seed) {
    uint32_t s = seed * 2654435761u + 12345u;
    for (unsigned i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        x[i] = (float)((int32_t)(s >> 8) - 0x800000) * (1.0f / 8388608.0f);
    }
}

/* Index of the first element whose bits differ, or -1; prints it. */
static inline int first_mismatch(const char* what, const float* got, const float* expected, unsigned n) {
    for (unsigned i = 0; i < n; ++i) {
        uint32_t g, e;
        memcpy(&g, &got[i], 4);
        memcpy(&e, &expected[i], 4);
        if (g != e) {
            printf("%s: mismatch at [%u]: got %.9g (0x%08lx), expected %.9g (0x%08lx)\n", what, i,
                   (double)got[i], (unsigned long)g, (double)expected[i], (unsigned long)e);
            return (int)i;
        }
    }
    return -1;
}

static inline void print_plan(const char* region, const tiled_plan_t* p) {
    printf("  %s: tiles %ux%ux%u (M x N x K), %u x %u x %u = %u steps, %lu B per buffer set of %lu B free\n",
           region, p->tm, p->tn, p->tk, p->m_tiles, p->n_tiles, p->k_tiles, p->steps,
           (unsigned long)p->set_bytes, (unsigned long)l1_free_bytes());
}

#endif
