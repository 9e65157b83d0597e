"""Golden data of kernels/apps/matmul_family: C = A x B with A [MM_M][MM_K] and B [MM_K][MM_N] (row-major),
the one result every kernel of the FP32 matmul family must reach.

Inputs: a random sign and a full random 23-bit mantissa on a magnitude in [0.25, 1), the distribution the
program documents: every product and every partial sum rounds, so the program's bit-exact check against
its plain loop sees any change of summation order. Tolerance: each element is a sum of MM_K products, so
atol = sum_bound(|A| x |B|, MM_K) and rtol 0, whatever order and fusing a kernel uses.
"""
import torch

from golden import sum_bound


def full_mantissa(generator: torch.Generator, shape) -> torch.Tensor:
    """float32 values with a random sign, exponent -2 or -1 and 23 random mantissa bits, from random 32-bit
    words (the program's former xorshift construction, fed by torch's generator)."""
    words = torch.randint(0, 2**32, shape, generator=generator, dtype=torch.int64)
    bits = (words & 0x80000000) | ((125 + ((words >> 23) & 1)) << 23) | (words & 0x007FFFFF)
    bits = torch.where(bits >= 2**31, bits - 2**32, bits)  # as int32 two's complement
    return bits.to(torch.int32).view(torch.float32)


def generate(h, p):
    m, n, k = p["MM_M"], p["MM_N"], p["MM_K"]
    generator = torch.Generator().manual_seed(0x2545F491)
    a = h.floats("mm_a", full_mantissa(generator, (m, k)))
    b = h.floats("mm_b", full_mantissa(generator, (k, n)))
    c = a.double() @ b.double()
    c_abs = a.double().abs() @ b.double().abs()
    h.expect("mm", c, sum_bound(c_abs, k), 0.0, f"sums of {k} products")
