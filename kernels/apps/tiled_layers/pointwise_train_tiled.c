/*
 * The design-space experiment of L1 size against DMA bandwidth: one training step of a PointWise (1x1)
 * convolution (FW, then WG, then IG) with its tensors in L2, tiled through whatever TCDM the platform has
 * (l1_free_bytes(), so tcdm.size can be swept), in one perf region "pw_train" declaring the step's MACs.
 * Default shape 8x8 pixels, 256 -> 256 channels: 12.6 M MACs, 768 KiB of tensors (W and dW alone fill
 * 512 KiB), so it runs with --set l2.size=1MiB. -DCHECK runs on PyTorch's inputs instead of seeded ones
 * and adds the checks on core 0: bit for bit against plain loops (slow for the default shape) and within
 * each step's tolerance against PyTorch (golden_data.h, from kernels/golden/suite_tiled.py).
 * Shape: -DPW_H, -DPW_W, -DPW_CIN, -DPW_COUT.
 */
#include <stdio.h>

#include "cluster.h"
#include "runtime.h"
#include "tiled_common.h"
#include "train_layers.h"
#ifdef CHECK
#include "golden_data.h"
#endif

#ifndef PW_H
#define PW_H 8
#endif
#ifndef PW_W
#define PW_W 8
#endif
#ifndef PW_CIN
#define PW_CIN 256
#endif
#ifndef PW_COUT
#define PW_COUT 256
#endif
#define HW (PW_H * PW_W)

static float in[PW_CIN * HW], w[PW_COUT * PW_CIN], out[PW_COUT * HW];
static float d_out[PW_COUT * HW], d_w[PW_COUT * PW_CIN], d_in[PW_CIN * HW];

#ifdef CHECK
/* The references of the three steps in turn: as large as the largest output. */
#define PW_MAX2(a, b) ((a) > (b) ? (a) : (b))
static float expected[PW_MAX2(PW_MAX2(PW_CIN * HW, PW_COUT* PW_CIN), PW_COUT* HW)];
#endif

int main(void) {
#ifdef CHECK
    memcpy(in, golden_pw_in, sizeof in);
    memcpy(w, golden_pw_w, sizeof w);
    memcpy(d_out, golden_pw_d_out, sizeof d_out);
#else
    fill_random(in, PW_CIN * HW, 1);
    fill_random(w, PW_COUT * PW_CIN, 2);
    fill_random(d_out, PW_COUT * HW, 3);
#endif
    /* static: main's frame stays small on core 0's 1 KiB stack, which the library also uses */
    static const pointwise_t layer = {.cin = PW_CIN,
                                      .cout = PW_COUT,
                                      .hw = HW,
                                      .in = in,
                                      .w = w,
                                      .out = out,
                                      .d_out = d_out,
                                      .d_w = d_w,
                                      .d_in = d_in};
    const unsigned cores = num_cores();

    region_begin("pw_train", 3u * PW_COUT * PW_CIN * HW);
    static tiled_plan_t fw;
    fw = pointwise_fw(&layer, cores);
    static tiled_plan_t wg;
    wg = pointwise_wg(&layer, cores);
    static tiled_plan_t ig;
    ig = pointwise_ig(&layer, cores);
    region_end();
    print_plan("fw", &fw);
    print_plan("wg", &wg);
    print_plan("ig", &ig);

    int bad = 0;
    const char* verdict = "done (not checked)";
#ifdef CHECK
    bad = check_pointwise(&layer, expected);
    bad |= golden_pointwise(&layer, &golden_pw_fw, &golden_pw_wg, &golden_pw_ig);
    verdict = bad ? "FAIL" : "OK";
#endif
    printf("pointwise_train_tiled %ux%ux%u->%u on %u cores, %lu KiB TCDM: %s\n", PW_H, PW_W, PW_CIN, PW_COUT,
           cores, (unsigned long)(*(volatile uint32_t*)(EU_BASE + EU_TCDM_SIZE) >> 10), verdict);
    return bad;
}
