/* DepthWise 3x3 steps on L2 tensors, tiled by channel groups (see depthwise_tiled.h). */
#include "depthwise_tiled.h"

#include <stdint.h>

#include "cluster.h"
#include "dma.h"
#include "runtime.h"
#include "tiled_matmul.h"

typedef enum { DW_FW, DW_WG, DW_IG } dw_step_t;

typedef struct {
    dw_step_t step;
    const dw3x3_args_t* l2;
    unsigned group, tiles, plane;
    /* Per buffer set: the first input plane, the second input (plane or weights), the output. */
    float* in_plane[2];
    float* in_other[2];
    float* out[2];
} dw_tiles_t;

static unsigned first_channel(const dw_tiles_t* t, unsigned tile, unsigned* count) {
    const unsigned c0 = tile * t->group;
    *count = t->l2->c - c0 < t->group ? t->l2->c - c0 : t->group;
    return c0;
}

static dma_id_t load(void* ctx, unsigned tile, unsigned b) {
    const dw_tiles_t* t = ctx;
    const dw3x3_args_t* l = t->l2;
    unsigned g;
    const unsigned c0 = first_channel(t, tile, &g);
    const uint32_t plane_bytes = g * t->plane * 4u, weight_bytes = g * 9u * 4u;
    const float* plane = t->step == DW_IG ? l->dy : l->x;
    dma_copy_in(t->in_plane[b], plane + c0 * t->plane, plane_bytes);
    if (t->step == DW_WG) return dma_copy_in(t->in_other[b], l->dy + c0 * t->plane, plane_bytes);
    return dma_copy_in(t->in_other[b], l->weight + c0 * 9u, weight_bytes);
}

static void compute(void* ctx, unsigned tile, unsigned b) {
    const dw_tiles_t* t = ctx;
    unsigned g;
    first_channel(t, tile, &g);
    dw3x3_args_t a = {.c = g, .h = t->l2->h, .w = t->l2->w};
    switch (t->step) {
    case DW_FW:
        a.x = t->in_plane[b], a.weight = t->in_other[b], a.y = t->out[b];
        dw3x3_fw(&a);
        break;
    case DW_WG:
        a.x = t->in_plane[b], a.dy = t->in_other[b], a.dw = t->out[b];
        dw3x3_wg(&a);
        break;
    case DW_IG:
        a.dy = t->in_plane[b], a.weight = t->in_other[b], a.dx = t->out[b];
        dw3x3_ig(&a);
        break;
    }
}

static dma_id_t store(void* ctx, unsigned tile, unsigned b) {
    const dw_tiles_t* t = ctx;
    const dw3x3_args_t* l = t->l2;
    unsigned g;
    const unsigned c0 = first_channel(t, tile, &g);
    if (t->step == DW_WG) return dma_copy_out(l->dw + c0 * 9u, t->out[b], g * 9u * 4u);
    float* out = t->step == DW_FW ? l->y : l->dx;
    return dma_copy_out(out + c0 * t->plane, t->out[b], g * t->plane * 4u);
}

static void run_pipeline(void* ctx) {
    const dma_pipeline_t pipeline = {((dw_tiles_t*)ctx)->tiles, load, compute, store, ctx};
    dma_double_buffer(&pipeline);
}

static int aligned(const void* p) {
    return p && ((uintptr_t)p & 3u) == 0;
}

static unsigned run(dw_step_t step, const dw3x3_args_t* l, unsigned cores, const char* name, const void* in1,
                    const void* in2, const void* out) {
    if (l->c == 0 || l->h == 0 || l->w == 0)
        kernel_fail("%s: zero dimension (C=%u H=%u W=%u)", name, l->c, l->h, l->w);
    if (!aligned(in1) || !aligned(in2) || !aligned(out))
        kernel_fail("%s: a tensor is null or not 4-byte aligned", name);
    const unsigned plane = l->h * l->w;
    /* Per channel and buffer set: two planes and nine weights (WG: two input planes, nine outputs). */
    const uint32_t per_channel = (2u * plane + 9u) * 4u;
    const uint32_t budget = tiled_l1_budget();
    unsigned group = budget / (2u * per_channel);
    if (group == 0)
        kernel_fail(
            "%s: %u bytes of free TCDM cannot hold two buffer sets of one %ux%u channel (%u bytes each)",
            name, (unsigned)budget, l->h, l->w, (unsigned)per_channel);
    if (group > l->c) group = l->c;
    /* In the TCDM, where every core reads it, and off core 0's small stack. */
    TCDM_BSS static dw_tiles_t t;
    t = (dw_tiles_t){
        .step = step, .l2 = l, .group = group, .tiles = (l->c + group - 1) / group, .plane = plane};
    float* p = l1_free_start();
    for (unsigned b = 0; b < 2; ++b) {
        t.in_plane[b] = p;
        p += group * plane;
        t.in_other[b] = p;
        p += group * (step == DW_WG ? plane : 9u);
        t.out[b] = p;
        p += group * (step == DW_WG ? 9u : plane);
    }
    team_fork(cores == 0 || cores > num_cores() ? num_cores() : cores, run_pipeline, &t);
    return group;
}

unsigned dw3x3_fw_tiled(const dw3x3_args_t* l, unsigned cores) {
    return run(DW_FW, l, cores, "dw3x3_fw_tiled", l->x, l->weight, l->y);
}

unsigned dw3x3_wg_tiled(const dw3x3_args_t* l, unsigned cores) {
    return run(DW_WG, l, cores, "dw3x3_wg_tiled", l->x, l->dy, l->dw);
}

unsigned dw3x3_ig_tiled(const dw3x3_args_t* l, unsigned cores) {
    return run(DW_IG, l, cores, "dw3x3_ig_tiled", l->dy, l->weight, l->dx);
}
