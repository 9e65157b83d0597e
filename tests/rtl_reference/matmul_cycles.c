/* The 24 FP32 matmul kernels (kernels/lib/matmul_fp32.c) on 12 x 9 by 9 x 10, every unrolling with leftovers.
 */
#include "cycles.h"
#include "matmul_fp32.h"

#define M 12
#define N 10
#define K 9
static float a[M * K], b[K * N], c[M * N];

int main(void) {
    for (unsigned i = 0; i < M * K; ++i)
        a[i] = (float)(i % 7) * 0.25f - 0.5f;
    for (unsigned i = 0; i < K * N; ++i)
        b[i] = (float)(i % 5) * 0.5f + 0.125f;
    const matmul_args_t args = {.a = a, .b = b, .c = c, .m = M, .n = N, .k = K};
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v)
        MEASURE(v, matmul_variants[v].fn(&args), hash_floats(c, M * N));
    return 0;
}
