#include "im2col_fp32.h"

#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "kernel_error.h"
#include "runtime.h"

_Noreturn void layers_shape_error(const char* who, const char* msg) {
    kernel_error(who, msg);
}

int im2col_check(const char* who, const im2col_args_t* a) {
    if (a->c == 0 || a->h == 0 || a->w == 0 || a->kh == 0 || a->kw == 0 || a->stride == 0 || a->h_out == 0 ||
        a->w_out == 0)
        layers_shape_error(who, "zero dimension");
    if (a->h_out != conv_out_size(a->h, a->kh, a->stride, a->pad) ||
        a->w_out != conv_out_size(a->w, a->kw, a->stride, a->pad))
        layers_shape_error(who, "output size does not match input, kernel, stride and padding");
    return 0;
}

void im2col_fp32(const im2col_args_t* a) {
    const unsigned kk = a->kh * a->kw, rows = a->c * kk, npix = a->h_out * a->w_out;
    const int pad = (int)a->pad, stride = (int)a->stride, h = (int)a->h, w = (int)a->w;
    unsigned first, last;
    if (!a->transposed) {
        /* One row (ci, i, j) per step: contiguous writes, and the reads of a row are a strided window. */
        split_range(rows, core_id(), num_cores(), &first, &last);
        for (unsigned r = first; r < last; ++r) {
            const unsigned ci = r / kk, i = (r % kk) / a->kw, j = r % a->kw;
            const float* xc = a->x + ci * a->h * a->w;
            float* out = a->col + r * npix;
            for (unsigned oy = 0; oy < a->h_out; ++oy) {
                const int iy = (int)oy * stride - pad + (int)i;
                const int row_ok = iy >= 0 && iy < h;
                for (unsigned ox = 0; ox < a->w_out; ++ox) {
                    const int ix = (int)ox * stride - pad + (int)j;
                    *out++ = row_ok && ix >= 0 && ix < w ? xc[iy * w + ix] : 0.0f;
                }
            }
        }
    } else {
        /* One output pixel per step: its receptive field is one contiguous row of col. */
        split_range(npix, core_id(), num_cores(), &first, &last);
        for (unsigned p = first; p < last; ++p) {
            const int oy = (int)(p / a->w_out), ox = (int)(p % a->w_out);
            float* out = a->col + p * rows;
            for (unsigned ci = 0; ci < a->c; ++ci) {
                const float* xc = a->x + ci * a->h * a->w;
                for (unsigned i = 0; i < a->kh; ++i) {
                    const int iy = oy * stride - pad + (int)i;
                    const int row_ok = iy >= 0 && iy < h;
                    for (unsigned j = 0; j < a->kw; ++j) {
                        const int ix = ox * stride - pad + (int)j;
                        *out++ = row_ok && ix >= 0 && ix < w ? xc[iy * w + ix] : 0.0f;
                    }
                }
            }
        }
    }
}

void col2im_fp32(const im2col_args_t* a) {
    const unsigned kk = a->kh * a->kw, npix = a->h_out * a->w_out, s = a->stride;
    unsigned first, last;
    /* Rows (ci, y) of x: a gather, so each output has one owner and a fixed summation order. The taps of
     * (y, x) are i = (y + pad) % s + s t with oy = (y + pad - i) / s (likewise j, ox): one division per
     * row and per column instead of per tap. */
    split_range(a->c * a->h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last; ++r) {
        const unsigned ci = r / a->h, ty = r % a->h + a->pad;
        const unsigned i0 = ty % s;
        float* out = a->x + r * a->w;
        for (unsigned x = 0; x < a->w; ++x) {
            const unsigned tx = x + a->pad, j0 = tx % s;
            float acc = 0.0f;
            for (unsigned i = i0, oy = (ty - i0) / s; i < a->kh && i <= ty; i += s, --oy) {
                if (oy >= a->h_out) continue;
                const float* src = a->col + (ci * kk + i * a->kw) * npix + oy * a->w_out;
                for (unsigned j = j0, ox = (tx - j0) / s; j < a->kw && j <= tx; j += s, --ox)
                    if (ox < a->w_out) acc += src[j * npix + ox];
            }
            out[x] = acc;
        }
    }
}

void transpose_fp32(const float* src, float* dst, unsigned rows, unsigned cols) {
    unsigned first, last;
    split_range(cols, core_id(), num_cores(), &first, &last);
    for (unsigned c = first; c < last; ++c)
        for (unsigned r = 0; r < rows; ++r)
            dst[c * rows + r] = src[r * cols + c];
}
