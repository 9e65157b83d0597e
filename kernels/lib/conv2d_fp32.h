/*
 * FP32 2-D convolution training steps (PULP-TrainLib formulation, CHW tensors, batch 1, all in the TCDM),
 * each an im2col (im2col_fp32.h) followed by one kernel of the matmul family (matmul_fp32.h); run by every
 * core of a team (inside team_fork, or through the *_fn entry points), no barrier at the end.
 *
 *   x [c_in][h][w], w [c_out][c_in][kh][kw], y / dy [c_out][h_out][w_out], K = c_in kh kw, P = h_out w_out
 *
 *   conv2d_fw  y   = w [c_out][K] x col [K][P]            col = im2col(x)
 *   conv2d_wg  dw  = dy [c_out][P] x colT [P][K]          colT = im2col(x), transposed layout
 *   conv2d_ig  col = weight_t [K][c_out] x dy [c_out][P]  weight_t = w^T, then dx = col2im(col)
 *
 *   MACs of each step: c_out K P (CONV2D_MACS).
 *
 * Scratch the caller provides: col (K P floats, all three steps) and weight_t (K c_out floats, IG). The
 * matmul is args->mm if set, else mm_M_unroll_4x4 when C has at least as many columns as rows (split over the
 * columns) and mm_unroll_4x4 otherwise. With a kernel that is not K-unrolled every output is one fmadd
 * chain in ascending K (FW, IG) or P (WG), and col2im adds the taps of an input in ascending (i, j), so the
 * results are bit-identical to the plain loops in that order on any core count. A zero dimension or an
 * h_out / w_out that does not match (h + 2 pad - kh) / stride + 1 prints "error: conv2d: ..." and exits 1.
 */
#ifndef PULPSIM_CONV2D_FP32_H
#define PULPSIM_CONV2D_FP32_H

#include "matmul_fp32.h"

typedef struct {
    unsigned c_in, h, w, c_out, kh, kw, stride, pad, h_out, w_out;
    const float* x;      /* FW, WG */
    const float* weight; /* weights [c_out][c_in][kh][kw]: FW, IG */
    float* y;            /* FW output */
    const float* dy;     /* WG, IG */
    float* dw;           /* WG output */
    float* dx;           /* IG output (may alias x) */
    float* col;          /* scratch, c_in kh kw h_out w_out floats */
    float* weight_t;     /* scratch for IG, c_in kh kw c_out floats */
    matmul_fn_t mm;      /* NULL: chosen from the shape */
} conv2d_args_t;

#define CONV2D_MACS(c_in, c_out, kh, kw, h_out, w_out)                                                       \
    ((unsigned)(c_out) * (c_in) * (kh) * (kw) * (h_out) * (w_out))

void conv2d_fw(const conv2d_args_t* args);
void conv2d_wg(const conv2d_args_t* args);
void conv2d_ig(const conv2d_args_t* args);
/* team_fork entry points: arg is a conv2d_args_t*. */
void conv2d_fw_fn(void* arg);
void conv2d_wg_fn(void* arg);
void conv2d_ig_fn(void* arg);

#endif
