/*
 * Helpers shared by the FP16 kernels (vm_fp16.c, matmul_fp16.c): packed-pair loads into f registers and
 * the Xfvec operations of runtime/xfvec.h as inline functions. A pair is two binary16 values as they lie in
 * memory, held in a 32-bit f register (lane 0 = the lower address).
 */
#ifndef PULPSIM_FP16_SIMD_H
#define PULPSIM_FP16_SIMD_H

#include <stdint.h>
#include <string.h>

#include "xfvec.h"

#define FP16_INLINE static inline __attribute__((always_inline))

/* flw of the pair at p. Inline asm because p may be only 2-byte aligned (odd row lengths): the core
 * splits a misaligned word access itself (one extra cycle), whereas C would emit two lhu and a pack. The
 * "m" operand lets clang fold constant offsets into the load. */
FP16_INLINE float fp16_load_pair(const _Float16* p) {
    float v;
    __asm__("flw %0, %1" : "=f"(v) : "m"(*(const uint32_t*)p));
    return v;
}

/* acc[i] += x[i] * y[i] in FP16, one rounding per lane. */
FP16_INLINE void fp16_vfmac(float* acc, float x, float y) {
    __asm__(VFMAC_H("%[acc]", "%[x]", "%[y]") : [acc] "+f"(*acc) : [x] "f"(x), [y] "f"(y));
}

/* FP32 acc += x[0] * y[0] + x[1] * y[1], exact products and sum, one rounding. */
FP16_INLINE void fp16_vfdotpex(float* acc, float x, float y) {
    __asm__(VFDOTPEX_S_H("%[acc]", "%[x]", "%[y]") : [acc] "+f"(*acc) : [x] "f"(x), [y] "f"(y));
}

/* lane 0 + lane 1 of a pair, in FP16. */
FP16_INLINE _Float16 fp16_lane_sum(float pair) {
    uint32_t u;
    memcpy(&u, &pair, sizeof u);
    const uint16_t lo = (uint16_t)u, hi = (uint16_t)(u >> 16);
    _Float16 l, h;
    memcpy(&l, &lo, sizeof l);
    memcpy(&h, &hi, sizeof h);
    return l + h;
}

#endif
