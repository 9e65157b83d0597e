/* Convolution training steps (kernels/lib/conv2d_fp32.c: im2col and a matmul; 3 x 6 x 5 in, 4 out, 3x3, pad
 * 1, stride 1 and 2) and the RNN forward and backward steps (kernels/lib/rnn_fp32.c, libm and fast tanh). */
#include "conv2d_fp32.h"
#include "cycles.h"
#include "rnn_fp32.h"

#define CI 3
#define H 6
#define W 5
#define CO 4
static float x[CI * H * W], weight[CO * CI * 9], y[CO * H * W], dy[CO * H * W], dw[CO * CI * 9],
    dx[CI * H * W], col[CI * 9 * H * W], weight_t[CI * 9 * CO];

#define T 3
#define X 5
#define HS 6
static float rx[T * X], wx[HS * X], wh[HS * HS], bias[HS], h[(T + 1) * HS], dh[HS], g[T * HS], rdx[T * X],
    dwx[HS * X], dwh[HS * HS], db[HS];

static uint32_t conv_written(void) {
    return hash_floats(y, CO * H * W) ^ hash_floats(dx, CI * H * W) ^ hash_floats(dw, CO * CI * 9);
}
static uint32_t rnn_written(void) {
    return hash_floats(h, (T + 1) * HS) ^ hash_floats(dwx, HS * X) ^ hash_floats(dwh, HS * HS) ^
           hash_floats(rdx, T * X) ^ hash_floats(dh, HS) ^ hash_floats(db, HS);
}

int main(void) {
    for (unsigned i = 0; i < CI * H * W; ++i)
        x[i] = (float)(i % 7) * 0.25f - 0.5f;
    for (unsigned i = 0; i < CO * H * W; ++i)
        dy[i] = (float)(i % 3) * 0.5f - 0.25f;
    for (unsigned i = 0; i < CO * CI * 9; ++i)
        weight[i] = (float)(i % 5) * 0.5f + 0.125f;
    conv2d_args_t conv = {.c_in = CI,
                          .h = H,
                          .w = W,
                          .c_out = CO,
                          .kh = 3,
                          .kw = 3,
                          .stride = 1,
                          .pad = 1,
                          .h_out = H,
                          .w_out = W,
                          .x = x,
                          .weight = weight,
                          .y = y,
                          .dy = dy,
                          .dw = dw,
                          .dx = dx,
                          .col = col,
                          .weight_t = weight_t};
    MEASURE(0, conv2d_fw(&conv), conv_written());
    MEASURE(1, conv2d_wg(&conv), conv_written());
    MEASURE(2, conv2d_ig(&conv), conv_written());
    conv.stride = 2;
    conv.h_out = 3;
    conv.w_out = 3;
    MEASURE(3, conv2d_fw(&conv), conv_written());

    for (unsigned i = 0; i < T * X; ++i)
        rx[i] = (float)(i % 7) * 0.2f - 0.6f;
    for (unsigned i = 0; i < HS * X; ++i)
        wx[i] = (float)(i % 5) * 0.1f - 0.2f;
    for (unsigned i = 0; i < HS * HS; ++i)
        wh[i] = (float)(i % 3) * 0.1f - 0.1f;
    for (unsigned i = 0; i < HS; ++i) {
        bias[i] = 0.01f * (float)i;
        h[i] = 0.1f;
        dh[i] = 0.3f - 0.1f * (float)i;
    }
    rnn_args_t rnn = {.t = T,
                      .x_size = X,
                      .h_size = HS,
                      .x = rx,
                      .wx = wx,
                      .wh = wh,
                      .b = bias,
                      .h = h,
                      .act = RNN_TANH_LIBM,
                      .dh = dh,
                      .g = g,
                      .dx = rdx,
                      .dwx = dwx,
                      .dwh = dwh,
                      .db = db};
    MEASURE(4, rnn_fw(&rnn), rnn_written());
    MEASURE(5, rnn_bw(&rnn), rnn_written());
    rnn.act = RNN_TANH_FAST;
    MEASURE(6, rnn_fw(&rnn), rnn_written());
    return 0;
}
