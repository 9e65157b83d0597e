/*
 * Kernels against guard zones (runtime.h): every tensor sits between two guarded gaps, so a kernel that
 * loads or stores one element outside its tensors stops the run with the simulator's error.
 *
 *   default      the 24 FP32 matmul kernels, the three FP16 vector-matrix kernels and the FP16 matmul on
 *                shapes with leftovers for every unroll and core count must stay inside their tensors:
 *                prints "bounds checks on N cores: OK"
 *   OVERREAD     mm told K + 1 for tensors of K: must stop on the first load past the end of A or B
 *   OVERWRITE    mm given C one element too far on: must stop on the store past the end of C
 *   ZERO_MATMUL  mm with K = 0, ZERO_VM vm_T_SIMD with M = 0, ZERO_RNN rnn_fw with H = 0: each must print
 *                "error: <kernel>: zero dimension" and exit 1
 */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "matmul_fp16.h"
#include "matmul_fp32.h"
#include "rnn_fp32.h"
#include "runtime.h"
#include "vm_fp16.h"

#define M 19
#define N 13
#define K 11
#define GAP 8 /* words of guard around every tensor */

/* One block so the gaps are where the guards say: gap, tensor, gap, tensor, ... */
TCDM_BSS static struct {
    float gap0[GAP];
    float a[M * K];
    float gap1[GAP];
    float b[K * N];
    float gap2[GAP];
    float c[M * N];
    float gap3[GAP];
    _Float16 ha[M * K + 1]; /* +1: an odd-sized half tensor still ends on a word */
    float gap4[GAP];
    _Float16 hb[K * N + 1];
    float gap5[GAP];
    _Float16 hc[M * N + 1];
    float gap6[GAP];
} t;
TCDM_BSS static matmul_args_t margs;
TCDM_BSS static vm_fp16_args_t vargs;
TCDM_BSS static matmul_fp16_args_t hargs;

static void guard_all(void) {
    guard_zone(t.gap0, sizeof t.gap0, "before A");
    guard_zone(t.gap1, sizeof t.gap1, "after A");
    guard_zone(t.gap2, sizeof t.gap2, "after B");
    guard_zone(t.gap3, sizeof t.gap3, "after C");
    /* The half tensors' padding element is outside the tensor too. */
    guard_zone(&t.ha[M * K], sizeof t.gap4 + 2, "after the FP16 A");
    guard_zone(&t.hb[K * N], sizeof t.gap5 + 2, "after the FP16 B");
    guard_zone(&t.hc[M * N], sizeof t.gap6 + 2, "after the FP16 C");
}

__attribute__((unused)) static void run_variant(void* arg) {
    ((const matmul_variant_t*)arg)->fn(&margs);
}
__attribute__((unused)) static void run_vm(void* arg) {
    ((void (*)(const vm_fp16_args_t*))arg)(&vargs);
}
__attribute__((unused)) static void run_matmul_fp16(void* arg) {
    (void)arg;
    matmul_fp16(&hargs);
}
__attribute__((unused)) static void run_mm(void* arg) {
    (void)arg;
    mm(&margs);
}

int main(void) {
    for (unsigned i = 0; i < M * K; ++i)
        t.a[i] = (float)(i % 7) - 3.0f, t.ha[i] = (_Float16)((int)(i % 5) - 2);
    for (unsigned i = 0; i < K * N; ++i)
        t.b[i] = (float)(i % 5) - 2.0f, t.hb[i] = (_Float16)((int)(i % 3) - 1);
    guard_all();
    margs = (matmul_args_t){.a = t.a, .b = t.b, .c = t.c, .m = M, .n = N, .k = K};

#if defined(OVERREAD)
    margs.k = K + 1;
    team_fork(num_cores(), run_mm, NULL);
#elif defined(OVERWRITE)
    margs.c = t.c + 1;
    team_fork(num_cores(), run_mm, NULL);
#elif defined(ZERO_MATMUL)
    margs.k = 0;
    team_fork(num_cores(), run_mm, NULL);
#elif defined(ZERO_VM)
    vargs = (vm_fp16_args_t){.a = t.ha, .b = t.hb, .c = t.hc, .m = 0, .k = K};
    team_fork(num_cores(), run_vm, (void*)vm_T_SIMD);
#elif defined(ZERO_RNN)
    static rnn_args_t rargs;
    rargs = (rnn_args_t){.t = 3, .x_size = 2, .h_size = 0};
    team_fork(num_cores(), rnn_fw_fn, &rargs);
#else
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v)
        team_fork(num_cores(), run_variant, (void*)&matmul_variants[v]);
    /* vm: dIn[N] = dOut[K] x W[K][N] (vm_T_SIMD reads W^T as [N][K]: the same number of elements) */
    void (*vms[])(const vm_fp16_args_t*) = {vm_naive, vm_SIMD_naive, vm_T_SIMD};
    vargs = (vm_fp16_args_t){.a = t.ha, .b = t.hb, .c = t.hc, .m = N, .k = K};
    for (unsigned v = 0; v < 3; ++v)
        team_fork(num_cores(), run_vm, (void*)vms[v]);
    /* C[M][N] = A[M][K] x B^T, B^T as [N][K] */
    hargs = (matmul_fp16_args_t){.a = t.ha, .bt = t.hb, .c = t.hc, .m = M, .n = N, .k = K};
    team_fork(num_cores(), run_matmul_fp16, NULL);
    /* A guard that is cleared no longer stops anything. */
    guard_zone_clear(t.gap3, sizeof t.gap3);
    t.gap3[0] = 1.0f;
#endif
    printf("bounds checks on %u cores: OK\n", num_cores());
    return 0;
}
