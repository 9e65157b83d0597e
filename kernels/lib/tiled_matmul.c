/* FP32 matmul on L2 tensors, tiled through the TCDM with double-buffered DMA (see tiled_matmul.h). */
#include "tiled_matmul.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cluster.h"
#include "dma.h"
#include "matmul_l1.h"
#include "runtime.h"

/* What the planner assumes about the cost of a pipeline step (two barriers that put the team to sleep and
 * wake it, programming the DMA, each core's dispatch into the kernel; measured on 8 cores) and of one
 * register block (loading and storing its accumulators), in cycles. */
#define STEP_OVERHEAD_CYCLES 1000u
#define BLOCK_OVERHEAD_CYCLES 48u
#define TRANSFER_LATENCY_CYCLES 15u
/* DMA cycles per 256 bytes until the DMA is measured (2 bytes per cycle). */
#define DEFAULT_DMA_CYCLES_PER_256B 128u
/* Smallest tile the planner tries along K and N while a larger one fits (short inner loops cost). */
#define MIN_TK 32u
#define MIN_TN 8u

static uint32_t l1_limit;
static tiled_choice_t choice;

#ifdef PULPSIM_TUNED_CHOICES
#include "tuned_choices.h" /* generated from the tuning file (kernels/CMakeLists.txt) */
#else
static const tuned_matmul_t tuned_matmul_choices[1];
#define TUNED_MATMUL_CHOICES 0u
#endif
/* The table in use, read through these whatever it holds: the instructions that look a choice up are the
 * same in every build, so a tuned build runs exactly what `pulpsim autotune` measured. */
static const tuned_matmul_t* tuned_table = tuned_matmul_choices;
static unsigned tuned_count = TUNED_MATMUL_CHOICES;

void tiled_matmul_set_choice(const tiled_choice_t* c) {
    choice = c ? *c : (tiled_choice_t){0};
}

void tiled_matmul_set_tuned(const tuned_matmul_t* table, unsigned count) {
    tuned_table = table;
    tuned_count = table ? count : 0u;
}

unsigned tiled_matmul_get_tuned(const tuned_matmul_t** table) {
    *table = tuned_table;
    return tuned_count;
}

const tuned_matmul_t* tiled_matmul_tuned(const tiled_matmul_t* mm, unsigned cores) {
    for (unsigned i = 0; i < tuned_count; ++i) {
        const tuned_matmul_t* t = &tuned_table[i];
        if (t->m == mm->m && t->n == mm->n && t->k == mm->k && t->cores == cores &&
            t->a_trans == (mm->a_trans != 0) && t->b_trans == (mm->b_trans != 0) && !mm->accumulate &&
            t->tcdm_size == *(volatile uint32_t*)(EU_BASE + EU_TCDM_SIZE))
            return t;
    }
    return 0;
}

uint64_t tiled_matmul_footprint(unsigned tm, unsigned tn, unsigned tk, uint32_t guard_bytes) {
    const uint64_t set =
        4u * ((uint64_t)tm * tk + (uint64_t)tk * tn + (uint64_t)tm * tn) + 3u * (uint64_t)guard_bytes;
    return 2u * set;
}

void tiled_matmul_set_l1_limit(uint32_t bytes) {
    l1_limit = bytes;
}

uint32_t tiled_l1_budget(void) {
    const uint32_t free_bytes = l1_free_bytes();
    return l1_limit && l1_limit < free_bytes ? l1_limit : free_bytes;
}

void kernel_fail(const char* format, ...) {
    va_list args;
    va_start(args, format);
    fputs("error: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static inline unsigned ceil_div(unsigned a, unsigned b) {
    return (a + b - 1) / b;
}
static inline unsigned min_u(unsigned a, unsigned b) {
    return a < b ? a : b;
}

/* ---- planning ---------------------------------------------------------------------------------------- */

typedef struct {
    unsigned m, n, k, cores, accumulate;
    unsigned core_reciprocal;    /* 65536 / cores */
    unsigned dma_cycles_per_256; /* DMA cycles to move 256 bytes */
    uint32_t set_floats;         /* floats one buffer set may hold */
    uint64_t best_cost;
    tiled_plan_t best;
} planner_t;

static unsigned dma_cycles_per_256 = DEFAULT_DMA_CYCLES_PER_256B;

/* Cycles the DMA needs for `floats` floats (without its latency). */
static inline uint64_t dma_cycles(const planner_t* p, uint64_t floats) {
    return (floats * 4u * p->dma_cycles_per_256) >> 8;
}

/*
 * Estimated cycles of a plan, as the double-buffered pipeline runs: the first step's copies in, then every
 * step takes the longer of its compute and the next step's copies in (with its share of the copies out of
 * C tiles: a half-duplex DMA serves both from one budget), then the last C tile's copy out.
 * Compute per core: its rows of a tile in strips of 4, 2 and 1 rows at about 2, 2.2 and 3 cycles per MAC
 * (matmul_l1.c), plus a cost per register block and per step. The planner runs inside the measured
 * regions, so it avoids divisions (the serial divider takes up to 35 cycles).
 */
static void consider(planner_t* p, unsigned tm, unsigned dm, unsigned tn, unsigned dn, unsigned tk,
                     unsigned dk) {
    const uint64_t floats = (uint64_t)tm * tk + (uint64_t)tk * tn + (uint64_t)tm * tn;
    if (floats > p->set_floats) return;
    const unsigned rows =
        (unsigned)(((uint64_t)tm * p->core_reciprocal + 0xFFFFu) >> 16); /* ~ceil(tm / cores) */
    const unsigned quarter_cycles = (rows / 4u) * 32u + ((rows & 2u) ? 18u : 0u) + ((rows & 1u) ? 12u : 0u);
    const unsigned strips = rows / 4u + ((rows >> 1) & 1u) + (rows & 1u);
    const uint64_t steps = (uint64_t)dm * dn * dk;
    const uint64_t compute = (((uint64_t)quarter_cycles * tn * tk) >> 2) +
                             (uint64_t)strips * ((tn + 3u) >> 2) * BLOCK_OVERHEAD_CYCLES +
                             STEP_OVERHEAD_CYCLES;
    const uint64_t c_floats = (uint64_t)tm * tn * (p->accumulate ? 2u : 1u);
    const uint64_t load = dma_cycles(p, (uint64_t)tm * tk + (uint64_t)tk * tn) + 2u * TRANSFER_LATENCY_CYCLES;
    const uint64_t with_c =
        load + dma_cycles(p, c_floats) + TRANSFER_LATENCY_CYCLES; /* once per output tile */
    uint64_t cost =
        load +
        (uint64_t)dm * dn *
            ((dk - 1u) * (compute > load ? compute : load) + (compute > with_c ? compute : with_c)) +
        dma_cycles(p, (uint64_t)tm * tn) + TRANSFER_LATENCY_CYCLES;
    /* Between plans of about the same time, the one that moves fewer bytes (an eighth of its DMA time
     * counts): it leaves the DMA to others and suffers less on a slower one. */
    const uint64_t traffic = (uint64_t)p->m * p->k * dn + (uint64_t)p->k * p->n * dm + c_floats * dm * dn;
    cost += dma_cycles(p, traffic) >> 3;
    if (cost >= p->best_cost) return;
    p->best_cost = cost;
    p->best = (tiled_plan_t){.tm = tm,
                             .tn = tn,
                             .tk = tk,
                             .m_tiles = dm,
                             .n_tiles = dn,
                             .k_tiles = dk,
                             .steps = (unsigned)steps,
                             .set_bytes = (uint32_t)floats * 4u};
}

/* The balanced split of a dimension of `size` into 2^shift tiles (fewer when the tiles round up): its
 * tile size and tile count. Shifts from 0 up give tiles from `size` down to 1 without a division. */
static unsigned split_tile(unsigned size, unsigned shift) {
    return ((size - 1u) >> shift) + 1u;
}
static unsigned split_count(unsigned size, unsigned shift, unsigned tile) {
    unsigned count = 1u << shift;
    while ((count - 1u) * tile >= size) /* e.g. 37 in tiles of 3: 13 tiles, not 16 */
        --count;
    return count;
}

int tiled_matmul_plan(const tiled_matmul_t* mm, unsigned cores, uint32_t l1_bytes, tiled_plan_t* plan) {
    if (cores == 0) cores = 1;
    planner_t p = {.m = mm->m,
                   .n = mm->n,
                   .k = mm->k,
                   .cores = cores,
                   .accumulate = mm->accumulate,
                   .core_reciprocal = 65536u / cores,
                   .dma_cycles_per_256 = dma_cycles_per_256,
                   .set_floats = l1_bytes / 2u / 4u,
                   .best_cost = UINT64_MAX};
    const unsigned quantum = 4u * cores; /* every core a full strip of 4 rows */
    /* Smaller tiles along K and N are tried only while nothing larger fits: short inner loops cost. */
    for (unsigned ks = 0, last_tk = 0;; ++ks) {
        const unsigned tk = split_tile(p.k, ks);
        if (tk == last_tk) continue;
        last_tk = tk;
        if (tk < MIN_TK && ks > 0 && p.best_cost != UINT64_MAX) break;
        const unsigned dk = split_count(p.k, ks, tk);
        for (unsigned ns = 0, last_tn = 0;; ++ns) {
            const unsigned tn = split_tile(p.n, ns);
            if (tn != last_tn) {
                last_tn = tn;
                if (tn < MIN_TN && ns > 0 && p.best_cost != UINT64_MAX) break;
                const uint64_t fixed = (uint64_t)tk * tn;
                if (fixed + tk + tn <= p.set_floats) { /* at least one row of A and C fits */
                    const unsigned dn = split_count(p.n, ns, tn);
                    const unsigned max_tm = min_u((p.set_floats - (uint32_t)fixed) / (tk + tn), p.m);
                    const unsigned dm = ceil_div(p.m, max_tm);
                    consider(&p, ceil_div(p.m, dm), dm, tn, dn, tk, dk);
                    if (2u * dm <= p.m) /* more, smaller tiles: less that does not overlap */
                        consider(&p, ceil_div(p.m, 2u * dm), 2u * dm, tn, dn, tk, dk);
                    if (max_tm > quantum && max_tm < p.m) {
                        const unsigned tm = max_tm - max_tm % quantum;
                        consider(&p, tm, ceil_div(p.m, tm), tn, dn, tk, dk);
                    }
                }
            }
            if (tn == 1) break;
        }
        if (tk == 1) break;
    }
    if (p.best_cost == UINT64_MAX) return 0;
    *plan = p.best;
    return 1;
}

/* ---- the pipeline -------------------------------------------------------------------------------------- */

/*
 * Step s of the pipeline computes k-tile s % k_tiles of output tile s / k_tiles (output tiles row by row).
 * The A and B tiles of a step go to buffer set s & 1 (dma_double_buffer); the C tile lives in the C buffer
 * of its output tile's parity over all its k-steps, so the next output tile can start while it is written
 * back.
 *
 * Each core has only dma.queue_depth (2) transfers outstanding: if core 0 issued the copy out of a finished
 * C tile as well as the next A and B tiles, its third push would stall it, and the whole team at the
 * following barrier, until the copy out is over. So a helper core (the last of the team) issues the copy
 * out at the start of the next step's compute and waits for it at the end of its share: it overlaps that
 * step's compute, and the barrier after it frees the C buffer. Only the last tile, and every tile when C
 * is accumulated with K in one tile (its next C load is issued before that step's compute), are copied
 * out by core 0 in the store callback.
 */
typedef struct {
    unsigned m0, n0, mlen, nlen; /* position and size in C */
    unsigned index;              /* output tiles row by row */
} out_tile_t;

/* What the team needs to compute one step; core 0 prepares it when it loads the step's tiles. */
typedef struct {
    matmul_l1_t l1;          /* the matmul on the TCDM buffers */
    out_tile_t out;          /* the output tile the step adds to */
    unsigned last_k;         /* the step finishes its output tile */
    unsigned rows, rows_mod; /* split_range() of l1.m rows, without a division per core */
} step_desc_t;

typedef struct {
    unsigned step, k_tile, mi, ni; /* the step core 0 prepared last */
} cursor_t;

typedef struct {
    const tiled_matmul_t* mm;
    tiled_plan_t plan;
    unsigned cores, helper;
    int helper_stores; /* copies out by the helper core, else by core 0 */
    float* a_buf[2];
    float* b_buf[2];
    float* c_buf[2];      /* by the parity of the output tile */
    dma_id_t c_stored[2]; /* the last copy out of each C buffer (when core 0 issues them) */
    step_desc_t desc[2];  /* of the step in each buffer set */
    cursor_t cursor;
    unsigned rows_full[2], rows_edge[2]; /* split_range() of tm and of the last tile's rows */
    int pending;                         /* the helper must copy out pending_out, or 0 */
    out_tile_t pending_out;
    matmul_fn_t kernel; /* a family kernel for the tiles, or NULL for matmul_l1 */
} pipeline_ctx_t;

/* Step `step`'s position: the next step after the cursor's (the usual case) needs no division. */
static void move_cursor(pipeline_ctx_t* x, unsigned step) {
    const tiled_plan_t* p = &x->plan;
    cursor_t* c = &x->cursor;
    if (step == c->step + 1u) {
        c->step = step;
        if (++c->k_tile < p->k_tiles) return;
        c->k_tile = 0;
        if (++c->ni < p->n_tiles) return;
        c->ni = 0;
        ++c->mi;
    } else if (step != c->step) {
        const unsigned out = step / p->k_tiles;
        c->step = step;
        c->k_tile = step - out * p->k_tiles;
        c->mi = out / p->n_tiles;
        c->ni = out - c->mi * p->n_tiles;
    }
}

/* A 2-D copy of `rows` rows of `cols` floats from row `r0`, column `c0` of an L2 matrix with `ld` columns
 * and `total` floats, packed in the TCDM. Checks the rows lie inside the tensor. */
static dma_id_t copy_in(float* l1, const float* l2, unsigned ld, unsigned total, unsigned r0, unsigned c0,
                        unsigned rows, unsigned cols) {
    if (c0 + cols > ld || (r0 + rows) * ld > total)
        kernel_fail("tiled_matmul: a tile read outside its tensor");
    const float* src = l2 + r0 * ld + c0;
    if (rows == 1 || cols == ld) return dma_copy_in(l1, src, rows * cols * 4u);
    return dma_copy_in_2d(l1, src, cols * 4u, rows, ld * 4u, 0);
}

static dma_id_t copy_out_c(const pipeline_ctx_t* x, const out_tile_t* o) {
    const tiled_matmul_t* mm = x->mm;
    if (o->n0 + o->nlen > mm->n || o->m0 + o->mlen > mm->m)
        kernel_fail("tiled_matmul: a tile written outside its tensor");
    float* dst = mm->c + o->m0 * mm->n + o->n0;
    const float* src = x->c_buf[o->index & 1u];
    if (o->mlen == 1 || o->nlen == mm->n) return dma_copy_out(dst, src, o->mlen * o->nlen * 4u);
    return dma_copy_out_2d(dst, src, o->nlen * 4u, o->mlen, mm->n * 4u, 0);
}

static dma_id_t load_tile(void* ctx, unsigned step, unsigned buffer) {
    pipeline_ctx_t* x = ctx;
    const tiled_matmul_t* mm = x->mm;
    const tiled_plan_t* p = &x->plan;
    move_cursor(x, step);
    const cursor_t* c = &x->cursor;
    step_desc_t* d = &x->desc[buffer];
    const unsigned k0 = c->k_tile * p->tk, klen = min_u(p->tk, mm->k - k0);
    d->out = (out_tile_t){.m0 = c->mi * p->tm, .n0 = c->ni * p->tn, .index = c->mi * p->n_tiles + c->ni};
    d->out.mlen = min_u(p->tm, mm->m - d->out.m0);
    d->out.nlen = min_u(p->tn, mm->n - d->out.n0);
    d->last_k = c->k_tile + 1u == p->k_tiles;
    const unsigned* rows = d->out.mlen == p->tm ? x->rows_full : x->rows_edge;
    d->rows = rows[0];
    d->rows_mod = rows[1];
    d->l1 = (matmul_l1_t){
        .m = d->out.mlen,
        .n = d->out.nlen,
        .k = klen,
        .a = x->a_buf[buffer],
        .lda = mm->a_trans ? d->out.mlen : klen,
        .a_trans = mm->a_trans,
        .b = x->b_buf[buffer],
        .ldb = mm->b_trans ? klen : d->out.nlen,
        .b_trans = mm->b_trans,
        .c = x->c_buf[d->out.index & 1u],
        .ldc = d->out.nlen,
        /* later k-tiles continue the sums the earlier ones left in the TCDM */
        .accumulate = c->k_tile > 0 || mm->accumulate,
    };

    const unsigned mk = mm->m * mm->k, kn = mm->k * mm->n;
    const out_tile_t* o = &d->out;
    dma_id_t last;
    if (mm->a_trans)
        last = copy_in(x->a_buf[buffer], mm->a, mm->m, mk, k0, o->m0, klen, o->mlen);
    else
        last = copy_in(x->a_buf[buffer], mm->a, mm->k, mk, o->m0, k0, o->mlen, klen);
    if (mm->b_trans)
        last = copy_in(x->b_buf[buffer], mm->b, mm->k, kn, o->n0, k0, o->nlen, klen);
    else
        last = copy_in(x->b_buf[buffer], mm->b, mm->n, kn, k0, o->n0, klen, o->nlen);
    if (mm->accumulate && c->k_tile == 0) {
        /* The C buffer held the output tile two before this one: its copy out must be over. */
        const unsigned cb = o->index & 1u;
        dma_wait(x->c_stored[cb]);
        last = copy_in(x->c_buf[cb], mm->c, mm->n, mm->m * mm->n, o->m0, o->n0, o->mlen, o->nlen);
    }
    return last;
}

static void compute_tile(void* ctx, unsigned step, unsigned buffer) {
    (void)step;
    pipeline_ctx_t* x = ctx;
    const step_desc_t* d = &x->desc[buffer];
    const unsigned core = core_id();
    dma_id_t helper_store = DMA_NONE;
    if (core == x->helper && x->pending) {
        helper_store = copy_out_c(x, &x->pending_out);
        x->pending = 0;
    }
    if (x->kernel) {
        const matmul_args_t args = {
            .a = d->l1.a, .b = d->l1.b, .c = d->l1.c, .m = d->l1.m, .n = d->l1.n, .k = d->l1.k};
        x->kernel(&args);
        dma_wait(helper_store);
        return;
    }
    /* split_range(), with the quotient and remainder core 0 computed once per tile height */
    const unsigned first = core * d->rows + (core < d->rows_mod ? core : d->rows_mod);
    matmul_l1_rows(&d->l1, first, first + d->rows + (core < d->rows_mod ? 1u : 0u));
    dma_wait(helper_store);
}

static dma_id_t store_tile(void* ctx, unsigned step, unsigned buffer) {
    pipeline_ctx_t* x = ctx;
    const step_desc_t* d = &x->desc[buffer];
    if (!d->last_k) return DMA_NONE; /* the C tile is not complete yet */
    if (x->helper_stores && step + 1 < x->plan.steps) {
        x->pending_out = d->out;
        x->pending = 1;
        return DMA_NONE;
    }
    x->c_stored[d->out.index & 1u] = copy_out_c(x, &d->out);
    return x->c_stored[d->out.index & 1u];
}

static void run_pipeline(void* ctx) {
    const dma_pipeline_t pipeline = {((pipeline_ctx_t*)ctx)->plan.steps, load_tile, compute_tile, store_tile,
                                     ctx};
    dma_double_buffer(&pipeline);
}

/*
 * Measures the DMA once per program, so that tiles suit the platform's dma.bandwidth_bits: two copies in of
 * 64 and 576 bytes, timed by core 0; the difference is the time of 512 bytes without the fixed costs. An
 * untimed copy first brings the code into the instruction cache, which would otherwise count as time.
 */
static void measure_dma(void* l1, uint32_t free_bytes) {
    static int measured;
    static uint32_t probe[576 / 4];
    if (measured || free_bytes < sizeof probe) return;
    measured = 1;
    dma_wait(dma_copy_in(l1, probe, 64));
    const uint32_t t0 = read_mcycle();
    dma_wait(dma_copy_in(l1, probe, 64));
    const uint32_t t1 = read_mcycle();
    dma_wait(dma_copy_in(l1, probe, sizeof probe));
    const uint32_t t2 = read_mcycle();
    const uint32_t small = t1 - t0, large = t2 - t1;
    if (large > small) dma_cycles_per_256 = (large - small + 1u) / 2u;
}

static int aligned(const void* p) {
    return p && ((uintptr_t)p & 3u) == 0;
}

tiled_plan_t tiled_matmul(const tiled_matmul_t* mm, unsigned cores) {
    if (mm->m == 0 || mm->n == 0 || mm->k == 0)
        kernel_fail("tiled_matmul: empty shape M=%u N=%u K=%u", mm->m, mm->n, mm->k);
    if (!aligned(mm->a) || !aligned(mm->b) || !aligned(mm->c))
        kernel_fail("tiled_matmul: a tensor is null or not 4-byte aligned (A %p, B %p, C %p)", mm->a, mm->b,
                    mm->c);
    /* Offsets are 32-bit byte counts: every tensor must stay below 4 GiB. */
    const uint64_t limit = UINT32_MAX / 4u;
    if ((uint64_t)mm->m * mm->k > limit || (uint64_t)mm->k * mm->n > limit || (uint64_t)mm->m * mm->n > limit)
        kernel_fail("tiled_matmul: shape M=%u N=%u K=%u too large", mm->m, mm->n, mm->k);
    /* Tiles of C are written back while tiles of A and B are still read: C must not overlap them. */
    const uintptr_t c_lo = (uintptr_t)mm->c, c_hi = c_lo + (uintptr_t)mm->m * mm->n * 4u;
    const uintptr_t a_lo = (uintptr_t)mm->a, a_hi = a_lo + (uintptr_t)mm->m * mm->k * 4u;
    const uintptr_t b_lo = (uintptr_t)mm->b, b_hi = b_lo + (uintptr_t)mm->k * mm->n * 4u;
    if ((c_lo < a_hi && a_lo < c_hi) || (c_lo < b_hi && b_lo < c_hi))
        kernel_fail("tiled_matmul: C overlaps A or B");
    const unsigned team = cores == 0 || cores > num_cores() ? num_cores() : cores;

    const uint32_t free_bytes = tiled_l1_budget();
    measure_dma(l1_free_start(), free_bytes);
    /* In the TCDM, where every core reads it each step, and off core 0's 1 KiB stack. */
    TCDM_BSS static pipeline_ctx_t x;
    x = (pipeline_ctx_t){.mm = mm,
                         .cores = team,
                         .helper = team - 1u,
                         .c_stored = {DMA_NONE, DMA_NONE},
                         .cursor = {.step = ~0u, .k_tile = ~0u}};
    tiled_choice_t run = choice;
    if (!run.tm) {
        const tuned_matmul_t* tuned = tiled_matmul_tuned(mm, team);
        if (tuned && tiled_matmul_footprint(tuned->choice.tm, tuned->choice.tn, tuned->choice.tk,
                                            tuned->choice.guard_bytes & ~3u) <= free_bytes)
            run = tuned->choice;
    }
    const uint32_t guard = run.guard_bytes & ~3u;
    if (run.tm) {
        const unsigned tm = min_u(run.tm, mm->m), tn = min_u(run.tn, mm->n), tk = min_u(run.tk, mm->k);
        if (tn == 0 || tk == 0)
            kernel_fail("tiled_matmul: tiles %ux%ux%u: every size must be at least 1", tm, tn, tk);
        const uint64_t needed = tiled_matmul_footprint(tm, tn, tk, guard);
        if (needed > free_bytes)
            kernel_fail(
                "tiled_matmul: tiles %ux%ux%u need %u bytes of TCDM with their guard zones, %u are free", tm,
                tn, tk, (unsigned)needed, (unsigned)free_bytes);
        x.plan = (tiled_plan_t){.tm = tm,
                                .tn = tn,
                                .tk = tk,
                                .m_tiles = ceil_div(mm->m, tm),
                                .n_tiles = ceil_div(mm->n, tn),
                                .k_tiles = ceil_div(mm->k, tk),
                                .set_bytes = (uint32_t)(needed / 2u)};
        x.plan.steps = x.plan.m_tiles * x.plan.n_tiles * x.plan.k_tiles;
    } else if (6u * (uint64_t)guard >= free_bytes ||
               !tiled_matmul_plan(mm, team, free_bytes - 6u * guard, &x.plan)) {
        kernel_fail("tiled_matmul: %u bytes of free TCDM cannot hold two 1x1x1 tile sets",
                    (unsigned)free_bytes);
    }
    x.kernel = run.kernel;
    if (x.kernel && (mm->a_trans || mm->b_trans || mm->accumulate || x.plan.k_tiles != 1))
        kernel_fail(
            "tiled_matmul: a matmul-family kernel needs A as [M][K], B as [K][N], no accumulate and K "
            "in one tile (tiles %ux%ux%u, K=%u)",
            x.plan.tm, x.plan.tn, x.plan.tk, mm->k);

    const tiled_plan_t* p = &x.plan;
    x.helper_stores = !(mm->accumulate && p->k_tiles == 1);
    const unsigned edge = mm->m - (p->m_tiles - 1u) * p->tm;
    x.rows_full[0] = p->tm / team;
    x.rows_full[1] = p->tm % team;
    x.rows_edge[0] = edge / team;
    x.rows_edge[1] = edge % team;
    float* const l1_start = l1_free_start();
    float* l1 = l1_start;
    const unsigned gap = guard / 4u;
    static const char* const guard_names[2][3] = {{"after A tile 0", "after B tile 0", "after C tile 0"},
                                                  {"after A tile 1", "after B tile 1", "after C tile 1"}};
    for (unsigned b = 0; b < 2; ++b) {
        x.a_buf[b] = l1;
        x.b_buf[b] = x.a_buf[b] + p->tm * p->tk + gap;
        x.c_buf[b] = x.b_buf[b] + p->tk * p->tn + gap;
        l1 = x.c_buf[b] + p->tm * p->tn + gap;
        if (gap) {
            guard_zone(x.b_buf[b] - gap, guard, guard_names[b][0]);
            guard_zone(x.c_buf[b] - gap, guard, guard_names[b][1]);
            guard_zone(l1 - gap, guard, guard_names[b][2]);
        }
    }
    team_fork(team, run_pipeline, &x);
    if (gap) guard_zone_clear(l1_start, (uint32_t)((l1 - l1_start) * 4));
    return x.plan;
}
