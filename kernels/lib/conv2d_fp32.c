#include "conv2d_fp32.h"

#include "cluster.h"
#include "im2col_fp32.h"

static im2col_args_t layout_of(const conv2d_args_t* a, float* x, unsigned transposed) {
    im2col_args_t t = {.x = x,
                       .col = a->col,
                       .c = a->c_in,
                       .h = a->h,
                       .w = a->w,
                       .kh = a->kh,
                       .kw = a->kw,
                       .stride = a->stride,
                       .pad = a->pad,
                       .h_out = a->h_out,
                       .w_out = a->w_out,
                       .transposed = transposed};
    if (a->c_out == 0) layers_shape_error("conv2d", "zero dimension");
    im2col_check("conv2d", &t);
    return t;
}

static void run_mm(const conv2d_args_t* a, const float* pa, const float* pb, float* pc, unsigned m,
                   unsigned n, unsigned k) {
    const matmul_args_t t = {.a = pa, .b = pb, .c = pc, .m = m, .n = n, .k = k};
    /* Split the larger side of C over the cores: the smaller one is often below 8 x the unroll. */
    matmul_fn_t fn = a->mm ? a->mm : (n >= m ? mm_M_unroll_4x4 : mm_unroll_4x4);
    fn(&t);
}

void conv2d_fw(const conv2d_args_t* a) {
    /* im2col only reads x; the cast lets the two directions share one argument block. */
    const im2col_args_t t = layout_of(a, (float*)a->x, 0);
    const unsigned k = a->c_in * a->kh * a->kw, p = a->h_out * a->w_out;
    im2col_fp32(&t);
    barrier();
    run_mm(a, a->weight, a->col, a->y, a->c_out, p, k);
}

void conv2d_wg(const conv2d_args_t* a) {
    const im2col_args_t t = layout_of(a, (float*)a->x, 1);
    const unsigned k = a->c_in * a->kh * a->kw, p = a->h_out * a->w_out;
    im2col_fp32(&t);
    barrier();
    run_mm(a, a->dy, a->col, a->dw, a->c_out, k, p);
}

void conv2d_ig(const conv2d_args_t* a) {
    const im2col_args_t t = layout_of(a, a->dx, 0);
    const unsigned k = a->c_in * a->kh * a->kw, p = a->h_out * a->w_out;
    transpose_fp32(a->weight, a->weight_t, a->c_out, k);
    barrier();
    run_mm(a, a->weight_t, a->dy, a->col, k, p, a->c_out);
    barrier();
    col2im_fp32(&t);
}

void conv2d_fw_fn(void* arg) {
    conv2d_fw((const conv2d_args_t*)arg);
}
void conv2d_wg_fn(void* arg) {
    conv2d_wg((const conv2d_args_t*)arg);
}
void conv2d_ig_fn(void* arg) {
    conv2d_ig((const conv2d_args_t*)arg);
}
