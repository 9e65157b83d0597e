/*
 * The layer steps a generated network training program (kernels/tools/network_gen.py) calls that
 * train_layers.h and depthwise_tiled.h do not provide, on FP32 CHW tensors in L2 (batch 1). Call each from
 * core 0 outside a team: it forks a team of every core (the element-wise kernels of train_ops_fp32.h split
 * their work over num_cores()) and returns when the step is done.
 *
 *   net_elementwise()    activations FW / BW and the SGD update, in chunks through the TCDM, double-buffered
 *                        (dma_double_buffer): every op works in place on the chunk of its first operand
 *   net_depthwise_*()    DepthWise k x k convolution at any stride and (asymmetric) zero padding, by channel
 *                        groups through the TCDM, double-buffered; direct loops (plain fmadd chains), or a
 *                        kernel of the DepthWise 3x3 family for 3x3 / stride 1 / padding 1
 *   net_avgpool_fw/bw()  average pooling with the window as stride, no padding, by channel groups
 *   net_conv2d_fw/wg()   Conv2D staged: the zero-padded input and its im2col stay in the TCDM for the whole
 *                        step, the output channels go through in groups, double-buffered; the matmul is one
 *                        of the family of matmul_fp32.h (NULL: mm_M_unroll_4x4 / mm_unroll_4x4 by shape)
 *   net_conv2d_ig()      Conv2D input gradient staged whole (W^T, dy, col and the padded dx in the TCDM)
 *   net_loss()           MSE or softmax cross-entropy on the output vector staged whole in the TCDM
 *
 * A step whose smallest tile does not fit tiled_l1_budget() prints "error: <step>: ..." and exits 1.
 */
#ifndef PULPSIM_NETWORK_LAYERS_H
#define PULPSIM_NETWORK_LAYERS_H

#include "matmul_fp32.h"

typedef enum {
    NET_RELU_FW,       /* a = x            -> y */
    NET_RELU_BW,       /* a = x, b = dy    -> dx */
    NET_LEAKY_RELU_FW, /* a = x            -> y   (param: slope for x <= 0) */
    NET_LEAKY_RELU_BW, /* a = x, b = dy    -> dx */
    NET_SIGMOID_FW,    /* a = x            -> y */
    NET_SIGMOID_BW,    /* a = y, b = dy    -> dx */
    NET_TANH_FW,       /* a = x            -> y   (tanh_fast, activations_fp32.h) */
    NET_TANH_BW,       /* a = y, b = dy    -> dx = dy (1 - y^2) */
    NET_SGD,           /* a = w, b = dw    -> w - param dw */
} net_ew_op_t;

/* out[i] = op(a[i], b[i]) for i < n; b unused (NULL) for the forward steps; out may be a. */
void net_elementwise(net_ew_op_t op, unsigned n, const float* a, const float* b, float* out, float param);

/* A DepthWise convolution: x / dx [c][h][w], w / dw [c][k][k], y / dy [c][h_out][w_out]; output (oy, ox)
 * reads inputs (oy stride - pad_top + i, ox stride - pad_left + j), zero outside. `variant` names a kernel
 * of dw3x3_variants[] (depthwise_fp32.h: "dw", "dw_u2", "dw_ch_u4", ...) for a 3x3 kernel at stride 1 with
 * padding 1, run on each channel group; NULL: the direct loops (any shape). */
typedef struct {
    unsigned c, h, w, k, stride, pad_top, pad_left, h_out, w_out;
    const char* variant;
    const float* x;
    const float* weight;
    float* y;
    const float* dy;
    float* dw;
    float* dx;
} net_depthwise_t;

void net_depthwise_fw(const net_depthwise_t* l);
void net_depthwise_wg(const net_depthwise_t* l);
void net_depthwise_ig(const net_depthwise_t* l);

/* Average pooling of kh x kw windows at stride (kh, kw): x / dx [c][h][w], y / dy [c][h / kh][w / kw]. */
typedef struct {
    unsigned c, h, w, kh, kw;
    const float* x;
    float* y;
    const float* dy;
    float* dx;
} net_avgpool_t;

void net_avgpool_fw(const net_avgpool_t* l);
void net_avgpool_bw(const net_avgpool_t* l);

/* A Conv2D: x / dx [c_in][h][w], w / dw [c_out][c_in][kh][kw], y / dy [c_out][h_out][w_out]; stride in
 * both directions, zero padding pad_top / pad_left (bottom and right follow from h_out, w_out). */
typedef struct {
    unsigned c_in, h, w, c_out, kh, kw, stride, pad_top, pad_left, h_out, w_out;
    const float* x;
    const float* weight;
    float* y;
    const float* dy;
    float* dw;
    float* dx;
    matmul_fn_t mm; /* NULL: by shape */
} net_conv2d_t;

void net_conv2d_fw(const net_conv2d_t* l);
void net_conv2d_wg(const net_conv2d_t* l);
void net_conv2d_ig(const net_conv2d_t* l);

typedef enum { NET_LOSS_MSE, NET_LOSS_CROSS_ENTROPY } net_loss_kind_t;

/* The loss of the output vector `out` [n] against `target` [n] (MSE) or class `label` (cross-entropy):
 * writes *loss and grad [n] = dL/d out (L2). */
void net_loss(net_loss_kind_t kind, unsigned n, const float* out, const float* target, unsigned label,
              float* grad, float* loss);

/* Compares `got` [n] with `expected` within the per-element `tolerance`, every core on its share: prints the
 * first element outside it (or "<name> OK" with the largest error, absolute and as a fraction of its
 * tolerance) and returns 1 if there is one, else 0. Called by core 0 outside a team. */
int net_check(const char* name, const float* got, const float* expected, const float* tolerance, unsigned n);

#endif
