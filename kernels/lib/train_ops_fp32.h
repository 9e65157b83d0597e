/*
 * FP32 element-wise training steps on vectors in the TCDM, run by every core of a team (inside team_fork,
 * or through the *_fn entry points), each core on its split_range share of the n elements:
 *
 *   relu_fw / relu_bw        y = max(x, 0)                     dx = x > 0 ? dy : 0
 *   leaky_relu_fw / _bw      y = x > 0 ? x : alpha x           dx = x > 0 ? dy : alpha dy
 *   sigmoid_fw / _bw         y = 1 / (1 + expf(-x))            dx = dy y (1 - y)          (y of the FW)
 *   softmax_fw / _bw         y = e^(x - max) / sum e^(x - max) dx = y (dy - sum_j y_j dy_j)
 *   mse_loss                 loss = sum (p - t)^2 / n          grad = 2 / n (p - t)
 *   ce_softmax_loss          y = softmax(x), loss = -log y[label] = log sum e^(x - max) - (x[label] - max),
 *                            grad = y - onehot(label)
 *   sgd_update               w -= lr dw
 *
 * expf / logf are picolibc's. The reductions (max, sums) take per-core partials over the split_range
 * shares in ascending order, added in core order by every core: deterministic for a given core count, and
 * reproduced by a plain loop that follows the same split. Only the steps with reductions have barriers;
 * none has one at the end. A zero n or a label out of range prints "error: <step>: ..." and exits 1.
 */
#ifndef PULPSIM_TRAIN_OPS_FP32_H
#define PULPSIM_TRAIN_OPS_FP32_H

typedef struct {
    unsigned n;
    const float* x;  /* FW input; BW of relu / leaky_relu */
    float* y;        /* FW output; BW input of sigmoid / softmax */
    const float* dy; /* BW */
    float* dx;       /* BW output */
    float alpha;     /* leaky_relu slope for x <= 0 */
} act_args_t;

typedef struct {
    unsigned n;
    const float* x;      /* mse: prediction; ce: logits */
    const float* target; /* mse */
    unsigned label;      /* ce */
    float* y;            /* ce: softmax(x) */
    float* grad;         /* dL/dx */
    float* loss;         /* written by core 0 */
} loss_args_t;

typedef struct {
    unsigned n;
    float* w;
    const float* dw;
    float lr;
} sgd_args_t;

void relu_fw(const act_args_t* a);
void relu_bw(const act_args_t* a);
void leaky_relu_fw(const act_args_t* a);
void leaky_relu_bw(const act_args_t* a);
void sigmoid_fw(const act_args_t* a);
void sigmoid_bw(const act_args_t* a);
void softmax_fw(const act_args_t* a);
void softmax_bw(const act_args_t* a);
void mse_loss(const loss_args_t* a);
void ce_softmax_loss(const loss_args_t* a);
void sgd_update(const sgd_args_t* a);

/* team_fork entry points: arg is the step's argument block. */
void relu_fw_fn(void* arg);
void relu_bw_fn(void* arg);
void leaky_relu_fw_fn(void* arg);
void leaky_relu_bw_fn(void* arg);
void sigmoid_fw_fn(void* arg);
void sigmoid_bw_fn(void* arg);
void softmax_fw_fn(void* arg);
void softmax_bw_fn(void* arg);
void mse_loss_fn(void* arg);
void ce_softmax_loss_fn(void* arg);
void sgd_update_fn(void* arg);

#endif
