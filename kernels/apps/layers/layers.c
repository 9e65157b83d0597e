/*
 * Layer training steps of kernels/lib on TCDM data, run by the whole team on PyTorch's inputs, and checked
 * twice: bit for bit against single-core plain loops (kept in L2) that take their terms in the kernels'
 * order, and within the step's stated tolerance against PyTorch's output (golden_data.h, written at build
 * time by kernels/golden/suite_layers.py):
 *
 *   conv_fw conv_wg conv_ig  Conv2D CONV_CIN x CONV_H x CONV_W -> CONV_COUT, CONV_K x CONV_K kernel,
 *                            stride CONV_S, padding CONV_P (conv2d_fp32.h; im2col + matmul family)
 *   dw_fw dw_wg dw_ig        DepthWise 3x3, DW_C x DW_H x DW_W, stride 1, padding 1 (depthwise_fp32.h)
 *   relu_*, leaky_relu_*, sigmoid_*, softmax_*, mse, ce_softmax, sgd on ACT_N values (train_ops_fp32.h);
 *                            the loops with reductions follow the kernels' per-core split
 *
 * Each step is one region with its MACs (Conv2D: c_out K P each, DepthWise: 9 c h w each, softmax_bw / mse
 * / sgd: one per element, the other element-wise steps none). Prints "<step> OK" and "<step> golden OK"
 * or the first mismatch, then "layers <shapes> on N cores: OK" (exit 0) or FAIL (exit 1).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "conv2d_fp32.h"
#include "depthwise_fp32.h"
#include "depthwise_ref.h"
#include "golden_data.h"
#include "kernel_check.h"
#include "runtime.h"
#include "train_ops_fp32.h"

/* CONV_*, DW_*, ACT_N: set by CMake; golden_data.h checks that its data was made for them. */

#define HO ((CONV_H + 2 * CONV_P - CONV_K) / CONV_S + 1)
#define WO ((CONV_W + 2 * CONV_P - CONV_K) / CONV_S + 1)
#define KK (CONV_CIN * CONV_K * CONV_K)
#define NP (HO * WO)
#define X_SIZE (CONV_CIN * CONV_H * CONV_W)
#define W_SIZE (CONV_COUT * KK)
#define Y_SIZE (CONV_COUT * NP)
#define DW_SIZE (DW_C * DW_H * DW_W)

/* One TCDM pool, carved differently by each part (the even shape's Conv2D needs ~113 KiB of it). */
#define CONV_FLOATS (KK * NP + X_SIZE + 2 * W_SIZE + Y_SIZE + KK * CONV_COUT)
#define DW_FLOATS (4 * DW_SIZE + 18 * DW_C)
#define ACT_FLOATS (4 * ACT_N + 1)
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define POOL_FLOATS MAX2(CONV_FLOATS, MAX2(DW_FLOATS, ACT_FLOATS))
TCDM_BSS static float pool[POOL_FLOATS];
TCDM_BSS static conv2d_args_t cargs;
TCDM_BSS static dw3x3_args_t dargs;
TCDM_BSS static act_args_t aargs;
TCDM_BSS static loss_args_t largs;
TCDM_BSS static sgd_args_t sargs;

/* Inputs and references in L2. */
static float in_x[MAX2(X_SIZE, DW_SIZE)], in_w[MAX2(W_SIZE, 9 * DW_C)], in_dy[MAX2(Y_SIZE, DW_SIZE)];
static float in_v[ACT_N], in_g[ACT_N], in_t[ACT_N];
static float ref[MAX2(MAX2(X_SIZE, Y_SIZE), MAX2(DW_SIZE, ACT_N))];
static float ref2[ACT_N];

static int failed = 0;

/* Bit-exact comparison; prints "<name> OK" or the first mismatch (and the program stops at the end). */
static void check(const char* name, const float* got, const float* want, unsigned n) {
    if (failed) return;
    if (first_mismatch(name, got, want, n) >= 0)
        failed = 1;
    else
        printf("%s OK\n", name);
}

/* Within the stated tolerance of PyTorch's output. */
static void golden(const golden_t* g, const float* got) {
    if (!failed && golden_check(g, got)) failed = 1;
}

static void run(const char* name, uint32_t macs, void (*fn)(void*), void* arg) {
    region_begin(name, macs);
    team_fork(num_cores(), fn, arg);
    region_end();
}

/* x[ci][iy][ix] or 0 in the padding. */
static float conv_in(unsigned ci, int iy, int ix) {
    return iy < 0 || iy >= CONV_H || ix < 0 || ix >= CONV_W ? 0.0f : in_x[(ci * CONV_H + iy) * CONV_W + ix];
}

static void test_conv(void) {
    float* col = pool;
    float* x = col + KK * NP;
    float* w = x + X_SIZE;
    float* y = w + W_SIZE;
    float* dw = y + Y_SIZE;
    float* wt = dw + W_SIZE;
    memcpy(in_x, golden_conv_x, sizeof golden_conv_x);
    memcpy(in_w, golden_conv_w, sizeof golden_conv_w);
    memcpy(in_dy, golden_conv_dy, sizeof golden_conv_dy);
    memcpy(x, in_x, sizeof(float) * X_SIZE);
    memcpy(w, in_w, sizeof(float) * W_SIZE);
    cargs = (conv2d_args_t){.c_in = CONV_CIN,
                            .h = CONV_H,
                            .w = CONV_W,
                            .c_out = CONV_COUT,
                            .kh = CONV_K,
                            .kw = CONV_K,
                            .stride = CONV_S,
                            .pad = CONV_P,
                            .h_out = HO,
                            .w_out = WO,
                            .x = x,
                            .weight = w,
                            .y = y,
                            .dy = y, /* dY replaces Y once Y is checked */
                            .dw = dw,
                            .dx = x, /* IG is the last step that needs the TCDM x */
                            .col = col,
                            .weight_t = wt};
    const uint32_t macs = CONV2D_MACS(CONV_CIN, CONV_COUT, CONV_K, CONV_K, HO, WO);

    /* FW: taps in ascending (ci, i, j), padding taps included as +0 products, like im2col + matmul. */
    run("conv_fw", macs, conv2d_fw_fn, &cargs);
    for (unsigned co = 0; co < CONV_COUT; ++co)
        for (unsigned p = 0; p < NP; ++p) {
            const int oy = (int)(p / WO), ox = (int)(p % WO);
            float acc = 0.0f;
            for (unsigned ci = 0; ci < CONV_CIN; ++ci)
                for (int i = 0; i < CONV_K; ++i)
                    for (int j = 0; j < CONV_K; ++j)
                        acc += in_w[(co * CONV_CIN + ci) * CONV_K * CONV_K + i * CONV_K + j] *
                               conv_in(ci, oy * CONV_S - CONV_P + i, ox * CONV_S - CONV_P + j);
            ref[co * NP + p] = acc;
        }
    check("conv_fw", y, ref, Y_SIZE);
    golden(&golden_conv_fw, y);

    /* WG: output pixels in ascending order. */
    memcpy(y, in_dy, sizeof(float) * Y_SIZE);
    run("conv_wg", macs, conv2d_wg_fn, &cargs);
    for (unsigned co = 0; co < CONV_COUT; ++co)
        for (unsigned ci = 0; ci < CONV_CIN; ++ci)
            for (int i = 0; i < CONV_K; ++i)
                for (int j = 0; j < CONV_K; ++j) {
                    float acc = 0.0f;
                    for (unsigned p = 0; p < NP; ++p) {
                        const int oy = (int)(p / WO), ox = (int)(p % WO);
                        acc += in_dy[co * NP + p] *
                               conv_in(ci, oy * CONV_S - CONV_P + i, ox * CONV_S - CONV_P + j);
                    }
                    ref[((co * CONV_CIN + ci) * CONV_K + i) * CONV_K + j] = acc;
                }
    check("conv_wg", dw, ref, W_SIZE);
    golden(&golden_conv_wg, dw);

    /* IG: per tap a sum over c_out, the taps of an input added in ascending (i, j). */
    run("conv_ig", macs, conv2d_ig_fn, &cargs);
    for (unsigned ci = 0; ci < CONV_CIN; ++ci)
        for (int iy = 0; iy < CONV_H; ++iy)
            for (int ix = 0; ix < CONV_W; ++ix) {
                float acc = 0.0f;
                for (int i = 0; i < CONV_K; ++i)
                    for (int j = 0; j < CONV_K; ++j) {
                        const int ty = iy + CONV_P - i, tx = ix + CONV_P - j;
                        if (ty < 0 || tx < 0 || ty % CONV_S || tx % CONV_S || ty / CONV_S >= HO ||
                            tx / CONV_S >= WO)
                            continue;
                        float t = 0.0f;
                        for (unsigned co = 0; co < CONV_COUT; ++co)
                            t += in_w[(co * CONV_CIN + ci) * CONV_K * CONV_K + i * CONV_K + j] *
                                 in_dy[co * NP + (ty / CONV_S) * WO + tx / CONV_S];
                        acc += t;
                    }
                ref[(ci * CONV_H + iy) * CONV_W + ix] = acc;
            }
    check("conv_ig", x, ref, X_SIZE);
    golden(&golden_conv_ig, x);
}

static void test_dw(void) {
    float* x = pool;
    float* y = x + DW_SIZE;
    float* dy = y + DW_SIZE;
    float* dx = dy + DW_SIZE;
    float* w = dx + DW_SIZE;
    float* dw = w + 9 * DW_C;
    memcpy(in_x, golden_dw_x, sizeof golden_dw_x);
    memcpy(in_w, golden_dw_w, sizeof golden_dw_w);
    memcpy(in_dy, golden_dw_dy, sizeof golden_dw_dy);
    memcpy(x, in_x, sizeof(float) * DW_SIZE);
    memcpy(w, in_w, sizeof(float) * 9 * DW_C);
    memcpy(dy, in_dy, sizeof(float) * DW_SIZE);
    dargs = (dw3x3_args_t){
        .c = DW_C, .h = DW_H, .w = DW_W, .x = x, .weight = w, .y = y, .dy = dy, .dw = dw, .dx = dx};
    const uint32_t macs = DW3X3_MACS(DW_C, DW_H, DW_W);

    run("dw_fw", macs, dw3x3_fw_fn, &dargs);
    dw_ref_fw_ig(in_x, in_w, ref, DW_C, DW_H, DW_W, 1);
    check("dw_fw", y, ref, DW_SIZE);
    golden(&golden_dw_fw, y);

    run("dw_wg", macs, dw3x3_wg_fn, &dargs);
    dw_ref_wg(in_x, in_dy, ref, DW_C, DW_H, DW_W);
    check("dw_wg", dw, ref, 9 * DW_C);
    golden(&golden_dw_wg, dw);

    run("dw_ig", macs, dw3x3_ig_fn, &dargs);
    dw_ref_fw_ig(in_dy, in_w, ref, DW_C, DW_H, DW_W, -1);
    check("dw_ig", dx, ref, DW_SIZE);
    golden(&golden_dw_ig, dx);
}

/* Sum of a[i] (b == NULL) or of a[i] b[i] (one fmadd each, as in the kernels) over the kernels' per-core
 * shares, the partials added in core order. */
static float split_sum(const float* a, const float* b, unsigned n) {
    float total = 0.0f;
    for (unsigned c = 0; c < num_cores(); ++c) {
        unsigned first, last;
        split_range(n, c, num_cores(), &first, &last);
        float s = 0.0f;
        if (b)
            for (unsigned i = first; i < last; ++i)
                s += a[i] * b[i];
        else
            for (unsigned i = first; i < last; ++i)
                s += a[i];
        total += s;
    }
    return total;
}

static void ref_softmax(const float* x, float* y, unsigned n, float* max_out, float* sum_out) {
    float m = -INFINITY;
    for (unsigned i = 0; i < n; ++i)
        m = x[i] > m ? x[i] : m;
    for (unsigned i = 0; i < n; ++i)
        y[i] = expf(x[i] - m);
    const float s = split_sum(y, NULL, n);
    for (unsigned i = 0; i < n; ++i)
        y[i] = y[i] / s;
    *max_out = m;
    *sum_out = s;
}

static void test_ops(void) {
    float* x = pool;
    float* y = x + ACT_N;
    float* dy = y + ACT_N;
    float* dx = dy + ACT_N;
    float* loss = dx + ACT_N;
    const float alpha = 0.01f;
    memcpy(in_v, golden_act_x, sizeof golden_act_x);
    memcpy(in_g, golden_act_dy, sizeof golden_act_dy);
    memcpy(in_t, golden_act_target, sizeof golden_act_target);
    memcpy(x, in_v, sizeof(float) * ACT_N);
    memcpy(dy, in_g, sizeof(float) * ACT_N);
    aargs = (act_args_t){.n = ACT_N, .x = x, .y = y, .dy = dy, .dx = dx, .alpha = alpha};

    run("relu_fw", 0, relu_fw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = in_v[i] > 0.0f ? in_v[i] : 0.0f;
    check("relu_fw", y, ref, ACT_N);
    golden(&golden_relu_fw, y);
    run("relu_bw", 0, relu_bw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = in_v[i] > 0.0f ? in_g[i] : 0.0f;
    check("relu_bw", dx, ref, ACT_N);
    golden(&golden_relu_bw, dx);

    run("leaky_relu_fw", 0, leaky_relu_fw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = in_v[i] > 0.0f ? in_v[i] : alpha * in_v[i];
    check("leaky_relu_fw", y, ref, ACT_N);
    golden(&golden_leaky_relu_fw, y);
    run("leaky_relu_bw", 0, leaky_relu_bw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = in_v[i] > 0.0f ? in_g[i] : alpha * in_g[i];
    check("leaky_relu_bw", dx, ref, ACT_N);
    golden(&golden_leaky_relu_bw, dx);

    run("sigmoid_fw", 0, sigmoid_fw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref2[i] = 1.0f / (1.0f + expf(-in_v[i]));
    check("sigmoid_fw", y, ref2, ACT_N);
    golden(&golden_sigmoid_fw, y);
    run("sigmoid_bw", 0, sigmoid_bw_fn, &aargs);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = in_g[i] * (ref2[i] * (1.0f - ref2[i]));
    check("sigmoid_bw", dx, ref, ACT_N);
    golden(&golden_sigmoid_bw, dx);

    float m, s;
    run("softmax_fw", 0, softmax_fw_fn, &aargs);
    ref_softmax(in_v, ref2, ACT_N, &m, &s);
    check("softmax_fw", y, ref2, ACT_N);
    golden(&golden_softmax_fw, y);
    run("softmax_bw", ACT_N, softmax_bw_fn, &aargs);
    const float d = split_sum(ref2, in_g, ACT_N);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = ref2[i] * (in_g[i] - d);
    check("softmax_bw", dx, ref, ACT_N);
    golden(&golden_softmax_bw, dx);

    /* MSE of x against the target in_t (in dy's buffer); gradient into dx. */
    memcpy(dy, in_t, sizeof(float) * ACT_N);
    largs = (loss_args_t){.n = ACT_N, .x = x, .target = dy, .grad = dx, .loss = loss};
    run("mse", ACT_N, mse_loss_fn, &largs);
    const float scale = 2.0f / (float)ACT_N;
    for (unsigned i = 0; i < ACT_N; ++i) {
        const float e = in_v[i] - in_t[i];
        ref2[i] = e;
        ref[i] = scale * e;
    }
    check("mse grad", dx, ref, ACT_N);
    golden(&golden_mse_grad, dx);
    float want = split_sum(ref2, ref2, ACT_N) / (float)ACT_N;
    check("mse loss", loss, &want, 1);
    golden(&golden_mse_loss, loss);

    const unsigned label = ACT_N / 3;
    largs = (loss_args_t){.n = ACT_N, .x = x, .label = label, .y = y, .grad = dx, .loss = loss};
    run("ce_softmax", 0, ce_softmax_loss_fn, &largs);
    ref_softmax(in_v, ref2, ACT_N, &m, &s);
    check("ce_softmax prob", y, ref2, ACT_N);
    golden(&golden_ce_prob, y);
    for (unsigned i = 0; i < ACT_N; ++i)
        ref[i] = i == label ? ref2[i] - 1.0f : ref2[i];
    check("ce_softmax grad", dx, ref, ACT_N);
    golden(&golden_ce_grad, dx);
    want = logf(s) - (in_v[label] - m);
    check("ce_softmax loss", loss, &want, 1);
    golden(&golden_ce_loss, loss);

    /* SGD on x with dx as the gradient. */
    sargs = (sgd_args_t){.n = ACT_N, .w = x, .dw = dx, .lr = 0.05f};
    run("sgd", ACT_N, sgd_update_fn, &sargs);
    for (unsigned i = 0; i < ACT_N; ++i) {
        ref2[i] = in_v[i];
        ref2[i] -= 0.05f * ref[i];
    }
    check("sgd", x, ref2, ACT_N);
    golden(&golden_sgd, x);
}

int main(void) {
    test_conv();
    test_dw();
    test_ops();
    printf("layers conv %ux%ux%u-%u k%us%up%u dw %ux%ux%u on %u cores: %s\n", CONV_CIN, CONV_H, CONV_W,
           CONV_COUT, CONV_K, CONV_S, CONV_P, DW_C, DW_H, DW_W, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
