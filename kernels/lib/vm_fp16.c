/* FP16 vector-matrix kernels (see vm_fp16.h). */
#include "vm_fp16.h"

#include "cluster.h"
#include "fp16_simd.h"
#include "hwloop.h"
#include "kernel_error.h"
#include "runtime.h"

static void my_outputs(unsigned m, unsigned* j0, unsigned* j1) {
    split_range(m, core_id(), num_cores(), j0, j1);
}

/*
 * The inner loops are hardware loops in inline asm: clang does not emit CV32E40P hardware loops, and
 * its own loops here cost a pointer add, a compare and a taken branch per iteration (control stalls).
 * FP loads have no post-increment on this core, so each pointer takes one add per iteration.
 */

void vm_naive(const vm_fp16_args_t* args) {
    const _Float16* a = args->a;
    const unsigned m = args->m, k = args->k;
    unsigned j0, j1;
    kernel_require_nonzero("vm_naive", m, k, 1);
    my_outputs(m, &j0, &j1);
    for (unsigned j = j0; j < j1; ++j) {
        _Float16 acc = 0, x, y;
        const _Float16* pa = a;
        const _Float16* pw = args->b + j;
        /* 5 instructions per product: flh, flh, addi, add, fmadd.h (ascending k, one rounding each) */
        __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) "flh %[x], 0(%[pa])\n\t"
                                                    "flh %[y], 0(%[pw])\n\t"
                                                    "addi %[pa], %[pa], 2\n\t"
                                                    "add %[pw], %[pw], %[st]\n\t"
                                                    "fmadd.h %[acc], %[x], %[y], %[acc]\n\t" HWLOOP_END(1)
                         : [pa] "+r"(pa), [pw] "+r"(pw), [acc] "+f"(acc), [x] "=&f"(x), [y] "=&f"(y)
                         : [n] "r"(k), [st] "r"(2 * m)
                         : "memory");
        args->c[j] = acc;
    }
}

void vm_SIMD_naive(const vm_fp16_args_t* args) {
    const _Float16* a = args->a;
    const unsigned m = args->m, k = args->k;
    unsigned j0, j1;
    kernel_require_nonzero("vm_SIMD_naive", m, k, 1);
    my_outputs(m, &j0, &j1);
    for (unsigned j = j0; j < j1; ++j) {
        float acc = 0.0f, x, y; /* both lanes +0 */
        const _Float16* pa = a;
        const uint16_t* pw = (const uint16_t*)args->b + j;
        uint32_t w0, w1;
        if (k >= 2)
            /* 7 instructions per pair: cv.lhu x2 (post-increment by a row), flw, addi, cv.pack (rs1 to
             * the upper lane), fmv.w.x, vfmac.h; the loads come first so that no result is used by the
             * next instruction */
            __asm__ volatile(HWLOOP_BEGIN(0, "%[n]", 1) "cv.lhu %[w0], (%[pw]), %[st]\n\t"
                                                        "cv.lhu %[w1], (%[pw]), %[st]\n\t"
                                                        "flw %[x], 0(%[pa])\n\t"
                                                        "addi %[pa], %[pa], 4\n\t"
                                                        "cv.pack %[w0], %[w1], %[w0]\n\t"
                                                        "fmv.w.x %[y], %[w0]\n\t" VFMAC_H(
                                                            "%[acc]", "%[x]", "%[y]") HWLOOP_END(1)
                             : [pa] "+r"(pa), [pw] "+r"(pw), [acc] "+f"(acc), [x] "=&f"(x), [y] "=&f"(y),
                               [w0] "=&r"(w0), [w1] "=&r"(w1)
                             : [n] "r"(k / 2), [st] "r"(2 * m)
                             : "memory");
        _Float16 s = fp16_lane_sum(acc);
        if (k & 1) {
            _Float16 wl;
            memcpy(&wl, pw, sizeof wl);
            s += a[k - 1] * wl;
        }
        args->c[j] = s;
    }
}

void vm_T_SIMD(const vm_fp16_args_t* args) {
    const _Float16* a = args->a;
    const unsigned m = args->m, k = args->k;
    unsigned j0, j1;
    kernel_require_nonzero("vm_T_SIMD", m, k, 1);
    my_outputs(m, &j0, &j1);
    const unsigned quads = k / 4;
    for (unsigned j = j0; j < j1; ++j) {
        const _Float16* w = args->b + j * k;
        const _Float16* pa = a;
        const _Float16* pw = w;
        float acc = 0.0f, x0, y0, x1, y1;
        if (quads)
            /* two pairs per iteration, 8 instructions for 4 products: flw x4 with offsets, addi x2,
             * vfmac.h x2, each vfmac two instructions after its loads */
            __asm__ volatile(
                HWLOOP_BEGIN(0, "%[n]", 1) "flw %[x0], 0(%[pa])\n\t"
                                           "flw %[y0], 0(%[pw])\n\t"
                                           "flw %[x1], 4(%[pa])\n\t"
                                           "flw %[y1], 4(%[pw])\n\t"
                                           "addi %[pa], %[pa], 8\n\t" VFMAC_H(
                                               "%[acc]", "%[x0]",
                                               "%[y0]") "addi %[pw], %[pw], 8\n\t" VFMAC_H("%[acc]", "%[x1]",
                                                                                           "%[y1]")
                                               HWLOOP_END(1)
                : [pa] "+r"(pa), [pw] "+r"(pw), [acc] "+f"(acc), [x0] "=&f"(x0), [y0] "=&f"(y0),
                  [x1] "=&f"(x1), [y1] "=&f"(y1)
                : [n] "r"(quads)
                : "memory");
        unsigned p = 4 * quads;
        if (p + 2 <= k) {
            fp16_vfmac(&acc, fp16_load_pair(a + p), fp16_load_pair(w + p));
            p += 2;
        }
        _Float16 s = fp16_lane_sum(acc);
        if (p < k) s += a[p] * w[p];
        args->c[j] = s;
    }
}
