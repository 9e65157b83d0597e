/*
 * Runs every kernel of the FP32 matmul family (kernels/lib/matmul_fp32.h) on A[MM_M][MM_K] x B[MM_K][MM_N]
 * in the TCDM with the whole team, one perf region per kernel (named after it), and checks each result
 * twice: against the plain loop, bit-exact, or for the K-unrolled kernels within 1e-5 of
 * sum_k |A(i,k) B(k,j)|; and against PyTorch's C = A x B within the tolerance of golden_data.h (written at
 * build time by kernels/golden/suite_matmul.py).
 *
 * Inputs (PyTorch's, drawn by the suite): a random sign and a full random 23-bit mantissa on a magnitude
 * in [0.25, 1), kept instead of golden.py's uniform(): every product and partial sum rounds and no term is
 * negligible next to the others, so a kernel that sums in another order than the plain loop changes the
 * bits and the bit-exact check sees it.
 *
 * Prints "<kernel> OK" or its first mismatch and "<kernel> golden OK" or the first element outside the
 * tolerance, then "matmul family MxNxK on C cores: OK" (exit 0) or FAIL.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "golden_data.h"
#include "kernel_check.h"
#include "matmul_fp32.h"
#include "runtime.h"

/* MM_M, MM_N, MM_K: set by CMake; golden_data.h checks that its data was made for them. */

TCDM_BSS static float a[MM_M * MM_K];
TCDM_BSS static float b[MM_K * MM_N];
TCDM_BSS static float c[MM_M * MM_N];
TCDM_BSS static matmul_args_t args;

/* The reference and the error scale stay in L2: the TCDM holds only what the kernels touch. */
static float ref[MM_M * MM_N];
static float mag[MM_M * MM_N];

static void run_variant(void* arg) {
    ((const matmul_variant_t*)arg)->fn(&args);
}

int main(void) {
    memcpy(a, golden_mm_a, sizeof a);
    memcpy(b, golden_mm_b, sizeof b);
    for (unsigned i = 0; i < MM_M; ++i)
        for (unsigned j = 0; j < MM_N; ++j) {
            float acc = 0.0f;
            for (unsigned k = 0; k < MM_K; ++k)
                acc += a[i * MM_K + k] * b[k * MM_N + j];
            ref[i * MM_N + j] = acc;
        }
    /* Separate loop, so that the reference's fmadd cannot share a rounded product with this sum. */
    for (unsigned i = 0; i < MM_M; ++i)
        for (unsigned j = 0; j < MM_N; ++j) {
            float s = 0.0f;
            for (unsigned k = 0; k < MM_K; ++k)
                s += fabsf(a[i * MM_K + k]) * fabsf(b[k * MM_N + j]);
            mag[i * MM_N + j] = s;
        }
    args = (matmul_args_t){.a = a, .b = b, .c = c, .m = MM_M, .n = MM_N, .k = MM_K};

    int failed = 0;
    for (unsigned v = 0; v < MATMUL_VARIANTS; ++v) {
        const matmul_variant_t* var = &matmul_variants[v];
        memset(c, 0, sizeof c);
        region_begin(var->name, MM_M * MM_N * MM_K);
        team_fork(num_cores(), run_variant, (void*)var);
        region_end();
        int bad = -1;
        for (unsigned i = 0; i < MM_M * MM_N && bad < 0; ++i) {
            const int ok = var->unroll_k == 1 ? float_bits(c[i]) == float_bits(ref[i])
                                              : fabsf(c[i] - ref[i]) <= 1e-5f * mag[i];
            if (!ok) bad = (int)i;
        }
        if (bad < 0) {
            printf("%s OK\n", var->name);
        } else {
            printf("%s mismatch at [%d][%d]: %08lx, expected %08lx\n", var->name, bad / MM_N, bad % MM_N,
                   (unsigned long)float_bits(c[bad]), (unsigned long)float_bits(ref[bad]));
            failed = 1;
        }
        /* the golden record under the kernel's name, so that its line says which kernel it checked */
        golden_t golden = golden_mm;
        golden.name = var->name;
        if (golden_check(&golden, c)) failed = 1;
    }
    printf("matmul family %dx%dx%d on %u cores: %s\n", MM_M, MM_N, MM_K, num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
