#include "depthwise_fp32.h"

#include "cluster.h"
#include "hwloop.h"
#include "im2col_fp32.h"
#include "runtime.h"

static void check(const dw3x3_args_t* a) {
    if (a->c == 0 || a->h == 0 || a->w == 0) layers_shape_error("depthwise", "zero dimension");
}

/* out[y][x] = sum_{i,j} k[i][j] in[y + s i - s][x + s j - s] over one row y of one channel; s = +1 is the
 * forward correlation, s = -1 the input gradient's flipped one. */
static void row_3x3(const float* k, const float* in, float* out, unsigned h, unsigned w, unsigned y, int s) {
    /* The weights in registers: the stores to out could alias k otherwise. */
    const float k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4], k5 = k[5], k6 = k[6], k7 = k[7],
                k8 = k[8];
    for (unsigned x = 0; x < w; ++x) {
        float acc = 0.0f;
        if (y > 0 && y + 1 < h && x > 0 && x + 1 < w) {
            /* Interior: all nine taps, no bounds tests, same order as below. */
            const float* c = in + (int)(y * w + x);
            const int dy = s * (int)w;
            acc += k0 * c[-dy - s];
            acc += k1 * c[-dy];
            acc += k2 * c[-dy + s];
            acc += k3 * c[-s];
            acc += k4 * c[0];
            acc += k5 * c[s];
            acc += k6 * c[dy - s];
            acc += k7 * c[dy];
            acc += k8 * c[dy + s];
        } else {
            for (int i = 0; i < 3; ++i) {
                const int iy = (int)y + s * (i - 1);
                if (iy < 0 || iy >= (int)h) continue;
                const float* in_row = in + iy * (int)w;
                for (int j = 0; j < 3; ++j) {
                    const int ix = (int)x + s * (j - 1);
                    if (ix < 0 || ix >= (int)w) continue;
                    acc += k[i * 3 + j] * in_row[ix];
                }
            }
        }
        out[x] = acc;
    }
}

void dw3x3_fw(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * a->h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last; ++r) {
        const unsigned c = r / a->h;
        row_3x3(a->weight + 9 * c, a->x + c * plane, a->y + r * a->w, a->h, a->w, r % a->h, 1);
    }
}

void dw3x3_ig(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * a->h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last; ++r) {
        const unsigned c = r / a->h;
        row_3x3(a->weight + 9 * c, a->dy + c * plane, a->dx + r * a->w, a->h, a->w, r % a->h, -1);
    }
}

void dw3x3_wg(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c * 9, core_id(), num_cores(), &first, &last);
    for (unsigned t = first; t < last; ++t) {
        const unsigned c = t / 9, i = (t % 9) / 3, j = t % 3;
        const float* g = a->dy + c * plane;
        const float* in = a->x + c * plane;
        /* Only the (y, x) whose tap (y + i - 1, x + j - 1) is inside the input. */
        const unsigned y0 = i == 0 ? 1 : 0, y1 = i == 2 ? a->h - 1 : a->h;
        const unsigned x0 = j == 0 ? 1 : 0, x1 = j == 2 ? a->w - 1 : a->w;
        float acc = 0.0f;
        for (unsigned y = y0; y < y1; ++y) {
            const float* g_row = g + y * a->w;
            const float* in_row = in + (y + i - 1) * a->w;
            for (unsigned x = x0; x < x1; ++x)
                acc += g_row[x] * in_row[x + j - 1];
        }
        a->dw[t] = acc;
    }
}

void dw3x3_fw_fn(void* arg) {
    dw3x3_fw((const dw3x3_args_t*)arg);
}
void dw3x3_wg_fn(void* arg) {
    dw3x3_wg((const dw3x3_args_t*)arg);
}
void dw3x3_ig_fn(void* arg) {
    dw3x3_ig((const dw3x3_args_t*)arg);
}

/* ------------------------------------------------------------------------------------------------------ */
/* The variants (depthwise_fp32.h): the splits over channels and the unrolled, hardware-loop kernels.      */

#define INLINE static inline __attribute__((always_inline))

/* Nine floats of one channel (its weights, or its nine WG accumulators) as scalars: after inlining they
 * live in registers, where neither the output stores nor the asm "memory" clobbers reach them. */
typedef struct {
    float v[9];
} nine_t;

INLINE nine_t load9(const float* p) {
    nine_t n;
#pragma clang loop unroll(full)
    for (int i = 0; i < 9; ++i)
        n.v[i] = p[i];
    return n;
}

/* The kernel rows i whose input row y + s (i - 1) lies inside the plane, as bits (7: all, 6: rows 1 and 2,
 * 3: rows 0 and 1, 2: row 1 only), and r[i] pointing at that row (at row y for the others, never read). */
INLINE unsigned rows_at(const float* plane, unsigned h, unsigned w, unsigned y, int s, const float* r[3]) {
    unsigned mask = 0;
    for (int i = 0; i < 3; ++i) {
        const int iy = (int)y + s * (i - 1);
        const int inside = iy >= 0 && iy < (int)h;
        mask |= (unsigned)inside << i;
        r[i] = plane + (inside ? iy : (int)y) * (int)w;
    }
    return mask;
}

/* One FW (s = +1) or IG (s = -1) output at column x from the kernel rows in M and the kernel columns
 * [J0, J1): one fmadd chain from 0 in (i, j) order, as the plain loop takes them. */
INLINE float point(const nine_t* k, const float* const r[3], int x, const unsigned M, const int s,
                   const int J0, const int J1) {
    float acc = 0.0f;
#pragma clang loop unroll(full)
    for (int i = 0; i < 3; ++i)
        if (M >> i & 1)
#pragma clang loop unroll(full)
            for (int j = J0; j < J1; ++j)
                acc += k->v[3 * i + j] * r[i][x + s * (j - 1)];
    return acc;
}

/*
 * Inline-asm bodies on hardware loop 0. A row pass loads U + 2 adjacent input columns of one kernel row into
 * a row buffer (P or Q), then does the U x 3 fmadd.s of that kernel row; the next row's columns are loaded
 * into the other buffer before the pass, so no load is used within two instructions of its issue. Each
 * accumulator still takes its taps in (i, j) order, the first one onto +0 (%[z]), as the plain loop.
 */
#define RP0 "ft0"
#define RP1 "ft1"
#define RP2 "ft2"
#define RP3 "ft3"
#define RP4 "ft4"
#define RP5 "ft5"
#define RQ0 "ft6"
#define RQ1 "ft7"
#define RQ2 "ft8"
#define RQ3 "ft9"
#define RQ4 "ft10"
#define RQ5 "ft11"
#define AC0 "fa0" /* FW / IG: the U outputs */
#define AC1 "fa1"
#define AC2 "fa2"
#define AC3 "fa3"
#define DY0 "fa4" /* WG: the U dy values */
#define DY1 "fa5"
#define DY2 "fa6"
#define DY3 "fa7"
#define DW_CLOBBERS                                                                                          \
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11", "fa0", "fa1",      \
        "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "memory"

#define FLW(reg, off, p) "flw " reg ", " #off "(%[" #p "])\n\t"
#define FMA(d, a, b, c) "fmadd.s " d ", " a ", " b ", " c "\n\t"
#define ADDI(p, bytes) "addi %[" #p "], %[" #p "], " #bytes "\n\t"

/* U + 2 window columns of a row into buffer b. */
#define LD2(b, p) FLW(R##b##0, 0, p) FLW(R##b##1, 4, p) FLW(R##b##2, 8, p) FLW(R##b##3, 12, p)
#define LD4(b, p) LD2(b, p) FLW(R##b##4, 16, p) FLW(R##b##5, 20, p)

/* FW / IG: output u takes the taps j = 0, 1, 2 of kernel row (ka, kb, kc) from window columns m of buffer b:
 * m = u + j for FW, u + 2 - j for IG (the flipped kernel). A row pass goes tap by tap, all U outputs each
 * (so an accumulator's next fmadd.s is U instructions later, which would hide an FPU latency); FIRST starts
 * the chains on +0. */
#define ADD_FIRST(u) "%[z]"
#define ADD_NEXT(u) AC##u
#define TAP(b, u, m, k, add) FMA(AC##u, "%[" #k "]", R##b##m, add)
#define J2(b, k, m0, m1, f) TAP(b, 0, m0, k, ADD_##f(0)) TAP(b, 1, m1, k, ADD_##f(1))
#define J4(b, k, m0, m1, m2, m3, f)                                                                          \
    TAP(b, 0, m0, k, ADD_##f(0))                                                                             \
    TAP(b, 1, m1, k, ADD_##f(1)) TAP(b, 2, m2, k, ADD_##f(2)) TAP(b, 3, m3, k, ADD_##f(3))
#define ROWF2(b, ka, kb, kc, f) J2(b, ka, 0, 1, f) J2(b, kb, 1, 2, NEXT) J2(b, kc, 2, 3, NEXT)
#define ROWF4(b, ka, kb, kc, f)                                                                              \
    J4(b, ka, 0, 1, 2, 3, f) J4(b, kb, 1, 2, 3, 4, NEXT) J4(b, kc, 2, 3, 4, 5, NEXT)
#define ROWI2(b, ka, kb, kc, f) J2(b, ka, 2, 3, f) J2(b, kb, 1, 2, NEXT) J2(b, kc, 0, 1, NEXT)
#define ROWI4(b, ka, kb, kc, f)                                                                              \
    J4(b, ka, 2, 3, 4, 5, f) J4(b, kb, 1, 2, 3, 4, NEXT) J4(b, kc, 0, 1, 2, 3, NEXT)
#define FSW(u, off) "fsw " AC##u ", " #off "(%[po])\n\t"
#define ST2 FSW(0, 0) FSW(1, 4)
#define ST4 ST2 FSW(2, 8) FSW(3, 12)

/* U outputs of one row, for each set of kernel rows inside the tensor (p0..p2: kernel rows 0..2). The
 * pointers advance by %[inc] bytes, then %[inc] is set to U columns: the caller may let the first block
 * advance by fewer. */
#define ADV(p) "add %[" #p "], %[" #p "], %[inc]\n\t"
#define NEXT_INC(bytes) "addi %[inc], zero, " #bytes "\n\t"
#define FWIG7(U, ROW, BYTES)                                                                                 \
    LD##U(P, p0) LD##U(Q, p1) ROW##U(P, k0, k1, k2, FIRST) LD##U(P, p2) ROW##U(Q, k3, k4, k5, NEXT)          \
        ROW##U(P, k6, k7, k8, NEXT) ST##U                                                                    \
        ADV(p0) ADV(p1) ADV(p2) ADV(po) NEXT_INC(BYTES)
#define FWIG6(U, ROW, BYTES)                                                                                 \
    LD##U(P, p1) LD##U(Q, p2) ROW##U(P, k3, k4, k5, FIRST) ROW##U(Q, k6, k7, k8, NEXT) ST##U ADV(p1) ADV(p2) \
        ADV(po) NEXT_INC(BYTES)
#define FWIG3(U, ROW, BYTES)                                                                                 \
    LD##U(P, p0) LD##U(Q, p1) ROW##U(P, k0, k1, k2, FIRST) ROW##U(Q, k3, k4, k5, NEXT) ST##U ADV(p0) ADV(p1) \
        ADV(po) NEXT_INC(BYTES)
#define FWIG2(U, ROW, BYTES) LD##U(P, p1) ROW##U(P, k3, k4, k5, FIRST) ST##U ADV(p1) ADV(po) NEXT_INC(BYTES)

/* The pointers a row pass advances: the first window column of each kernel row, and the next output. */
typedef struct {
    const float* r[3];
    float* out;
} window_t;

#define FWIG_ASM(BODY)                                                                                       \
    __asm__ volatile(                                                                                        \
        HWLOOP_BEGIN(0, "%[n]", 1) BODY HWLOOP_END(1)                                                        \
        : [p0] "+r"(p->r[0]), [p1] "+r"(p->r[1]), [p2] "+r"(p->r[2]), [po] "+r"(p->out), [inc] "+r"(inc)     \
        : [n] "r"(n), [z] "f"(0.0f), [k0] "f"(k->v[0]), [k1] "f"(k->v[1]), [k2] "f"(k->v[2]),                \
          [k3] "f"(k->v[3]), [k4] "f"(k->v[4]), [k5] "f"(k->v[5]), [k6] "f"(k->v[6]), [k7] "f"(k->v[7]),     \
          [k8] "f"(k->v[8])                                                                                  \
        : DW_CLOBBERS)
#define FWIG_CASE(S, UU, MM, ROW, BYTES)                                                                     \
    if (s == S && U == UU && M == MM)                                                                        \
        FWIG_ASM(FWIG##MM(UU, ROW, BYTES));                                                                  \
    else

/* n blocks of U outputs on the hardware loop from p's pointers on, the first block followed by an advance of
 * first_cols columns, the others by U. */
INLINE void fwig_interior(const nine_t* k, window_t* p, unsigned n, unsigned first_cols, const unsigned M,
                          const int s, const unsigned U) {
    unsigned inc = first_cols * sizeof(float);
    FWIG_CASE(1, 2, 7, ROWF, 8)
    FWIG_CASE(1, 2, 6, ROWF, 8)
    FWIG_CASE(1, 2, 3, ROWF, 8)
    FWIG_CASE(1, 2, 2, ROWF, 8)
    FWIG_CASE(1, 4, 7, ROWF, 16)
    FWIG_CASE(1, 4, 6, ROWF, 16)
    FWIG_CASE(1, 4, 3, ROWF, 16)
    FWIG_CASE(1, 4, 2, ROWF, 16)
    FWIG_CASE(-1, 2, 7, ROWI, 8)
    FWIG_CASE(-1, 2, 6, ROWI, 8)
    FWIG_CASE(-1, 2, 3, ROWI, 8)
    FWIG_CASE(-1, 2, 2, ROWI, 8)
    FWIG_CASE(-1, 4, 7, ROWI, 16)
    FWIG_CASE(-1, 4, 6, ROWI, 16)
    FWIG_CASE(-1, 4, 3, ROWI, 16)
    FWIG_CASE(-1, 4, 2, ROWI, 16)
    __builtin_trap();
}

/*
 * One output row of FW / IG with the kernel rows M inside the tensor (r[i]: input row of kernel row i): the
 * left and right columns (padding taps left out) in C, the w - 2 interior columns in blocks of U on the
 * hardware loop. When U does not divide the interior, the first block is followed by the block starting
 * (w - 2) % U columns later, so the blocks end at the last interior column: the overlap is computed twice,
 * the same bits, and there is no leftover code. Interiors narrower than U are done in C.
 */
INLINE void fwig_row(const nine_t* k, const float* const r[3], float* out, unsigned w, const unsigned M,
                     const int s, const unsigned U) {
    if (__builtin_expect(w == 1, 0)) {
        out[0] = point(k, r, 0, M, s, 1, 2);
        return;
    }
    out[0] = s > 0 ? point(k, r, 0, M, s, 1, 3) : point(k, r, 0, M, s, 0, 2);
    const unsigned inner = w - 2, rem = inner % U;
    if (__builtin_expect(inner >= U, 1)) {
        window_t p = {{r[0], r[1], r[2]}, out + 1}; /* output 1's window starts at column 0 */
        fwig_interior(k, &p, inner / U + (rem != 0), rem != 0 ? rem : U, M, s, U);
    } else {
        for (unsigned x = 1; x + 1 < w; ++x)
            out[x] = point(k, r, (int)x, M, s, 0, 3);
    }
    out[w - 1] = s > 0 ? point(k, r, (int)w - 1, M, s, 0, 2) : point(k, r, (int)w - 1, M, s, 1, 3);
}

/* The first and the last row of a channel (kernel rows 1, 2 or 0, 1 inside; row 1 alone when h = 1), out of
 * line so that the code of the interior rows stays together in the instruction cache. */
static __attribute__((noinline)) void fwig_edge_row(const float* weight, const float* in, float* out,
                                                    unsigned h, unsigned w, unsigned y, int s, unsigned U) {
    const nine_t k = load9(weight);
    const float* r[3];
    const unsigned m = rows_at(in, h, w, y, s, r);
    float* o = out + y * w;
#define FWIG_EDGE(S, UU)                                                                                     \
    if (s == S && U == UU) {                                                                                 \
        if (m == 6)                                                                                          \
            fwig_row(&k, r, o, w, 6, S, UU);                                                                 \
        else if (m == 3)                                                                                     \
            fwig_row(&k, r, o, w, 3, S, UU);                                                                 \
        else                                                                                                 \
            fwig_row(&k, r, o, w, 2, S, UU);                                                                 \
        return;                                                                                              \
    }
    FWIG_EDGE(1, 2)
    FWIG_EDGE(1, 4)
    FWIG_EDGE(-1, 2)
    FWIG_EDGE(-1, 4)
#undef FWIG_EDGE
}

/* An inner loop 0 inside the body of loop 1, which is already aligned and free of compressed instructions
 * (a second HWLOOP_BEGIN would align again, which the assembler pads with a 2-byte unimp there). */
#define INNER_BEGIN(count, label) "cv_setup 0, " count ", " #label "f\n\t"
#define INNER_END(label) #label ":\n\t"
/* Columns 0 and 1 of the three row pointers. */
#define LDB6 FLW(RQ0, 0, p0) FLW(RQ1, 4, p0) FLW(RQ2, 0, p1) FLW(RQ3, 4, p1) FLW(RQ4, 0, p2) FLW(RQ5, 4, p2)
#define KF(k, r, add) FMA(AC0, "%[" #k "]", r, add)
/* Column 0 (output at -4(po)) and column w - 1 (at 0(po)) from columns 0, 1 of p0..p2: FW takes taps j = 1, 2
 * (left) or 0, 1 (right) from them, IG j = 0, 1 (left, reversed) or 1, 2 (right, reversed). */
#define LEFT_F                                                                                               \
    LDB6 KF(k1, RQ0, "%[z]") KF(k2, RQ1, AC0) KF(k4, RQ2, AC0) KF(k5, RQ3, AC0) KF(k7, RQ4, AC0)             \
        KF(k8, RQ5, AC0) "fsw " AC0 ", -4(%[po])\n\t"
#define RIGHT_F                                                                                              \
    LDB6 KF(k0, RQ0, "%[z]") KF(k1, RQ1, AC0) KF(k3, RQ2, AC0) KF(k4, RQ3, AC0) KF(k6, RQ4, AC0)             \
        KF(k7, RQ5, AC0) "fsw " AC0 ", 0(%[po])\n\t"
#define LEFT_I                                                                                               \
    LDB6 KF(k0, RQ1, "%[z]") KF(k1, RQ0, AC0) KF(k3, RQ3, AC0) KF(k4, RQ2, AC0) KF(k6, RQ5, AC0)             \
        KF(k7, RQ4, AC0) "fsw " AC0 ", -4(%[po])\n\t"
#define RIGHT_I                                                                                              \
    LDB6 KF(k1, RQ1, "%[z]") KF(k2, RQ0, AC0) KF(k4, RQ3, AC0) KF(k5, RQ2, AC0) KF(k7, RQ5, AC0)             \
        KF(k8, RQ4, AC0) "fsw " AC0 ", 0(%[po])\n\t"
/*
 * Interior rows (every kernel row inside) of a channel on two nested hardware loops, when the interior of a
 * row holds at least one block (w - 2 >= U): loop 1 over the rows does the left column, the blocks (loop 0,
 * as fwig_interior), the right column, and steps every pointer by the 2 columns to the next row, so a row
 * costs no C code at all. After the blocks the pointers are at column w - 2 of their rows and at output
 * w - 1, whatever the remainder.
 */
#define NEXT_ROW4(a, b, c, d) ADDI(a, 8) ADDI(b, 8) ADDI(c, 8) ADDI(d, 8)
#define FWIG_ROWS(U, ROW, BYTES, LEFT, RIGHT)                                                                \
    HWLOOP_BEGIN(1, "%[rows]", 2)                                                                            \
    LEFT "addi %[inc], %[first], 0\n\t" INNER_BEGIN("%[n]", 1) FWIG7(U, ROW, BYTES) INNER_END(1) RIGHT       \
    NEXT_ROW4(p0, p1, p2, po) HWLOOP_END(2)
#define FWIG_ROWS_ASM(BODY)                                                                                  \
    __asm__ volatile(BODY                                                                                    \
                     : [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2), [po] "+r"(po), [inc] "=&r"(inc)          \
                     : [n] "r"(n), [rows] "r"(rows), [first] "r"(first), [z] "f"(0.0f), [k0] "f"(k->v[0]),   \
                       [k1] "f"(k->v[1]), [k2] "f"(k->v[2]), [k3] "f"(k->v[3]), [k4] "f"(k->v[4]),           \
                       [k5] "f"(k->v[5]), [k6] "f"(k->v[6]), [k7] "f"(k->v[7]), [k8] "f"(k->v[8])            \
                     : DW_CLOBBERS)

INLINE void fwig_rows(const nine_t* k, const float* in, float* out, unsigned w, unsigned y, unsigned rows,
                      const int s, const unsigned U) {
    const unsigned inner = w - 2, rem = inner % U;
    const unsigned n = inner / U + (rem != 0), first = (rem != 0 ? rem : U) * sizeof(float);
    const float* p0 = in + ((int)y - s) * (int)w;
    const float* p1 = in + y * w;
    const float* p2 = in + ((int)y + s) * (int)w;
    float* po = out + y * w + 1;
    unsigned inc;
    if (s > 0 && U == 2)
        FWIG_ROWS_ASM(FWIG_ROWS(2, ROWF, 8, LEFT_F, RIGHT_F));
    else if (s > 0 && U == 4)
        FWIG_ROWS_ASM(FWIG_ROWS(4, ROWF, 16, LEFT_F, RIGHT_F));
    else if (s < 0 && U == 2)
        FWIG_ROWS_ASM(FWIG_ROWS(2, ROWI, 8, LEFT_I, RIGHT_I));
    else
        FWIG_ROWS_ASM(FWIG_ROWS(4, ROWI, 16, LEFT_I, RIGHT_I));
}

/* Output rows [y0, y1) of one channel. */
INLINE void fwig_plane(const float* weight, const float* in, float* out, unsigned h, unsigned w, unsigned y0,
                       unsigned y1, const int s, const unsigned U) {
    const nine_t k = load9(weight);
    for (unsigned y = y0; y < y1;) {
        if (__builtin_expect(y == 0 || y + 1 == h, 0)) {
            fwig_edge_row(weight, in, out, h, w, y, s, U);
            ++y;
            continue;
        }
        const unsigned ye = y1 < h - 1 ? y1 : h - 1; /* the interior rows of the range */
        if (__builtin_expect(w >= U + 2, 1)) {
            fwig_rows(&k, in, out, w, y, ye - y, s, U);
        } else {
            for (unsigned yy = y; yy < ye; ++yy) {
                const float* r[3] = {in + ((int)yy - s) * (int)w, in + yy * w, in + ((int)yy + s) * (int)w};
                fwig_row(&k, r, out + yy * w, w, 7, s, U);
            }
        }
        y = ye;
    }
}

/* Each core takes its rows (c, y) of the output (split_range over c h), in runs of rows of one channel. */
INLINE void fwig_split_rows(const dw3x3_args_t* a, const float* in, float* out, const int s,
                            const unsigned U) {
    check(a);
    const unsigned h = a->h, w = a->w, plane = h * w;
    unsigned first, last;
    split_range(a->c * h, core_id(), num_cores(), &first, &last);
    for (unsigned r = first; r < last;) {
        const unsigned c = r / h, y0 = r % h, y1 = last - r < h - y0 ? y0 + (last - r) : h;
        fwig_plane(a->weight + 9 * c, in + c * plane, out + c * plane, h, w, y0, y1, s, U);
        r += y1 - y0;
    }
}

/* Each core takes whole channels (split_range over c). U = 0: the plain row loop of dw3x3_fw / dw3x3_ig. */
INLINE void fwig_split_channels(const dw3x3_args_t* a, const float* in, float* out, const int s,
                                const unsigned U) {
    check(a);
    const unsigned h = a->h, w = a->w, plane = h * w;
    unsigned first, last;
    split_range(a->c, core_id(), num_cores(), &first, &last);
    for (unsigned c = first; c < last; ++c) {
        if (U == 0) {
            for (unsigned y = 0; y < h; ++y)
                row_3x3(a->weight + 9 * c, in + c * plane, out + c * plane + y * w, h, w, y, s);
        } else {
            fwig_plane(a->weight + 9 * c, in + c * plane, out + c * plane, h, w, 0, h, s, U);
        }
    }
}

/* row_3x3 on two channels at once (weights k and k + 9, planes in and in + plane, rows out and out + plane):
 * the same chain for each output, one column loop and one border test for both. */
static void row_3x3_c2(const float* k, const float* in, float* out, unsigned plane, unsigned h, unsigned w,
                       unsigned y, int s) {
    nine_t ka = load9(k), kb = load9(k + 9);
    const float* in_b = in + plane;
    float* out_b = out + plane;
    for (unsigned x = 0; x < w; ++x) {
        float acc_a = 0.0f, acc_b = 0.0f;
        if (y > 0 && y + 1 < h && x > 0 && x + 1 < w) {
            const float* ca = in + (int)(y * w + x);
            const float* cb = in_b + (int)(y * w + x);
#pragma clang loop unroll(full)
            for (int i = 0; i < 3; ++i)
#pragma clang loop unroll(full)
                for (int j = 0; j < 3; ++j) {
                    const int off = s * ((i - 1) * (int)w + j - 1);
                    acc_a += ka.v[3 * i + j] * ca[off];
                    acc_b += kb.v[3 * i + j] * cb[off];
                }
        } else {
#pragma clang loop unroll(full)
            for (int i = 0; i < 3; ++i) {
                const int iy = (int)y + s * (i - 1);
                if (iy < 0 || iy >= (int)h) continue;
#pragma clang loop unroll(full)
                for (int j = 0; j < 3; ++j) {
                    const int ix = (int)x + s * (j - 1);
                    if (ix < 0 || ix >= (int)w) continue;
                    acc_a += ka.v[3 * i + j] * in[iy * (int)w + ix];
                    acc_b += kb.v[3 * i + j] * in_b[iy * (int)w + ix];
                }
            }
        }
        out[x] = acc_a;
        out_b[x] = acc_b;
    }
}

/* Whole channels per core, two channels per iteration of the plain loop (an odd last one alone). */
INLINE void fwig_split_channels_c2(const dw3x3_args_t* a, const float* in, float* out, const int s) {
    check(a);
    const unsigned h = a->h, w = a->w, plane = h * w;
    unsigned first, last;
    split_range(a->c, core_id(), num_cores(), &first, &last);
    unsigned c = first;
    for (; c + 2 <= last; c += 2)
        for (unsigned y = 0; y < h; ++y)
            row_3x3_c2(a->weight + 9 * c, in + c * plane, out + c * plane + y * w, plane, h, w, y, s);
    if (c < last)
        for (unsigned y = 0; y < h; ++y)
            row_3x3(a->weight + 9 * c, in + c * plane, out + c * plane + y * w, h, w, y, s);
}

void dw3x3_fw_ch_c2(const dw3x3_args_t* a) {
    fwig_split_channels_c2(a, a->x, a->y, 1);
}
void dw3x3_ig_ch_c2(const dw3x3_args_t* a) {
    fwig_split_channels_c2(a, a->dy, a->dx, -1);
}

void dw3x3_fw_ch(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->x, a->y, 1, 0);
}
void dw3x3_fw_u2(const dw3x3_args_t* a) {
    fwig_split_rows(a, a->x, a->y, 1, 2);
}
void dw3x3_fw_u4(const dw3x3_args_t* a) {
    fwig_split_rows(a, a->x, a->y, 1, 4);
}
void dw3x3_fw_ch_u2(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->x, a->y, 1, 2);
}
void dw3x3_fw_ch_u4(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->x, a->y, 1, 4);
}
void dw3x3_ig_ch(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->dy, a->dx, -1, 0);
}
void dw3x3_ig_u2(const dw3x3_args_t* a) {
    fwig_split_rows(a, a->dy, a->dx, -1, 2);
}
void dw3x3_ig_u4(const dw3x3_args_t* a) {
    fwig_split_rows(a, a->dy, a->dx, -1, 4);
}
void dw3x3_ig_ch_u2(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->dy, a->dx, -1, 2);
}
void dw3x3_ig_ch_u4(const dw3x3_args_t* a) {
    fwig_split_channels(a, a->dy, a->dx, -1, 4);
}

/*
 * WG. A pixel pass loads the U dy values of a block of pixels and, per kernel row, the U + 2 input columns of
 * their windows, then does dw[i][j] += dy[x + u] in[x + u + j - 1] for u ascending: every accumulator takes
 * its pixels in (y, x) order.
 */
#define WFMA(acc, d, r) FMA("%[" #acc "]", d, r, "%[" #acc "]")
#define WPIX(b, u, m0, m1, m2, aa, ab, ac)                                                                   \
    WFMA(aa, DY##u, R##b##m0) WFMA(ab, DY##u, R##b##m1) WFMA(ac, DY##u, R##b##m2)
#define WROW2(b, aa, ab, ac) WPIX(b, 0, 0, 1, 2, aa, ab, ac) WPIX(b, 1, 1, 2, 3, aa, ab, ac)
#define WROW4(b, aa, ab, ac)                                                                                 \
    WROW2(b, aa, ab, ac) WPIX(b, 2, 2, 3, 4, aa, ab, ac) WPIX(b, 3, 3, 4, 5, aa, ab, ac)
#define LDD2 FLW(DY0, 0, pd) FLW(DY1, 4, pd)
#define LDD4 LDD2 FLW(DY2, 8, pd) FLW(DY3, 12, pd)

/* A channel's nine accumulators, for each set of kernel rows inside the tensor. */
#define WG7(U, BYTES)                                                                                        \
    LDD##U LD##U(P, p0) LD##U(Q, p1) WROW##U(P, a0, a1, a2) LD##U(P, p2) WROW##U(Q, a3, a4, a5)              \
        WROW##U(P, a6, a7, a8) ADDI(pd, BYTES) ADDI(p0, BYTES) ADDI(p1, BYTES) ADDI(p2, BYTES)
#define WG6(U, BYTES)                                                                                        \
    LDD##U LD##U(P, p1) LD##U(Q, p2) WROW##U(P, a3, a4, a5) WROW##U(Q, a6, a7, a8) ADDI(pd, BYTES)           \
        ADDI(p1, BYTES) ADDI(p2, BYTES)
#define WG3(U, BYTES)                                                                                        \
    LDD##U LD##U(P, p0) LD##U(Q, p1) WROW##U(P, a0, a1, a2) WROW##U(Q, a3, a4, a5) ADDI(pd, BYTES)           \
        ADDI(p0, BYTES) ADDI(p1, BYTES)
#define WG2(U, BYTES) LDD##U LD##U(P, p1) WROW##U(P, a3, a4, a5) ADDI(pd, BYTES) ADDI(p1, BYTES)

#define WG_ASM(BODY)                                                                                         \
    __asm__ volatile(                                                                                        \
        HWLOOP_BEGIN(0, "%[n]", 1) BODY HWLOOP_END(1)                                                        \
        : [a0] "+f"(acc->v[0]), [a1] "+f"(acc->v[1]), [a2] "+f"(acc->v[2]), [a3] "+f"(acc->v[3]),            \
          [a4] "+f"(acc->v[4]), [a5] "+f"(acc->v[5]), [a6] "+f"(acc->v[6]), [a7] "+f"(acc->v[7]),            \
          [a8] "+f"(acc->v[8]), [pd] "+r"(pd), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2)                   \
        : [n] "r"(n)                                                                                         \
        : DW_CLOBBERS)
#define WG_CASE(UU, MM, BYTES)                                                                               \
    if (U == UU && M == MM)                                                                                  \
        WG_ASM(WG##MM(UU, BYTES));                                                                           \
    else

/* n x U interior pixels from g[0] on, r[i] at the first window column of kernel row i. */
INLINE void wg_interior(nine_t* acc, const float* g, const float* const r[3], unsigned n, const unsigned M,
                        const unsigned U) {
    const float *pd = g, *p0 = r[0], *p1 = r[1], *p2 = r[2];
    WG_CASE(2, 7, 8)
    WG_CASE(2, 6, 8)
    WG_CASE(2, 3, 8)
    WG_CASE(2, 2, 8)
    WG_CASE(4, 7, 16)
    WG_CASE(4, 6, 16)
    WG_CASE(4, 3, 16)
    WG_CASE(4, 2, 16)
    __builtin_trap();
}

/* One row y of dy into a channel's nine accumulators, kernel rows M inside the tensor: the left and right
 * pixels (their padding taps left out) and the interior pixels left over by the blocks in C, the interior in
 * blocks of U on the hardware loop (U = 0: all in C). */
INLINE void wg_row(nine_t* acc, const float* g, const float* const r[3], unsigned w, const unsigned M,
                   const unsigned U) {
#pragma clang loop unroll(full)
    for (int i = 0; i < 3; ++i)
        if (M >> i & 1) {
            acc->v[3 * i + 1] += g[0] * r[i][0];
            if (w > 1) acc->v[3 * i + 2] += g[0] * r[i][1];
        }
    if (__builtin_expect(w == 1, 0)) return;
    unsigned x = 1;
    if (U != 0) {
        const unsigned n = (w - 2) / U;
        if (n != 0) {
            wg_interior(acc, g + 1, r, n, M, U); /* pixel 1's window starts at column 0 */
            x += n * U;
        }
    }
    for (; x + 1 < w; ++x)
#pragma clang loop unroll(full)
        for (int i = 0; i < 3; ++i)
            if (M >> i & 1)
#pragma clang loop unroll(full)
                for (int j = 0; j < 3; ++j)
                    acc->v[3 * i + j] += g[x] * r[i][x + j - 1];
#pragma clang loop unroll(full)
    for (int i = 0; i < 3; ++i)
        if (M >> i & 1) {
            acc->v[3 * i] += g[w - 1] * r[i][w - 2];
            acc->v[3 * i + 1] += g[w - 1] * r[i][w - 1];
        }
}

/* The first or the last row of a channel, out of line (see fwig_edge_row); the accumulators in memory. */
static __attribute__((noinline)) void wg_edge_row(float* dw, const float* g, const float* in, unsigned h,
                                                  unsigned w, unsigned y, unsigned U) {
    nine_t acc = load9(dw);
    const float* r[3];
    const unsigned m = rows_at(in, h, w, y, 1, r);
#define WG_EDGE(UU)                                                                                          \
    if (U == UU) {                                                                                           \
        if (m == 6)                                                                                          \
            wg_row(&acc, g + y * w, r, w, 6, UU);                                                            \
        else if (m == 3)                                                                                     \
            wg_row(&acc, g + y * w, r, w, 3, UU);                                                            \
        else                                                                                                 \
            wg_row(&acc, g + y * w, r, w, 2, UU);                                                            \
    } else
    WG_EDGE(0)
    WG_EDGE(2)
    WG_EDGE(4)
    __builtin_trap();
#undef WG_EDGE
#pragma clang loop unroll(full)
    for (int t = 0; t < 9; ++t)
        dw[t] = acc.v[t];
}

/* The interior rows of a channel on nested hardware loops (see fwig_rows): loop 1 over the rows does the left
 * pixel, the blocks of U (loop 0), the interior pixels left over one at a time (a second loop 0, in the
 * variant for a remainder), the right pixel, and steps the pointers to the next row. */
#define LD1(b, p) FLW(R##b##0, 0, p) FLW(R##b##1, 4, p) FLW(R##b##2, 8, p)
#define LDD1 FLW(DY0, 0, pd)
#define WROW1(b, aa, ab, ac) WPIX(b, 0, 0, 1, 2, aa, ab, ac)
#define LEFT_W                                                                                               \
    FLW(DY0, -4, pd)                                                                                         \
    LDB6 WFMA(a1, DY0, RQ0) WFMA(a2, DY0, RQ1) WFMA(a4, DY0, RQ2) WFMA(a5, DY0, RQ3) WFMA(a7, DY0, RQ4)      \
        WFMA(a8, DY0, RQ5)
#define RIGHT_W                                                                                              \
    FLW(DY0, 0, pd)                                                                                          \
    LDB6 WFMA(a0, DY0, RQ0) WFMA(a1, DY0, RQ1) WFMA(a3, DY0, RQ2) WFMA(a4, DY0, RQ3) WFMA(a6, DY0, RQ4)      \
        WFMA(a7, DY0, RQ5)
#define WG_ROWS(U, BYTES, REM)                                                                               \
    HWLOOP_BEGIN(1, "%[rows]", 2)                                                                            \
    LEFT_W INNER_BEGIN("%[n]", 1) WG7(U, BYTES) INNER_END(1) REM RIGHT_W NEXT_ROW4(pd, p0, p1, p2)           \
        HWLOOP_END(2)
#define WG_REM INNER_BEGIN("%[rem]", 3) WG7(1, 4) INNER_END(3)
#define WG_ROWS_ASM(BODY)                                                                                    \
    __asm__ volatile(                                                                                        \
        BODY                                                                                                 \
        : [a0] "+f"(acc->v[0]), [a1] "+f"(acc->v[1]), [a2] "+f"(acc->v[2]), [a3] "+f"(acc->v[3]),            \
          [a4] "+f"(acc->v[4]), [a5] "+f"(acc->v[5]), [a6] "+f"(acc->v[6]), [a7] "+f"(acc->v[7]),            \
          [a8] "+f"(acc->v[8]), [pd] "+r"(pd), [p0] "+r"(p0), [p1] "+r"(p1), [p2] "+r"(p2)                   \
        : [n] "r"(n), [rows] "r"(rows), [rem] "r"(rem)                                                       \
        : DW_CLOBBERS)

INLINE void wg_rows(nine_t* acc, const float* g, const float* in, unsigned w, unsigned y, unsigned rows,
                    const unsigned U) {
    const unsigned n = (w - 2) / U, rem = (w - 2) % U;
    const float* pd = g + y * w + 1;
    const float* p0 = in + (y - 1) * w;
    const float* p1 = in + y * w;
    const float* p2 = in + (y + 1) * w;
    if (U == 2 && rem == 0)
        WG_ROWS_ASM(WG_ROWS(2, 8, ));
    else if (U == 2)
        WG_ROWS_ASM(WG_ROWS(2, 8, WG_REM));
    else if (rem == 0)
        WG_ROWS_ASM(WG_ROWS(4, 16, ));
    else
        WG_ROWS_ASM(WG_ROWS(4, 16, WG_REM));
}

/* The nine weight gradients of one channel, accumulated in place in dw[0..8]: in registers over the interior
 * rows, in memory through the first and the last row. */
INLINE void wg_channel(const float* g, const float* in, float* dw, unsigned h, unsigned w, const unsigned U) {
#pragma clang loop unroll(full)
    for (int t = 0; t < 9; ++t)
        dw[t] = 0.0f;
    wg_edge_row(dw, g, in, h, w, 0, U);
    if (h > 2) {
        nine_t acc = load9(dw);
        if (U != 0 && w >= U + 2) {
            wg_rows(&acc, g, in, w, 1, h - 2, U);
        } else {
            for (unsigned y = 1; y + 1 < h; ++y) {
                const float* r[3] = {in + (y - 1) * w, in + y * w, in + (y + 1) * w};
                wg_row(&acc, g + y * w, r, w, 7, U);
            }
        }
#pragma clang loop unroll(full)
        for (int t = 0; t < 9; ++t)
            dw[t] = acc.v[t];
    }
    if (h > 1) wg_edge_row(dw, g, in, h, w, h - 1, U);
}

/* Each core takes whole channels. */
INLINE void wg_split_channels(const dw3x3_args_t* a, const unsigned U) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c, core_id(), num_cores(), &first, &last);
    for (unsigned c = first; c < last; ++c)
        wg_channel(a->dy + c * plane, a->x + c * plane, a->dw + 9 * c, a->h, a->w, U);
}

/*
 * The three weights (i, 0..2) of one kernel row share each dy load and, in blocks of U pixels, the loads of
 * the input columns. Every row y in [y0, y1) has the same shape (left pixel, taps j = 1, 2; interior;
 * right pixel, taps j = 0, 1), so when the interior holds a block, all rows run on nested hardware loops as
 * in wg_rows: loop 1 over the rows, loop 0 over the blocks, a second loop 0 over the pixels left over.
 */
#define WG_TRIPLE(U, BYTES) LDD##U LD##U(P, p0) WROW##U(P, a0, a1, a2) ADDI(pd, BYTES) ADDI(p0, BYTES)
#define LEFT_T FLW(DY0, -4, pd) FLW(RQ0, 0, p0) FLW(RQ1, 4, p0) WFMA(a1, DY0, RQ0) WFMA(a2, DY0, RQ1)
#define RIGHT_T FLW(DY0, 0, pd) FLW(RQ0, 0, p0) FLW(RQ1, 4, p0) WFMA(a0, DY0, RQ0) WFMA(a1, DY0, RQ1)
#define WG_TRIPLE_REM INNER_BEGIN("%[rem]", 3) WG_TRIPLE(1, 4) INNER_END(3)
#define WG_TRIPLE_ROWS(U, BYTES, REM)                                                                        \
    HWLOOP_BEGIN(1, "%[rows]", 2)                                                                            \
    LEFT_T INNER_BEGIN("%[n]", 1) WG_TRIPLE(U, BYTES) INNER_END(1) REM RIGHT_T ADDI(pd, 8) ADDI(p0, 8)       \
        HWLOOP_END(2)
#define WG_TRIPLE_ASM(BODY)                                                                                  \
    __asm__ volatile(BODY                                                                                    \
                     : [a0] "+f"(a0), [a1] "+f"(a1), [a2] "+f"(a2), [pd] "+r"(pd), [p0] "+r"(p0)             \
                     : [n] "r"(n), [rows] "r"(y1 - y0), [rem] "r"(rem)                                       \
                     : DW_CLOBBERS)

INLINE void wg_triple(const float* g, const float* in, unsigned h, unsigned w, unsigned i, float* dw,
                      const unsigned U) {
    float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f;
    const unsigned y0 = i == 0 ? 1 : 0, y1 = i == 2 ? h - 1 : h;
    if (y0 < y1 && w >= U + 2) {
        const unsigned n = (w - 2) / U, rem = (w - 2) % U;
        const float *pd = g + y0 * w + 1, *p0 = in + (y0 + i - 1) * w;
        if (U == 2 && rem == 0)
            WG_TRIPLE_ASM(WG_TRIPLE_ROWS(2, 8, ));
        else if (U == 2)
            WG_TRIPLE_ASM(WG_TRIPLE_ROWS(2, 8, WG_TRIPLE_REM));
        else if (rem == 0)
            WG_TRIPLE_ASM(WG_TRIPLE_ROWS(4, 16, ));
        else
            WG_TRIPLE_ASM(WG_TRIPLE_ROWS(4, 16, WG_TRIPLE_REM));
    } else {
        for (unsigned y = y0; y < y1; ++y) {
            const float* gr = g + y * w;
            const float* rr = in + (y + i - 1) * w;
            a1 += gr[0] * rr[0];
            if (w == 1) continue;
            a2 += gr[0] * rr[1];
            for (unsigned x = 1; x + 1 < w; ++x) {
                a0 += gr[x] * rr[x - 1];
                a1 += gr[x] * rr[x];
                a2 += gr[x] * rr[x + 1];
            }
            a0 += gr[w - 1] * rr[w - 2];
            a1 += gr[w - 1] * rr[w - 1];
        }
    }
    dw[0] = a0;
    dw[1] = a1;
    dw[2] = a2;
}

/* One weight: acc += g[p] r[p] over len pixels, blocks of U on the hardware loop. */
#define LDS2 FLW(RP0, 0, p0) FLW(RP1, 4, p0)
#define LDS4 LDS2 FLW(RP2, 8, p0) FLW(RP3, 12, p0)
#define SFMA2 WFMA(a0, DY0, RP0) WFMA(a0, DY1, RP1)
#define SFMA4 SFMA2 WFMA(a0, DY2, RP2) WFMA(a0, DY3, RP3)
#define WG_SINGLE(U, BYTES) LDD##U LDS##U SFMA##U ADDI(pd, BYTES) ADDI(p0, BYTES)
#define WG_SINGLE_ASM(BODY)                                                                                  \
    __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) BODY HWLOOP_END(1)                                           \
                     : [a0] "+f"(acc), [pd] "+r"(pd), [p0] "+r"(p0)                                          \
                     : [n] "r"(n)                                                                            \
                     : DW_CLOBBERS)

INLINE float wg_dot(float acc, const float* g, const float* r, unsigned len, const unsigned U) {
    const unsigned n = len / U;
    const float *pd = g, *p0 = r;
    if (n != 0) {
        if (U == 2)
            WG_SINGLE_ASM(WG_SINGLE(2, 8));
        else
            WG_SINGLE_ASM(WG_SINGLE(4, 16));
    }
    for (unsigned p = n * U; p < len; ++p)
        acc += *pd++ * *p0++;
    return acc;
}

INLINE float wg_single(const float* g, const float* in, unsigned h, unsigned w, unsigned i, unsigned j,
                       const unsigned U) {
    const unsigned y0 = i == 0 ? 1 : 0, y1 = i == 2 ? h - 1 : h;
    const unsigned x0 = j == 0 ? 1 : 0, x1 = j == 2 ? w - 1 : w;
    float acc = 0.0f;
    if (y1 <= y0 || x1 <= x0) return acc;
    if (j == 1) /* whole rows: the valid pixels are contiguous */
        return wg_dot(acc, g + y0 * w, in + (y0 + i - 1) * w, (y1 - y0) * w, U);
    for (unsigned y = y0; y < y1; ++y)
        acc = wg_dot(acc, g + y * w + x0, in + (y + i - 1) * w + x0 + j - 1, x1 - x0, U);
    return acc;
}

/* The split of dw3x3_wg (each core its share of the 9 c weights), a kernel row's three weights at a time
 * where the share holds all three, single weights at the ends of the share. */
INLINE void wg_split_weights(const dw3x3_args_t* a, const unsigned U) {
    check(a);
    const unsigned h = a->h, w = a->w, plane = h * w;
    unsigned first, last;
    split_range(a->c * 9, core_id(), num_cores(), &first, &last);
    for (unsigned t = first; t < last;) {
        const unsigned c = t / 9, i = (t % 9) / 3, j = t % 3;
        const float* g = a->dy + c * plane;
        const float* in = a->x + c * plane;
        if (j == 0 && t + 3 <= last) {
            wg_triple(g, in, h, w, i, a->dw + t, U);
            t += 3;
        } else {
            a->dw[t] = wg_single(g, in, h, w, i, j, U);
            t += 1;
        }
    }
}

/* wg_row in C (U = 0) on two channels at once: dy rows g and g + plane, input rows r[i] and r[i] + plane. */
INLINE void wg_row_c2(nine_t* a, nine_t* b, const float* g, const float* const r[3], unsigned plane,
                      unsigned w, const unsigned M) {
    const float* gb = g + plane;
#pragma clang loop unroll(full)
    for (int i = 0; i < 3; ++i)
        if (M >> i & 1) {
            const float* rb = r[i] + plane;
            a->v[3 * i + 1] += g[0] * r[i][0];
            b->v[3 * i + 1] += gb[0] * rb[0];
            if (w > 1) {
                a->v[3 * i + 2] += g[0] * r[i][1];
                b->v[3 * i + 2] += gb[0] * rb[1];
            }
        }
    if (w == 1) return;
    for (unsigned x = 1; x + 1 < w; ++x)
#pragma clang loop unroll(full)
        for (int i = 0; i < 3; ++i)
            if (M >> i & 1)
#pragma clang loop unroll(full)
                for (int j = 0; j < 3; ++j) {
                    a->v[3 * i + j] += g[x] * r[i][x + j - 1];
                    b->v[3 * i + j] += gb[x] * r[i][plane + x + j - 1];
                }
#pragma clang loop unroll(full)
    for (int i = 0; i < 3; ++i)
        if (M >> i & 1) {
            const float* rb = r[i] + plane;
            a->v[3 * i] += g[w - 1] * r[i][w - 2];
            b->v[3 * i] += gb[w - 1] * rb[w - 2];
            a->v[3 * i + 1] += g[w - 1] * r[i][w - 1];
            b->v[3 * i + 1] += gb[w - 1] * rb[w - 1];
        }
}

/* The plain channel loop (wg_channel with U = 0) on two channels at once, the 18 accumulators in registers.
 */
static void wg_channels_c2(const float* g, const float* in, float* dw, unsigned plane, unsigned h,
                           unsigned w) {
    nine_t a = {{0.0f}}, b = {{0.0f}};
    for (unsigned y = 0; y < h; ++y) {
        const float* r[3];
        const unsigned m = rows_at(in, h, w, y, 1, r);
        if (m == 7)
            wg_row_c2(&a, &b, g + y * w, r, plane, w, 7);
        else if (m == 6)
            wg_row_c2(&a, &b, g + y * w, r, plane, w, 6);
        else if (m == 3)
            wg_row_c2(&a, &b, g + y * w, r, plane, w, 3);
        else
            wg_row_c2(&a, &b, g + y * w, r, plane, w, 2);
    }
#pragma clang loop unroll(full)
    for (int t = 0; t < 9; ++t) {
        dw[t] = a.v[t];
        dw[9 + t] = b.v[t];
    }
}

void dw3x3_wg_ch_c2(const dw3x3_args_t* a) {
    check(a);
    const unsigned plane = a->h * a->w;
    unsigned first, last;
    split_range(a->c, core_id(), num_cores(), &first, &last);
    unsigned c = first;
    for (; c + 2 <= last; c += 2)
        wg_channels_c2(a->dy + c * plane, a->x + c * plane, a->dw + 9 * c, plane, a->h, a->w);
    if (c < last) wg_channel(a->dy + c * plane, a->x + c * plane, a->dw + 9 * c, a->h, a->w, 0);
}

void dw3x3_wg_ch(const dw3x3_args_t* a) {
    wg_split_channels(a, 0);
}
void dw3x3_wg_u2(const dw3x3_args_t* a) {
    wg_split_weights(a, 2);
}
void dw3x3_wg_u4(const dw3x3_args_t* a) {
    wg_split_weights(a, 4);
}
void dw3x3_wg_ch_u2(const dw3x3_args_t* a) {
    wg_split_channels(a, 2);
}
void dw3x3_wg_ch_u4(const dw3x3_args_t* a) {
    wg_split_channels(a, 4);
}

#define VARIANT(name, step, fn) {name, step, fn}

const dw3x3_variant_t dw3x3_variants[DW3X3_VARIANTS] = {
    VARIANT("dw", DW3X3_FW, dw3x3_fw),
    VARIANT("dw_ch", DW3X3_FW, dw3x3_fw_ch),
    VARIANT("dw_u2", DW3X3_FW, dw3x3_fw_u2),
    VARIANT("dw_u4", DW3X3_FW, dw3x3_fw_u4),
    VARIANT("dw_ch_u2", DW3X3_FW, dw3x3_fw_ch_u2),
    VARIANT("dw_ch_u4", DW3X3_FW, dw3x3_fw_ch_u4),
    VARIANT("dw_ch_c2", DW3X3_FW, dw3x3_fw_ch_c2),
    VARIANT("dw", DW3X3_WG, dw3x3_wg),
    VARIANT("dw_ch", DW3X3_WG, dw3x3_wg_ch),
    VARIANT("dw_u2", DW3X3_WG, dw3x3_wg_u2),
    VARIANT("dw_u4", DW3X3_WG, dw3x3_wg_u4),
    VARIANT("dw_ch_u2", DW3X3_WG, dw3x3_wg_ch_u2),
    VARIANT("dw_ch_u4", DW3X3_WG, dw3x3_wg_ch_u4),
    VARIANT("dw_ch_c2", DW3X3_WG, dw3x3_wg_ch_c2),
    VARIANT("dw", DW3X3_IG, dw3x3_ig),
    VARIANT("dw_ch", DW3X3_IG, dw3x3_ig_ch),
    VARIANT("dw_u2", DW3X3_IG, dw3x3_ig_u2),
    VARIANT("dw_u4", DW3X3_IG, dw3x3_ig_u4),
    VARIANT("dw_ch_u2", DW3X3_IG, dw3x3_ig_ch_u2),
    VARIANT("dw_ch_u4", DW3X3_IG, dw3x3_ig_ch_u4),
    VARIANT("dw_ch_c2", DW3X3_IG, dw3x3_ig_ch_c2),
};
