/*
 * The L1-size / DMA-bandwidth experiment on a layer with little data reuse: one training step of a Linear
 * layer (FW, then WG, then IG; batch 1) with its tensors in L2, tiled through whatever TCDM the platform
 * has, in one perf region "lin_train" declaring the step's MACs. Every weight is used once per step (FW
 * and IG read W, WG writes dW), so the step moves about 4 bytes per MAC where the PointWise step moves
 * about 0.2: its speed follows the DMA bandwidth. Default 512 -> 256 (W and dW 512 KiB each); shape
 * -DLIN_IN, -DLIN_OUT. linear_tiled checks these steps bit for bit.
 */
#include <stdio.h>

#include "cluster.h"
#include "runtime.h"
#include "tiled_common.h"
#include "train_layers.h"

#ifndef LIN_IN
#define LIN_IN 512
#endif
#ifndef LIN_OUT
#define LIN_OUT 256
#endif

static float in[LIN_IN], w[LIN_OUT * LIN_IN], out[LIN_OUT];
static float d_out[LIN_OUT], d_w[LIN_OUT * LIN_IN], d_in[LIN_IN];

int main(void) {
    fill_random(in, LIN_IN, 1);
    fill_random(w, LIN_OUT * LIN_IN, 2);
    fill_random(d_out, LIN_OUT, 3);
    /* static: main's frame stays small on core 0's 1 KiB stack, which the library also uses */
    static const linear_t layer = {.in_features = LIN_IN,
                                   .out_features = LIN_OUT,
                                   .in = in,
                                   .w = w,
                                   .out = out,
                                   .d_out = d_out,
                                   .d_w = d_w,
                                   .d_in = d_in};
    const unsigned cores = num_cores();

    region_begin("lin_train", 3u * LIN_OUT * LIN_IN);
    static tiled_plan_t fw, wg, ig;
    fw = linear_fw(&layer, cores);
    wg = linear_wg(&layer, cores);
    ig = linear_ig(&layer, cores);
    region_end();
    print_plan("fw", &fw);
    print_plan("wg", &wg);
    print_plan("ig", &ig);
    printf("linear_train_tiled %u->%u on %u cores, %lu KiB TCDM: done\n", LIN_IN, LIN_OUT, cores,
           (unsigned long)(*(volatile uint32_t*)(EU_BASE + EU_TCDM_SIZE) >> 10));
    return 0;
}
