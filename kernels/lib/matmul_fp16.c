/* FP16 matmul with FP32 accumulation on TCDM data (see matmul_fp16.h). */
#include "matmul_fp16.h"

#include "cluster.h"
#include "fp16_simd.h"
#include "hwloop.h"
#include "kernel_error.h"
#include "runtime.h"

/* An R x C block (R, C <= 2, constants after inlining): a at A(i, 0), b at B^T(j, 0), c at C(i, j). */
FP16_INLINE void block(const _Float16* a, const _Float16* b, _Float16* c, unsigned n, unsigned k,
                       const unsigned R, const unsigned C) {
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, 0.0f}};
    unsigned p = 0;
    if (R == 2 && C == 2 && k >= 4) {
        /* Two k-pairs per iteration in a hardware loop (clang emits none): 8 flw with offsets, 4 addi, 8
         * vfdotpex.s.h for 16 products; each vfdotpex comes at least two instructions after its loads. */
        const unsigned quads = k / 4;
        const _Float16 *a0 = a, *a1 = a + k, *b0 = b, *b1 = b + k;
        float x0, x1, y0, y1, u0, u1, v0, v1;
        __asm__ volatile(
            HWLOOP_BEGIN(0, "%[n]",
                         1) "flw %[x0], 0(%[a0])\n\t"
                            "flw %[y0], 0(%[b0])\n\t"
                            "flw %[x1], 0(%[a1])\n\t"
                            "flw %[y1], 0(%[b1])\n\t"
                            "flw %[u0], 4(%[a0])\n\t"
                            "flw %[v0], 4(%[b0])\n\t"
                            "flw %[u1], 4(%[a1])\n\t"
                            "flw %[v1], 4(%[b1])\n\t" VFDOTPEX_S_H("%[c00]", "%[x0]", "%[y0]") VFDOTPEX_S_H(
                                "%[c01]", "%[x0]", "%[y1]") VFDOTPEX_S_H("%[c10]", "%[x1]", "%[y0]")
                                VFDOTPEX_S_H("%[c11]", "%[x1]",
                                             "%[y1]") "addi %[a0], %[a0], 8\n\t"
                                                      "addi %[b0], %[b0], 8\n\t"
                                                      "addi %[a1], %[a1], 8\n\t"
                                                      "addi %[b1], %[b1], 8\n\t" VFDOTPEX_S_H(
                                                          "%[c00]", "%[u0]", "%[v0]")
                                                          VFDOTPEX_S_H("%[c01]", "%[u0]", "%[v1]")
                                                              VFDOTPEX_S_H("%[c10]", "%[u1]", "%[v0]")
                                                                  VFDOTPEX_S_H("%[c11]", "%[u1]", "%[v1]")
                                                                      HWLOOP_END(1)
            : [a0] "+r"(a0), [a1] "+r"(a1), [b0] "+r"(b0), [b1] "+r"(b1), [c00] "+f"(acc[0][0]),
              [c01] "+f"(acc[0][1]), [c10] "+f"(acc[1][0]), [c11] "+f"(acc[1][1]), [x0] "=&f"(x0),
              [x1] "=&f"(x1), [y0] "=&f"(y0), [y1] "=&f"(y1), [u0] "=&f"(u0), [u1] "=&f"(u1), [v0] "=&f"(v0),
              [v1] "=&f"(v1)
            : [n] "r"(quads)
            : "memory");
        p = 4 * quads;
    }
    for (; p + 2 <= k; p += 2) {
        float av[2], bv[2];
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
            av[r] = fp16_load_pair(a + r * k + p);
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            bv[j] = fp16_load_pair(b + j * k + p);
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
            for (unsigned j = 0; j < C; ++j)
                fp16_vfdotpex(&acc[r][j], av[r], bv[j]);
    }
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j) {
            /* the odd last k: the product of two FP16 values is exact in FP32 */
            if (p < k) acc[r][j] += (float)a[r * k + p] * (float)b[j * k + p];
            c[r * n + j] = (_Float16)acc[r][j];
        }
}

void matmul_fp16(const matmul_fp16_args_t* args) {
    const unsigned n = args->n, k = args->k;
    unsigned i0, i1;
    kernel_require_nonzero("matmul_fp16", args->m, n, k);
    split_range(args->m, core_id(), num_cores(), &i0, &i1);
    unsigned i = i0;
    for (; i + 2 <= i1; i += 2) {
        const _Float16* a = args->a + i * k;
        _Float16* c = args->c + i * n;
        unsigned j = 0;
        for (; j + 2 <= n; j += 2)
            block(a, args->bt + j * k, c + j, n, k, 2, 2);
        if (j < n) block(a, args->bt + j * k, c + j, n, k, 2, 1);
    }
    if (i < i1) {
        const _Float16* a = args->a + i * k;
        _Float16* c = args->c + i * n;
        unsigned j = 0;
        for (; j + 2 <= n; j += 2)
            block(a, args->bt + j * k, c + j, n, k, 1, 2);
        if (j < n) block(a, args->bt + j * k, c + j, n, k, 1, 1);
    }
}

/* ---- The family (matmul_fp16_variants[]) -------------------------------------------------------------- */

/* Rows of C when there are at least as many as cores, else columns (see matmul_fp16.h). */
static void my_share(const matmul_fp16_args_t* t, unsigned* i0, unsigned* i1, unsigned* j0, unsigned* j1) {
    if (t->m >= num_cores()) {
        split_range(t->m, core_id(), num_cores(), i0, i1);
        *j0 = 0;
        *j1 = t->n;
    } else {
        *i0 = 0;
        *i1 = t->m;
        split_range(t->n, core_id(), num_cores(), j0, j1);
    }
}

void mm_fp16(const matmul_fp16_args_t* t) {
    const unsigned n = t->n, k = t->k;
    unsigned i0, i1, j0, j1;
    kernel_require_nonzero("mm_fp16", t->m, n, k);
    my_share(t, &i0, &i1, &j0, &j1);
    for (unsigned i = i0; i < i1; ++i)
        for (unsigned j = j0; j < j1; ++j) {
            _Float16 acc = 0, x, y;
            const _Float16* pa = t->a + i * k;
            const _Float16* pb = t->b + j;
            /* 5 instructions per product: flh, flh, addi, add, fmadd.h (ascending k, one rounding each) */
            __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) "flh %[x], 0(%[pa])\n\t"
                                                        "flh %[y], 0(%[pb])\n\t"
                                                        "addi %[pa], %[pa], 2\n\t"
                                                        "add %[pb], %[pb], %[st]\n\t"
                                                        "fmadd.h %[acc], %[x], %[y], %[acc]\n\t" HWLOOP_END(1)
                             : [pa] "+r"(pa), [pb] "+r"(pb), [acc] "+f"(acc), [x] "=&f"(x), [y] "=&f"(y)
                             : [n] "r"(k), [st] "r"(2 * n)
                             : "memory");
            t->c[i * n + j] = acc;
        }
}

/* {x lane 0 + x lane 1, y lane 0 + y lane 1} in FP16, as one pair: the lanes of two sums regrouped with
 * cv.pack / cv.pack.h, then one vfadd.h (the same roundings as fp16_lane_sum on each). */
FP16_INLINE float fp16_lane_sums(float x, float y) {
    uint32_t ux, uy, lo, hi;
    memcpy(&ux, &x, sizeof ux);
    memcpy(&uy, &y, sizeof uy);
    __asm__("cv.pack %0, %1, %2" : "=r"(lo) : "r"(uy), "r"(ux));
    __asm__("cv.pack.h %0, %1, %2" : "=r"(hi) : "r"(uy), "r"(ux));
    float flo, fhi, s;
    memcpy(&flo, &lo, sizeof flo);
    memcpy(&fhi, &hi, sizeof fhi);
    __asm__(VFADD_H("%0", "%1", "%2") : "=f"(s) : "f"(flo), "f"(fhi));
    return s;
}

/* The pair {x, y} of two FP16 values. */
FP16_INLINE float fp16_pack(_Float16 x, _Float16 y) {
    uint16_t ux, uy;
    memcpy(&ux, &x, sizeof ux);
    memcpy(&uy, &y, sizeof uy);
    const uint32_t u = (uint32_t)uy << 16 | ux;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* acc[i] += x[i] * y in FP16 (vfmac.r.h), one rounding per lane: fmadd.h on each lane. */
FP16_INLINE void fp16_vfmac_r(float* acc, float x, _Float16 y) {
    __asm__(VFMAC_R_H("%[acc]", "%[x]", "%[y]") : [acc] "+f"(*acc) : [x] "f"(x), [y] "f"(y));
}

/* {FP16(x), FP16(y)} (vfcpka.h.s): each rounded as fcvt.h.s rounds it. */
FP16_INLINE float fp16_round_pair(float x, float y) {
    float p;
    __asm__(VFCPKA_H_S("%0", "%1", "%2") : "=f"(p) : "f"(x), "f"(y));
    return p;
}

/* Stores a pair at p, which may be only 2-byte aligned (the core splits the access). */
FP16_INLINE void fp16_store_pair(_Float16* p, float pair) {
    __asm__("fsw %1, %0" : "=m"(*(uint32_t*)p) : "f"(pair));
}

/*
 * The R x C loop body (R, C in {1, 2, 4}), two k-pairs per iteration, OP = VFMAC_H or VFDOTPEX_S_H. Fixed
 * registers: the current k-pair of A row r in ft<r>, the first and second k-pair of B^T row c in ft<4+c>
 * and ft<8+c>. Order: R + 2C loads, the first pair's products row by row, each row followed by the load of
 * its second pair (into the register it just stopped using), R + C pointer increments, the second pair's
 * products; every load is two or more instructions before its first use.
 */
#define QB0_0 "ft4"
#define QB0_1 "ft5"
#define QB0_2 "ft6"
#define QB0_3 "ft7"
#define QB1_0 "ft8"
#define QB1_1 "ft9"
#define QB1_2 "ft10"
#define QB1_3 "ft11"

#define LDA(r, off) "flw ft" #r ", " #off "(%[a" #r "])\n\t"
#define LDB(c) "flw " QB0_##c ", 0(%[b" #c "])\n\tflw " QB1_##c ", 4(%[b" #c "])\n\t"
#define INCA(r) "addi %[a" #r "], %[a" #r "], 8\n\t"
#define INCB(c) "addi %[b" #c "], %[b" #c "], 8\n\t"
#define PROD(OP, r, c, Q) OP("%[c" #r #c "]", "ft" #r, Q##_##c)

#define LDA_1 LDA(0, 0)
#define LDA_2 LDA_1 LDA(1, 0)
#define LDA_4 LDA_2 LDA(2, 0) LDA(3, 0)
#define LDB_1 LDB(0)
#define LDB_2 LDB_1 LDB(1)
#define LDB_4 LDB_2 LDB(2) LDB(3)
#define INCA_1 INCA(0)
#define INCA_2 INCA_1 INCA(1)
#define INCA_4 INCA_2 INCA(2) INCA(3)
#define INCB_1 INCB(0)
#define INCB_2 INCB_1 INCB(1)
#define INCB_4 INCB_2 INCB(2) INCB(3)
#define ROW_1(OP, r, Q) PROD(OP, r, 0, Q)
#define ROW_2(OP, r, Q) ROW_1(OP, r, Q) PROD(OP, r, 1, Q)
#define ROW_4(OP, r, Q) ROW_2(OP, r, Q) PROD(OP, r, 2, Q) PROD(OP, r, 3, Q)
#define FIRST_1(OP, C) ROW_##C(OP, 0, QB0) LDA(0, 4)
#define FIRST_2(OP, C) FIRST_1(OP, C) ROW_##C(OP, 1, QB0) LDA(1, 4)
#define FIRST_4(OP, C) FIRST_2(OP, C) ROW_##C(OP, 2, QB0) LDA(2, 4) ROW_##C(OP, 3, QB0) LDA(3, 4)
#define SECOND_1(OP, C) ROW_##C(OP, 0, QB1)
#define SECOND_2(OP, C) SECOND_1(OP, C) ROW_##C(OP, 1, QB1)
#define SECOND_4(OP, C) SECOND_2(OP, C) ROW_##C(OP, 2, QB1) ROW_##C(OP, 3, QB1)

#define OPA(r) [a##r] "+r"(pa[r])
#define OPA_1 OPA(0)
#define OPA_2 OPA_1, OPA(1)
#define OPA_4 OPA_2, OPA(2), OPA(3)
#define OPB(c) [b##c] "+r"(pb[c])
#define OPB_1 OPB(0)
#define OPB_2 OPB_1, OPB(1)
#define OPB_4 OPB_2, OPB(2), OPB(3)
#define OPC(r, j) [c##r##j] "+f"(acc[r][j])
#define OPC_1(r) OPC(r, 0)
#define OPC_2(r) OPC_1(r), OPC(r, 1)
#define OPC_4(r) OPC_2(r), OPC(r, 2), OPC(r, 3)
#define OPCS_1(C) OPC_##C(0)
#define OPCS_2(C) OPCS_1(C), OPC_##C(1)
#define OPCS_4(C) OPCS_2(C), OPC_##C(2), OPC_##C(3)

#define FT_CLOBBERS "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11"

#define PAIR_LOOP(OP, R, C)                                                                                  \
    __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) LDA_##R LDB_##C FIRST_##R(OP, C)                             \
                         INCA_##R INCB_##C SECOND_##R(OP, C) HWLOOP_END(1)                                   \
                     : OPA_##R, OPB_##C, OPCS_##R(C)                                                         \
                     : [n] "r"(iters)                                                                        \
                     : FT_CLOBBERS, "memory")

#define PAIR_LOOPS(OP)                                                                                       \
    if (R == 1 && C == 1)                                                                                    \
        PAIR_LOOP(OP, 1, 1);                                                                                 \
    else if (R == 1 && C == 2)                                                                               \
        PAIR_LOOP(OP, 1, 2);                                                                                 \
    else if (R == 1 && C == 4)                                                                               \
        PAIR_LOOP(OP, 1, 4);                                                                                 \
    else if (R == 2 && C == 1)                                                                               \
        PAIR_LOOP(OP, 2, 1);                                                                                 \
    else if (R == 2 && C == 2)                                                                               \
        PAIR_LOOP(OP, 2, 2);                                                                                 \
    else if (R == 2 && C == 4)                                                                               \
        PAIR_LOOP(OP, 2, 4);                                                                                 \
    else if (R == 4 && C == 1)                                                                               \
        PAIR_LOOP(OP, 4, 1);                                                                                 \
    else if (R == 4 && C == 2)                                                                               \
        PAIR_LOOP(OP, 4, 2);                                                                                 \
    else if (R == 4 && C == 4)                                                                               \
        PAIR_LOOP(OP, 4, 4);                                                                                 \
    else                                                                                                     \
        __builtin_trap()

/*
 * An R x C block of C (constants after inlining): a at A(i, 0), bt at B^T(j, 0), c at C(i, j). DOTP = 0:
 * vfmac.h into FP16 lane pairs, lanes added at the end; DOTP = 1: vfdotpex.s.h into FP32 sums.
 */
FP16_INLINE void pair_block(const _Float16* a, const _Float16* bt, _Float16* c, unsigned n, unsigned k,
                            const unsigned R, const unsigned C, const unsigned DOTP) {
    float acc[4][4];
    const _Float16 *pa[4], *pb[4];
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r) {
        pa[r] = a + r * k;
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            acc[r][j] = 0.0f; /* both lanes +0, or FP32 +0 */
    }
#pragma clang loop unroll(full)
    for (unsigned j = 0; j < C; ++j)
        pb[j] = bt + j * k;
    const unsigned pairs = k / 2, iters = pairs / 2;
    if (iters) {
        if (DOTP) {
            PAIR_LOOPS(VFDOTPEX_S_H);
        } else {
            PAIR_LOOPS(VFMAC_H);
        }
    }
    if (pairs & 1) { /* the last k-pair; the loop has moved the pointers to it */
        float av[4], bv[4];
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
            av[r] = fp16_load_pair(pa[r]);
#pragma clang loop unroll(full)
        for (unsigned j = 0; j < C; ++j)
            bv[j] = fp16_load_pair(pb[j]);
#pragma clang loop unroll(full)
        for (unsigned r = 0; r < R; ++r)
#pragma clang loop unroll(full)
            for (unsigned j = 0; j < C; ++j) {
                if (DOTP)
                    fp16_vfdotpex(&acc[r][j], av[r], bv[j]);
                else
                    fp16_vfmac(&acc[r][j], av[r], bv[j]);
            }
    }
    /* Outputs in pairs of columns, stored with one (maybe misaligned) fsw; an odd C ends with one output. */
#pragma clang loop unroll(full)
    for (unsigned r = 0; r < R; ++r) {
        const _Float16* ar = a + r * k;
#pragma clang loop unroll(full)
        for (unsigned j = 0; j + 2 <= C; j += 2) {
            float pair;
            if (DOTP) {
                float x = acc[r][j], y = acc[r][j + 1];
                if (k & 1) { /* the odd last k: the product of two FP16 values is exact in FP32 */
                    const float ak = (float)ar[k - 1];
                    x += ak * (float)bt[j * k + k - 1];
                    y += ak * (float)bt[(j + 1) * k + k - 1];
                }
                pair = fp16_round_pair(x, y);
            } else {
                pair = fp16_lane_sums(acc[r][j], acc[r][j + 1]);
                if (k & 1)
                    fp16_vfmac_r(&pair, fp16_pack(bt[j * k + k - 1], bt[(j + 1) * k + k - 1]), ar[k - 1]);
            }
            fp16_store_pair(c + r * n + j, pair);
        }
        if (C & 1) {
            const unsigned j = C - 1;
            if (DOTP) {
                if (k & 1) acc[r][j] += (float)ar[k - 1] * (float)bt[j * k + k - 1];
                c[r * n + j] = (_Float16)acc[r][j];
            } else {
                _Float16 s = fp16_lane_sum(acc[r][j]);
                if (k & 1) s += ar[k - 1] * bt[j * k + k - 1];
                c[r * n + j] = s;
            }
        }
    }
}

/* Rows [i0, i1) x columns [j0, j1) of C in R x C blocks; leftover rows one at a time with 1 x C blocks,
 * leftover columns with R x 1 (1 x 1) blocks. */
FP16_INLINE void pair_rect(const matmul_fp16_args_t* t, unsigned i0, unsigned i1, unsigned j0, unsigned j1,
                           const unsigned R, const unsigned C, const unsigned DOTP) {
    const unsigned n = t->n, k = t->k;
    const _Float16 *A = t->a, *B = t->bt;
    _Float16* Cm = t->c;
    unsigned i = i0;
    for (; i + R <= i1; i += R) {
        unsigned j = j0;
        for (; j + C <= j1; j += C)
            pair_block(A + i * k, B + j * k, Cm + i * n + j, n, k, R, C, DOTP);
        for (; j < j1; ++j)
            pair_block(A + i * k, B + j * k, Cm + i * n + j, n, k, R, 1, DOTP);
    }
    for (; i < i1; ++i) {
        unsigned j = j0;
        for (; j + C <= j1; j += C)
            pair_block(A + i * k, B + j * k, Cm + i * n + j, n, k, 1, C, DOTP);
        for (; j < j1; ++j)
            pair_block(A + i * k, B + j * k, Cm + i * n + j, n, k, 1, 1, DOTP);
    }
}

#define PAIR_KERNEL(name, R, C, DOTP)                                                                        \
    void name(const matmul_fp16_args_t* t) {                                                                 \
        unsigned i0, i1, j0, j1;                                                                             \
        kernel_require_nonzero(#name, t->m, t->n, t->k);                                                     \
        my_share(t, &i0, &i1, &j0, &j1);                                                                     \
        pair_rect(t, i0, i1, j0, j1, R, C, DOTP);                                                            \
    }

PAIR_KERNEL(mm_fp16_SIMD_2x1, 2, 1, 0)
PAIR_KERNEL(mm_fp16_SIMD_4x1, 4, 1, 0)
PAIR_KERNEL(mm_fp16_SIMD_2x2, 2, 2, 0)
PAIR_KERNEL(mm_fp16_SIMD_2x4, 2, 4, 0)
PAIR_KERNEL(mm_fp16_SIMD_4x4, 4, 4, 0)
PAIR_KERNEL(mm_fp16_dotp_1x4, 1, 4, 1)
PAIR_KERNEL(mm_fp16_dotp_4x4, 4, 4, 1)

const matmul_fp16_variant_t matmul_fp16_variants[MATMUL_FP16_VARIANTS] = {
    {"mm_fp16", mm_fp16, 0, 1},
    {"mm_fp16_SIMD_2x1", mm_fp16_SIMD_2x1, 1, 1},
    {"mm_fp16_SIMD_4x1", mm_fp16_SIMD_4x1, 1, 1},
    {"mm_fp16_SIMD_2x2", mm_fp16_SIMD_2x2, 1, 1},
    {"mm_fp16_SIMD_2x4", mm_fp16_SIMD_2x4, 1, 1},
    {"mm_fp16_SIMD_4x4", mm_fp16_SIMD_4x4, 1, 1},
    {"mm_fp16_dotp_2x2", matmul_fp16, 1, 0},
    {"mm_fp16_dotp_1x4", mm_fp16_dotp_1x4, 1, 0},
    {"mm_fp16_dotp_4x4", mm_fp16_dotp_4x4, 1, 0},
};
