/*
 * Data-layout steps of the FP32 convolution kernels (conv2d_fp32.h), CHW tensors in the TCDM, batch 1, run
 * by every core of a team (inside team_fork), each core on its split_range share; no barrier at the end.
 *
 *   im2col_fp32(&a)     x [c][h][w] -> the receptive fields of a kh x kw kernel at stride s with zero
 *                       padding p:
 *                         a.transposed == 0: col [c kh kw][ho wo]   (row (ci, i, j), column (oy, ox))
 *                         a.transposed == 1: col [ho wo][c kh kw]
 *                       ho = (h + 2p - kh) / s + 1, wo likewise
 *   col2im_fp32(&a)     the adjoint: x[ci][y][x] = sum over (i, j) in ascending order of the col entries
 *                       that im2col would read from (ci, y, x) (col in the non-transposed layout); one
 *                       accumulator per output, so no two cores write the same element
 *   transpose_fp32(...) dst [cols][rows] = src [rows][cols]^T
 *
 * layers_shape_error() reports a bad shape: core 0 prints "error: <msg>" and exits with status 1, the other
 * cores wait in a barrier until the simulation ends.
 */
#ifndef PULPSIM_IM2COL_FP32_H
#define PULPSIM_IM2COL_FP32_H

typedef struct {
    float* x;   /* [c][h][w]: input of im2col, output of col2im */
    float* col; /* see above */
    unsigned c, h, w;
    unsigned kh, kw, stride, pad;
    unsigned h_out, w_out; /* must match the formula above */
    unsigned transposed;
} im2col_args_t;

void im2col_fp32(const im2col_args_t* args);
void col2im_fp32(const im2col_args_t* args);
void transpose_fp32(const float* src, float* dst, unsigned rows, unsigned cols);

/* Output size of a kh-wide window at stride s with padding p over n inputs; 0 if it does not fit. */
static inline unsigned conv_out_size(unsigned n, unsigned k, unsigned stride, unsigned pad) {
    if (stride == 0 || n + 2 * pad < k) return 0;
    return (n + 2 * pad - k) / stride + 1;
}

/* Returns 0 if the shape is usable, else reports it with layers_shape_error() (does not return). */
int im2col_check(const char* who, const im2col_args_t* args);
_Noreturn void layers_shape_error(const char* who, const char* msg);

#endif
