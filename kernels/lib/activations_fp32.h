/*
 * FP32 tanh in three variants (in place on a vector in the TCDM):
 *
 *   tanh_libm_vec(v, n)       picolibc's tanhf on one core (accurate to about 1 ulp)
 *   tanh_fast_vec(v, n)       tanh_fast() on one core
 *   tanh_fast_parallel(args)  tanh_fast() by every core of a team on its split_range share of the vector
 *
 *   tanh_args_t t = {.v = buf, .n = n};
 *   team_fork(num_cores(), tanh_fast_parallel_fn, &t);
 *
 * tanh_fast(x) is the "fasttanh" of P. Mineiro's fastapprox (the approximation of the RNN-on-PULP thesis):
 *
 *   tanh(x) = 2 / (1 + e^(-2x)) - 1,   e^y = 2^(y log2 e),
 *   2^p     ~ bits-as-float( 2^23 (p + 121.2740575 + 27.7280233 / (4.84252568 - z) - 1.49012907 z) ),
 *             z = p - trunc(p) (+1 for p < 0),
 *
 * the fraction of 2^p from a rational fit, written straight into the exponent and mantissa bits. The input is
 * first clamped to [-9, 9] (tanh(9) rounds to 1 within 3e-8), so the integer conversion cannot overflow.
 * Maximum absolute error against tanhf: 2.9e-5 on a 2^-12 grid over [-10, 10] (at x = -0.058; measured by
 * kernels/apps/rnn), 3.1e-5 over every float of that range (the golden models allow 3.5e-5). Cost on
 * pulp-open: 25 instructions and 2 fdiv.s (19 cycles each), ~65 cycles a call, against ~460 for tanhf (132
 * instructions, its constants loaded from L2).
 */
#ifndef PULPSIM_ACTIVATIONS_FP32_H
#define PULPSIM_ACTIVATIONS_FP32_H

#include <stdint.h>
#include <string.h>

static inline float tanh_fast(float x) {
    x = __builtin_fminf(__builtin_fmaxf(x, -9.0f), 9.0f);
    const float p = -2.8853900817779268f * x; /* -2x log2(e) */
    const float offset = p < 0.0f ? 1.0f : 0.0f;
    const float z = p - (float)(int32_t)p + offset;
    const uint32_t bits = (uint32_t)((float)(1u << 23) *
                                     (p + 121.2740575f + 27.7280233f / (4.84252568f - z) - 1.49012907f * z));
    float e;
    memcpy(&e, &bits, sizeof e);
    return 2.0f / (1.0f + e) - 1.0f;
}

typedef struct {
    float* v;
    unsigned n;
} tanh_args_t;

void tanh_libm_vec(float* v, unsigned n);
void tanh_fast_vec(float* v, unsigned n);
/* Every core of the team (inside team_fork) takes its share; no barrier. */
void tanh_fast_parallel(const tanh_args_t* args);
/* team_fork entry point: arg is a tanh_args_t*. */
void tanh_fast_parallel_fn(void* arg);

#endif
