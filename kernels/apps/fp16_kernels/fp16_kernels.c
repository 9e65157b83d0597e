/*
 * Runs the FP16 kernels of kernels/lib on PyTorch's inputs in the TCDM with the whole team, one perf region
 * per kernel, and checks each against an exact reference computed on core 0 and within its stated tolerance
 * against PyTorch's output (golden_data.h, written at build time by kernels/golden/suite_fp16.py):
 *
 *   vm_naive, vm_SIMD_naive, vm_T_SIMD   dIn[VM_M] = dOut[VM_K] x W[VM_K][VM_M] (FP16 accumulation)
 *   matmul_fp16                          C[MM_M][MM_N] = A[MM_M][MM_K] x B[MM_K][MM_N] (FP32 accumulation)
 *
 * Inputs are multiples of 1/64 in [-1, 1] (exact in FP16; the suite draws them so because these references
 * need it), so every product is a multiple of 2^-12 of magnitude <= 1 and every partial sum is exact in
 * FP32 (K < 4096): the FP32 reference loops are exact.
 * Tolerances: the vm kernels accumulate in FP16, so output j may be off by gamma_K * S_j (gamma_n =
 * n u / (1 - n u), u = 2^-11, S_j = sum_k |dOut[k] W[k][j]|); matmul_fp16's FP32 sums stay exact, so its
 * outputs must equal the exact result rounded to FP16, bit for bit.
 * Prints "<kernel> OK ..." and "<kernel> golden OK ..." or the first mismatch, then "fp16 kernels <shapes>
 * on N cores: OK" (exit 0) or FAIL (exit 1).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "golden_data.h"
#include "kernel_check.h"
#include "matmul_fp16.h"
#include "runtime.h"
#include "vm_fp16.h"

/* VM_M, VM_K, MM_M, MM_N, MM_K: set by CMake; golden_data.h checks that its data was made for them. */

/* The kernels' operands; the vm and matmul phases share the TCDM. */
TCDM_BSS static union {
    struct {
        _Float16 a[VM_K + (VM_K & 1)]; /* even: keeps w 4-byte aligned */
        _Float16 w[VM_K * VM_M];
        _Float16 c[VM_M];
    } vm;
    struct {
        _Float16 a[MM_M * MM_K];
        _Float16 bt[MM_N * MM_K];
        _Float16 c[MM_M * MM_N];
    } mm;
} l1 __attribute__((aligned(4)));
TCDM_BSS static vm_fp16_args_t vm_args;
TCDM_BSS static matmul_fp16_args_t mm_args;

/* Sources, references and error scales stay in L2. */
static _Float16 dout[VM_K], w_src[VM_K * VM_M];
static float vm_ref[VM_M], vm_mag[VM_M];
static _Float16 mm_a[MM_M * MM_K], mm_b[MM_K * MM_N];
static float mm_ref[MM_M * MM_N];

static uint16_t bits16(_Float16 h) {
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

typedef void (*vm_fn_t)(const vm_fp16_args_t*);
static void run_vm(void* fn) {
    ((vm_fn_t)fn)(&vm_args);
}
static void run_mm(void* unused) {
    (void)unused;
    matmul_fp16(&mm_args);
}

static int check_vm(const char* name) {
    const float u = 1.0f / 2048.0f;
    const float gamma = VM_K * u / (1.0f - VM_K * u);
    float worst_err = 0.0f, worst_ratio = 0.0f;
    for (unsigned j = 0; j < VM_M; ++j) {
        const float err = fabsf((float)l1.vm.c[j] - vm_ref[j]);
        const float bound = gamma * vm_mag[j];
        if (!(err <= bound)) {
            printf("%s mismatch at [%u]: %f (%04x), expected %f, bound %f\n", name, j, (double)l1.vm.c[j],
                   (unsigned)bits16(l1.vm.c[j]), (double)vm_ref[j], (double)bound);
            return 1;
        }
        if (err > worst_err) worst_err = err;
        if (bound > 0.0f && err / bound > worst_ratio) worst_ratio = err / bound;
    }
    printf("%s OK: max |err| %.6f, at most %.3f of the bound gamma_%u * S (gamma = %.6f)\n", name,
           (double)worst_err, (double)worst_ratio, VM_K, (double)gamma);
    return 0;
}

static int vm_kernel(const char* name, vm_fn_t fn, const golden_t* want) {
    memset(l1.vm.c, 0, sizeof l1.vm.c);
    region_begin(name, VM_M * VM_K);
    team_fork(num_cores(), run_vm, (void*)fn);
    region_end();
    return check_vm(name) | golden_check_f16(want, l1.vm.c);
}

int main(void) {
    /* PyTorch's inputs, FP16 bit patterns */
    memcpy(dout, golden_vm_dout_bits, sizeof dout);
    memcpy(w_src, golden_vm_w_bits, sizeof w_src);
    memcpy(mm_a, golden_mm_a_bits, sizeof mm_a);
    memcpy(mm_b, golden_mm_b_bits, sizeof mm_b);

    /* Exact references: FP16 products are exact in FP32 and so are these sums (see the top). */
    for (unsigned j = 0; j < VM_M; ++j) {
        float s = 0.0f, mag = 0.0f;
        for (unsigned k = 0; k < VM_K; ++k) {
            const float p = (float)dout[k] * (float)w_src[k * VM_M + j];
            s += p;
            mag += fabsf(p);
        }
        vm_ref[j] = s;
        vm_mag[j] = mag;
    }
    for (unsigned i = 0; i < MM_M; ++i)
        for (unsigned j = 0; j < MM_N; ++j) {
            float s = 0.0f;
            for (unsigned k = 0; k < MM_K; ++k)
                s += (float)mm_a[i * MM_K + k] * (float)mm_b[k * MM_N + j];
            mm_ref[i * MM_N + j] = s;
        }

    int failed = 0;
    memcpy(l1.vm.a, dout, sizeof dout);
    memcpy(l1.vm.w, w_src, sizeof w_src);
    vm_args = (vm_fp16_args_t){.a = l1.vm.a, .b = l1.vm.w, .c = l1.vm.c, .m = VM_M, .k = VM_K};
    failed |= vm_kernel("vm_naive", vm_naive, &golden_vm_naive);
    failed |= vm_kernel("vm_SIMD_naive", vm_SIMD_naive, &golden_vm_SIMD_naive);
    /* vm_T_SIMD reads the weights transposed, W^T[VM_M][VM_K] */
    for (unsigned k = 0; k < VM_K; ++k)
        for (unsigned j = 0; j < VM_M; ++j)
            l1.vm.w[j * VM_K + k] = w_src[k * VM_M + j];
    failed |= vm_kernel("vm_T_SIMD", vm_T_SIMD, &golden_vm_T_SIMD);

    memcpy(l1.mm.a, mm_a, sizeof mm_a);
    for (unsigned k = 0; k < MM_K; ++k)
        for (unsigned j = 0; j < MM_N; ++j)
            l1.mm.bt[j * MM_K + k] = mm_b[k * MM_N + j];
    memset(l1.mm.c, 0, sizeof l1.mm.c);
    mm_args =
        (matmul_fp16_args_t){.a = l1.mm.a, .bt = l1.mm.bt, .c = l1.mm.c, .m = MM_M, .n = MM_N, .k = MM_K};
    region_begin("matmul_fp16", MM_M * MM_N * MM_K);
    team_fork(num_cores(), run_mm, NULL);
    region_end();
    int bad = -1;
    for (unsigned i = 0; i < MM_M * MM_N && bad < 0; ++i)
        if (bits16(l1.mm.c[i]) != bits16((_Float16)mm_ref[i])) bad = (int)i;
    if (bad < 0) {
        printf("matmul_fp16 OK: equal to the exact result rounded to FP16\n");
    } else {
        printf("matmul_fp16 mismatch at [%d][%d]: %04x, expected %04x\n", bad / MM_N, bad % MM_N,
               (unsigned)bits16(l1.mm.c[bad]), (unsigned)bits16((_Float16)mm_ref[bad]));
        failed = 1;
    }
    failed |= golden_check_f16(&golden_matmul_fp16, l1.mm.c);

    printf("fp16 kernels vm %dx%d matmul %dx%dx%d on %u cores: %s\n", VM_M, VM_K, MM_M, MM_N, MM_K,
           num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
