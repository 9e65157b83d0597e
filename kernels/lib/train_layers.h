/*
 * Training steps of two PULP-TrainLib layers on FP32 tensors in L2 (CHW, batch 1), each one tiled matmul
 * (tiled_matmul.h) on a team of cores. Call them from core 0 outside a team; every result overwrites its
 * output tensor and is bit-identical to the plain loops in the comments.
 */
#ifndef PULPSIM_TRAIN_LAYERS_H
#define PULPSIM_TRAIN_LAYERS_H

#include "tiled_matmul.h"

/* PointWise (1x1) convolution of `cin` channels of `hw` pixels into `cout` channels. */
typedef struct {
    unsigned cin, cout, hw;
    const float* in;    /* [cin][hw] */
    const float* w;     /* [cout][cin] */
    float* out;         /* [cout][hw] */
    const float* d_out; /* [cout][hw]: gradient of the loss with respect to out */
    float* d_w;         /* [cout][cin] */
    float* d_in;        /* [cin][hw] */
} pointwise_t;

/* out[co][p] = sum_ci w[co][ci] * in[ci][p] */
tiled_plan_t pointwise_fw(const pointwise_t* l, unsigned cores);
/* d_w[co][ci] = sum_p d_out[co][p] * in[ci][p] */
tiled_plan_t pointwise_wg(const pointwise_t* l, unsigned cores);
/* d_in[ci][p] = sum_co w[co][ci] * d_out[co][p] */
tiled_plan_t pointwise_ig(const pointwise_t* l, unsigned cores);

/* Linear (fully connected) layer of `in_features` inputs and `out_features` outputs, batch 1. */
typedef struct {
    unsigned in_features, out_features;
    const float* in;    /* [in_features] */
    const float* w;     /* [out_features][in_features] */
    float* out;         /* [out_features] */
    const float* d_out; /* [out_features] */
    float* d_w;         /* [out_features][in_features] */
    float* d_in;        /* [in_features] */
} linear_t;

/* out[o] = sum_i w[o][i] * in[i] */
tiled_plan_t linear_fw(const linear_t* l, unsigned cores);
/* d_w[o][i] = d_out[o] * in[i] (one product: K = 1) */
tiled_plan_t linear_wg(const linear_t* l, unsigned cores);
/* d_in[i] = sum_o w[o][i] * d_out[o] */
tiled_plan_t linear_ig(const linear_t* l, unsigned cores);

#endif
