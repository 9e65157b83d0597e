#include "train_ops_fp32.h"

#include <math.h>

#include "cluster.h"
#include "im2col_fp32.h"
#include "runtime.h"

#define MAX_CORES 32

TCDM_BSS static float partial[MAX_CORES];

static void share(const char* who, unsigned n, unsigned* first, unsigned* last) {
    if (n == 0) layers_shape_error(who, "zero dimension");
    split_range(n, core_id(), num_cores(), first, last);
}

/* Team-wide sum / max of one value per core, combined in core order; every core gets the result. */
static float team_sum(float v) {
    partial[core_id()] = v;
    barrier();
    float s = 0.0f;
    for (unsigned c = 0; c < num_cores(); ++c)
        s += partial[c];
    barrier(); /* partial is reused by the next reduction */
    return s;
}

static float team_max(float v) {
    partial[core_id()] = v;
    barrier();
    float m = partial[0];
    for (unsigned c = 1; c < num_cores(); ++c)
        m = partial[c] > m ? partial[c] : m;
    barrier();
    return m;
}

void relu_fw(const act_args_t* a) {
    unsigned first, last;
    share("relu", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->y[i] = a->x[i] > 0.0f ? a->x[i] : 0.0f;
}

void relu_bw(const act_args_t* a) {
    unsigned first, last;
    share("relu", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->dx[i] = a->x[i] > 0.0f ? a->dy[i] : 0.0f;
}

void leaky_relu_fw(const act_args_t* a) {
    unsigned first, last;
    share("leaky_relu", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->y[i] = a->x[i] > 0.0f ? a->x[i] : a->alpha * a->x[i];
}

void leaky_relu_bw(const act_args_t* a) {
    unsigned first, last;
    share("leaky_relu", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->dx[i] = a->x[i] > 0.0f ? a->dy[i] : a->alpha * a->dy[i];
}

void sigmoid_fw(const act_args_t* a) {
    unsigned first, last;
    share("sigmoid", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->y[i] = 1.0f / (1.0f + expf(-a->x[i]));
}

void sigmoid_bw(const act_args_t* a) {
    unsigned first, last;
    share("sigmoid", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->dx[i] = a->dy[i] * (a->y[i] * (1.0f - a->y[i]));
}

/* y = softmax(x) over the whole vector; returns the sum of the exponentials, *max_out the maximum. */
static float softmax_core(const float* x, float* y, unsigned first, unsigned last, float* max_out) {
    float m = -INFINITY;
    for (unsigned i = first; i < last; ++i)
        m = x[i] > m ? x[i] : m;
    m = team_max(m);
    float s = 0.0f;
    for (unsigned i = first; i < last; ++i) {
        y[i] = expf(x[i] - m);
        s += y[i];
    }
    s = team_sum(s);
    for (unsigned i = first; i < last; ++i)
        y[i] = y[i] / s;
    *max_out = m;
    return s;
}

void softmax_fw(const act_args_t* a) {
    unsigned first, last;
    float m;
    share("softmax", a->n, &first, &last);
    softmax_core(a->x, a->y, first, last, &m);
}

void softmax_bw(const act_args_t* a) {
    unsigned first, last;
    share("softmax", a->n, &first, &last);
    float d = 0.0f;
    for (unsigned i = first; i < last; ++i)
        d += a->y[i] * a->dy[i];
    d = team_sum(d);
    for (unsigned i = first; i < last; ++i)
        a->dx[i] = a->y[i] * (a->dy[i] - d);
}

void mse_loss(const loss_args_t* a) {
    unsigned first, last;
    share("mse_loss", a->n, &first, &last);
    const float scale = 2.0f / (float)a->n;
    float s = 0.0f;
    for (unsigned i = first; i < last; ++i) {
        const float d = a->x[i] - a->target[i];
        s += d * d;
        a->grad[i] = scale * d;
    }
    s = team_sum(s);
    if (core_id() == 0) *a->loss = s / (float)a->n;
}

void ce_softmax_loss(const loss_args_t* a) {
    unsigned first, last;
    share("ce_softmax_loss", a->n, &first, &last);
    if (a->label >= a->n) layers_shape_error("ce_softmax_loss", "label out of range");
    float m;
    const float s = softmax_core(a->x, a->y, first, last, &m);
    for (unsigned i = first; i < last; ++i)
        a->grad[i] = i == a->label ? a->y[i] - 1.0f : a->y[i];
    if (core_id() == 0) *a->loss = logf(s) - (a->x[a->label] - m);
}

void sgd_update(const sgd_args_t* a) {
    unsigned first, last;
    share("sgd", a->n, &first, &last);
    for (unsigned i = first; i < last; ++i)
        a->w[i] -= a->lr * a->dw[i];
}

void relu_fw_fn(void* arg) {
    relu_fw((const act_args_t*)arg);
}
void relu_bw_fn(void* arg) {
    relu_bw((const act_args_t*)arg);
}
void leaky_relu_fw_fn(void* arg) {
    leaky_relu_fw((const act_args_t*)arg);
}
void leaky_relu_bw_fn(void* arg) {
    leaky_relu_bw((const act_args_t*)arg);
}
void sigmoid_fw_fn(void* arg) {
    sigmoid_fw((const act_args_t*)arg);
}
void sigmoid_bw_fn(void* arg) {
    sigmoid_bw((const act_args_t*)arg);
}
void softmax_fw_fn(void* arg) {
    softmax_fw((const act_args_t*)arg);
}
void softmax_bw_fn(void* arg) {
    softmax_bw((const act_args_t*)arg);
}
void mse_loss_fn(void* arg) {
    mse_loss((const loss_args_t*)arg);
}
void ce_softmax_loss_fn(void* arg) {
    ce_softmax_loss((const loss_args_t*)arg);
}
void sgd_update_fn(void* arg) {
    sgd_update((const sgd_args_t*)arg);
}
