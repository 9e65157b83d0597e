/*
 * Runs every kernel of the FP32 matmul family (kernels/lib/matmul_fp32.h) on C[M][N] = A[M][K] x B[K][N]
 * with the whole team, one perf region per kernel (named after it, declaring M*N*K MACs), and checks each
 * result against the plain loop: bit-exact, or for the K-unrolled kernels within (1.5 K + 2) * 2^-24 of
 * S = sum_k |A(i,k) B(k,j)| (the plain loop is within K * 2^-24 * S of the exact sum, the split one within
 * (K/2 + 1) * 2^-24 * S; see matmul_fp32.h), a bound that holds for every K.
 *
 * The shape is not compiled in: the host writes it into compare_m, compare_n and compare_k before the run
 * (`pulpsim compare`), so one ELF serves every layer step. A, B and C lie back to back at the start of the
 * free TCDM (l1_free_start()), 4 * (M*K + K*N + M*N) bytes; pulpsim checks the same bound before running.
 * Exit 1 if a dimension is 0, the matrices do not fit or a kernel is wrong (the reason on stdout).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "dma.h"
#include "kernel_check.h"
#include "matmul_fp32.h"
#include "runtime.h"

/* Volatile so that the compiler reads what the host wrote, not these defaults. */
volatile uint32_t compare_m = 32;
volatile uint32_t compare_n = 32;
volatile uint32_t compare_k = 32;

TCDM_BSS static matmul_args_t args;

/* The reference and its error scale stay in L2 while they fit there; bigger outputs are recomputed per
 * element when checked, which is slower but needs no memory. */
#define REFERENCE_CAPACITY 16384u
static float ref[REFERENCE_CAPACITY];
static float mag[REFERENCE_CAPACITY];

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

/* The plain loop: one accumulator in ascending k, as the bit-exact kernels compute each output. */
static float reference_at(unsigned i, unsigned j) {
    float acc = 0.0f;
    for (unsigned k = 0; k < args.k; ++k)
        acc += args.a[i * args.k + k] * args.b[k * args.n + j];
    return acc;
}

/* Separate from reference_at, so that the reference's fmadd cannot share a rounded product with this sum. */
static float magnitude_at(unsigned i, unsigned j) {
    float s = 0.0f;
    for (unsigned k = 0; k < args.k; ++k)
        s += fabsf(args.a[i * args.k + k]) * fabsf(args.b[k * args.n + j]);
    return s;
}

static void run_variant(void* arg) {
    ((const matmul_variant_t*)arg)->fn(&args);
}

int main(void) {
    const uint32_t m = compare_m, n = compare_n, k = compare_k;
    if (m == 0 || n == 0 || k == 0) {
        printf("matmul compare: every dimension must be at least 1 (got %lux%lux%lu)\n", (unsigned long)m,
               (unsigned long)n, (unsigned long)k);
        return 1;
    }
    const uint64_t floats = (uint64_t)m * k + (uint64_t)k * n + (uint64_t)m * n;
    if (floats * sizeof(float) > l1_free_bytes()) {
        printf("matmul compare: %lux%lux%lu needs %lu bytes of TCDM, %lu are free\n", (unsigned long)m,
               (unsigned long)n, (unsigned long)k, (unsigned long)(floats * sizeof(float)),
               (unsigned long)l1_free_bytes());
        return 1;
    }
    float* a = (float*)l1_free_start();
    float* b = a + m * k;
    float* c = b + k * n;
    for (unsigned i = 0; i < m * k; ++i)
        a[i] = next_float();
    for (unsigned i = 0; i < k * n; ++i)
        b[i] = next_float();
    args = (matmul_args_t){.a = a, .b = b, .c = c, .m = m, .n = n, .k = k};

    const unsigned outputs = m * n;
    const int tabulated = outputs <= REFERENCE_CAPACITY;
    if (tabulated) {
        for (unsigned i = 0; i < m; ++i)
            for (unsigned j = 0; j < n; ++j)
                ref[i * n + j] = reference_at(i, j);
        for (unsigned i = 0; i < m; ++i)
            for (unsigned j = 0; j < n; ++j)
                mag[i * n + j] = magnitude_at(i, j);
    }

    const float unrolled_tolerance = (1.5f * (float)k + 2.0f) * 0x1p-24f;
    int failed = 0;
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v) {
        const matmul_variant_t* var = &matmul_variants[v];
        memset(c, 0, outputs * sizeof(float));
        region_begin(var->name, m * n * k);
        team_fork(num_cores(), run_variant, (void*)var);
        region_end();
        for (unsigned idx = 0; idx < outputs; ++idx) {
            const unsigned i = idx / n, j = idx % n;
            const float expected = tabulated ? ref[idx] : reference_at(i, j);
            const int ok = var->unroll_k == 1
                               ? float_bits(c[idx]) == float_bits(expected)
                               : fabsf(c[idx] - expected) <=
                                     unrolled_tolerance * (tabulated ? mag[idx] : magnitude_at(i, j));
            if (!ok) {
                printf("%s mismatch at [%u][%u]: %08lx, expected %08lx\n", var->name, i, j,
                       (unsigned long)float_bits(c[idx]), (unsigned long)float_bits(expected));
                failed = 1;
                break;
            }
        }
    }
    printf("matmul compare %lux%lux%lu on %u cores: %s\n", (unsigned long)m, (unsigned long)n,
           (unsigned long)k, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
