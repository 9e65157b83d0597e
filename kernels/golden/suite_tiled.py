"""Golden data of kernels/apps/tiled_layers: the FW / WG / IG steps of a PointWise (1x1) convolution, of
a Linear layer (kernels/lib/train_layers.h) and of a DepthWise 3x3 convolution (depthwise_tiled.h),
computed by torch with autograd.

A program passes the shape of the layer it runs: PW_H, PW_W, PW_CIN, PW_COUT for the PointWise steps
(conv2d with a 1x1 kernel on a batch-1 CHW tensor), LIN_IN, LIN_OUT for the Linear ones (F.linear without
bias, batch 1), DW_C, DW_H, DW_W for the DepthWise ones (suite_layers.depthwise_steps). The C layouts are torch's, flattened: in [cin][h w] = x (1, cin, h, w), w [cout][cin] =
weight (cout, cin, 1, 1), out / d_out [cout][h w]; Linear in [in], w [out][in], out / d_out [out].

Inputs are uniform in (-1, 1) with full mantissas. Tolerances: every step's elements are sums of
products, so atol = sum_bound(sum of |terms|, number of terms) and rtol 0; Linear's WG is one product per
element, within a rounding or two.
"""
import torch
import torch.nn.functional as F

from golden import U32, sum_bound, uniform
from suite_layers import depthwise_steps


def pointwise_steps(h, p, generator):
    height, width, cin, cout = p["PW_H"], p["PW_W"], p["PW_CIN"], p["PW_COUT"]
    hw = height * width
    x = h.floats("pw_in", uniform(generator, (1, cin, height, width)))
    w = h.floats("pw_w", uniform(generator, (cout, cin, 1, 1)))
    dy = h.floats("pw_d_out", uniform(generator, (1, cout, height, width)))

    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    y = F.conv2d(x64, w64)
    y.backward(dy.double())
    # sums of |terms| of every output element: the same operations on absolute values
    xa, wa, dya = x.double().abs(), w.double().abs(), dy.double().abs()
    y_abs = F.conv2d(xa, wa)
    dw_abs = torch.nn.grad.conv2d_weight(xa, w.shape, dya)
    dx_abs = torch.nn.grad.conv2d_input(x.shape, wa, dya)
    h.expect("pw_fw", y, sum_bound(y_abs, cin), 0.0, f"sums of {cin} products")
    h.expect("pw_wg", w64.grad, sum_bound(dw_abs, hw), 0.0, f"sums of {hw} products")
    h.expect("pw_ig", x64.grad, sum_bound(dx_abs, cout), 0.0, f"sums of {cout} products")


def linear_steps(h, p, generator):
    n_in, n_out = p["LIN_IN"], p["LIN_OUT"]
    x = h.floats("lin_in", uniform(generator, (1, n_in)))
    w = h.floats("lin_w", uniform(generator, (n_out, n_in)))
    dy = h.floats("lin_d_out", uniform(generator, (1, n_out)))

    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    y = F.linear(x64, w64)
    y.backward(dy.double())
    xa, wa, dya = x.double().abs(), w.double().abs(), dy.double().abs()
    h.expect("lin_fw", y, sum_bound(F.linear(xa, wa), n_in), 0.0, f"sums of {n_in} products")
    h.expect("lin_wg", w64.grad, 0.0, 2 * U32, "one product")
    h.expect("lin_ig", x64.grad, sum_bound(dya @ wa, n_out), 0.0, f"sums of {n_out} products")


def generate(h, p):
    steps = []
    if any(name.startswith("PW_") for name in p):
        steps.append(pointwise_steps)
    if any(name.startswith("LIN_") for name in p):
        steps.append(linear_steps)
    if any(name.startswith("DW_") for name in p):
        steps.append(depthwise_steps)
    if not steps:
        raise KeyError("PW_H, PW_W, PW_CIN, PW_COUT, LIN_IN, LIN_OUT or DW_C, DW_H, DW_W")
    generator = torch.Generator().manual_seed(0x711ED)
    for step in steps:
        step(h, p, generator)
