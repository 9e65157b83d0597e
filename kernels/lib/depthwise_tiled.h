/*
 * DepthWise 3x3 training steps (depthwise_fp32.h) on CHW tensors in L2 that need not fit in the TCDM: the
 * DMA moves groups of whole channels through two buffer sets (dma_double_buffer), and the team runs the
 * TCDM kernel on each group. Channels are independent, so a group needs no halo and every output is the
 * same fmadd chain as in the untiled kernel: the results are bit-identical to it.
 *
 *   dw3x3_args_t l = {.c = C, .h = H, .w = W, .x = x, .weight = w, .y = y, ...};  // L2 tensors
 *   unsigned per_tile = dw3x3_fw_tiled(&l, num_cores());                          // on core 0
 *
 * A buffer set holds, per channel, two planes and nine weights (FW: x, w, y; WG: x, dy, dw; IG: dy, w,
 * dx); a group is as many channels as two sets fit in tiled_l1_budget() (tiled_matmul.h). Each call forks
 * its team (cores == 0: every core) and returns the channels per group. A zero dimension, a null or
 * misaligned tensor, or a TCDM too small for two sets of one channel prints "error: ..." and exits 1: split
 * the plane into rows with a halo instead (not provided).
 */
#ifndef PULPSIM_DEPTHWISE_TILED_H
#define PULPSIM_DEPTHWISE_TILED_H

#include "depthwise_fp32.h"

unsigned dw3x3_fw_tiled(const dw3x3_args_t* l2, unsigned cores);
unsigned dw3x3_wg_tiled(const dw3x3_args_t* l2, unsigned cores);
unsigned dw3x3_ig_tiled(const dw3x3_args_t* l2, unsigned cores);

#endif
