/*
 * FP16 vector-matrix kernels for the input-gradient step of a fully-connected layer (Cin inputs, Cout
 * outputs, weights W[Cout][Cin]):
 *
 *   c[j] = sum_k a[k] * W[k][j]       j < m = Cin, k < k = Cout, a = dOut, c = dIn
 *
 *   vm_naive       W as [k][m]; scalar Zfh, one fmadd.h per product
 *   vm_SIMD_naive  W as [k][m]; the pairs a[k], a[k+1] are one flw, W[k][j], W[k+1][j] two halfword loads
 *                  packed with cv.pack into one f register, then vfmac.h
 *   vm_T_SIMD      W given transposed, b = W^T as [m][k]: both pairs are one flw each, then vfmac.h
 *
 * Every core of the team (inside team_fork) takes its outputs [j0, j1) with split_range over num_cores();
 * one core works too. Any m, k >= 0: an odd k ends with one fmadd.h. `a` must be 4-byte aligned; b rows
 * of odd length are misaligned every other row, which the core absorbs (one cycle per misaligned flw).
 *
 * Accumulation is FP16 throughout, as in PULP-TrainLib: vm_naive rounds once per product in ascending
 * k; the SIMD kernels keep the even and the odd k in the two lanes of one pair and add the lanes at the
 * end. Each output is within gamma_k * S of the exact sum (S = sum_k |a[k] W[k][j]|, gamma_n = n u /
 * (1 - n u), u = 2^-11), the bound of a recursive sum with at most k roundings on any path.
 * A zero dimension prints "error: <kernel>: zero dimension" and exits 1 (kernel_error.h).
 */
#ifndef PULPSIM_VM_FP16_H
#define PULPSIM_VM_FP16_H

typedef struct {
    const _Float16* a; /* [k] */
    const _Float16* b; /* W as [k][m], or W^T as [m][k] for vm_T_SIMD */
    _Float16* c;       /* [m] */
    unsigned m, k;
} vm_fp16_args_t;

void vm_naive(const vm_fp16_args_t* args);
void vm_SIMD_naive(const vm_fp16_args_t* args);
void vm_T_SIMD(const vm_fp16_args_t* args);

#endif
