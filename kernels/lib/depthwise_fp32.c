#include "depthwise_fp32.h"

#include "cluster.h"
#include "im2col_fp32.h"
#include "runtime.h"

static void check(const dw3x3_args_t* a) {
    if (a->c == 0 || a->h == 0 || a->w == 0) layers_shape_error("depthwise", "zero dimension");
}

/* out[y][x] = sum_{i,j} k[i][j] in[y + s i - s][x + s j - s] over one row y of one channel; s = +1 is the
 * forward correlation, s = -1 the input gradient's flipped one. */
static void row_3x3(const float* k, const float* in, float* out, unsigned h, unsigned w, unsigned y, int s) {
    /* The weights in registers: the stores to out could alias k otherwise. */
    const float k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4], k5 = k[5], k6 = k[6], k7 = k[7],
                k8 = k[8];
    for (unsigned x = 0; x < w; ++x) {
        float acc = 0.0f;
        if (y > 0 && y + 1 < h && x > 0 && x + 1 < w) {
            /* Interior: all nine taps, no bounds tests, same order as below. */
            const float* c = in + (int)(y * w + x);
            const int dy = s * (int)w;
            acc += k0 * c[-dy - s];
            acc += k1 * c[-dy];
            acc += k2 * c[-dy + s];
            acc += k3 * c[-s];
            acc += k4 * c[0];
            acc += k5 * c[s];
            acc += k6 * c[dy - s];
            acc += k7 * c[dy];
            acc += k8 * c[dy + s];
        } else {
            for (int i = 0; i < 3; ++i) {
                const int iy = (int)y + s * (i - 1);
                if (iy < 0 || iy >= (int)h) continue;
                const float* in_row = in + iy * (int)w;
                for (int j = 0; j < 3; ++j) {
                    const int ix = (int)x + s * (j - 1);
                    if (ix < 0 || ix >= (int)w) continue;
                    acc += k[i * 3 + j] * in_row[ix];
                }
            }
        }
        out[x] = acc;
    }
}

void dw3x3_fw(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * a->h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last; ++r) {
        const unsigned c = r / a->h;
        row_3x3(a->weight + 9 * c, a->x + c * plane, a->y + r * a->w, a->h, a->w, r % a->h, 1);
    }
}

void dw3x3_ig(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * a->h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last; ++r) {
        const unsigned c = r / a->h;
        row_3x3(a->weight + 9 * c, a->dy + c * plane, a->dx + r * a->w, a->h, a->w, r % a->h, -1);
    }
}

void dw3x3_wg(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * 9, core_id(), num_cores(), &first, &last);
    for (unsigned t = first; t < last; ++t) {
        const unsigned c = t / 9, i = (t % 9) / 3, j = t % 3;
        const float* g = a->dy + c * plane;
        const float* in = a->x + c * plane;
        /* Only the (y, x) whose tap (y + i - 1, x + j - 1) is inside the input. */
        const unsigned y0 = i == 0 ? 1 : 0, y1 = i == 2 ? a->h - 1 : a->h;
        const unsigned x0 = j == 0 ? 1 : 0, x1 = j == 2 ? a->w - 1 : a->w;
        float acc = 0.0f;
        for (unsigned y = y0; y < y1; ++y) {
            const float* g_row = g + y * a->w;
            const float* in_row = in + (y + i - 1) * a->w;
            for (unsigned x = x0; x < x1; ++x)
                acc += g_row[x] * in_row[x + j - 1];
        }
        a->dw[t] = acc;
    }
}

void dw3x3_fw_fn(void* arg) {
    dw3x3_fw((const dw3x3_args_t*)arg);
}
void dw3x3_wg_fn(void* arg) {
    dw3x3_wg((const dw3x3_args_t*)arg);
}
void dw3x3_ig_fn(void* arg) {
    dw3x3_ig((const dw3x3_args_t*)arg);
}
