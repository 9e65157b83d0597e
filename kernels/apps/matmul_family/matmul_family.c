/*
 * Runs every kernel of the FP32 matmul family (kernels/lib/matmul_fp32.h) on A[MM_M][MM_K] x B[MM_K][MM_N]
 * in the TCDM with the whole team, one perf region per kernel (named after it), and checks each result
 * against the plain loop: bit-exact, or for the K-unrolled kernels within 1e-5 of sum_k |A(i,k) B(k,j)|.
 * Prints "<kernel> OK" or its first mismatch, then "matmul family MxNxK on C cores: OK" (exit 0) or FAIL.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "kernel_check.h"
#include "matmul_fp32.h"
#include "runtime.h"

#ifndef MM_M
#define MM_M 64
#endif
#ifndef MM_N
#define MM_N 64
#endif
#ifndef MM_K
#define MM_K 64
#endif

TCDM_BSS static float a[MM_M * MM_K];
TCDM_BSS static float b[MM_K * MM_N];
TCDM_BSS static float c[MM_M * MM_N];
TCDM_BSS static matmul_args_t args;

/* The reference and the error scale stay in L2: the TCDM holds only what the kernels touch. */
static float ref[MM_M * MM_N];
static float mag[MM_M * MM_N];

/* xorshift32: deterministic, and every float gets a random sign and a full random 23-bit mantissa in
 * [0.25, 1), so no product or sum is exact by accident. */
static uint32_t rng_state = 0x2545f491u;
static float next_float(void) {
    const uint32_t x = xorshift32(&rng_state);
    const uint32_t bits = (x & 0x80000000u) | ((125u + ((x >> 23) & 1u)) << 23) | (x & 0x007fffffu);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void run_variant(void* arg) {
    ((const matmul_variant_t*)arg)->fn(&args);
}

int main(void) {
    for (unsigned i = 0; i < MM_M * MM_K; ++i)
        a[i] = next_float();
    for (unsigned i = 0; i < MM_K * MM_N; ++i)
        b[i] = next_float();
    for (unsigned i = 0; i < MM_M; ++i)
        for (unsigned j = 0; j < MM_N; ++j) {
            float acc = 0.0f;
            for (unsigned k = 0; k < MM_K; ++k)
                acc += a[i * MM_K + k] * b[k * MM_N + j];
            ref[i * MM_N + j] = acc;
        }
    /* Separate loop, so that the reference's fmadd cannot share a rounded product with this sum. */
    for (unsigned i = 0; i < MM_M; ++i)
        for (unsigned j = 0; j < MM_N; ++j) {
            float s = 0.0f;
            for (unsigned k = 0; k < MM_K; ++k)
                s += fabsf(a[i * MM_K + k]) * fabsf(b[k * MM_N + j]);
            mag[i * MM_N + j] = s;
        }
    args = (matmul_args_t){.a = a, .b = b, .c = c, .m = MM_M, .n = MM_N, .k = MM_K};

    int failed = 0;
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v) {
        const matmul_variant_t* var = &matmul_variants[v];
        memset(c, 0, sizeof c);
        region_begin(var->name, MM_M * MM_N * MM_K);
        team_fork(num_cores(), run_variant, (void*)var);
        region_end();
        int bad = -1;
        for (unsigned i = 0; i < MM_M * MM_N && bad < 0; ++i) {
            const int ok = var->unroll_k == 1 ? float_bits(c[i]) == float_bits(ref[i])
                                              : fabsf(c[i] - ref[i]) <= 1e-5f * mag[i];
            if (!ok) bad = (int)i;
        }
        if (bad < 0) {
            printf("%s OK\n", var->name);
        } else {
            printf("%s mismatch at [%d][%d]: %08lx, expected %08lx\n", var->name, bad / MM_N, bad % MM_N,
                   (unsigned long)float_bits(c[bad]), (unsigned long)float_bits(ref[bad]));
            failed = 1;
        }
    }
    printf("matmul family %dx%dx%d on %u cores: %s\n", MM_M, MM_N, MM_K, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
