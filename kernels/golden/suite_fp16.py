"""Golden data of kernels/apps/fp16_kernels: the FP16 vector-matrix input gradient dIn[VM_M] = dOut[VM_K] x
W[VM_K][VM_M] of the three kernels of kernels/lib/vm_fp16.h, and the FP16 matmul C[MM_M][MM_N] = A[MM_M][MM_K]
x B[MM_K][MM_N] of kernels/lib/matmul_fp16.h. The inputs are written as FP16 bit patterns, W and B
row-major as above (the program transposes W for vm_T_SIMD and B for matmul_fp16 itself); the expected
outputs are computed in float64 from the FP16 values (torch's CPU has no FP16 matmul).

Inputs are multiples of 1/64 in [-1, 1] (exact in FP16), as the program's own checks need: every product is
a multiple of 2^-12 of magnitude <= 1, so its FP32 reference sums are exact (K < 4096), and so is every
expected value written here as float32. No partial sum of the kernels gets subnormal: a rounded multiple of
2^-12 stays one.

Tolerances, with u = 2^-11 (FP16) and S_j = sum_k |dOut[k] W[k][j]|:
  vm kernels: FP16 accumulation, at most VM_K roundings on any path of a sum (one per fmadd.h, or per lane
    and the lane sum), so atol = gamma_K max_j S_j (gamma_n = n u / (1 - n u)), plus rtol u for the final
    rounding to FP16;
  matmul_fp16: FP32 sums of MM_K exact products (two per vfdotpex, one rounding each), sum_bound(S,
    MM_K / 2 + 1) grown by (1 + u) through the final rounding to FP16, which is rtol u.
"""
import torch

from golden import sum_bound

U16 = 2.0**-11


def sixty_fourths(generator: torch.Generator, shape) -> torch.Tensor:
    """Multiples of 1/64 in [-1, 1], uniform over the 129 values."""
    return torch.randint(-64, 65, shape, generator=generator, dtype=torch.int64).to(torch.float64) / 64.0


def generate(h, p):
    vm_m, vm_k = p["VM_M"], p["VM_K"]
    mm_m, mm_n, mm_k = p["MM_M"], p["MM_N"], p["MM_K"]
    generator = torch.Generator().manual_seed(0x2545F491)
    dout = h.halves("vm_dout", sixty_fourths(generator, (vm_k,))).double()
    w = h.halves("vm_w", sixty_fourths(generator, (vm_k, vm_m))).double()
    a = h.halves("mm_a", sixty_fourths(generator, (mm_m, mm_k))).double()
    b = h.halves("mm_b", sixty_fourths(generator, (mm_k, mm_n))).double()

    din = dout @ w
    gamma = vm_k * U16 / (1.0 - vm_k * U16)
    vm_atol = gamma * (dout.abs() @ w.abs()).max().item()
    for name in ("vm_naive", "vm_SIMD_naive", "vm_T_SIMD"):
        h.expect(name, din, vm_atol, U16, f"FP16 sums of {vm_k} products: gamma_{vm_k} S, the final rounding")

    c = a @ b
    fp32_sum = sum_bound(a.abs() @ b.abs(), mm_k // 2 + 1)
    h.expect("matmul_fp16", c, fp32_sum * (1.0 + U16), U16,
             f"FP32 sums of {mm_k} products in {mm_k // 2 + 1} roundings, then one rounding to FP16")
