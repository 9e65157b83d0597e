/*
 * Runs one FP32 Conv2D training step (kernels/lib/conv2d_fp32.h: im2col, or a weight transpose and col2im for
 * IG, around one matmul) once with every kernel of the FP32 matmul family as that matmul (matmul_variants[],
 * through conv2d_args_t.mm), with the whole team, one perf region per kernel (named after it, `mm` the naive
 * baseline, the whole step inside, declaring CONV2D_MACS MACs), and checks each output against the plain
 * loops of apps/layers, computed on core 0:
 *
 *   FW  y[co][p]   = sum over (ci, i, j) ascending of w * x (padding taps as +0 products)   K = c_in kh kw
 *   WG  dw[co][t]  = sum over the output pixels p ascending of dy * x                        K = h_out w_out
 *   IG  dx[ci][y][x] = sum over its taps (i, j) ascending of (sum over co ascending of w * dy)  K = c_out
 *
 * Bit for bit for the kernels that are not K-unrolled (each output one fmadd chain in the plain loop's
 * order); for mm_u2 / mm_M_u2 within (1.5 K + 2) * 2^-24 * S of the plain loop as in apps/matmul_compare
 * (S = the sum of |products| of the output; IG adds 2 kh kw roundings of the tap sums to the bound).
 *
 * The shape and the step are not compiled in: the host writes them into compare_cin, compare_cout, compare_h,
 * compare_w, compare_kh, compare_kw, compare_stride, compare_pad and compare_step (0 FW, 1 WG, 2 IG) before
 * the run (`pulpsim compare`, or `pulpsim run --symbol compare_cin=16 ...`); CONV_COMPARE_* set the defaults
 * at build time. With h_out = (h + 2 pad - kh) / stride + 1 (w_out likewise), X = c_in h w, W = c_out c_in kh
 * kw, Y = c_out h_out w_out and COL = c_in kh kw h_out w_out, the step's tensors lie back to back at the
 * start of the free TCDM (l1_free_start()): FW x, w, col, y; WG x, dy, col, dw; IG w, dy, w^T, col, dx; that
 * is 4 (X + W + Y + COL) bytes, plus 4 W for IG. Before each kernel the output is filled with NaNs, so an
 * output the step does not write fails the check, and afterwards the inputs must be unchanged.
 *
 * Exit 1, with one line "conv compare: ..." on stdout, if a dimension or the stride is 0, the kernel does not
 * fit the padded input, the step is not 0..2, the tensors do not fit the free TCDM or a kernel is wrong.
 * Test builds: CONV_COMPARE_PERTURB=v flips the last bit of one output after the v-th kernel of the table
 * ran, to show that the check notices one ulp.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "conv2d_fp32.h"
#include "dma.h"
#include "im2col_fp32.h"
#include "kernel_check.h"
#include "matmul_fp32.h"
#include "runtime.h"

#ifndef CONV_COMPARE_CIN
#define CONV_COMPARE_CIN 4
#endif
#ifndef CONV_COMPARE_COUT
#define CONV_COMPARE_COUT 8
#endif
#ifndef CONV_COMPARE_H
#define CONV_COMPARE_H 8
#endif
#ifndef CONV_COMPARE_W
#define CONV_COMPARE_W 8
#endif
#ifndef CONV_COMPARE_KH
#define CONV_COMPARE_KH 3
#endif
#ifndef CONV_COMPARE_KW
#define CONV_COMPARE_KW 3
#endif
#ifndef CONV_COMPARE_STRIDE
#define CONV_COMPARE_STRIDE 1
#endif
#ifndef CONV_COMPARE_PAD
#define CONV_COMPARE_PAD 1
#endif
#ifndef CONV_COMPARE_STEP
#define CONV_COMPARE_STEP 0
#endif

/* Volatile so that the compiler reads what the host wrote, not these defaults; in .data even when a default
 * is 0 (step 0 is FW), since crt0 clears .bss after the host has written it. */
#define HOST_SET __attribute__((section(".data.conv_compare")))
HOST_SET volatile uint32_t compare_cin = CONV_COMPARE_CIN;
HOST_SET volatile uint32_t compare_cout = CONV_COMPARE_COUT;
HOST_SET volatile uint32_t compare_h = CONV_COMPARE_H;
HOST_SET volatile uint32_t compare_w = CONV_COMPARE_W;
HOST_SET volatile uint32_t compare_kh = CONV_COMPARE_KH;
HOST_SET volatile uint32_t compare_kw = CONV_COMPARE_KW;
HOST_SET volatile uint32_t compare_stride = CONV_COMPARE_STRIDE;
HOST_SET volatile uint32_t compare_pad = CONV_COMPARE_PAD;
HOST_SET volatile uint32_t compare_step = CONV_COMPARE_STEP;

TCDM_BSS static conv2d_args_t args;

static const char* const step_names[3] = {"fw", "wg", "ig"};
static void (*const step_fns[3])(void*) = {conv2d_fw_fn, conv2d_wg_fn, conv2d_ig_fn};

/* The reference and its error scale stay in L2 while they fit there; bigger outputs are recomputed per
 * element when checked, which is slower but needs no memory. */
#define REFERENCE_CAPACITY 16384u
static float ref[REFERENCE_CAPACITY];
static float mag[REFERENCE_CAPACITY];

/* xorshift32: deterministic, and every float gets a random sign and a full random 23-bit mantissa in
 * [0.25, 1), so no product or sum is exact by accident. */
static uint32_t rng_state;
static float next_float(void) {
    const uint32_t x = xorshift32(&rng_state);
    const uint32_t bits = (x & 0x80000000u) | ((125u + ((x >> 23) & 1u)) << 23) | (x & 0x007fffffu);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* x[ci][iy][ix], or 0 in the padding. */
static float x_at(unsigned ci, int iy, int ix) {
    return iy < 0 || iy >= (int)args.h || ix < 0 || ix >= (int)args.w
               ? 0.0f
               : args.x[(ci * args.h + iy) * args.w + ix];
}

static float w_at(unsigned co, unsigned ci, unsigned i, unsigned j) {
    return args.weight[((co * args.c_in + ci) * args.kh + i) * args.kw + j];
}

/* The plain loop for output element idx of the step; with magnitude != 0 the sum of |products| instead (a
 * separate loop, so that the reference's fmadd cannot share a rounded product with it). */
static float reference_at(uint32_t step, unsigned idx, int magnitude) {
    const unsigned ho = args.h_out, wo = args.w_out, np = ho * wo, s = args.stride, pad = args.pad;
    float acc = 0.0f;
    if (step == 0) { /* taps in ascending (ci, i, j), padding taps included as +0 products */
        const unsigned co = idx / np, p = idx % np;
        const int oy = (int)(p / wo) * (int)s - (int)pad, ox = (int)(p % wo) * (int)s - (int)pad;
        for (unsigned ci = 0; ci < args.c_in; ++ci)
            for (unsigned i = 0; i < args.kh; ++i)
                for (unsigned j = 0; j < args.kw; ++j) {
                    if (magnitude)
                        acc += fabsf(w_at(co, ci, i, j)) * fabsf(x_at(ci, oy + (int)i, ox + (int)j));
                    else
                        acc += w_at(co, ci, i, j) * x_at(ci, oy + (int)i, ox + (int)j);
                }
    } else if (step == 1) { /* output pixels in ascending order */
        const unsigned kk = args.kh * args.kw, co = idx / (args.c_in * kk), t = idx % (args.c_in * kk);
        const unsigned ci = t / kk, i = t % kk / args.kw, j = t % args.kw;
        for (unsigned p = 0; p < np; ++p) {
            const float g = args.dy[co * np + p];
            const float in = x_at(ci, (int)((p / wo) * s + i) - (int)pad, (int)((p % wo) * s + j) - (int)pad);
            if (magnitude)
                acc += fabsf(g) * fabsf(in);
            else
                acc += g * in;
        }
    } else { /* per tap a sum over c_out, the taps of an input in ascending (i, j) */
        const unsigned plane = args.h * args.w, ci = idx / plane;
        const int iy = (int)(idx % plane / args.w), ix = (int)(idx % args.w);
        for (unsigned i = 0; i < args.kh; ++i)
            for (unsigned j = 0; j < args.kw; ++j) {
                const int ty = iy + (int)pad - (int)i, tx = ix + (int)pad - (int)j;
                if (ty < 0 || tx < 0 || ty % (int)s || tx % (int)s || ty / (int)s >= (int)ho ||
                    tx / (int)s >= (int)wo)
                    continue;
                const unsigned p = (unsigned)(ty / (int)s) * wo + (unsigned)(tx / (int)s);
                float t = 0.0f;
                for (unsigned co = 0; co < args.c_out; ++co) {
                    if (magnitude)
                        t += fabsf(w_at(co, ci, i, j)) * fabsf(args.dy[co * np + p]);
                    else
                        t += w_at(co, ci, i, j) * args.dy[co * np + p];
                }
                acc += t;
            }
    }
    return acc;
}

/* FNV-1a over the bits of n floats. */
static uint32_t hash_floats(const float* p, unsigned n, uint32_t hash) {
    for (unsigned i = 0; i < n; ++i)
        hash = (hash ^ float_bits(p[i])) * 16777619u;
    return hash;
}

static void print_shape(void) {
    printf("%lux%lux%lu-%lu k%lux%lu s%lu p%lu", (unsigned long)args.c_in, (unsigned long)args.h,
           (unsigned long)args.w, (unsigned long)args.c_out, (unsigned long)args.kh, (unsigned long)args.kw,
           (unsigned long)args.stride, (unsigned long)args.pad);
}

int main(void) {
    const uint32_t c_in = compare_cin, c_out = compare_cout, h = compare_h, w = compare_w, kh = compare_kh,
                   kw = compare_kw, stride = compare_stride, pad = compare_pad, step = compare_step;
    args = (conv2d_args_t){
        .c_in = c_in, .h = h, .w = w, .c_out = c_out, .kh = kh, .kw = kw, .stride = stride, .pad = pad};
    if (c_in == 0 || c_out == 0 || h == 0 || w == 0 || kh == 0 || kw == 0 || stride == 0) {
        printf("conv compare: every dimension and the stride must be at least 1 (got ");
        print_shape();
        printf(")\n");
        return 1;
    }
    if (step > 2) {
        printf("conv compare: step must be 0 (fw), 1 (wg) or 2 (ig), got %lu\n", (unsigned long)step);
        return 1;
    }
    if (h > 65535 || w > 65535 || pad > 65535) {
        printf("conv compare: h, w and pad must be at most 65535 (got ");
        print_shape();
        printf(")\n");
        return 1;
    }
    if (h + 2 * pad < kh || w + 2 * pad < kw) {
        printf("conv compare: a %lux%lu kernel does not fit a %lux%lu input with padding %lu\n",
               (unsigned long)kh, (unsigned long)kw, (unsigned long)h, (unsigned long)w, (unsigned long)pad);
        return 1;
    }
    const unsigned ho = conv_out_size(h, kh, stride, pad), wo = conv_out_size(w, kw, stride, pad);
    const uint64_t kk = (uint64_t)c_in * kh * kw, np = (uint64_t)ho * wo;
    const uint64_t nx = (uint64_t)c_in * h * w, nw = (uint64_t)c_out * kk, ny = (uint64_t)c_out * np;
    const uint64_t floats = nx + nw + ny + kk * np + (step == 2 ? nw : 0);
    if (floats * sizeof(float) > l1_free_bytes()) {
        printf("conv compare: %s ", step_names[step]);
        print_shape();
        printf(" needs %llu bytes of TCDM, %lu are free\n", (unsigned long long)(floats * sizeof(float)),
               (unsigned long)l1_free_bytes());
        return 1;
    }
    args.h_out = ho;
    args.w_out = wo;

    /* Inputs first (in the order of the step's comment above), then scratch, then the output. */
    float* const base = (float*)l1_free_start();
    float* next = base;
    float *x = NULL, *weight = NULL, *dy = NULL;
    if (step != 2) {
        x = next;
        next += nx;
    }
    if (step != 1) {
        weight = next;
        next += nw;
    }
    if (step != 0) {
        dy = next;
        next += ny;
    }
    const unsigned n_inputs = (unsigned)(next - base);
    if (step == 2) {
        args.weight_t = next;
        next += nw;
    }
    args.col = next;
    next += kk * np;
    float* const out = next;
    const unsigned n_out = (unsigned)(step == 0 ? ny : step == 1 ? nw : nx);
    rng_state = 0x2545f491u;
    for (unsigned i = 0; i < n_inputs; ++i)
        base[i] = next_float();
    args.x = x;
    args.weight = weight;
    args.dy = dy;
    args.y = step == 0 ? out : NULL;
    args.dw = step == 1 ? out : NULL;
    args.dx = step == 2 ? out : NULL;
    const uint32_t input_hash = hash_floats(base, n_inputs, 2166136261u);
    /* A guard zone after the output, where there is room, stops a kernel that writes past it. */
    const uint32_t guard = l1_free_bytes() - floats * sizeof(float) >= 64 ? 64 : 0;
    if (guard) guard_zone(out + n_out, guard, "conv compare output");

    const int tabulated = n_out <= REFERENCE_CAPACITY;
    if (tabulated)
        for (unsigned i = 0; i < n_out; ++i)
            ref[i] = reference_at(step, i, 0);
    int mag_ready = 0; /* mag[] is filled when the first K-unrolled kernel needs it */

    /* the matmul's K: its products per output, which bounds the K-unrolled kernels' error */
    const unsigned mm_k = (unsigned)(step == 0 ? kk : step == 1 ? np : c_out);
    const float extra = step == 2 ? 2.0f * (float)(kh * kw) : 0.0f;
    const float unrolled_tolerance = (1.5f * (float)mm_k + 2.0f + extra) * 0x1p-24f;
    const uint32_t macs = CONV2D_MACS(c_in, c_out, kh, kw, ho, wo);
    int failed = 0;
    for (unsigned v = 0; v < MATMUL_VARIANTS && !failed; ++v) {
        const matmul_variant_t* var = &matmul_variants[v];
        args.mm = var->fn;
        memset(out, 0xff, n_out * sizeof(float));
        region_begin(var->name, macs);
        team_fork(num_cores(), step_fns[step], &args);
        region_end();
#ifdef CONV_COMPARE_PERTURB
        if (v == CONV_COMPARE_PERTURB) {
            const uint32_t bits = float_bits(out[n_out / 2]) ^ 1u;
            memcpy(&out[n_out / 2], &bits, sizeof bits);
        }
#endif
        if (var->unroll_k != 1 && tabulated && !mag_ready) {
            for (unsigned i = 0; i < n_out; ++i)
                mag[i] = reference_at(step, i, 1);
            mag_ready = 1;
        }
        for (unsigned i = 0; i < n_out; ++i) {
            const float want = tabulated ? ref[i] : reference_at(step, i, 0);
            const int ok = var->unroll_k == 1
                               ? float_bits(out[i]) == float_bits(want)
                               : fabsf(out[i] - want) <=
                                     unrolled_tolerance * (tabulated ? mag[i] : reference_at(step, i, 1));
            if (!ok) {
                printf("conv compare: %s: mismatch at [%u]: got %.9g (0x%08lx) want %.9g (0x%08lx)\n",
                       var->name, i, (double)out[i], (unsigned long)float_bits(out[i]), (double)want,
                       (unsigned long)float_bits(want));
                failed = 1;
                break;
            }
        }
        if (!failed && hash_floats(base, n_inputs, 2166136261u) != input_hash) {
            printf("conv compare: %s: changed its input tensors\n", var->name);
            failed = 1;
        }
    }
    if (guard) guard_zone_clear(out + n_out, guard);
    printf("conv compare %s ", step_names[step]);
    print_shape();
    printf(" on %u cores: %s\n", num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
