/*
 * Misuses the tiled library must refuse with one line and exit status 1 (never compute garbage):
 * -DZERO_SHAPE: a PointWise layer with 0 input channels; -DNO_L1: tiles capped to 8 bytes of TCDM;
 * -DDW_NO_L1: a DepthWise layer whose one 16x16 channel needs more than the 2 KiB the tiles may use.
 */
#include <stdio.h>

#include "cluster.h"
#include "depthwise_tiled.h"
#include "train_layers.h"

static float in[16], w[16], out[16];

int main(void) {
#ifdef DW_NO_L1
    static float plane[256], weights[9], plane_out[256];
    static const dw3x3_args_t dw_layer = {
        .c = 1, .h = 16, .w = 16, .x = plane, .weight = weights, .y = plane_out};
    tiled_matmul_set_l1_limit(2048);
    dw3x3_fw_tiled(&dw_layer, num_cores());
#endif
    pointwise_t layer = {.cin = 4, .cout = 4, .hw = 4, .in = in, .w = w, .out = out};
#ifdef ZERO_SHAPE
    layer.cin = 0;
#endif
#ifdef NO_L1
    tiled_matmul_set_l1_limit(8);
#endif
    pointwise_fw(&layer, num_cores());
    printf("tiled_errors: the misuse was not detected\n");
    return 0;
}
