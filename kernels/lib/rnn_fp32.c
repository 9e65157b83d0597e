/* FP32 vanilla RNN forward and backward through time (see rnn_fp32.h). */
#include "rnn_fp32.h"

#include <math.h>

#include "activations_fp32.h"
#include "cluster.h"
#include "kernel_error.h"
#include "matmul_l1.h"
#include "runtime.h"

#define INLINE static inline __attribute__((always_inline))

INLINE float act_of(float v, const unsigned act) {
    return act == RNN_TANH_FAST ? tanh_fast(v) : tanhf(v);
}

/*
 * R rows of one forward step: out[r] = act(out[r] + sum_k w[r][k] v[k]). The R rows share each load of v;
 * each keeps its own accumulator in ascending k, so the result is that of the plain loop.
 */
INLINE void fw_rows(const float* w, unsigned ldw, const float* v, unsigned k, float* out, const unsigned R,
                    const unsigned act) {
    float acc[4];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
        acc[r] = out[r];
    /* Explicit row pointers: indexing w[r * ldw + p] cost a shift and an add per load. */
    const float* wr[4];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
        wr[r] = w + r * ldw;
    for (const float* const v_end = v + k; v != v_end; ++v) {
        const float vp = *v;
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
            acc[r] += *wr[r]++ * vp;
    }
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
        out[r] = act_of(acc[r], act);
}

/* C adjacent columns of a vector-matrix product: out[j] = sum_i w[i][j] v[i], ascending i. */
INLINE void bw_cols(const float* w, unsigned ldw, const float* v, unsigned n, float* out, const unsigned C) {
    float acc[4];
#pragma clang loop unroll(full)
    for (unsigned j = 0; j < C; ++j)
        acc[j] = 0.0f;
    for (unsigned i = 0; i < n; ++i, w += ldw) {
        const float vi = v[i];
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            acc[j] += w[j] * vi;
    }
#pragma clang loop unroll(full)
    for (unsigned j = 0; j < C; ++j)
        out[j] = acc[j];
}

INLINE void fw_steps(const rnn_args_t* a, unsigned i0, unsigned i1, const unsigned act) {
    const unsigned H = a->h_size;
    for (unsigned t = 0; t < a->t; ++t) {
        const float* prev = a->h + t * H;
        float* cur = a->h + (t + 1) * H;
        unsigned i = i0;
        for (; i + 4 <= i1; i += 4)
            fw_rows(a->wh + i * H, H, prev, H, cur + i, 4, act);
        /* One block for the leftover rows: single rows would add a load-use stall per MAC. */
        switch (i1 - i) {
        case 3: fw_rows(a->wh + i * H, H, prev, H, cur + i, 3, act); break;
        case 2: fw_rows(a->wh + i * H, H, prev, H, cur + i, 2, act); break;
        case 1: fw_rows(a->wh + i * H, H, prev, H, cur + i, 1, act); break;
        default: break;
        }
        barrier(); /* the next step reads all of h[t+1] */
    }
}

void rnn_fw(const rnn_args_t* a) {
    const unsigned T = a->t, X = a->x_size, H = a->h_size;
    kernel_require_nonzero("rnn_fw", T, X, H);
    const unsigned id = core_id(), cores = num_cores();
    unsigned t0, t1, i0, i1;
    /* The input projections do not depend on the recurrence: one matmul over the whole sequence. */
    split_range(T, id, cores, &t0, &t1);
    for (unsigned t = t0; t < t1; ++t)
        for (unsigned i = 0; i < H; ++i)
            a->h[(t + 1) * H + i] = a->b[i];
    const matmul_l1_t proj = {.m = T,
                              .n = H,
                              .k = X,
                              .a = a->x,
                              .lda = X,
                              .b = a->wx,
                              .ldb = X,
                              .b_trans = 1,
                              .c = a->h + H,
                              .ldc = H,
                              .accumulate = 1};
    matmul_l1_rows(&proj, t0, t1);
    barrier();
    split_range(H, id, cores, &i0, &i1);
    if (a->act == RNN_TANH_FAST)
        fw_steps(a, i0, i1, RNN_TANH_FAST);
    else
        fw_steps(a, i0, i1, RNN_TANH_LIBM);
}

void rnn_bw(const rnn_args_t* a) {
    const unsigned T = a->t, X = a->x_size, H = a->h_size;
    kernel_require_nonzero("rnn_bw", T, X, H);
    const unsigned id = core_id(), cores = num_cores();
    unsigned i0, i1;
    split_range(H, id, cores, &i0, &i1);
    for (unsigned t = T; t-- > 0;) {
        const float* hn = a->h + (t + 1) * H;
        float* g = a->g + t * H;
        for (unsigned i = i0; i < i1; ++i)
            g[i] = (1.0f - hn[i] * hn[i]) * a->dh[i];
        barrier(); /* dh[t] needs all of g[t] */
        /* Same split as the rows above: this core is the only reader of the dh it writes. */
        unsigned j = i0;
        for (; j + 4 <= i1; j += 4)
            bw_cols(a->wh + j, H, g, H, a->dh + j, 4);
        switch (i1 - j) {
        case 3: bw_cols(a->wh + j, H, g, H, a->dh + j, 3); break;
        case 2: bw_cols(a->wh + j, H, g, H, a->dh + j, 2); break;
        case 1: bw_cols(a->wh + j, H, g, H, a->dh + j, 1); break;
        default: break;
        }
    }
    /* All of G was complete at the last barrier; the weight and input gradients are independent matmuls. */
    const matmul_l1_t dwx = {.m = H,
                             .n = X,
                             .k = T,
                             .a = a->g,
                             .lda = H,
                             .a_trans = 1,
                             .b = a->x,
                             .ldb = X,
                             .c = a->dwx,
                             .ldc = X};
    const matmul_l1_t dwh = {.m = H,
                             .n = H,
                             .k = T,
                             .a = a->g,
                             .lda = H,
                             .a_trans = 1,
                             .b = a->h,
                             .ldb = H,
                             .c = a->dwh,
                             .ldc = H};
    const matmul_l1_t dx = {
        .m = T, .n = X, .k = H, .a = a->g, .lda = H, .b = a->wx, .ldb = X, .c = a->dx, .ldc = X};
    matmul_l1(&dwx, id, cores);
    matmul_l1(&dwh, id, cores);
    matmul_l1(&dx, id, cores);
    for (unsigned i = i0; i < i1; ++i) {
        float s = 0.0f;
        for (unsigned t = 0; t < T; ++t)
            s += a->g[t * H + i];
        a->db[i] = s;
    }
}

void rnn_fw_fn(void* arg) {
    rnn_fw((const rnn_args_t*)arg);
}
void rnn_bw_fn(void* arg) {
    rnn_bw((const rnn_args_t*)arg);
}
