/* Layer steps of the generated network programs on L2 tensors (see network_layers.h). */
#include "network_layers.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "activations_fp32.h"
#include "cluster.h"
#include "depthwise_fp32.h"
#include "dma.h"
#include "im2col_fp32.h"
#include "runtime.h"
#include "tiled_matmul.h"
#include "train_ops_fp32.h"

#define NET_MAX_CORES 16

/* ---- element-wise steps ---------------------------------------------------------------------------- */

typedef struct {
    net_ew_op_t op;
    unsigned n, chunk, tiles;
    const float* a;
    const float* b;
    float* out;
    float param;
    float* abuf[2];
    float* bbuf[2];
} ew_ctx_t;

static unsigned chunk_of(const ew_ctx_t* t, unsigned tile, unsigned* first) {
    *first = tile * t->chunk;
    return t->n - *first < t->chunk ? t->n - *first : t->chunk;
}

static int has_second(net_ew_op_t op) {
    return op == NET_RELU_BW || op == NET_LEAKY_RELU_BW || op == NET_SIGMOID_BW || op == NET_TANH_BW ||
           op == NET_SGD;
}

static dma_id_t ew_load(void* ctx, unsigned tile, unsigned buf) {
    const ew_ctx_t* t = ctx;
    unsigned first;
    const unsigned count = chunk_of(t, tile, &first);
    const dma_id_t id = dma_copy_in(t->abuf[buf], t->a + first, count * 4u);
    return has_second(t->op) ? dma_copy_in(t->bbuf[buf], t->b + first, count * 4u) : id;
}

static void ew_compute(void* ctx, unsigned tile, unsigned buf) {
    const ew_ctx_t* t = ctx;
    unsigned first;
    const unsigned count = chunk_of(t, tile, &first);
    float* a = t->abuf[buf];
    const float* b = t->bbuf[buf];
    /* In place on the first operand's chunk: every kernel reads element i before it writes element i. */
    const act_args_t act = {.n = count, .x = a, .y = a, .dy = b, .dx = a, .alpha = t->param};
    switch (t->op) {
    case NET_RELU_FW: relu_fw(&act); break;
    case NET_RELU_BW: relu_bw(&act); break;
    case NET_LEAKY_RELU_FW: leaky_relu_fw(&act); break;
    case NET_LEAKY_RELU_BW: leaky_relu_bw(&act); break;
    case NET_SIGMOID_FW: sigmoid_fw(&act); break;
    case NET_SIGMOID_BW: sigmoid_bw(&act); break;
    case NET_TANH_FW: {
        const tanh_args_t th = {.v = a, .n = count};
        tanh_fast_parallel(&th);
        break;
    }
    case NET_TANH_BW: {
        unsigned lo, hi;
        split_range(count, core_id(), num_cores(), &lo, &hi);
        for (unsigned i = lo; i < hi; ++i)
            a[i] = b[i] * (1.0f - a[i] * a[i]);
        break;
    }
    case NET_SGD: {
        const sgd_args_t sgd = {.n = count, .w = a, .dw = b, .lr = t->param};
        sgd_update(&sgd);
        break;
    }
    }
}

static dma_id_t ew_store(void* ctx, unsigned tile, unsigned buf) {
    const ew_ctx_t* t = ctx;
    unsigned first;
    const unsigned count = chunk_of(t, tile, &first);
    return dma_copy_out(t->out + first, t->abuf[buf], count * 4u);
}

static void ew_run(void* ctx) {
    const dma_pipeline_t p = {((ew_ctx_t*)ctx)->tiles, ew_load, ew_compute, ew_store, ctx};
    dma_double_buffer(&p);
}

void net_elementwise(net_ew_op_t op, unsigned n, const float* a, const float* b, float* out, float param) {
    if (n == 0) kernel_fail("net_elementwise: zero dimension");
    const unsigned operands = has_second(op) ? 2u : 1u;
    /* Chunks of a multiple of 2 words: the DMA moves 8-byte aligned blocks fastest. */
    unsigned chunk = (tiled_l1_budget() / (2u * operands * 4u)) & ~1u;
    if (chunk == 0) kernel_fail("net_elementwise: no TCDM for two chunks");
    if (chunk > n) chunk = n;
    TCDM_BSS static ew_ctx_t t;
    t = (ew_ctx_t){.op = op,
                   .n = n,
                   .chunk = chunk,
                   .tiles = (n + chunk - 1) / chunk,
                   .a = a,
                   .b = b,
                   .out = out,
                   .param = param};
    float* p = l1_free_start();
    for (unsigned i = 0; i < 2; ++i) {
        t.abuf[i] = p;
        p += chunk;
        t.bbuf[i] = operands == 2 ? p : NULL;
        p += operands == 2 ? chunk : 0u;
    }
    team_fork(num_cores(), ew_run, &t);
}

/* ---- channel groups (DepthWise, pooling) -------------------------------------------------------------- */

typedef enum { DW_FW, DW_WG, DW_IG, POOL_FW, POOL_BW } group_step_t;

/* One buffer set holds, per channel, up to two inputs (in0, in1) and an output, each `*_len` floats. */
typedef struct {
    group_step_t step;
    const net_depthwise_t* dw;
    dw3x3_fn_t dw3x3; /* a 3x3 family kernel for the step, or NULL */
    const net_avgpool_t* pool;
    unsigned c, group, tiles;
    unsigned in0_len, in1_len, out_len;
    const float* in0;
    const float* in1;
    float* out;
    float* in0_buf[2];
    float* in1_buf[2];
    float* out_buf[2];
} group_ctx_t;

static unsigned group_of(const group_ctx_t* t, unsigned tile, unsigned* count) {
    const unsigned c0 = tile * t->group;
    *count = t->c - c0 < t->group ? t->c - c0 : t->group;
    return c0;
}

static dma_id_t group_load(void* ctx, unsigned tile, unsigned buf) {
    const group_ctx_t* t = ctx;
    unsigned g;
    const unsigned c0 = group_of(t, tile, &g);
    const dma_id_t id = dma_copy_in(t->in0_buf[buf], t->in0 + c0 * t->in0_len, g * t->in0_len * 4u);
    return t->in1_len ? dma_copy_in(t->in1_buf[buf], t->in1 + c0 * t->in1_len, g * t->in1_len * 4u) : id;
}

static dma_id_t group_store(void* ctx, unsigned tile, unsigned buf) {
    const group_ctx_t* t = ctx;
    unsigned g;
    const unsigned c0 = group_of(t, tile, &g);
    return dma_copy_out(t->out + c0 * t->out_len, t->out_buf[buf], g * t->out_len * 4u);
}

/* y[c][oy][ox] = sum_{i,j} w[c][i][j] x[c][oy s - pt + i][ox s - pl + j]; rows (c, oy) split. */
static void dw_fw_rows(const net_depthwise_t* l, unsigned g, const float* x, const float* w, float* y) {
    unsigned lo, hi;
    split_range(g * l->h_out, core_id(), num_cores(), &lo, &hi);
    const unsigned k = l->k;
    for (unsigned r = lo; r < hi; ++r) {
        const unsigned c = r / l->h_out, oy = r % l->h_out;
        const float* xc = x + c * l->h * l->w;
        const float* wc = w + c * k * k;
        for (unsigned ox = 0; ox < l->w_out; ++ox) {
            float acc = 0.0f;
            for (unsigned i = 0; i < k; ++i) {
                const int iy = (int)(oy * l->stride + i) - (int)l->pad_top;
                if (iy < 0 || iy >= (int)l->h) continue;
                for (unsigned j = 0; j < k; ++j) {
                    const int ix = (int)(ox * l->stride + j) - (int)l->pad_left;
                    if (ix < 0 || ix >= (int)l->w) continue;
                    acc += wc[i * k + j] * xc[iy * (int)l->w + ix];
                }
            }
            y[(c * l->h_out + oy) * l->w_out + ox] = acc;
        }
    }
}

/* dw[c][i][j] = sum_{oy,ox} dy[c][oy][ox] x[c][oy s - pt + i][ox s - pl + j]; the g k k weights split. */
static void dw_wg_weights(const net_depthwise_t* l, unsigned g, const float* x, const float* dy, float* dw) {
    const unsigned kk = l->k * l->k;
    unsigned lo, hi;
    split_range(g * kk, core_id(), num_cores(), &lo, &hi);
    for (unsigned e = lo; e < hi; ++e) {
        const unsigned c = e / kk, i = (e % kk) / l->k, j = e % l->k;
        const float* xc = x + c * l->h * l->w;
        const float* dyc = dy + c * l->h_out * l->w_out;
        float acc = 0.0f;
        for (unsigned oy = 0; oy < l->h_out; ++oy) {
            const int iy = (int)(oy * l->stride + i) - (int)l->pad_top;
            if (iy < 0 || iy >= (int)l->h) continue;
            for (unsigned ox = 0; ox < l->w_out; ++ox) {
                const int ix = (int)(ox * l->stride + j) - (int)l->pad_left;
                if (ix < 0 || ix >= (int)l->w) continue;
                acc += dyc[oy * l->w_out + ox] * xc[iy * (int)l->w + ix];
            }
        }
        dw[e] = acc;
    }
}

/* dx[c][iy][ix] = sum over the taps (i, j) whose output (oy, ox) exists of w[c][i][j] dy[c][oy][ox]: the
 * taps i = (iy + pt) mod s, + s, ... (and j likewise) land on outputs, oy = (iy + pt - i) / s; rows (c, iy)
 * split. */
static void dw_ig_rows(const net_depthwise_t* l, unsigned g, const float* dy, const float* w, float* dx) {
    unsigned lo, hi;
    split_range(g * l->h, core_id(), num_cores(), &lo, &hi);
    const unsigned k = l->k, s = l->stride;
    for (unsigned r = lo; r < hi; ++r) {
        const unsigned c = r / l->h, iy = r % l->h;
        const float* dyc = dy + c * l->h_out * l->w_out;
        const float* wc = w + c * k * k;
        const unsigned ty = iy + l->pad_top;
        for (unsigned ix = 0; ix < l->w; ++ix) {
            const unsigned tx = ix + l->pad_left;
            float acc = 0.0f;
            for (unsigned i = ty % s; i < k && i <= ty; i += s) {
                const unsigned oy = (ty - i) / s;
                if (oy >= l->h_out) continue;
                for (unsigned j = tx % s; j < k && j <= tx; j += s) {
                    const unsigned ox = (tx - j) / s;
                    if (ox >= l->w_out) continue;
                    acc += wc[i * k + j] * dyc[oy * l->w_out + ox];
                }
            }
            dx[(c * l->h + iy) * l->w + ix] = acc;
        }
    }
}

/* y[c][oy][ox] = (sum of the window) / (kh kw); rows (c, oy) split. */
static void pool_fw_rows(const net_avgpool_t* l, unsigned g, const float* x, float* y) {
    const unsigned ho = l->h / l->kh, wo = l->w / l->kw;
    const float scale = 1.0f / (float)(l->kh * l->kw);
    unsigned lo, hi;
    split_range(g * ho, core_id(), num_cores(), &lo, &hi);
    for (unsigned r = lo; r < hi; ++r) {
        const unsigned c = r / ho, oy = r % ho;
        for (unsigned ox = 0; ox < wo; ++ox) {
            float acc = 0.0f;
            for (unsigned i = 0; i < l->kh; ++i)
                for (unsigned j = 0; j < l->kw; ++j)
                    acc += x[(c * l->h + oy * l->kh + i) * l->w + ox * l->kw + j];
            y[(c * ho + oy) * wo + ox] = acc * scale;
        }
    }
}

/* dx[c][iy][ix] = dy[c][iy / kh][ix / kw] / (kh kw), 0 where no window covers the input; rows (c, iy) split,
 * each row walked window by window (no division per element). */
static void pool_bw_rows(const net_avgpool_t* l, unsigned g, const float* dy, float* dx) {
    const unsigned ho = l->h / l->kh, wo = l->w / l->kw;
    const float scale = 1.0f / (float)(l->kh * l->kw);
    unsigned lo, hi;
    split_range(g * l->h, core_id(), num_cores(), &lo, &hi);
    for (unsigned r = lo; r < hi; ++r) {
        const unsigned c = r / l->h, iy = r % l->h, oy = iy / l->kh;
        float* out = dx + (c * l->h + iy) * l->w;
        unsigned ix = 0;
        if (oy < ho)
            for (unsigned ox = 0; ox < wo; ++ox) {
                const float v = dy[(c * ho + oy) * wo + ox] * scale;
                for (unsigned j = 0; j < l->kw; ++j)
                    out[ix++] = v;
            }
        for (; ix < l->w; ++ix)
            out[ix] = 0.0f;
    }
}

static void group_compute(void* ctx, unsigned tile, unsigned buf) {
    const group_ctx_t* t = ctx;
    unsigned g;
    group_of(t, tile, &g);
    if (t->dw3x3) {
        const net_depthwise_t* l = t->dw;
        dw3x3_args_t a = {.c = g, .h = l->h, .w = l->w};
        if (t->step == DW_FW) a.x = t->in0_buf[buf], a.weight = t->in1_buf[buf], a.y = t->out_buf[buf];
        if (t->step == DW_WG) a.x = t->in0_buf[buf], a.dy = t->in1_buf[buf], a.dw = t->out_buf[buf];
        if (t->step == DW_IG) a.dy = t->in0_buf[buf], a.weight = t->in1_buf[buf], a.dx = t->out_buf[buf];
        t->dw3x3(&a);
        return;
    }
    switch (t->step) {
    case DW_FW: dw_fw_rows(t->dw, g, t->in0_buf[buf], t->in1_buf[buf], t->out_buf[buf]); break;
    case DW_WG: dw_wg_weights(t->dw, g, t->in0_buf[buf], t->in1_buf[buf], t->out_buf[buf]); break;
    case DW_IG: dw_ig_rows(t->dw, g, t->in0_buf[buf], t->in1_buf[buf], t->out_buf[buf]); break;
    case POOL_FW: pool_fw_rows(t->pool, g, t->in0_buf[buf], t->out_buf[buf]); break;
    case POOL_BW: pool_bw_rows(t->pool, g, t->in0_buf[buf], t->out_buf[buf]); break;
    }
}

static void group_run(void* ctx) {
    const dma_pipeline_t p = {((group_ctx_t*)ctx)->tiles, group_load, group_compute, group_store, ctx};
    dma_double_buffer(&p);
}

TCDM_BSS static group_ctx_t group_ctx;

static void run_groups(const char* name, group_ctx_t* t) {
    if (t->c == 0 || t->in0_len == 0 || t->out_len == 0) kernel_fail("%s: zero dimension", name);
    const uint32_t per_channel = (t->in0_len + t->in1_len + t->out_len) * 4u;
    unsigned group = tiled_l1_budget() / (2u * per_channel);
    if (group == 0)
        kernel_fail("%s: %u bytes of free TCDM cannot hold two buffer sets of one channel (%u bytes each)",
                    name, (unsigned)tiled_l1_budget(), (unsigned)per_channel);
    if (group > t->c) group = t->c;
    t->group = group;
    t->tiles = (t->c + group - 1) / group;
    float* p = l1_free_start();
    for (unsigned b = 0; b < 2; ++b) {
        t->in0_buf[b] = p;
        p += group * t->in0_len;
        t->in1_buf[b] = p;
        p += group * t->in1_len;
        t->out_buf[b] = p;
        p += group * t->out_len;
    }
    team_fork(num_cores(), group_run, t);
}

static void run_depthwise(group_step_t step, const net_depthwise_t* l) {
    const unsigned plane = l->h * l->w, out_plane = l->h_out * l->w_out, kk = l->k * l->k;
    if (l->k == 0 || l->stride == 0 || l->h_out == 0 || l->w_out == 0)
        kernel_fail("net_depthwise: zero dimension");
    group_ctx_t* t = &group_ctx;
    *t = (group_ctx_t){.step = step, .dw = l, .c = l->c};
    switch (step) {
    case DW_FW:
        *t = (group_ctx_t){.step = step,
                           .dw = l,
                           .c = l->c,
                           .in0_len = plane,
                           .in1_len = kk,
                           .out_len = out_plane,
                           .in0 = l->x,
                           .in1 = l->weight,
                           .out = l->y};
        break;
    case DW_WG:
        *t = (group_ctx_t){.step = step,
                           .dw = l,
                           .c = l->c,
                           .in0_len = plane,
                           .in1_len = out_plane,
                           .out_len = kk,
                           .in0 = l->x,
                           .in1 = l->dy,
                           .out = l->dw};
        break;
    default:
        *t = (group_ctx_t){.step = step,
                           .dw = l,
                           .c = l->c,
                           .in0_len = out_plane,
                           .in1_len = kk,
                           .out_len = plane,
                           .in0 = l->dy,
                           .in1 = l->weight,
                           .out = l->dx};
        break;
    }
    if (l->variant) {
        if (l->k != 3 || l->stride != 1 || l->pad_top != 1 || l->pad_left != 1 || l->h_out != l->h ||
            l->w_out != l->w)
            kernel_fail("net_depthwise: kernel %s needs a 3x3 kernel at stride 1 with padding 1", l->variant);
        const unsigned family_step = step == DW_FW ? DW3X3_FW : step == DW_WG ? DW3X3_WG : DW3X3_IG;
        for (unsigned v = 0; v < DW3X3_VARIANTS && !t->dw3x3; ++v)
            if (dw3x3_variants[v].step == family_step && strcmp(dw3x3_variants[v].name, l->variant) == 0)
                t->dw3x3 = dw3x3_variants[v].fn;
        if (!t->dw3x3)
            kernel_fail("net_depthwise: no DepthWise 3x3 kernel named %s for this step", l->variant);
    }
    run_groups("net_depthwise", t);
}

void net_depthwise_fw(const net_depthwise_t* l) {
    run_depthwise(DW_FW, l);
}
void net_depthwise_wg(const net_depthwise_t* l) {
    run_depthwise(DW_WG, l);
}
void net_depthwise_ig(const net_depthwise_t* l) {
    run_depthwise(DW_IG, l);
}

void net_avgpool_fw(const net_avgpool_t* l) {
    if (l->kh == 0 || l->kw == 0) kernel_fail("net_avgpool: zero window");
    group_ctx = (group_ctx_t){.step = POOL_FW,
                              .pool = l,
                              .c = l->c,
                              .in0_len = l->h * l->w,
                              .out_len = (l->h / l->kh) * (l->w / l->kw),
                              .in0 = l->x,
                              .out = l->y};
    run_groups("net_avgpool_fw", &group_ctx);
}

void net_avgpool_bw(const net_avgpool_t* l) {
    if (l->kh == 0 || l->kw == 0) kernel_fail("net_avgpool: zero window");
    group_ctx = (group_ctx_t){.step = POOL_BW,
                              .pool = l,
                              .c = l->c,
                              .in0_len = (l->h / l->kh) * (l->w / l->kw),
                              .out_len = l->h * l->w,
                              .in0 = l->dy,
                              .out = l->dx};
    run_groups("net_avgpool_bw", &group_ctx);
}

/* ---- Conv2D, staged ------------------------------------------------------------------------------------ */

typedef struct {
    const net_conv2d_t* l;
    unsigned k, p;   /* K = c_in kh kw, P = h_out w_out */
    unsigned hp, wp; /* the padded input the windows read */
    float* xp;       /* [c_in][hp][wp] */
    float* col;      /* FW: [K][P]; WG: [P][K] */
    unsigned group, tiles;
    const float* in_l2; /* FW: weights; WG: dy */
    unsigned in_len;    /* floats per output channel of in_l2 */
    float* out_l2;      /* FW: y; WG: dw */
    unsigned out_len;
    unsigned wg;
    float* in_buf[2];
    float* out_buf[2];
    im2col_args_t cols;
} conv_ctx_t;

TCDM_BSS static conv_ctx_t conv_ctx;

static void conv_zero(void* arg) {
    const conv_ctx_t* t = arg;
    unsigned lo, hi;
    split_range(t->l->c_in * t->hp * t->wp, core_id(), num_cores(), &lo, &hi);
    for (unsigned i = lo; i < hi; ++i)
        t->xp[i] = 0.0f;
}

static void conv_im2col(void* arg) {
    im2col_fp32(&((const conv_ctx_t*)arg)->cols);
}

static void conv_mm(const net_conv2d_t* l, const float* a, const float* b, float* c, unsigned m, unsigned n,
                    unsigned k) {
    const matmul_args_t t = {.a = a, .b = b, .c = c, .m = m, .n = n, .k = k};
    const matmul_fn_t fn = l->mm ? l->mm : (n >= m ? mm_M_unroll_4x4 : mm_unroll_4x4);
    fn(&t);
}

static unsigned conv_group(const conv_ctx_t* t, unsigned tile, unsigned* count) {
    const unsigned c0 = tile * t->group;
    *count = t->l->c_out - c0 < t->group ? t->l->c_out - c0 : t->group;
    return c0;
}

static dma_id_t conv_load(void* ctx, unsigned tile, unsigned buf) {
    const conv_ctx_t* t = ctx;
    unsigned g;
    const unsigned c0 = conv_group(t, tile, &g);
    return dma_copy_in(t->in_buf[buf], t->in_l2 + c0 * t->in_len, g * t->in_len * 4u);
}

static void conv_compute(void* ctx, unsigned tile, unsigned buf) {
    const conv_ctx_t* t = ctx;
    unsigned g;
    conv_group(t, tile, &g);
    if (t->wg) /* dw [g][K] = dy [g][P] x colT [P][K] */
        conv_mm(t->l, t->in_buf[buf], t->col, t->out_buf[buf], g, t->k, t->p);
    else /* y [g][P] = w [g][K] x col [K][P] */
        conv_mm(t->l, t->in_buf[buf], t->col, t->out_buf[buf], g, t->p, t->k);
}

static dma_id_t conv_store(void* ctx, unsigned tile, unsigned buf) {
    const conv_ctx_t* t = ctx;
    unsigned g;
    const unsigned c0 = conv_group(t, tile, &g);
    return dma_copy_out(t->out_l2 + c0 * t->out_len, t->out_buf[buf], g * t->out_len * 4u);
}

static void conv_run(void* ctx) {
    const dma_pipeline_t p = {((conv_ctx_t*)ctx)->tiles, conv_load, conv_compute, conv_store, ctx};
    dma_double_buffer(&p);
}

/* The rows and columns of the input that the windows read, and where they sit in the padded copy. */
static void conv_extent(const conv_ctx_t* t, unsigned* rows, unsigned* cols) {
    const net_conv2d_t* l = t->l;
    *rows = t->hp - l->pad_top < l->h ? t->hp - l->pad_top : l->h;
    *cols = t->wp - l->pad_left < l->w ? t->wp - l->pad_left : l->w;
}

/* Sets up the padded input (and, for FW / WG, its im2col) in the TCDM; returns the first free float. */
static float* conv_stage(conv_ctx_t* t, const net_conv2d_t* l, unsigned wg, const char* name) {
    if (l->c_in == 0 || l->c_out == 0 || l->kh == 0 || l->kw == 0 || l->stride == 0 || l->h_out == 0 ||
        l->w_out == 0)
        kernel_fail("%s: zero dimension", name);
    *t = (conv_ctx_t){.l = l, .k = l->c_in * l->kh * l->kw, .p = l->h_out * l->w_out, .wg = wg};
    t->hp = (l->h_out - 1) * l->stride + l->kh;
    t->wp = (l->w_out - 1) * l->stride + l->kw;
    t->xp = l1_free_start();
    t->col = t->xp + ((l->c_in * t->hp * t->wp + 1u) & ~1u);
    t->cols = (im2col_args_t){.x = t->xp,
                              .col = t->col,
                              .c = l->c_in,
                              .h = t->hp,
                              .w = t->wp,
                              .kh = l->kh,
                              .kw = l->kw,
                              .stride = l->stride,
                              .pad = 0,
                              .h_out = l->h_out,
                              .w_out = l->w_out,
                              .transposed = wg};
    return t->col + ((t->k * t->p + 1u) & ~1u);
}

static void conv_fill_input(conv_ctx_t* t, const float* x) {
    const net_conv2d_t* l = t->l;
    unsigned rows, cols;
    conv_extent(t, &rows, &cols);
    team_fork(num_cores(), conv_zero, t);
    for (unsigned c = 0; c < l->c_in; ++c)
        dma_copy_in_2d(t->xp + (c * t->hp + l->pad_top) * t->wp + l->pad_left, x + c * l->h * l->w, cols * 4u,
                       rows, l->w * 4u, t->wp * 4u);
    dma_wait_all();
    team_fork(num_cores(), conv_im2col, t);
}

static void conv_groups(conv_ctx_t* t, float* free_start, const char* name) {
    const uint32_t used = (uint32_t)((uintptr_t)free_start - (uintptr_t)l1_free_start());
    const uint32_t budget = tiled_l1_budget();
    const uint32_t per_channel = (t->in_len + t->out_len) * 4u;
    unsigned group = used < budget ? (budget - used) / (2u * per_channel) : 0u;
    if (group == 0)
        kernel_fail("%s: %u bytes of free TCDM cannot hold the staged input and im2col (%u bytes) and two "
                    "buffer sets of one output channel (%u bytes each)",
                    name, (unsigned)budget, (unsigned)used, (unsigned)per_channel);
    if (group > t->l->c_out) group = t->l->c_out;
    t->group = group;
    t->tiles = (t->l->c_out + group - 1) / group;
    float* p = free_start;
    for (unsigned b = 0; b < 2; ++b) {
        t->in_buf[b] = p;
        p += group * t->in_len;
        t->out_buf[b] = p;
        p += group * t->out_len;
    }
    team_fork(num_cores(), conv_run, t);
}

void net_conv2d_fw(const net_conv2d_t* l) {
    conv_ctx_t* t = &conv_ctx;
    float* free_start = conv_stage(t, l, 0, "net_conv2d_fw");
    if ((uintptr_t)free_start - (uintptr_t)l1_free_start() > tiled_l1_budget())
        kernel_fail("net_conv2d_fw: the staged input and im2col do not fit the TCDM");
    conv_fill_input(t, l->x);
    t->in_l2 = l->weight, t->in_len = t->k, t->out_l2 = l->y, t->out_len = t->p;
    conv_groups(t, free_start, "net_conv2d_fw");
}

void net_conv2d_wg(const net_conv2d_t* l) {
    conv_ctx_t* t = &conv_ctx;
    float* free_start = conv_stage(t, l, 1, "net_conv2d_wg");
    if ((uintptr_t)free_start - (uintptr_t)l1_free_start() > tiled_l1_budget())
        kernel_fail("net_conv2d_wg: the staged input and im2col do not fit the TCDM");
    conv_fill_input(t, l->x);
    t->in_l2 = l->dy, t->in_len = t->p, t->out_l2 = l->dw, t->out_len = t->k;
    conv_groups(t, free_start, "net_conv2d_wg");
}

typedef struct {
    conv_ctx_t* t;
    float* w;  /* [c_out][K] */
    float* wt; /* [K][c_out] */
    float* dy; /* [c_out][P] */
} conv_ig_ctx_t;

static void conv_ig_team(void* arg) {
    const conv_ig_ctx_t* c = arg;
    const conv_ctx_t* t = c->t;
    transpose_fp32(c->w, c->wt, t->l->c_out, t->k);
    barrier();
    conv_mm(t->l, c->wt, c->dy, t->col, t->k, t->p, t->l->c_out);
    barrier();
    col2im_fp32(&t->cols);
}

void net_conv2d_ig(const net_conv2d_t* l) {
    conv_ctx_t* t = &conv_ctx;
    float* p = conv_stage(t, l, 0, "net_conv2d_ig");
    TCDM_BSS static conv_ig_ctx_t c;
    c.t = t;
    c.w = p;
    p += (l->c_out * t->k + 1u) & ~1u;
    c.wt = p;
    p += (l->c_out * t->k + 1u) & ~1u;
    c.dy = p;
    p += (l->c_out * t->p + 1u) & ~1u;
    const uint32_t used = (uint32_t)((uintptr_t)p - (uintptr_t)l1_free_start());
    if (used > tiled_l1_budget())
        kernel_fail("net_conv2d_ig: %u bytes of free TCDM cannot hold the staged step (%u bytes)",
                    (unsigned)tiled_l1_budget(), (unsigned)used);
    dma_copy_in(c.w, l->weight, l->c_out * t->k * 4u);
    dma_copy_in(c.dy, l->dy, l->c_out * t->p * 4u);
    dma_wait_all();
    team_fork(num_cores(), conv_ig_team, &c);
    unsigned rows, cols;
    conv_extent(t, &rows, &cols);
    for (unsigned ci = 0; ci < l->c_in; ++ci)
        dma_copy_out_2d(l->dx + ci * l->h * l->w, t->xp + (ci * t->hp + l->pad_top) * t->wp + l->pad_left,
                        cols * 4u, rows, l->w * 4u, t->wp * 4u);
    dma_wait_all();
    /* Inputs no window reads (right of or below the last one) get no gradient. */
    for (unsigned ci = 0; ci < l->c_in; ++ci)
        for (unsigned y = 0; y < l->h; ++y)
            for (unsigned x = y < rows ? cols : 0; x < l->w; ++x)
                l->dx[(ci * l->h + y) * l->w + x] = 0.0f;
}

/* ---- loss ---------------------------------------------------------------------------------------------- */

void net_loss(net_loss_kind_t kind, unsigned n, const float* out, const float* target, unsigned label,
              float* grad, float* loss) {
    if (n == 0) kernel_fail("net_loss: zero dimension");
    const unsigned padded = (n + 1u) & ~1u;
    const uint32_t bytes = (4u * padded + 2u) * 4u;
    if (bytes > tiled_l1_budget())
        kernel_fail("net_loss: %u outputs need %u bytes of TCDM, %u free", n, (unsigned)bytes,
                    (unsigned)tiled_l1_budget());
    float* x = l1_free_start();
    float* t = x + padded;
    float* y = t + padded;
    float* g = y + padded;
    float* value = g + padded;
    dma_copy_in(x, out, n * 4u);
    if (kind == NET_LOSS_MSE) dma_copy_in(t, target, n * 4u);
    dma_wait_all();
    TCDM_BSS static loss_args_t args;
    args = (loss_args_t){.n = n, .x = x, .target = t, .label = label, .y = y, .grad = g, .loss = value};
    team_fork(num_cores(), kind == NET_LOSS_MSE ? mse_loss_fn : ce_softmax_loss_fn, &args);
    dma_wait(dma_copy_out(grad, g, n * 4u));
    *loss = *value;
}

/* ---- check -----------------------------------------------------------------------------------------------
 */

typedef struct {
    const float* got;
    const float* expected;
    const float* tolerance;
    unsigned n;
    /* per core: its first element outside the tolerance (n: none), its largest error and error / tolerance */
    unsigned first_bad[NET_MAX_CORES];
    float worst[NET_MAX_CORES];
    float worst_ratio[NET_MAX_CORES];
} check_ctx_t;

static void check_share(void* arg) {
    check_ctx_t* c = arg;
    const unsigned id = core_id();
    unsigned lo, hi;
    split_range(c->n, id, num_cores(), &lo, &hi);
    float worst = 0.0f, worst_ratio = 0.0f;
    unsigned bad = c->n;
    for (unsigned i = lo; i < hi; ++i) {
        const float error =
            c->got[i] > c->expected[i] ? c->got[i] - c->expected[i] : c->expected[i] - c->got[i];
        if (!(error <= c->tolerance[i])) {
            bad = i;
            break;
        }
        if (error > worst) worst = error;
        if (error > worst_ratio * c->tolerance[i]) worst_ratio = error / c->tolerance[i];
    }
    c->first_bad[id] = bad;
    c->worst[id] = worst;
    c->worst_ratio[id] = worst_ratio;
}

int net_check(const char* name, const float* got, const float* expected, const float* tolerance, unsigned n) {
    TCDM_BSS static check_ctx_t c;
    c.got = got, c.expected = expected, c.tolerance = tolerance, c.n = n;
    const unsigned cores = num_cores() < NET_MAX_CORES ? num_cores() : NET_MAX_CORES;
    team_fork(cores, check_share, &c);
    float worst = 0.0f, worst_ratio = 0.0f;
    unsigned bad = n;
    for (unsigned k = 0; k < cores; ++k) {
        bad = c.first_bad[k] < bad ? c.first_bad[k] : bad;
        worst = c.worst[k] > worst ? c.worst[k] : worst;
        worst_ratio = c.worst_ratio[k] > worst_ratio ? c.worst_ratio[k] : worst_ratio;
    }
    if (bad < n) {
        const float error = got[bad] > expected[bad] ? got[bad] - expected[bad] : expected[bad] - got[bad];
        printf("%s: mismatch at [%u]: got %.9g, PyTorch %.9g, |error| %.3g > tolerance %.3g\n", name, bad,
               (double)got[bad], (double)expected[bad], (double)error, (double)tolerance[bad]);
        return 1;
    }
    printf("%s OK (%u values, max |error| %.3g, at most %.3g of the tolerance)\n", name, n, (double)worst,
           (double)worst_ratio);
    return 0;
}
