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
