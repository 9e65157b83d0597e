/*
 * Kernels against guard zones (runtime.h): every tensor sits between two guarded gaps, so a kernel that
 * loads or stores one element outside its tensors stops the run with the simulator's error.
 *
 *   default      the 24 FP32 matmul kernels, the three FP16 vector-matrix kernels, the FP16 matmul, the
 *                Conv2D (stride 2, padding 1) and DepthWise FW / WG / IG steps, the element-wise training
 *                steps and the RNN forward and backward, on shapes with leftovers for every unroll and core
 *                count, must stay inside their tensors: prints "bounds checks on N cores: OK"
 *   OVERREAD     mm told K + 1 for tensors of K: must stop on the first load past the end of A or B
 *   OVERWRITE    mm given C one element too far on: must stop on the store past the end of C
 *   ZERO_MATMUL  mm with K = 0, ZERO_VM vm_T_SIMD with M = 0, ZERO_RNN rnn_fw with H = 0: each must print
 *                "error: <kernel>: zero dimension" and exit 1
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "conv2d_fp32.h"
#include "depthwise_fp32.h"
#include "matmul_fp16.h"
#include "matmul_fp32.h"
#include "rnn_fp32.h"
#include "runtime.h"
#include "train_ops_fp32.h"
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
/* The layer steps' tensors, carved from a pool with a guarded gap after each (tensor()). */
#define POOL_FLOATS 6000
TCDM_BSS static float pool[POOL_FLOATS];
static unsigned pool_used;

/* n floats of the pool, followed by a guard zone named after `name`. */
static float* tensor(unsigned n, const char* name) {
    if (pool_used + n + GAP > POOL_FLOATS) {
        printf("error: bounds_checks: pool too small\n");
        exit(1);
    }
    float* t = pool + pool_used;
    pool_used += n + GAP;
    for (unsigned i = 0; i < n; ++i)
        t[i] = (float)((i * 7u) % 11u) * 0.125f - 0.625f;
    char what[48];
    snprintf(what, sizeof what, "after %s", name);
    guard_zone(t + n, GAP * sizeof(float), what);
    return t;
}

/* Conv2D 3x9x7 -> 5, 3x3 kernel, stride 2, padding 1; DepthWise 3x3 on 5x9x7; element-wise steps on 37;
 * RNN 7 steps, 13 inputs, 11 hidden units. */
#define C_IN 3
#define C_OUT 5
#define IH 9
#define IW 7
#define OH 5
#define OW 4
#define KK (C_IN * 9)
TCDM_BSS static conv2d_args_t cargs;
TCDM_BSS static dw3x3_args_t dargs;
TCDM_BSS static act_args_t aargs;
TCDM_BSS static loss_args_t largs;
TCDM_BSS static sgd_args_t sargs;
TCDM_BSS static rnn_args_t rargs;

__attribute__((unused)) static void run_layer_steps(void) {
    pool_used = 0;
    guard_zone(pool, GAP * sizeof(float), "before the first layer tensor");
    pool_used = GAP;
    cargs = (conv2d_args_t){.c_in = C_IN,
                            .h = IH,
                            .w = IW,
                            .c_out = C_OUT,
                            .kh = 3,
                            .kw = 3,
                            .stride = 2,
                            .pad = 1,
                            .h_out = OH,
                            .w_out = OW};
    cargs.x = tensor(C_IN * IH * IW, "conv x");
    cargs.weight = tensor(C_OUT * KK, "conv weight");
    cargs.y = tensor(C_OUT * OH * OW, "conv y");
    cargs.dy = tensor(C_OUT * OH * OW, "conv dy");
    cargs.dw = tensor(C_OUT * KK, "conv dw");
    cargs.dx = tensor(C_IN * IH * IW, "conv dx");
    cargs.col = tensor(KK * OH * OW, "conv col");
    cargs.weight_t = tensor(KK * C_OUT, "conv weight_t");
    team_fork(num_cores(), conv2d_fw_fn, &cargs);
    team_fork(num_cores(), conv2d_wg_fn, &cargs);
    team_fork(num_cores(), conv2d_ig_fn, &cargs);

    const unsigned plane = IH * IW, dc = 5;
    dargs = (dw3x3_args_t){.c = dc, .h = IH, .w = IW};
    dargs.x = tensor(dc * plane, "dw x");
    dargs.weight = tensor(9 * dc, "dw weight");
    dargs.y = tensor(dc * plane, "dw y");
    dargs.dy = tensor(dc * plane, "dw dy");
    dargs.dw = tensor(9 * dc, "dw dw");
    dargs.dx = tensor(dc * plane, "dw dx");
    team_fork(num_cores(), dw3x3_fw_fn, &dargs);
    team_fork(num_cores(), dw3x3_wg_fn, &dargs);
    team_fork(num_cores(), dw3x3_ig_fn, &dargs);

    const unsigned n = 37;
    aargs = (act_args_t){.n = n, .alpha = 0.01f};
    aargs.x = tensor(n, "act x");
    aargs.y = tensor(n, "act y");
    aargs.dy = tensor(n, "act dy");
    aargs.dx = tensor(n, "act dx");
    void (*acts[])(void*) = {relu_fw_fn,    relu_bw_fn,    leaky_relu_fw_fn, leaky_relu_bw_fn,
                             sigmoid_fw_fn, sigmoid_bw_fn, softmax_fw_fn,    softmax_bw_fn};
    for (unsigned a = 0; a < sizeof acts / sizeof acts[0]; ++a)
        team_fork(num_cores(), acts[a], &aargs);
    largs = (loss_args_t){.n = n,
                          .x = aargs.x,
                          .target = aargs.dy,
                          .label = 5,
                          .y = aargs.y,
                          .grad = aargs.dx,
                          .loss = tensor(1, "loss")};
    team_fork(num_cores(), mse_loss_fn, &largs);
    team_fork(num_cores(), ce_softmax_loss_fn, &largs);
    sargs = (sgd_args_t){.n = n, .w = tensor(n, "sgd w"), .dw = aargs.dx, .lr = 0.05f};
    team_fork(num_cores(), sgd_update_fn, &sargs);

    const unsigned T = 7, X = 13, H = 11;
    rargs = (rnn_args_t){.t = T, .x_size = X, .h_size = H, .act = RNN_TANH_FAST};
    rargs.x = tensor(T * X, "rnn x");
    rargs.wx = tensor(H * X, "rnn wx");
    rargs.wh = tensor(H * H, "rnn wh");
    rargs.b = tensor(H, "rnn b");
    rargs.h = tensor((T + 1) * H, "rnn h");
    rargs.dh = tensor(H, "rnn dh");
    rargs.g = tensor(T * H, "rnn g");
    rargs.dx = tensor(T * X, "rnn dx");
    rargs.dwx = tensor(H * X, "rnn dwx");
    rargs.dwh = tensor(H * H, "rnn dwh");
    rargs.db = tensor(H, "rnn db");
    team_fork(num_cores(), rnn_fw_fn, &rargs);
    team_fork(num_cores(), rnn_bw_fn, &rargs);
}

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
    run_layer_steps();
    /* A guard that is cleared no longer stops anything. */
    guard_zone_clear(t.gap3, sizeof t.gap3);
    t.gap3[0] = 1.0f;
#endif
    printf("bounds checks on %u cores: OK\n", num_cores());
    return 0;
}
