/*
 * FP32 DepthWise 3x3 convolution training steps, stride 1, zero padding 1 (so the output is h x w), CHW
 * tensors in the TCDM, batch 1; direct loops, run by every core of a team (inside team_fork, or through
 * the *_fn entry points), each core on its split_range share, no barrier at the end.
 *
 *   x, y, dy, dx [c][h][w], w / dw [c][3][3]
 *
 *   dw_fw  y[c][y][x]  = sum_{i,j} w[c][i][j] x[c][y+i-1][x+j-1]          rows (c, y) split over the cores
 *   dw_wg  dw[c][i][j] = sum_{y,x} dy[c][y][x] x[c][y+i-1][x+j-1]         the 9 c weights split
 *   dw_ig  dx[c][y][x] = sum_{i,j} w[c][i][j] dy[c][y-i+1][x-j+1]         rows (c, y) split
 *
 * Each output is one fmadd chain over the taps that fall inside the tensor, in the order written (i then j;
 * y then x), starting at 0: bit-identical to plain loops in that order. MACs per step: 9 c h w
 * (DW3X3_MACS, padding taps included). A zero dimension prints "error: depthwise: ..." and exits 1.
 */
#ifndef PULPSIM_DEPTHWISE_FP32_H
#define PULPSIM_DEPTHWISE_FP32_H

typedef struct {
    unsigned c, h, w;
    const float* x;      /* FW, WG */
    const float* weight; /* [c][3][3]: FW, IG */
    float* y;            /* FW output */
    const float* dy;     /* WG, IG */
    float* dw;           /* WG output */
    float* dx;           /* IG output */
} dw3x3_args_t;

#define DW3X3_MACS(c, h, w) (9u * (unsigned)(c) * (h) * (w))

void dw3x3_fw(const dw3x3_args_t* args);
void dw3x3_wg(const dw3x3_args_t* args);
void dw3x3_ig(const dw3x3_args_t* args);
void dw3x3_fw_fn(void* arg);
void dw3x3_wg_fn(void* arg);
void dw3x3_ig_fn(void* arg);

#endif
