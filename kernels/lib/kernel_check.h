/*
 * What the kernel programs share to check themselves: a deterministic input stream, the bit-exact
 * comparison of a result with its reference, and the comparison with a PyTorch golden output within the
 * tolerance stated for the step (kernels/golden/golden.py writes the golden_t records).
 */
#ifndef PULPSIM_KERNEL_CHECK_H
#define PULPSIM_KERNEL_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* xorshift32: the same stream on every host and core count; `state` must not be 0. */
static inline uint32_t xorshift32(uint32_t* state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* Uniform-ish in (-scale, scale) with a full random mantissa: sums round, so summing the terms in another
 * order changes the bits and a bit-exact check notices it. */
static inline float random_float(uint32_t* state, float scale) {
    return scale * ((float)(int32_t)xorshift32(state) * (1.0f / 2147483648.0f));
}

static inline void fill_random_floats(float* x, unsigned n, uint32_t* state, float scale) {
    for (unsigned i = 0; i < n; ++i)
        x[i] = random_float(state, scale);
}

static inline uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Index of the first element whose bits differ, or -1; prints it. */
static inline int first_mismatch(const char* what, const float* got, const float* expected, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
        if (float_bits(got[i]) != float_bits(expected[i])) {
            printf("%s: mismatch at [%u]: got %.9g (0x%08lx), expected %.9g (0x%08lx)\n", what, i,
                   (double)got[i], (unsigned long)float_bits(got[i]), (double)expected[i],
                   (unsigned long)float_bits(expected[i]));
            return (int)i;
        }
    return -1;
}

/* A step's expected output, computed by PyTorch, and how far a correct kernel may be from it. */
typedef struct {
    const char* name;
    const float* expected;
    unsigned n;
    float atol; /* |got - expected| <= atol + rtol |expected| */
    float rtol;
} golden_t;

/* 1 if `have`, element i of step g's output, is outside the tolerance (NaN always is): prints it. Else
 * raises *worst to its error and returns 0. */
static inline int golden_outside(const golden_t* g, unsigned i, float have, float* worst) {
    const float want = g->expected[i];
    const float error = have > want ? have - want : want - have;
    const float limit = g->atol + g->rtol * (want < 0.0f ? -want : want);
    if (!(error <= limit)) {
        printf("%s golden: mismatch at [%u]: got %.9g, PyTorch %.9g, |error| %.3g > tolerance %.3g "
               "(atol %.3g + rtol %.3g x |PyTorch|)\n",
               g->name, i, (double)have, (double)want, (double)error, (double)limit, (double)g->atol,
               (double)g->rtol);
        return 1;
    }
    if (error > *worst) *worst = error;
    return 0;
}

/* 0 if every element of `got` is within the step's tolerance; else prints the first one outside it and
 * returns 1. On success prints "<name> golden OK" with the largest error seen. */
static inline int golden_check(const golden_t* g, const float* got) {
    float worst = 0.0f;
    for (unsigned i = 0; i < g->n; ++i)
        if (golden_outside(g, i, got[i], &worst)) return 1;
    printf("%s golden OK (max |error| %.3g)\n", g->name, (double)worst);
    return 0;
}

/* golden_check() for FP16 outputs: each element is converted to float (exactly) and tested the same way. */
static inline int golden_check_f16(const golden_t* g, const _Float16* got) {
    float worst = 0.0f;
    for (unsigned i = 0; i < g->n; ++i)
        if (golden_outside(g, i, (float)got[i], &worst)) return 1;
    printf("%s golden OK (max |error| %.3g)\n", g->name, (double)worst);
    return 0;
}

#endif
