/*
 * Runs every variant of one FP32 DepthWise 3x3 training step (kernels/lib/depthwise_fp32.h, the table
 * dw3x3_variants) on c channels of h x w with the whole team, one perf region per variant (named after it,
 * declaring DW3X3_MACS(c, h, w) MACs), and checks each output bit for bit against the plain loop in the
 * kernels' order (one fmadd chain from 0 per output: taps in (i, j) order for FW and IG, pixels in (y, x)
 * order for WG), computed on core 0.
 *
 * The shape and the step are not compiled in: the host writes them into compare_c, compare_h, compare_w and
 * compare_step (0 FW, 1 WG, 2 IG) before the run (`pulpsim compare --layer depthwise`, or `pulpsim run
 * --symbol compare_c=32 ...`); DW_COMPARE_C/H/W/STEP set the defaults at build time. The three tensors of the
 * step lie back to back at the start of the free TCDM (l1_free_start()): FW x, w, y; WG x, dy, dw; IG dy, w,
 * dx; 4 * (2 c h w + 9 c) bytes. Before each variant the output is filled with NaNs, so an output a variant
 * does not write fails the check, and afterwards the inputs must be unchanged.
 *
 * Exit 1, with one line "dw compare: ..." on stdout, if a dimension is 0, the step is not 0..2, the tensors
 * do not fit the free TCDM or a variant is wrong. Test builds: DW_COMPARE_SWEEP runs every step on a list of
 * small shapes (w < 4, h = 1, c < cores, leftovers of every unroll) instead; DW_COMPARE_PERTURB=k flips the
 * last bit of one output of the step's k-th variant after it ran, to show that the check notices one ulp.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "depthwise_fp32.h"
#include "depthwise_ref.h"
#include "dma.h"
#include "kernel_check.h"
#include "runtime.h"

#ifndef DW_COMPARE_C
#define DW_COMPARE_C 8
#endif
#ifndef DW_COMPARE_H
#define DW_COMPARE_H 9
#endif
#ifndef DW_COMPARE_W
#define DW_COMPARE_W 7
#endif
#ifndef DW_COMPARE_STEP
#define DW_COMPARE_STEP 0
#endif

/* Volatile so that the compiler reads what the host wrote, not these defaults; in .data even when a default
 * is 0 (step 0 is FW), since crt0 clears .bss after the host has written it. */
#define HOST_SET __attribute__((section(".data.dw_compare")))
HOST_SET volatile uint32_t compare_c = DW_COMPARE_C;
HOST_SET volatile uint32_t compare_h = DW_COMPARE_H;
HOST_SET volatile uint32_t compare_w = DW_COMPARE_W;
HOST_SET volatile uint32_t compare_step = DW_COMPARE_STEP;

TCDM_BSS static dw3x3_args_t args;

static const char* const step_names[3] = {"fw", "wg", "ig"};

/* The reference stays in L2 while it fits there; bigger outputs are recomputed per element when checked. */
#define REFERENCE_CAPACITY 16384u
static float ref[REFERENCE_CAPACITY];

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

/* The plain loop for output element idx of the step. */
static float reference_at(uint32_t step, unsigned idx) {
    const unsigned h = args.h, w = args.w, plane = h * w;
    if (step == DW3X3_WG) {
        const unsigned ch = idx / 9, i = idx % 9 / 3, j = idx % 3;
        const float* g = args.dy + ch * plane;
        const float* in = args.x + ch * plane;
        float acc = 0.0f;
        for (unsigned y = 0; y < h; ++y)
            for (unsigned x = 0; x < w; ++x) {
                const int iy = (int)(y + i) - 1, ix = (int)(x + j) - 1;
                if (iy >= 0 && iy < (int)h && ix >= 0 && ix < (int)w)
                    acc += g[y * w + x] * in[iy * (int)w + ix];
            }
        return acc;
    }
    const unsigned ch = idx / plane, p = idx % plane;
    const float* in = (step == DW3X3_FW ? args.x : args.dy) + ch * plane;
    return dw_ref_tap_sum(args.weight + 9 * ch, in, (int)h, (int)w, (int)(p / w), (int)(p % w),
                          step == DW3X3_FW ? 1 : -1);
}

/* FNV-1a over the bits of n floats. */
static uint32_t hash_floats(const float* p, unsigned n, uint32_t hash) {
    for (unsigned i = 0; i < n; ++i)
        hash = (hash ^ float_bits(p[i])) * 16777619u;
    return hash;
}

static void run_variant(void* arg) {
    ((const dw3x3_variant_t*)arg)->fn(&args);
}

/* Runs and checks every variant of the step on one shape; 0 if all match. */
static int compare(uint32_t c, uint32_t h, uint32_t w, uint32_t step) {
    if (c == 0 || h == 0 || w == 0) {
        printf("dw compare: every dimension must be at least 1 (got %lux%lux%lu)\n", (unsigned long)c,
               (unsigned long)h, (unsigned long)w);
        return 1;
    }
    if (step > DW3X3_IG) {
        printf("dw compare: step must be 0 (fw), 1 (wg) or 2 (ig), got %lu\n", (unsigned long)step);
        return 1;
    }
    const uint64_t elems = (uint64_t)c * h * w;
    const uint64_t bytes = (2 * elems + 9 * (uint64_t)c) * sizeof(float);
    if (bytes > l1_free_bytes()) {
        printf("dw compare: %lux%lux%lu needs %lu bytes of TCDM, %lu are free\n", (unsigned long)c,
               (unsigned long)h, (unsigned long)w, (unsigned long)bytes, (unsigned long)l1_free_bytes());
        return 1;
    }
    const unsigned n_in = (unsigned)elems, n_w = 9 * c;
    const unsigned n_out = step == DW3X3_WG ? n_w : n_in;
    /* First input, second input (the weights for FW and IG), output. */
    float* t0 = (float*)l1_free_start();
    float* t1 = t0 + n_in;
    float* out = t1 + (step == DW3X3_WG ? n_in : n_w);
    rng_state = 0x2545f491u;
    for (unsigned i = 0; i < n_in; ++i)
        t0[i] = next_float();
    for (unsigned i = 0; i < (step == DW3X3_WG ? n_in : n_w); ++i)
        t1[i] = next_float();
    args = (dw3x3_args_t){.c = c, .h = h, .w = w};
    if (step == DW3X3_FW) {
        args.x = t0;
        args.weight = t1;
        args.y = out;
    } else if (step == DW3X3_WG) {
        args.x = t0;
        args.dy = t1;
        args.dw = out;
    } else {
        args.dy = t0;
        args.weight = t1;
        args.dx = out;
    }
    const unsigned n_inputs = (unsigned)(out - t0);
    const uint32_t input_hash = hash_floats(t0, n_inputs, 2166136261u);
    /* A guard zone after the output, where there is room, stops a variant that writes past it. */
    const uint32_t guard = l1_free_bytes() - bytes >= 64 ? 64 : 0;
    if (guard) guard_zone(out + n_out, guard, "dw compare output");

    const int tabulated = n_out <= REFERENCE_CAPACITY;
    if (tabulated)
        for (unsigned i = 0; i < n_out; ++i)
            ref[i] = reference_at(step, i);

    int failed = 0;
#ifdef DW_COMPARE_PERTURB
    unsigned index = 0; /* among the step's variants */
#endif
    for (unsigned v = 0; v < DW3X3_VARIANTS && !failed; ++v) {
        const dw3x3_variant_t* var = &dw3x3_variants[v];
        if (var->step != step) continue;
        memset(out, 0xff, n_out * sizeof(float));
        region_begin(var->name, DW3X3_MACS(c, h, w));
        team_fork(num_cores(), run_variant, (void*)var);
        region_end();
#ifdef DW_COMPARE_PERTURB
        if (index == DW_COMPARE_PERTURB) {
            const uint32_t bits = float_bits(out[n_out / 2]) ^ 1u;
            memcpy(&out[n_out / 2], &bits, sizeof bits);
        }
        ++index;
#endif
        for (unsigned i = 0; i < n_out; ++i) {
            const float want = tabulated ? ref[i] : reference_at(step, i);
            if (float_bits(out[i]) != float_bits(want)) {
                printf("dw compare: %s: mismatch at [%u]: got %.9g (0x%08lx) want %.9g (0x%08lx)\n",
                       var->name, i, (double)out[i], (unsigned long)float_bits(out[i]), (double)want,
                       (unsigned long)float_bits(want));
                failed = 1;
                break;
            }
        }
        if (!failed && hash_floats(t0, n_inputs, 2166136261u) != input_hash) {
            printf("dw compare: %s: changed its input tensors\n", var->name);
            failed = 1;
        }
    }
    if (guard) guard_zone_clear(out + n_out, guard);
    printf("dw compare %s %lux%lux%lu on %u cores: %s\n", step_names[step], (unsigned long)c,
           (unsigned long)h, (unsigned long)w, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}

int main(void) {
#ifdef DW_COMPARE_SWEEP
    /* c x h x w: one row or column, w < 4 (no interior, or less than one block), c below the core count,
     * interiors with leftovers of both unrolls, and shares that split kernel rows and channels. */
    static const uint16_t shapes[][3] = {
        {1, 1, 1}, {1, 1, 2},  {2, 1, 5},  {3, 2, 1},  {5, 2, 2},  {9, 3, 3},  {7, 1, 9},  {1, 9, 1},
        {3, 5, 4}, {11, 4, 6}, {2, 6, 10}, {13, 3, 7}, {4, 2, 13}, {1, 12, 8}, {16, 8, 8}, {3, 17, 23}};
    for (unsigned s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (uint32_t step = DW3X3_FW; step <= DW3X3_IG; ++step)
            if (compare(shapes[s][0], shapes[s][1], shapes[s][2], step)) return 1;
    printf("dw compare sweep on %u cores: OK\n", num_cores());
    return 0;
#else
    return compare(compare_c, compare_h, compare_w, compare_step);
#endif
}
