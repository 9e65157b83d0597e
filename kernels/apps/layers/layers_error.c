/*
 * A Conv2D forward step with a bad shape: LAYERS_ERROR_CASE 1 has c_in = 0, 2 an h_out that does not match
 * the input, kernel, stride and padding. conv2d_fw must print "error: conv2d: ..." and exit with status 1
 * before touching any tensor; reaching the end is a failure.
 */
#include <stdio.h>

#include "cluster.h"
#include "conv2d_fp32.h"

#ifndef LAYERS_ERROR_CASE
#define LAYERS_ERROR_CASE 1
#endif

TCDM_BSS static float buf[64];
TCDM_BSS static conv2d_args_t cargs;

int main(void) {
    cargs = (conv2d_args_t){.c_in = LAYERS_ERROR_CASE == 1 ? 0 : 1,
                            .h = 4,
                            .w = 4,
                            .c_out = 2,
                            .kh = 3,
                            .kw = 3,
                            .stride = 1,
                            .pad = 1,
                            .h_out = LAYERS_ERROR_CASE == 1 ? 4 : 3,
                            .w_out = 4,
                            .x = buf,
                            .weight = buf,
                            .y = buf,
                            .col = buf};
    team_fork(num_cores(), conv2d_fw_fn, &cargs);
    printf("layers error case %d: not detected\n", LAYERS_ERROR_CASE);
    return 0;
}
