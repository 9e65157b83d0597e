"""Golden data of kernels/apps/rnn: the vanilla RNN of kernels/lib/rnn_fp32.h over RNN_T steps of RNN_X
inputs and RNN_H hidden units, forward with both tanh variants, backward through time by autograd, and the
tanh variants on their own.

Inputs (the program's former distributions): x in (-1, 1), Wx and Wh in (-1.7 / sqrt(X + H), +) (weights
~ 1 / sqrt(fan-in) keep the pre-activations around +-1, where tanh is not saturated), b in (-0.1, 0.1), h[0]
in (-0.5, 0.5), dL/dh[T] in (-1, 1), the tanh test vector in (-4, 4).

Expected outputs: torch in float64 from the float32 inputs, with the exact tanh. The forward checks all of
h[0..T] (h[0] is the input, unchanged); the backward runs on exact states with dL/dh[T] as the only
gradient, and gives g[t] (dL/d pre-activation), dL/dh[0], dWx, dWh, db and dx.

Forward tolerance. The kernel's states h~[t] drift from h[t] through the recurrence. Per step the
pre-activation is a sum of X + H + 1 terms (error s[t] <= 2 (X + H + 1) u (|b| + |Wx| |x[t]| + |Wh| |h~[t]|),
the sum_bound rule per element), and tanh adds its own error d: 4 ulp of a value below 1 for tanhf (4 u
absolute), TANH_FAST_ERR for tanh_fast. With e[t] >= |h~[t] - h[t]| and r = s + |Wh| e[t] bounding the
error of the pre-activation (exact value a[t]), the mean value theorem gives

    h~[t+1] - h[t+1] = J[t] (h~[t] - h[t]) + l[t],   J[t] = diag(1 - h[t+1]^2) Wh,
    |l[t]| <= d + max tanh' over [a[t] - r, a[t] + r] * s + r * |Wh| e[t]

(the last term: tanh' at the intermediate point is within r of tanh'(a[t]), since |tanh''| < 1). Unrolled,
|h~[t] - h[t]| <= sum_s |J[t-1] ... J[s+1]| |l[s]|, with the products of the signed Jacobians taken before
the absolute value. Bounding |Wh| element-wise at every step instead would grow like (rows of |Wh| sum to
~4)^T, and the 2-norm of J[t] is above 1 for these weights: only the products show that the recurrence
damps the errors. The bound stays worst-case: the sum rule lets every rounding go the same way, so at
50x50x50 the kernels' errors are ~20 times below it with tanh_fast (where d dominates) and ~1000 times with
tanhf (where the sums do).

Backward tolerance. The golden backward runs on exact states, the kernel's on rnn_fw_tanhf's states (the
program runs that forward last), so the forward bound e[t] of tanhf enters: g~[t] = fl((1 - h~^2) dh~[t+1]) differs from g[t] by
(1 - h~^2) (dh~ - dh) + (h^2 - h~^2) dh + 3 roundings (4 u |dh~|), and dh~[t] = fl(Wh^T g~[t]) adds a sum of H
products. The same unrolling with the signed backward Jacobians Wh^T diag(1 - h[t+1]^2) bounds |dh~ - dh|,
then |g~ - g|, and the weight and input gradients are sums (sum_bound rule) of products with one perturbed
factor (|x| and |Wx| exact, |h~ - h| <= e). The bounds stay worst-case (every rounding the same way).

Every tolerance takes the largest element bound as atol, plus rtol u for the expected value's rounding to
float32.

tanh variants: tanhf within 4 ulp (rtol 8 u: an ulp of y is at most 2 u |y|); tanh_fast absolute
TANH_FAST_ERR. activations_fp32.h documents 2.9e-5, measured on a 2^-12 grid; over every float32 input with
2^-12 <= |x| < 16 the error reaches 3.09e-5 (a float32 emulation of tanh_fast, with and without the fused
multiply-add clang may form), so 3.5e-5.
"""
import math

import torch

from golden import U32, uniform

TANH_FAST_ERR = 3.5e-5
TANH_LIBM_ERR = 4 * U32


def sum_rounding(count: int, terms_abs_sum: torch.Tensor) -> torch.Tensor:
    """Element-wise sum_bound: the error bound of float32 sums of `count` terms, any order, fused or not."""
    return 2.0 * (count + 1) * U32 * terms_abs_sum


def unrolled(jacobians, local_bound) -> list:
    """|sum_s J[t-1] ... J[s+1] l[s]| bounds for a recurrence e[t+1] = J[t] e[t] + l[t], e[0] = 0:
    returns e[1..T] given the Jacobians in step order and a function of (t, e[t]) giving |l[t]|."""
    size = jacobians[0].shape[0]
    products = torch.zeros(0, size, size, dtype=torch.float64)  # J[t-1] ... J[s+1] for s < t
    local_bounds = torch.zeros(0, size, dtype=torch.float64)
    bound = torch.zeros(size, dtype=torch.float64)
    out = []
    for t, jac in enumerate(jacobians):
        local = local_bound(t, bound)
        products = torch.cat([jac @ products, torch.eye(size, dtype=torch.float64)[None]])
        local_bounds = torch.cat([local_bounds, local[None]])
        # products[s] maps l[s] to e[t+1]; the absolute value only after the signed product
        bound = (products.abs() @ local_bounds[:, :, None]).sum(0)[:, 0]
        out.append(bound)
    return out


def forward_bound(x, wx, wh, b, h, tanh_err: float) -> torch.Tensor:
    """Element-wise bound of |h~[t] - h[t]|, t = 0 .. T, for a kernel whose tanh is within tanh_err."""
    steps, x_size = x.shape
    h_size = b.numel()
    pre = b + x @ wx.T + h[:-1] @ wh.T
    wh_abs = wh.abs()
    fixed_terms = b.abs() + x.abs() @ wx.abs().T  # [T][H]

    def local(t, e):
        s = sum_rounding(x_size + h_size, fixed_terms[t] + wh_abs @ (h[t].abs() + e))
        drift = wh_abs @ e
        r = s + drift
        slope_max = 1.0 - torch.tanh((pre[t].abs() - r).clamp(min=0.0)) ** 2
        return tanh_err + slope_max * s + r * drift

    jacobians = [(1.0 - h[t + 1] ** 2)[:, None] * wh for t in range(steps)]
    return torch.stack([torch.zeros(h_size, dtype=torch.float64)] + unrolled(jacobians, local))


def rnn_steps(hdr, p, generator):
    steps, x_size, h_size = p["RNN_T"], p["RNN_X"], p["RNN_H"]
    w_scale = 1.7 / math.sqrt(x_size + h_size)
    x = hdr.floats("rnn_x", uniform(generator, (steps, x_size))).double()
    wx = hdr.floats("rnn_wx", uniform(generator, (h_size, x_size), w_scale)).double()
    wh = hdr.floats("rnn_wh", uniform(generator, (h_size, h_size), w_scale)).double()
    b = hdr.floats("rnn_b", uniform(generator, h_size, 0.1)).double()
    h0 = hdr.floats("rnn_h0", uniform(generator, h_size, 0.5)).double()
    dh_last = hdr.floats("rnn_dh", uniform(generator, h_size)).double()

    xg, wxg, whg, bg, h0g = [t.clone().requires_grad_() for t in (x, wx, wh, b, h0)]
    states, pres = [h0g], []
    for t in range(steps):
        pre = bg + wxg @ xg[t] + whg @ states[-1]
        pre.retain_grad()
        pres.append(pre)
        nxt = torch.tanh(pre)
        nxt.retain_grad()
        states.append(nxt)
    (states[-1] * dh_last).sum().backward()
    h = torch.stack(states).detach()
    g = torch.stack([pre.grad for pre in pres])  # [T][H]
    # dL/dh[t] for t = 1 .. T (dh[T] is the given gradient)
    dh = torch.stack([torch.zeros(h_size, dtype=torch.float64)] + [s.grad for s in states[1:]])

    e_libm = forward_bound(x, wx, wh, b, h, TANH_LIBM_ERR)
    e_fast = forward_bound(x, wx, wh, b, h, TANH_FAST_ERR)
    hdr.expect("rnn_fw_tanhf", h, e_libm.max().item(), U32,
               f"tanhf states: sums of {x_size + h_size + 1} terms and 4 ulp per step, through the recurrence")
    hdr.expect("rnn_fw", h, e_fast.max().item(), U32,
               f"tanh_fast states: sums of {x_size + h_size + 1} terms and {TANH_FAST_ERR} per step, "
               "through the recurrence")

    # Backward on rnn_fw_tanhf's states: e = e_libm; q bounds |h^2 - h~^2|
    e = e_libm
    q = e * (2.0 * h.abs() + e)
    wh_abs = wh.abs()

    def g_error(t, edh_next):
        """Bound of |g~[t] - g[t]| from the bound of |dh~[t+1] - dh[t+1]|."""
        dh_abs = dh[t + 1].abs() + edh_next
        slope = (1.0 - h[t + 1] ** 2 + q[t + 1]).clamp(max=1.0)
        return slope * edh_next + q[t + 1] * dh_abs + 4.0 * U32 * dh_abs

    def local(k, edh_next):
        t = steps - 1 - k  # the backward runs t = T-1 .. 0
        g_abs = g[t].abs() + g_error(t, edh_next)
        # g~ - g beside (1 - h^2) (dh~ - dh): the states' error and g's roundings
        g_rest = (q[t + 1] + 4.0 * U32) * (dh[t + 1].abs() + edh_next)
        return wh_abs.T @ g_rest + sum_rounding(h_size, wh_abs.T @ g_abs)

    jacobians = [wh.T * (1.0 - h[t + 1] ** 2)[None, :] for t in reversed(range(steps))]
    edh = torch.zeros(steps + 1, h_size, dtype=torch.float64)  # edh[t] bounds |dh~[t] - dh[t]|
    for k, bound in enumerate(unrolled(jacobians, local)):
        edh[steps - 1 - k] = bound
    eg = torch.stack([g_error(t, edh[t + 1]) for t in range(steps)])  # [T][H]
    g_abs = g.abs() + eg
    h_abs = h.abs() + e

    e_db = eg.sum(0) + sum_rounding(steps, g_abs.sum(0))
    e_dwx = eg.T @ x.abs() + sum_rounding(steps, g_abs.T @ x.abs())
    e_dwh = eg.T @ h[:-1].abs() + g.abs().T @ e[:-1] + eg.T @ e[:-1] + sum_rounding(steps, g_abs.T @ h_abs[:-1])
    e_dx = eg @ wx.abs() + sum_rounding(h_size, g_abs @ wx.abs())

    why = "backward on tanhf states (their forward bound through the backward recurrence)"
    hdr.expect("rnn_bw_g", g, eg.max().item(), U32, f"{why}, three roundings per element")
    hdr.expect("rnn_bw_dh0", h0g.grad, edh[0].max().item(), U32, f"{why}, sums of {h_size} products per step")
    hdr.expect("rnn_bw_dwx", wxg.grad, e_dwx.max().item(), U32, f"{why}, sums of {steps} products")
    hdr.expect("rnn_bw_dwh", whg.grad, e_dwh.max().item(), U32, f"{why}, sums of {steps} products")
    hdr.expect("rnn_bw_db", bg.grad, e_db.max().item(), U32, f"{why}, sums of {steps} terms")
    hdr.expect("rnn_bw_dx", xg.grad, e_dx.max().item(), U32, f"{why}, sums of {h_size} products")


def tanh_steps(hdr, p, generator):
    n = p["RNN_T"] * p["RNN_H"]
    v = hdr.floats("tanh_x", uniform(generator, n, 4.0)).double()
    y = torch.tanh(v)
    hdr.expect("tanh_libm", y, 0.0, 2 * TANH_LIBM_ERR, "tanhf within 4 ulp")
    for name in ("tanh_fast", "tanh_fast_par"):
        hdr.expect(name, y, TANH_FAST_ERR, U32, f"tanh_fast within {TANH_FAST_ERR} (2.9e-5 documented)")


def generate(hdr, p):
    generator = torch.Generator().manual_seed(0x2545F491)
    rnn_steps(hdr, p, generator)
    tanh_steps(hdr, p, generator)
