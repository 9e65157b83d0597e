/*
 * One training step of a DepthWise 3x3 convolution (stride 1, padding 1) with the tensors in L2, tiled
 * through the TCDM by groups of channels on every core (depthwise_tiled.h): FW, WG and IG, each in a perf
 * region (dw_fw, dw_wg, dw_ig) declaring its MACs, then checked bit for bit against plain loops run by core
 * 0 on the L2 tensors and within tolerance against PyTorch (golden_data.h, suite_tiled.py).
 * Shape: -DDW_C, -DDW_H, -DDW_W; -DL1_LIMIT=bytes caps the TCDM the tiles may use.
 */
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "depthwise_ref.h"
#include "depthwise_tiled.h"
#include "golden_data.h"
#include "kernel_check.h"
#include "runtime.h"
#include "tiled_matmul.h"

#define PLANE (DW_H * DW_W)
#define SIZE (DW_C * PLANE)

static float x[SIZE], w[9 * DW_C], y[SIZE], dy[SIZE], dw[9 * DW_C], dx[SIZE];
static float expected[SIZE];

int main(void) {
#ifdef L1_LIMIT
    tiled_matmul_set_l1_limit(L1_LIMIT);
#endif
    memcpy(x, golden_dw_x, sizeof x);
    memcpy(w, golden_dw_w, sizeof w);
    memcpy(dy, golden_dw_dy, sizeof dy);
    /* static: main's frame stays small on core 0's 1 KiB stack, which the library also uses */
    static const dw3x3_args_t layer = {
        .c = DW_C, .h = DW_H, .w = DW_W, .x = x, .weight = w, .y = y, .dy = dy, .dw = dw, .dx = dx};
    const unsigned cores = num_cores(), macs = DW3X3_MACS(DW_C, DW_H, DW_W);

    region_begin("dw_fw", macs);
    const unsigned fw = dw3x3_fw_tiled(&layer, cores);
    region_end();
    region_begin("dw_wg", macs);
    const unsigned wg = dw3x3_wg_tiled(&layer, cores);
    region_end();
    region_begin("dw_ig", macs);
    const unsigned ig = dw3x3_ig_tiled(&layer, cores);
    region_end();
    printf("  channels per tile: dw_fw %u, dw_wg %u, dw_ig %u of %u\n", fw, wg, ig, DW_C);

    int bad = 0;
    dw_ref_fw_ig(x, w, expected, DW_C, DW_H, DW_W, 1);
    bad |= first_mismatch("dw_fw y", y, expected, SIZE) >= 0;
    dw_ref_wg(x, dy, expected, DW_C, DW_H, DW_W);
    bad |= first_mismatch("dw_wg dw", dw, expected, 9 * DW_C) >= 0;
    dw_ref_fw_ig(dy, w, expected, DW_C, DW_H, DW_W, -1);
    bad |= first_mismatch("dw_ig dx", dx, expected, SIZE) >= 0;
    bad |= golden_check(&golden_dw_fw, y);
    bad |= golden_check(&golden_dw_wg, dw);
    bad |= golden_check(&golden_dw_ig, dx);

    printf("depthwise_tiled %ux%ux%u on %u cores: %s\n", DW_C, DW_H, DW_W, cores, bad ? "FAIL" : "OK");
    return bad;
}
