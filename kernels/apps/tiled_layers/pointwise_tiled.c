/*
 * One training step of a PointWise (1x1) convolution with the tensors in L2, tiled through the TCDM on
 * every core (train_layers.h): FW, WG and IG, each in a perf region (pw_fw, pw_wg, pw_ig) declaring its
 * MACs, then checked by core 0 on the L2 tensors: bit for bit against plain loops, and within each step's
 * tolerance against PyTorch, whose inputs it runs on (golden_data.h, written at build time by
 * kernels/golden/suite_tiled.py).
 * Shape: -DPW_H, -DPW_W (pixels), -DPW_CIN, -DPW_COUT; -DL1_LIMIT=bytes caps the TCDM the tiles may use.
 */
#include <stdio.h>

#include "cluster.h"
#include "golden_data.h"
#include "runtime.h"
#include "tiled_common.h"
#include "train_layers.h"

/* PW_H, PW_W, PW_CIN, PW_COUT: set by CMake; golden_data.h checks that its data was made for them. */
#define HW (PW_H * PW_W)

static float in[PW_CIN * HW], w[PW_COUT * PW_CIN], out[PW_COUT * HW];
static float d_out[PW_COUT * HW], d_w[PW_COUT * PW_CIN], d_in[PW_CIN * HW];
/* The references of the three steps in turn: as large as the largest output. */
#define PW_MAX2(a, b) ((a) > (b) ? (a) : (b))
static float expected[PW_MAX2(PW_MAX2(PW_CIN * HW, PW_COUT* PW_CIN), PW_COUT* HW)];

int main(void) {
#ifdef L1_LIMIT
    tiled_matmul_set_l1_limit(L1_LIMIT);
#endif
    memcpy(in, golden_pw_in, sizeof in);
    memcpy(w, golden_pw_w, sizeof w);
    memcpy(d_out, golden_pw_d_out, sizeof d_out);
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
    const unsigned cores = num_cores(), macs = PW_COUT * PW_CIN * HW;

    static tiled_plan_t fw, wg, ig;
    fw = TIMED_STEP("pw_fw", macs, pointwise_fw(&layer, cores));
    wg = TIMED_STEP("pw_wg", macs, pointwise_wg(&layer, cores));
    ig = TIMED_STEP("pw_ig", macs, pointwise_ig(&layer, cores));
    print_plan("pw_fw", &fw);
    print_plan("pw_wg", &wg);
    print_plan("pw_ig", &ig);

    int bad = check_pointwise(&layer, expected);
    bad |= golden_pointwise(&layer, &golden_pw_fw, &golden_pw_wg, &golden_pw_ig);

    printf("pointwise_tiled %ux%ux%u->%u on %u cores: %s\n", PW_H, PW_W, PW_CIN, PW_COUT, cores,
           bad ? "FAIL" : "OK");
    return bad;
}
