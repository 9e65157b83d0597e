/*
 * Vanilla RNN (kernels/lib/rnn_fp32.h) over RNN_T steps of RNN_X inputs and RNN_H hidden units, data in the
 * TCDM, run by the whole team on PyTorch's inputs and checked twice: bit for bit against single-core plain
 * loops in the same operation order (kept in L2), and within the step's stated tolerance against PyTorch's
 * output (golden_data.h, written at build time by kernels/golden/suite_rnn.py; its states use the exact
 * tanh, so the tolerances carry the tanh variant's error through the recurrence):
 *
 *   rnn_fw        forward with tanh_fast (the thesis' parallel fast tanh)     MACs T H (X + H + 1)
 *   rnn_fw_tanhf  forward with picolibc's tanhf
 *   rnn_bw        backward through time from dL/dh[T] on rnn_fw_tanhf's states
 *                                                                            MACs T H (4 + 2X + 3H + 1)
 *
 * then the three tanh variants on T x H values in [-4, 4] (regions tanh_libm, tanh_fast on core 0,
 * tanh_fast_par on the team; cycles per call = region cycles / (T H)) and the largest error of tanh_fast
 * against tanhf over [-10, 10] in steps of 2^-12. Prints "<part> OK" and "<part> golden OK" or the first
 * mismatch, then "rnn TxXxH on N cores: OK" (exit 0) or FAIL (exit 1).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "activations_fp32.h"
#include "cluster.h"
#include "golden_data.h"
#include "kernel_check.h"
#include "rnn_fp32.h"
#include "runtime.h"

/* RNN_T, RNN_X, RNN_H: set by CMake; golden_data.h checks that its data was made for them. */
#define T RNN_T
#define X RNN_X
#define H RNN_H

TCDM_BSS static float x[T * X];
TCDM_BSS static float wx[H * X];
TCDM_BSS static float wh[H * H];
TCDM_BSS static float b[H];
TCDM_BSS static float h[(T + 1) * H];
TCDM_BSS static float dh[H];
TCDM_BSS static float g[T * H]; /* also the tanh test vector */
TCDM_BSS static float dx[T * X];
TCDM_BSS static float dwx[H * X];
TCDM_BSS static float dwh[H * H];
TCDM_BSS static float db[H];
TCDM_BSS static rnn_args_t args;
TCDM_BSS static tanh_args_t targs;

/* References in L2, off the TCDM. */
static float dh_out[H];
static float ref_h[(T + 1) * H];
static float ref_g[T * H];
static float ref_dh[H], ref_dhn[H];
static float ref_dx[T * X];
static float ref_dwx[H * X];
static float ref_dwh[H * H];
static float ref_db[H];
static float tanh_in[T * H];

static int failed = 0;

/* Bit-exact comparison; prints "<name> OK" or the first mismatch. */
static void check(const char* name, const float* got, const float* want, unsigned n) {
    if (first_mismatch(name, got, want, n) >= 0)
        failed = 1;
    else
        printf("%s OK\n", name);
}

/* Within the stated tolerance of PyTorch's output. */
static void golden(const golden_t* g, const float* got) {
    if (golden_check(g, got)) failed = 1;
}

static void ref_forward(unsigned act) {
    for (unsigned t = 0; t < T; ++t)
        for (unsigned i = 0; i < H; ++i) {
            float acc = b[i];
            for (unsigned k = 0; k < X; ++k)
                acc += x[t * X + k] * wx[i * X + k];
            for (unsigned k = 0; k < H; ++k)
                acc += wh[i * H + k] * ref_h[t * H + k];
            ref_h[(t + 1) * H + i] = act == RNN_TANH_FAST ? tanh_fast(acc) : tanhf(acc);
        }
}

static void ref_backward(void) {
    memcpy(ref_dh, dh_out, sizeof ref_dh);
    for (unsigned t = T; t-- > 0;) {
        for (unsigned i = 0; i < H; ++i) {
            const float hv = ref_h[(t + 1) * H + i];
            ref_g[t * H + i] = (1.0f - hv * hv) * ref_dh[i];
        }
        for (unsigned j = 0; j < H; ++j) {
            float acc = 0.0f;
            for (unsigned i = 0; i < H; ++i)
                acc += wh[i * H + j] * ref_g[t * H + i];
            ref_dhn[j] = acc;
        }
        memcpy(ref_dh, ref_dhn, sizeof ref_dh);
    }
    for (unsigned i = 0; i < H; ++i) {
        for (unsigned k = 0; k < X; ++k) {
            float acc = 0.0f;
            for (unsigned t = 0; t < T; ++t)
                acc += ref_g[t * H + i] * x[t * X + k];
            ref_dwx[i * X + k] = acc;
        }
        for (unsigned k = 0; k < H; ++k) {
            float acc = 0.0f;
            for (unsigned t = 0; t < T; ++t)
                acc += ref_g[t * H + i] * ref_h[t * H + k];
            ref_dwh[i * H + k] = acc;
        }
        float s = 0.0f;
        for (unsigned t = 0; t < T; ++t)
            s += ref_g[t * H + i];
        ref_db[i] = s;
    }
    for (unsigned t = 0; t < T; ++t)
        for (unsigned k = 0; k < X; ++k) {
            float acc = 0.0f;
            for (unsigned i = 0; i < H; ++i)
                acc += ref_g[t * H + i] * wx[i * X + k];
            ref_dx[t * X + k] = acc;
        }
}

static void run_forward(const char* name, unsigned act, const golden_t* want) {
    memset(h + H, 0, sizeof(float) * T * H);
    args.act = act;
    region_begin(name, RNN_FW_MACS(T, X, H));
    team_fork(num_cores(), rnn_fw_fn, &args);
    region_end();
    ref_forward(act);
    check(name, h, ref_h, (T + 1) * H);
    golden(want, h);
}

/* The tanh variants in place on g: one core, one core, the team. */
static void run_tanh_libm(void) {
    tanh_libm_vec(g, T * H);
}
static void run_tanh_fast(void) {
    tanh_fast_vec(g, T * H);
}
static void run_tanh_fast_par(void) {
    targs = (tanh_args_t){.v = g, .n = T * H};
    team_fork(num_cores(), tanh_fast_parallel_fn, &targs);
}

/* One variant in its region on the test vector, checked against ref_g and PyTorch. */
static void run_tanh(const char* name, void (*variant)(void), const golden_t* want) {
    memcpy(g, tanh_in, sizeof g);
    region_begin(name, 0);
    variant();
    region_end();
    check(name, g, ref_g, T * H);
    golden(want, g);
}

int main(void) {
    /* PyTorch's inputs; h[0] starts both the kernel's states and the reference's. */
    memcpy(x, golden_rnn_x, sizeof x);
    memcpy(wx, golden_rnn_wx, sizeof wx);
    memcpy(wh, golden_rnn_wh, sizeof wh);
    memcpy(b, golden_rnn_b, sizeof b);
    memcpy(h, golden_rnn_h0, sizeof(float) * H);
    memcpy(ref_h, golden_rnn_h0, sizeof(float) * H);
    memcpy(dh_out, golden_rnn_dh, sizeof dh_out);
    args = (rnn_args_t){.t = T,
                        .x_size = X,
                        .h_size = H,
                        .x = x,
                        .wx = wx,
                        .wh = wh,
                        .b = b,
                        .h = h,
                        .dh = dh,
                        .g = g,
                        .dx = dx,
                        .dwx = dwx,
                        .dwh = dwh,
                        .db = db};

    /* tanhf last: the backward runs on its states, which are closest to PyTorch's */
    run_forward("rnn_fw", RNN_TANH_FAST, &golden_rnn_fw);
    run_forward("rnn_fw_tanhf", RNN_TANH_LIBM, &golden_rnn_fw_tanhf);

    memcpy(dh, dh_out, sizeof dh);
    region_begin("rnn_bw", RNN_BW_MACS(T, X, H));
    team_fork(num_cores(), rnn_bw_fn, &args);
    region_end();
    ref_backward();
    check("rnn_bw g", g, ref_g, T * H);
    check("rnn_bw dh0", dh, ref_dh, H);
    check("rnn_bw dWx", dwx, ref_dwx, H * X);
    check("rnn_bw dWh", dwh, ref_dwh, H * H);
    check("rnn_bw db", db, ref_db, H);
    check("rnn_bw dx", dx, ref_dx, T * X);
    golden(&golden_rnn_bw_g, g);
    golden(&golden_rnn_bw_dh0, dh);
    golden(&golden_rnn_bw_dwx, dwx);
    golden(&golden_rnn_bw_dwh, dwh);
    golden(&golden_rnn_bw_db, db);
    golden(&golden_rnn_bw_dx, dx);

    /* The tanh variants on the same T x H values each; tanh_fast_par must match tanh_fast's bits. */
    memcpy(tanh_in, golden_tanh_x, sizeof tanh_in);
    for (unsigned i = 0; i < T * H; ++i)
        ref_g[i] = tanhf(tanh_in[i]);
    run_tanh("tanh_libm", run_tanh_libm, &golden_tanh_libm);
    for (unsigned i = 0; i < T * H; ++i)
        ref_g[i] = tanh_fast(tanh_in[i]);
    run_tanh("tanh_fast", run_tanh_fast, &golden_tanh_fast);
    run_tanh("tanh_fast_par", run_tanh_fast_par, &golden_tanh_fast_par);

    float max_err = 0.0f, at = 0.0f;
    for (int i = -10 * 4096; i <= 10 * 4096; ++i) {
        const float v = (float)i * (1.0f / 4096.0f);
        const float e = fabsf(tanh_fast(v) - tanhf(v));
        if (e > max_err) max_err = e, at = v;
    }
    /* The documented bound (activations_fp32.h) with a margin. */
    if (max_err <= 2e-4f) {
        printf("tanh_fast max error %.3g at %g OK\n", (double)max_err, (double)at);
    } else {
        printf("tanh_fast max error %.3g at %g above 2e-4\n", (double)max_err, (double)at);
        failed = 1;
    }

    printf("rnn %ux%ux%u on %u cores: %s\n", T, X, H, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
