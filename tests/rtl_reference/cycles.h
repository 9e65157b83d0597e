/*
 * What the kernel programs of this folder share: one core (the kernels' team is this core alone), no host
 * calls, and results[64]: word i < 32 holds the mcycle difference across kernel call i, word 32 + i a hash of
 * what that call wrote. The test bench compares all 64 words with the signature the CV32E40P RTL produced.
 */
#ifndef PULPSIM_RTL_REFERENCE_CYCLES_H
#define PULPSIM_RTL_REFERENCE_CYCLES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

unsigned num_cores(void) {
    return 1;
}
void barrier(void) {}
/* The kernels print only on a bad shape, and then exit: the exit register gets (status << 1) | 1. */
int printf(const char* format, ...) {
    (void)format;
    return 0;
}
void exit(int status) {
    *(volatile uint32_t*)0x20000004 = ((uint32_t)status << 1) | 1;
    for (;;) {
    }
}

volatile uint32_t results[64];

static inline uint32_t mcycle(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static uint32_t hash_floats(const float* a, unsigned n) {
    uint32_t h = 0;
    for (unsigned i = 0; i < n; ++i) {
        union {
            float f;
            uint32_t u;
        } bits = {a[i]};
        h = h * 31 + bits.u;
    }
    return h;
}

/* Runs `call` as result i; `written` is the hash of what it wrote. */
#define MEASURE(i, call, written)                                                                            \
    do {                                                                                                     \
        const uint32_t before = mcycle();                                                                    \
        call;                                                                                                \
        const uint32_t after = mcycle();                                                                     \
        results[i] = after - before;                                                                         \
        results[32 + (i)] = (written);                                                                       \
    } while (0)

#endif
