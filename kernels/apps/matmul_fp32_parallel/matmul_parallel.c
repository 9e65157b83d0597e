/*
 * FP32 matmul C = A x B (64x64x64) on every core of the cluster, the naive kernel of PULP-TrainLib's
 * family split over the rows of C (SPLIT_ROWS) or over its columns (SPLIT_COLS). A, B and C live in the
 * TCDM; the result is checked against values computed on the host (gen_data.py in ../matmul_fp32) with
 * the tolerance |c - expected| <= 1e-5 * max(|expected|, 1). TEAM_SIZE=n limits the team to n cores (the
 * others stay asleep in the event unit); by default every core takes part.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "matmul_fp32_data.h"
#include "runtime.h"

#ifndef TEAM_SIZE
#define TEAM_SIZE 0
#endif

#define M MATMUL_M
#define N MATMUL_N
#define K MATMUL_K

TCDM_BSS static float a[M * K];
TCDM_BSS static float b[K * N];
TCDM_BSS static float c[M * N];

static void matmul_slice(void* unused) {
    (void)unused;
    const unsigned id = core_id(), cores = TEAM_SIZE ? TEAM_SIZE : num_cores();
    unsigned first, last;
#if defined(SPLIT_COLS)
    split_range(N, id, cores, &first, &last);
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = first; j < last; j++) {
#else
    split_range(M, id, cores, &first, &last);
    for (unsigned i = first; i < last; i++)
        for (unsigned j = 0; j < N; j++) {
#endif
            float acc = 0.0f;
            for (unsigned k = 0; k < K; k++) { // inner loop begins (tests/cli/profile_test.py)
                acc += a[i * K + k] * b[k * N + j];
#ifdef EXTRA_INNER_NOP // one more instruction per MAC: the regression gate's test of a slowed kernel
                __asm__ volatile("nop");
#endif
            } // inner loop ends
            c[i * N + j] = acc;
        }
}

int main(void) {
    memcpy(a, matmul_a, sizeof a);
    memcpy(b, matmul_b, sizeof b);

    region_begin("matmul", M * N * K);
    team_fork(TEAM_SIZE, matmul_slice, NULL);
    region_end();

    int mismatches = 0;
    for (int i = 0; i < M * N; i++) {
        const float expected = matmul_expected[i];
        const float err = fabsf(c[i] - expected) / fmaxf(fabsf(expected), 1.0f);
        if (!(err <= 1e-5f)) {
            if (mismatches < 4) printf("  mismatch at [%d][%d]\n", i / N, i % N);
            mismatches++;
        }
    }
    printf("matmul_fp32_parallel %dx%dx%d on %u cores: %s\n", M, N, K, TEAM_SIZE ? TEAM_SIZE : num_cores(),
           mismatches ? "FAIL" : "OK");
    return mismatches ? 1 : 0;
}
