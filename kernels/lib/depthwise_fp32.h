/*
 * FP32 DepthWise 3x3 convolution training steps, stride 1, zero padding 1 (so the output is h x w), CHW
 * tensors in the TCDM, batch 1; direct loops, run by every core of a team (inside team_fork, or through
 * the *_fn entry points), each core on its split_range share, no barrier at the end.
 *
 *   x, y, dy, dx [c][h][w], w / dw [c][3][3]
 *
 *   dw_fw  y[c][y][x]  = sum_{i,j} w[c][i][j] x[c][y+i-1][x+j-1]          rows (c, y) split over the cores
 *   dw_wg  dw[c][i][j] = sum_{y,x} dy[c][y][x] x[c][y+i-1][x+j-1]         the 9 c weights split
 *   dw_ig  dx[c][y][x] = sum_{i,j} w[c][i][j] dy[c][y-i+1][x-j+1]         rows (c, y) split
 *
 * Each output is one fmadd chain over the taps that fall inside the tensor, in the order written (i then j;
 * y then x), starting at 0: bit-identical to plain loops in that order. MACs per step: 9 c h w
 * (DW3X3_MACS, padding taps included). A zero dimension prints "error: depthwise: ..." and exits 1.
 *
 * Variants. The table dw3x3_variants[] holds, for each step, the kernels a kernel writer compares, one
 * signature, the same names for the three steps (`pulpsim compare --layer depthwise` ranks them; the app
 * dw_compare runs and checks them all):
 *
 *   dw        the three functions above (plain C loops; the baseline of the speed-ups)
 *   dw_ch     plain C, each core takes whole channels (split_range over c): FW / IG keep a channel's 9
 *             weights in registers for its whole plane, WG keeps its 9 accumulators in registers over the
 *             whole plane (one load of dy per pixel for 9 MACs instead of dw's 2 loads per MAC)
 *   dw_u2     the dw split (rows (c, y); WG: the 9 c weights), U = 2 adjacent outputs per iteration
 *   dw_u4     the same, U = 4
 *   dw_ch_u2  the dw_ch split, U = 2
 *   dw_ch_u4  the dw_ch split, U = 4
 *   dw_ch_c2  dw_ch with 2 channels per iteration of the plain loop
 *
 *   dw3x3_args_t t = {.c = C, .h = H, .w = W, .x = x, .weight = w, .y = y};
 *   for (unsigned v = 0; v < DW3X3_VARIANTS; ++v)
 *       if (dw3x3_variants[v].step == DW3X3_FW) dw3x3_variants[v].fn(&t);   // on every core of the team
 *
 * Unrolled kernels (u2, u4). The interior of an output row (columns 1 .. w-2, every tap inside in x) runs
 * on CORE-V hardware loop 0 (runtime/hwloop.h; inline asm, so the loop and its schedule are what is
 * written): one iteration takes U adjacent columns, loads the U + 2 input columns their windows share once
 * per kernel row into f registers (the next kernel row's while the fmadd.s of this one run, so no load is
 * used within two instructions), and does the fmadd.s of all U outputs tap by tap; the 9 weights (WG: the 9
 * or 3 accumulators) stay in registers. CV32E40P has no post-increment FP loads (xcvmem's are integer
 * loads), so each pointer takes one add per iteration. The rows whose kernel rows are all inside run on
 * hardware loop 1 around it: its body does the left column (padding taps left out), the blocks, the right
 * column and the step of every pointer to the next row (32 instructions per row for FW / IG), so a run of
 * rows costs no C code at all; the first and the last row of a channel (one kernel row in the padding; only
 * row 1 when h = 1) run the same blocks from C, out of line, so that the code of the interior rows stays
 * within the 512-byte L0 instruction cache of pulp-open. Per iteration of loop 0 (instructions, loads per
 * MAC; the plain loops load 1 value per MAC for FW / IG, 2 for dw WG, 1.1 for dw_ch WG):
 *
 *   FW / IG  U = 2: 12 flw + 18 fmadd.s + 2 fsw + 5 = 37 per 18 MACs (0.67 loads per MAC)
 *            U = 4: 18 flw + 36 fmadd.s + 4 fsw + 5 = 63 per 36 MACs (0.50)
 *            When U does not divide w - 2, the first block is followed by one starting (w - 2) % U columns
 *            later (the pointers advance by a register reset to U columns after each block): the blocks end
 *            at the last interior column, the overlap is computed twice to the same bits, and there is no
 *            leftover code.
 *   WG ch    U = 2: 2 + 12 flw + 18 fmadd.s + 4 = 36 per 18 MACs (0.78); U = 4: 4 + 18 + 36 + 4 = 62 per 36
 *            (0.61); an accumulation cannot be redone, so the interior pixels left over run a second loop 0
 *            of one pixel per iteration (10 loads per 9 MACs).
 *   WG dw    the three weights (i, 0..2) of a kernel row go together where the core's share holds all three
 *            (they share the dy load and the input columns), all their rows on loops 1 and 0 as above:
 *            U = 2: 2 + 4 flw + 6 fmadd.s + 2 = 14 per 6 MACs (1.0), U = 4: 4 + 6 + 12 + 2 = 24 per 12
 *            (0.83); a weight alone at either end of a share runs a one-chain loop, U dy and U input loads
 *            per U MACs (2.0), over all its rows at once for j = 1 (their pixels are contiguous).
 *   Interiors narrower than one block (w < U + 2) are done in C.
 *
 * Splits. Over rows (c, y) or over the 9 c weights of WG, every core gets work as long as c h (9 c) >=
 * cores, also when c < cores; over channels, c < cores leaves cores idle and c not a multiple of the core
 * count makes the last round uneven (on 8 cores: c = 3 uses 3 cores, c = 12 runs 2 rounds for 1.5 rounds of
 * work), but the weights (WG: accumulators) are loaded (stored) once per channel and WG reads dy once per
 * pixel. WG cannot be split inside a channel: each weight is one chain over the whole plane, and partial
 * sums added afterwards would round differently. Bank conflicts: the cores run the same code on addresses a
 * whole number of planes apart (channel split; about c h w / cores words with the row split); when that is a
 * multiple of the 16 word-interleaved banks (16 x 16 planes) they start on the same bank, but the first
 * stalls shift them apart: at 32 x 16 x 16 on 8 cores, TCDM contention costs the unrolled kernels 1 to 2.5%
 * of their cycles (3% for WG ch).
 *
 * Channel unrolling (c2, two channels per iteration) shares no load, since channels are independent, and
 * its 18 weights or accumulators leave no room for the unrolled kernels' row buffers (32 f registers); it
 * only shares the loop control and the border tests of the plain loops, so it is offered for dw_ch only
 * (on one core at 32 x 16 x 16: 7% fewer cycles than dw_ch for FW / IG, 10% for WG).
 *
 * The unrolled kernels need the CORE-V hardware loops (pulpsim, not qemu); dw, dw_ch and dw_ch_c2 are plain
 * C.
 */
#ifndef PULPSIM_DEPTHWISE_FP32_H
#define PULPSIM_DEPTHWISE_FP32_H

typedef struct {
    unsigned c, h, w;
    const float* x;      /* FW, WG */
    const float* weight; /* [c][3][3]: FW, IG */
    float* y;            /* FW output */
    const float* dy;     /* WG, IG */
    float* dw;           /* WG output */
    float* dx;           /* IG output */
} dw3x3_args_t;

#define DW3X3_MACS(c, h, w) (9u * (unsigned)(c) * (h) * (w))

void dw3x3_fw(const dw3x3_args_t* args);
void dw3x3_wg(const dw3x3_args_t* args);
void dw3x3_ig(const dw3x3_args_t* args);
void dw3x3_fw_fn(void* arg);
void dw3x3_wg_fn(void* arg);
void dw3x3_ig_fn(void* arg);

/* The variants, one signature; run by every core of a team like the three above (which are "dw"). */
typedef void (*dw3x3_fn_t)(const dw3x3_args_t* args);

#define DW3X3_FW 0u
#define DW3X3_WG 1u
#define DW3X3_IG 2u

typedef struct {
    const char* name; /* "dw", "dw_ch", "dw_u2", ...: the same names for each step */
    unsigned step;    /* DW3X3_FW, DW3X3_WG or DW3X3_IG */
    dw3x3_fn_t fn;
} dw3x3_variant_t;
/* pulpsim autotune reads this table from the ELF (sim/runs/tuner.cpp compare_program): a change in its
 * size must change it too. */
_Static_assert(sizeof(dw3x3_variant_t) == 12, "pulpsim autotune reads dw3x3_variants[] as 12-byte entries");

#define DW3X3_VARIANTS 21
extern const dw3x3_variant_t dw3x3_variants[DW3X3_VARIANTS];

void dw3x3_fw_ch(const dw3x3_args_t* args);
void dw3x3_fw_u2(const dw3x3_args_t* args);
void dw3x3_fw_u4(const dw3x3_args_t* args);
void dw3x3_fw_ch_u2(const dw3x3_args_t* args);
void dw3x3_fw_ch_u4(const dw3x3_args_t* args);
void dw3x3_fw_ch_c2(const dw3x3_args_t* args);
void dw3x3_wg_ch(const dw3x3_args_t* args);
void dw3x3_wg_u2(const dw3x3_args_t* args);
void dw3x3_wg_u4(const dw3x3_args_t* args);
void dw3x3_wg_ch_u2(const dw3x3_args_t* args);
void dw3x3_wg_ch_u4(const dw3x3_args_t* args);
void dw3x3_wg_ch_c2(const dw3x3_args_t* args);
void dw3x3_ig_ch(const dw3x3_args_t* args);
void dw3x3_ig_u2(const dw3x3_args_t* args);
void dw3x3_ig_u4(const dw3x3_args_t* args);
void dw3x3_ig_ch_u2(const dw3x3_args_t* args);
void dw3x3_ig_ch_u4(const dw3x3_args_t* args);
void dw3x3_ig_ch_c2(const dw3x3_args_t* args);

#endif
