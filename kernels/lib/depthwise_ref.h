/*
 * Plain loops of the DepthWise 3x3 steps (depthwise_fp32.h) that take their terms in the kernels' order,
 * so a kernel's result must match them bit for bit: one accumulator from 0, taps in (i, j) order, pixels
 * in (y, x) order, taps outside the plane skipped.
 */
#ifndef PULPSIM_DEPTHWISE_REF_H
#define PULPSIM_DEPTHWISE_REF_H

/* sum_{i,j} k[i][j] in[y + s (i - 1)][x + s (j - 1)] over the taps inside the h x w plane. */
static inline float dw_ref_tap_sum(const float* k, const float* in, int h, int w, int y, int x, int s) {
    float acc = 0.0f;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const int iy = y + s * (i - 1), ix = x + s * (j - 1);
            if (iy >= 0 && iy < h && ix >= 0 && ix < w) acc += k[i * 3 + j] * in[iy * w + ix];
        }
    return acc;
}

/* FW (s = +1: y from x) or IG (s = -1: dx from dy) of c channels of h x w. */
static inline void dw_ref_fw_ig(const float* in, const float* weight, float* out, unsigned c, unsigned h,
                                unsigned w, int s) {
    for (unsigned ch = 0; ch < c; ++ch)
        for (unsigned p = 0; p < h * w; ++p)
            out[ch * h * w + p] = dw_ref_tap_sum(weight + 9 * ch, in + ch * h * w, (int)h, (int)w,
                                                 (int)(p / w), (int)(p % w), s);
}

static inline void dw_ref_wg(const float* x, const float* dy, float* dw, unsigned c, unsigned h, unsigned w) {
    const int H = (int)h, W = (int)w;
    for (unsigned ch = 0; ch < c; ++ch)
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                float acc = 0.0f;
                for (int yy = 0; yy < H; ++yy)
                    for (int xx = 0; xx < W; ++xx) {
                        const int iy = yy + i - 1, ix = xx + j - 1;
                        if (iy >= 0 && iy < H && ix >= 0 && ix < W)
                            acc += dy[ch * h * w + yy * W + xx] * x[ch * h * w + iy * W + ix];
                    }
                dw[ch * 9 + i * 3 + j] = acc;
            }
}

#endif
