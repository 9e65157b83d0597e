/*
 * One training step of a Linear layer (batch 1) with the tensors in L2, tiled through the TCDM on every
 * core (train_layers.h): FW, WG and IG, each in a perf region (lin_fw, lin_wg, lin_ig) declaring its MACs,
 * then checked by core 0 on the L2 tensors: bit for bit against plain loops, and within each step's
 * tolerance against PyTorch, whose inputs it runs on (golden_data.h, written at build time by
 * kernels/golden/suite_tiled.py). A second FW and WG that accumulate into out and d_w (outside the
 * regions) check the accumulate paths of tiled_matmul against plain loops.
 * Shape: -DLIN_IN, -DLIN_OUT; -DL1_LIMIT=bytes caps the TCDM the tiles may use.
 */
#include <stdio.h>

#include "cluster.h"
#include "golden_data.h"
#include "runtime.h"
#include "tiled_common.h"
#include "train_layers.h"

/* LIN_IN, LIN_OUT: set by CMake; golden_data.h checks that its data was made for them. */

static float in[LIN_IN], w[LIN_OUT * LIN_IN], out[LIN_OUT];
static float d_out[LIN_OUT], d_w[LIN_OUT * LIN_IN], d_in[LIN_IN];
static float expected[LIN_OUT * LIN_IN];

int main(void) {
#ifdef L1_LIMIT
    tiled_matmul_set_l1_limit(L1_LIMIT);
#endif
    memcpy(in, golden_lin_in, sizeof in);
    memcpy(w, golden_lin_w, sizeof w);
    memcpy(d_out, golden_lin_d_out, sizeof d_out);
    /* static: main's frame stays small on core 0's 1 KiB stack, which the library also uses */
    static const linear_t layer = {.in_features = LIN_IN,
                                   .out_features = LIN_OUT,
                                   .in = in,
                                   .w = w,
                                   .out = out,
                                   .d_out = d_out,
                                   .d_w = d_w,
                                   .d_in = d_in};
    const unsigned cores = num_cores(), macs = LIN_OUT * LIN_IN;

    static tiled_plan_t fw, wg, ig;
    fw = TIMED_STEP("lin_fw", macs, linear_fw(&layer, cores));
    wg = TIMED_STEP("lin_wg", macs, linear_wg(&layer, cores));
    ig = TIMED_STEP("lin_ig", macs, linear_ig(&layer, cores));
    print_plan("lin_fw", &fw);
    print_plan("lin_wg", &wg);
    print_plan("lin_ig", &ig);

    int bad = 0;
    reference_matmul(expected, w, LIN_IN, 1, in, 1, 1, LIN_OUT, 1, LIN_IN); /* W in */
    bad |= plain_loop_mismatch("lin_fw out", out, expected, LIN_OUT) >= 0;
    reference_matmul(expected, d_out, 1, 1, in, 1, 1, LIN_OUT, LIN_IN, 1); /* dOut (outer) in */
    bad |= plain_loop_mismatch("lin_wg d_w", d_w, expected, LIN_OUT * LIN_IN) >= 0;
    reference_matmul(expected, w, 1, LIN_IN, d_out, 1, 1, LIN_IN, 1, LIN_OUT); /* W^T dOut */
    bad |= plain_loop_mismatch("lin_ig d_in", d_in, expected, LIN_IN) >= 0;
    bad |= golden_check(&golden_lin_fw, out);
    bad |= golden_check(&golden_lin_wg, d_w);
    bad |= golden_check(&golden_lin_ig, d_in);

    /* The accumulate paths of tiled_matmul, outside the regions: out += W in (K tiled when W needs several
     * tiles) and d_w += d_out (outer) in (K = 1); every element continues from its previous value. */
    static const tiled_matmul_t acc_fw = {
        .m = LIN_OUT, .n = 1, .k = LIN_IN, .a = w, .b = in, .c = out, .accumulate = 1};
    for (unsigned o = 0; o < LIN_OUT; ++o) {
        float acc = out[o];
        for (unsigned i = 0; i < LIN_IN; ++i)
            acc += w[o * LIN_IN + i] * in[i];
        expected[o] = acc;
    }
    tiled_matmul(&acc_fw, cores);
    bad |= first_mismatch("lin_fw accumulated out", out, expected, LIN_OUT) >= 0;

    static const tiled_matmul_t acc_wg = {
        .m = LIN_OUT, .n = LIN_IN, .k = 1, .a = d_out, .b = in, .c = d_w, .accumulate = 1};
    for (unsigned o = 0; o < LIN_OUT; ++o)
        for (unsigned i = 0; i < LIN_IN; ++i)
            expected[o * LIN_IN + i] = d_w[o * LIN_IN + i] + d_out[o] * in[i];
    tiled_matmul(&acc_wg, cores);
    bad |= first_mismatch("lin_wg accumulated d_w", d_w, expected, LIN_OUT * LIN_IN) >= 0;

    printf("linear_tiled %u->%u on %u cores: %s\n", LIN_IN, LIN_OUT, cores, bad ? "FAIL" : "OK");
    return bad;
}
