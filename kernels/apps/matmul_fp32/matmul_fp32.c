/*
 * FP32 matrix multiply C = A x B (M x K times K x N, row major) on one core, checked against a
 * result computed on the host at build time (gen_data.py).
 *
 * Built twice: plain C (clang -O3 compiles the i-j-k loops) and, with MATMUL_HWLOOP, with the k loop
 * in a CORE-V hardware loop. Both accumulate in k order with fused multiply-adds, so on a correct
 * target they match the host result bit for bit; the pass criterion is a tolerance,
 *     |c - expected| <= 1e-5 * max(|expected|, 1),
 * so that a build without FMA contraction (one more rounding per step) passes too.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "matmul_fp32_data.h"
#include "runtime.h"

#ifdef MATMUL_HWLOOP
#include "hwloop.h"
#define KERNEL_NAME "matmul_fp32_hwloop"
#else
#define KERNEL_NAME "matmul_fp32"
#endif

#define REL_TOL 1e-5f

void matmul(const float* a, const float* b, float* c, int m, int n, int k);

static float matmul_c[MATMUL_M * MATMUL_N];

#ifndef MATMUL_HWLOOP
/* External and noinline so the dimensions stay run-time values, as in a library kernel (a static
 * function called once would be specialised for 32x32x32 and fully unrolled). */
__attribute__((noinline)) void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int kk = 0; kk < k; kk++)            // inner loop begins (tests/cli/profile_test.py)
                acc += a[i * k + kk] * b[kk * n + j]; // inner loop ends
            c[i * n + j] = acc;
        }
    }
}
#else
/* Inner product of row a (stride 1) and column b (stride n floats) in hardware loop 0. Both loads
 * come before their use so the load-use stall is avoided. k must be >= 1. */
static inline float dot_hwloop(const float* a, const float* b, int k, int n) {
    float acc = 0.0f;
    float x, y;
    if (k <= 0) return acc;
    int stride = n * (int)sizeof(float);
    /* clang-format off */
    __asm__ volatile(HWLOOP_BEGIN(0, "%[k]", 1)
                     "flw     %[x], 0(%[pa])\n\t"
                     "flw     %[y], 0(%[pb])\n\t"
                     "addi    %[pa], %[pa], 4\n\t"
                     "add     %[pb], %[pb], %[stride]\n\t"
                     "fmadd.s %[acc], %[x], %[y], %[acc]\n\t"
                     HWLOOP_END(1)
                     : [acc] "+f"(acc), [pa] "+r"(a), [pb] "+r"(b), [x] "=&f"(x), [y] "=&f"(y)
                     : [k] "r"(k), [stride] "r"(stride)
                     : "memory");
    /* clang-format on */
    return acc;
}

__attribute__((noinline)) void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c[i * n + j] = dot_hwloop(&a[i * k], &b[j], k, n);
}
#endif

static uint32_t float_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int main(void) {
    region_begin("matmul", MATMUL_M * MATMUL_N * MATMUL_K);
    matmul(matmul_a, matmul_b, matmul_c, MATMUL_M, MATMUL_N, MATMUL_K);
    region_end();

    int mismatches = 0;
    int exact = 0;
    float max_err = 0.0f;
    for (int i = 0; i < MATMUL_M * MATMUL_N; i++) {
        float expected = matmul_expected[i];
        float err = fabsf(matmul_c[i] - expected) / fmaxf(fabsf(expected), 1.0f);
        if (!(err <= REL_TOL)) { /* also catches NaN */
            if (mismatches < 4)
                printf("  mismatch at [%d][%d]: got 0x%08lx expected 0x%08lx\n", i / MATMUL_N, i % MATMUL_N,
                       (unsigned long)float_bits(matmul_c[i]), (unsigned long)float_bits(expected));
            mismatches++;
        }
        if (float_bits(matmul_c[i]) == float_bits(expected)) exact++;
        if (err > max_err) max_err = err;
    }

    /* Integers only in the summary: max error in units of 1e-9. */
    printf("%s %dx%dx%d: %s, %d/%d bit-exact, max rel err %lu e-9\n", KERNEL_NAME, MATMUL_M, MATMUL_N,
           MATMUL_K, mismatches ? "FAIL" : "OK", exact, MATMUL_M * MATMUL_N, (unsigned long)(max_err * 1e9f));
    return mismatches ? 1 : 0;
}
