/*
 * Misuses the tiled library must refuse with one line and exit status 1 (never compute garbage):
 * -DZERO_SHAPE: a PointWise layer with 0 input channels; -DNO_L1: tiles capped to 8 bytes of TCDM.
 */
#include <stdio.h>

#include "cluster.h"
#include "train_layers.h"

static float in[16], w[16], out[16];

int main(void) {
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
