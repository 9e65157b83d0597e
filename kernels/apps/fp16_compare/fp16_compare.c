/*
 * Runs every kernel of the FP16 matmul family (kernels/lib/matmul_fp16.h, the table matmul_fp16_variants) on
 * C[M][N] = A[M][K] x B[K][N] with the whole team, one perf region per kernel (named after it, declaring
 * M*N*K MACs), and checks each result against the exact product. When M = 1 (a vector-matrix product, the
 * Linear input-gradient step) the kernels of kernels/lib/vm_fp16.h run too, as regions vm_naive,
 * vm_SIMD_naive and vm_T_SIMD (c[j] = sum_k a[k] W[k][j] with a = A's row, W = B).
 *
 * Inputs: FP16 values with a random sign and a full random 10-bit fraction in [0.25, 1), so every value is
 * an integer multiple of 2^-12 below 1 and every product an integer multiple of 2^-24 below 1: the exact
 * sums are computed in 64-bit integers on core 0 (no rounding at all), as is every kernel's error.
 * Tolerances (S = sum_k |A(i,k) B(k,j)|, u = 2^-11, v = 2^-24):
 *   FP16 accumulation (mm_fp16, mm_fp16_SIMD_*, vm_*): gamma_K S, gamma_n = n u / (1 - n u), the bound of
 *     a sum whose every term sees at most K FP16 roundings (vm_fp16.h; K >= 2048 leaves no bound: the
 *     output must only be finite);
 *   FP32 accumulation (mm_fp16_dotp_*): g S (1 + u) + u |exact|, g = gamma_(K/2+1) with v: K/2 + 1 FP32
 *     roundings (vfdotpex.s.h per pair, one fmadd.s for an odd K) and one FP16 rounding of the sum.
 * The bound is evaluated in FP32 and widened by 2^-20 of itself for that evaluation's own roundings.
 * FP16 underflow cannot add error here: every intermediate value is a multiple of 2^-24, which FP16
 * subnormals represent exactly.
 *
 * The shape is not compiled in: the host writes it into compare_m, compare_n and compare_k before the run
 * (`pulpsim compare`, or `pulpsim run --symbol compare_m=16 ...`); FP16_COMPARE_M/N/K set the defaults at
 * build time. A, B and C lie back to back at the start of the free TCDM (l1_free_start()), each rounded up
 * to a whole number of words: 2 (even(M K) + even(K N) + even(M N)) bytes. B is written as [K][N] for the
 * kernels that take it so (mm_fp16, vm_naive, vm_SIMD_naive) and as B^T [N][K] for the others (the table's
 * b_transposed, vm_T_SIMD), from the same random stream. Before each kernel C is filled with NaNs, so an
 * output a kernel does not write fails the check, and afterwards A and B must be unchanged.
 *
 * Exit 1, with one line "fp16 compare: ..." on stdout, if a dimension is 0, the matrices do not fit the free
 * TCDM or a kernel is wrong. Test builds: FP16_COMPARE_PERTURB=k adds 1024 to one output of the k-th region
 * after it ran, to show that the check notices.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "dma.h"
#include "kernel_check.h"
#include "matmul_fp16.h"
#include "runtime.h"
#include "vm_fp16.h"

#ifndef FP16_COMPARE_M
#define FP16_COMPARE_M 32
#endif
#ifndef FP16_COMPARE_N
#define FP16_COMPARE_N 32
#endif
#ifndef FP16_COMPARE_K
#define FP16_COMPARE_K 32
#endif

/* Volatile so that the compiler reads what the host wrote, not these defaults; in .data, since crt0 clears
 * .bss after the host has written it. */
#define HOST_SET __attribute__((section(".data.fp16_compare")))
HOST_SET volatile uint32_t compare_m = FP16_COMPARE_M;
HOST_SET volatile uint32_t compare_n = FP16_COMPARE_N;
HOST_SET volatile uint32_t compare_k = FP16_COMPARE_K;

TCDM_BSS static matmul_fp16_args_t args;
TCDM_BSS static vm_fp16_args_t vm_args;

/* One kernel to run: a family member, or a vector-matrix kernel (M = 1). */
typedef struct {
    const char* name;
    matmul_fp16_fn_t mm;
    void (*vm)(const vm_fp16_args_t*);
    unsigned b_transposed;
    unsigned fp16_accumulation;
} kernel_t;
/* pulpsim autotune reads vm_kernels[] from the ELF (sim/runs/tuner.cpp compare_program). */
_Static_assert(sizeof(kernel_t) == 20, "pulpsim autotune reads vm_kernels[] as 20-byte entries");

static const kernel_t vm_kernels[3] = {
    {"vm_naive", NULL, vm_naive, 0, 1},
    {"vm_SIMD_naive", NULL, vm_SIMD_naive, 0, 1},
    {"vm_T_SIMD", NULL, vm_T_SIMD, 1, 1},
};

/* The exact sums (x 2^24) and their error scales S stay in L2 while they fit there; bigger outputs are
 * recomputed per element when checked, which is slower but needs no memory. */
#define REFERENCE_CAPACITY 8192u
static int64_t ref[REFERENCE_CAPACITY];
static float mag[REFERENCE_CAPACITY];

static _Float16 *a_l1, *b_l1, *c_l1;
static unsigned dim_m, dim_n, dim_k, b_layout; /* b_layout: 1 if b_l1 holds B^T */

static uint16_t bits16(_Float16 h) {
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

/* A random FP16 value: random sign, exponent for [0.25, 1), random 10-bit fraction. */
static _Float16 next_half(uint32_t* state) {
    const uint32_t x = xorshift32(state);
    const uint16_t bits = (uint16_t)(((x >> 16) & 0x8000u) | ((13u + ((x >> 10) & 1u)) << 10) | (x & 0x3ffu));
    _Float16 h;
    memcpy(&h, &bits, sizeof h);
    return h;
}

/* A finite FP16 value times 2^24, exactly (every FP16 value is a multiple of 2^-24). */
static int64_t scaled24(_Float16 h) {
    const uint16_t u = bits16(h);
    const unsigned e = (u >> 10) & 31u, f = u & 0x3ffu;
    const int64_t mag24 = e == 0 ? (int64_t)f : (int64_t)(1024u + f) << (e - 1);
    return (u & 0x8000u) ? -mag24 : mag24;
}

/* An input times 2^12: an integer below 2^12, so a product fits in 32 bits. */
static int32_t scaled12(_Float16 h) {
    return (int32_t)(scaled24(h) >> 12);
}

static _Float16 b_at(unsigned k, unsigned j) {
    return b_layout ? b_l1[j * dim_k + k] : b_l1[k * dim_n + j];
}

/* The exact C(i, j) x 2^24, and S x 2^24 in *s. */
static int64_t exact_at(unsigned i, unsigned j, int64_t* s) {
    int64_t sum = 0, abs_sum = 0;
    for (unsigned k = 0; k < dim_k; ++k) {
        const int32_t p = scaled12(a_l1[i * dim_k + k]) * scaled12(b_at(k, j));
        sum += p;
        abs_sum += p < 0 ? -p : p;
    }
    *s = abs_sum;
    return sum;
}

/* B from its own stream, as [K][N] or as B^T [N][K]. */
static void write_b(unsigned transposed) {
    uint32_t state = 0x6b43a9b5u;
    for (unsigned k = 0; k < dim_k; ++k)
        for (unsigned j = 0; j < dim_n; ++j)
            b_l1[transposed ? j * dim_k + k : k * dim_n + j] = next_half(&state);
    b_layout = transposed;
}

/* FNV-1a over n halfwords. */
static uint32_t hash_halves(const _Float16* p, unsigned n, uint32_t hash) {
    for (unsigned i = 0; i < n; ++i)
        hash = (hash ^ bits16(p[i])) * 16777619u;
    return hash;
}

static void run_kernel(void* arg) {
    const kernel_t* kern = (const kernel_t*)arg;
    if (kern->mm)
        kern->mm(&args);
    else
        kern->vm(&vm_args);
}

/* 0 if every output of the kernel is within its tolerance; else prints the first one that is not. */
static int check(const kernel_t* kern, int tabulated) {
    const unsigned k = dim_k;
    const float u16 = 0x1p-11f, v32 = 0x1p-24f;
    const float gamma16 = k < 2048 ? (float)k * u16 / (1.0f - (float)k * u16) : INFINITY;
    const float n32 = (float)(k / 2 + 1) * v32;
    const float gamma32 = n32 / (1.0f - n32);
    for (unsigned idx = 0; idx < dim_m * dim_n; ++idx) {
        const unsigned i = idx / dim_n, j = idx % dim_n;
        int64_t s24;
        const int64_t want24 = tabulated ? ref[idx] : exact_at(i, j, &s24);
        const float s = tabulated ? mag[idx] : (float)s24 * 0x1p-24f;
        const float want = (float)want24 * 0x1p-24f;
        const _Float16 got = c_l1[idx];
        const float bound =
            (kern->fp16_accumulation ? gamma16 * s : gamma32 * s * (1.0f + u16) + u16 * fabsf(want)) *
            (1.0f + 0x1p-20f);
        float error = INFINITY;
        if (isfinite((float)got)) {
            const int64_t d = scaled24(got) - want24;
            error = (float)(d < 0 ? -d : d) * 0x1p-24f;
        }
        if (!(error <= bound) || isinf(error)) {
            printf(
                "fp16 compare: %s: mismatch at [%u][%u]: got %.9g (0x%04x) want %.9g, |error| %.3g > bound "
                "%.3g\n",
                kern->name, i, j, (double)(float)got, (unsigned)bits16(got), (double)want, (double)error,
                (double)bound);
            return 1;
        }
    }
    return 0;
}

int main(void) {
    const uint32_t m = compare_m, n = compare_n, k = compare_k;
    if (m == 0 || n == 0 || k == 0) {
        printf("fp16 compare: every dimension must be at least 1 (got %lux%lux%lu)\n", (unsigned long)m,
               (unsigned long)n, (unsigned long)k);
        return 1;
    }
    /* each matrix a whole number of words, so that the next one starts aligned */
    const uint64_t a_halves = ((uint64_t)m * k + 1) & ~1ull, b_halves = ((uint64_t)k * n + 1) & ~1ull;
    const uint64_t c_halves = ((uint64_t)m * n + 1) & ~1ull;
    const uint64_t bytes = 2 * (a_halves + b_halves + c_halves);
    if (bytes > l1_free_bytes()) {
        printf("fp16 compare: %lux%lux%lu needs %lu bytes of TCDM, %lu are free\n", (unsigned long)m,
               (unsigned long)n, (unsigned long)k, (unsigned long)bytes, (unsigned long)l1_free_bytes());
        return 1;
    }
    dim_m = m;
    dim_n = n;
    dim_k = k;
    a_l1 = (_Float16*)l1_free_start();
    b_l1 = a_l1 + a_halves;
    c_l1 = b_l1 + b_halves;
    uint32_t state = 0x2545f491u;
    for (unsigned i = 0; i < m * k; ++i)
        a_l1[i] = next_half(&state);
    write_b(0);
    args = (matmul_fp16_args_t){.a = a_l1, .b = b_l1, .c = c_l1, .m = m, .n = n, .k = k};
    vm_args = (vm_fp16_args_t){.a = a_l1, .b = b_l1, .c = c_l1, .m = n, .k = k};
    const unsigned outputs = m * n;
    /* A guard zone after C, where there is room, stops a kernel that writes past it. */
    const uint32_t guard = l1_free_bytes() - bytes >= 64 ? 64 : 0;
    if (guard) guard_zone(c_l1 + c_halves, guard, "fp16 compare C");

    const int tabulated = outputs <= REFERENCE_CAPACITY;
    if (tabulated)
        for (unsigned idx = 0; idx < outputs; ++idx) {
            int64_t s24;
            ref[idx] = exact_at(idx / n, idx % n, &s24);
            mag[idx] = (float)s24 * 0x1p-24f;
        }

    int failed = 0;
    unsigned index = 0; /* regions run so far */
    /* The kernels that take B as [K][N] first, then the ones that take B^T. */
    for (unsigned layout = 0; layout < 2 && !failed; ++layout) {
        if (layout) write_b(1);
        const uint32_t input_hash = hash_halves(b_l1, k * n, hash_halves(a_l1, m * k, 2166136261u));
        for (unsigned v = 0; v < MATMUL_FP16_VARIANTS + 3 && !failed; ++v) {
            static kernel_t kern; /* the team reads it */
            if (v < MATMUL_FP16_VARIANTS) {
                const matmul_fp16_variant_t* var = &matmul_fp16_variants[v];
                kern = (kernel_t){var->name, var->fn, NULL, var->b_transposed, var->fp16_accumulation};
            } else {
                if (m != 1) break;
                kern = vm_kernels[v - MATMUL_FP16_VARIANTS];
            }
            if (kern.b_transposed != layout) continue;
            memset(c_l1, 0xff, outputs * sizeof(_Float16));
            region_begin(kern.name, m * n * k);
            team_fork(num_cores(), run_kernel, &kern);
            region_end();
#ifdef FP16_COMPARE_PERTURB
            if (index == FP16_COMPARE_PERTURB)
                c_l1[outputs / 2] = (_Float16)((float)c_l1[outputs / 2] + 1024.0f);
            ++index;
#else
            (void)index;
#endif
            failed = check(&kern, tabulated);
            if (!failed && hash_halves(b_l1, k * n, hash_halves(a_l1, m * k, 2166136261u)) != input_hash) {
                printf("fp16 compare: %s: changed its inputs\n", kern.name);
                failed = 1;
            }
        }
    }
    if (guard) guard_zone_clear(c_l1 + c_halves, guard);
    printf("fp16 compare %lux%lux%lu on %u cores: %s\n", (unsigned long)m, (unsigned long)n, (unsigned long)k,
           num_cores(), failed ? "FAIL" : "OK");
    return failed;
}
