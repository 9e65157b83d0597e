"""Golden data of kernels/apps/layers: Conv2D (im2col + matmul) and DepthWise 3x3 FW / WG / IG, the
activations, the losses and SGD, each computed by torch (the backward steps with autograd).

Tolerances: a step whose elements are sums gets atol = sum_bound(sum of |terms|, number of terms) and
rtol 0 (any summation order, fused or not, stays inside); element-wise steps get a few units of roundoff
(rtol), plus the libm error of expf/logf (a few ulp); SGD inherits the error of the gradient it is given.
"""
import torch
import torch.nn.functional as F

from golden import U32, sum_bound, uniform


def conv_steps(h, p, generator):
    cin, cout, height, width = p["CONV_CIN"], p["CONV_COUT"], p["CONV_H"], p["CONV_W"]
    k, stride, pad = p["CONV_K"], p["CONV_S"], p["CONV_P"]
    h_out = (height + 2 * pad - k) // stride + 1
    w_out = (width + 2 * pad - k) // stride + 1
    taps = cin * k * k
    x = h.floats("conv_x", uniform(generator, (1, cin, height, width)))
    w = h.floats("conv_w", uniform(generator, (cout, cin, k, k), 1.7 / taps**0.5))
    dy = h.floats("conv_dy", uniform(generator, (1, cout, h_out, w_out)))

    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    y = F.conv2d(x64, w64, stride=stride, padding=pad)
    y.backward(dy.double())
    # sums of |terms| of every output element: the same operations on absolute values
    y_abs = F.conv2d(x.double().abs(), w.double().abs(), stride=stride, padding=pad)
    dw_abs = torch.nn.grad.conv2d_weight(x.double().abs(), w.shape, dy.double().abs(), stride=stride, padding=pad)
    dx_abs = torch.nn.grad.conv2d_input(x.shape, w.double().abs(), dy.double().abs(), stride=stride, padding=pad)
    h.expect("conv_fw", y, sum_bound(y_abs, taps), 0.0, f"sums of {taps} products")
    h.expect("conv_wg", w64.grad, sum_bound(dw_abs, h_out * w_out), 0.0, f"sums of {h_out * w_out} products")
    h.expect("conv_ig", x64.grad, sum_bound(dx_abs, cout * k * k), 0.0, f"sums of up to {cout * k * k} products")


def depthwise_steps(h, p, generator):
    c, height, width = p["DW_C"], p["DW_H"], p["DW_W"]
    x = h.floats("dw_x", uniform(generator, (1, c, height, width)))
    w = h.floats("dw_w", uniform(generator, (c, 1, 3, 3), 0.5))
    dy = h.floats("dw_dy", uniform(generator, (1, c, height, width)))
    x64 = x.double().requires_grad_()
    w64 = w.double().requires_grad_()
    y = F.conv2d(x64, w64, padding=1, groups=c)
    y.backward(dy.double())
    xa, wa, dya = x.double().abs(), w.double().abs(), dy.double().abs()
    y_abs = F.conv2d(xa, wa, padding=1, groups=c)
    dw_abs = torch.nn.grad.conv2d_weight(xa, w.shape, dya, padding=1, groups=c)
    dx_abs = torch.nn.grad.conv2d_input(x.shape, wa, dya, padding=1, groups=c)
    h.expect("dw_fw", y, sum_bound(y_abs, 9), 0.0, "sums of up to 9 products")
    h.expect("dw_wg", w64.grad, sum_bound(dw_abs, height * width), 0.0, f"sums of up to {height * width} products")
    h.expect("dw_ig", x64.grad, sum_bound(dx_abs, 9), 0.0, "sums of up to 9 products")


def element_steps(h, p, generator):
    n = p["ACT_N"]
    v = h.floats("act_x", uniform(generator, n, 4.0))
    g = h.floats("act_dy", uniform(generator, n))
    t = h.floats("act_target", uniform(generator, n))
    alpha = torch.tensor(0.01, dtype=torch.float32).item()  # the kernels' 0.01f
    lr = torch.tensor(0.05, dtype=torch.float32).item()
    v64, g64, t64 = v.double(), g.double(), t.double()

    def forward_backward(fn):
        x = v64.clone().requires_grad_()
        y = fn(x)
        y.backward(g64)
        return y.detach(), x.grad

    y, dx = forward_backward(F.relu)
    h.expect("relu_fw", y, 0.0, 0.0, "exact")
    h.expect("relu_bw", dx, 0.0, 0.0, "exact")
    y, dx = forward_backward(lambda x: F.leaky_relu(x, alpha))
    h.expect("leaky_relu_fw", y, 0.0, 2 * U32, "one product")
    h.expect("leaky_relu_bw", dx, 0.0, 2 * U32, "one product")
    y, dx = forward_backward(torch.sigmoid)
    h.expect("sigmoid_fw", y, 0.0, 16 * U32, "expf (about 1 ulp), an add and a divide")
    # dy y (1 - y): 1 - y cancels when y is near 1, so its error is absolute (|dy| y <= 1)
    h.expect("sigmoid_bw", dx, 16 * U32, 16 * U32, "the FW's error through 1 - y, three products")

    softmax_rtol = (2 * (n + 1) + 16) * U32  # the sum of n exponentials, expf and a divide
    y, dx = forward_backward(lambda x: torch.softmax(x, 0))
    h.expect("softmax_fw", y, 0.0, softmax_rtol, f"a sum of {n} exponentials, expf, a divide")
    dot_bound = sum_bound(y * g64.abs(), n)
    h.expect("softmax_bw", dx, dot_bound * y.max().item(), softmax_rtol + 4 * U32,
             f"the FW's error, and the sum of {n} products y dy")

    x = v64.clone().requires_grad_()
    loss = F.mse_loss(x, t64)
    loss.backward()
    h.expect("mse_grad", x.grad, 0.0, 4 * U32, "a difference, 2 / n and a product")
    h.expect("mse_loss", loss.reshape(1), sum_bound((v64 - t64) ** 2, n), 4 * U32, f"a sum of {n} squares")

    label = n // 3
    x = v64.clone().requires_grad_()
    loss = F.cross_entropy(x.reshape(1, n), torch.tensor([label]))
    loss.backward()
    prob = torch.softmax(v64, 0)
    h.expect("ce_prob", prob, 0.0, softmax_rtol, f"softmax: a sum of {n} exponentials, expf, a divide")
    grad_atol = softmax_rtol * prob.max().item() + 2 * U32
    h.expect("ce_grad", x.grad, grad_atol, 0.0, "softmax's error, minus one at the label")
    h.expect("ce_loss", loss.detach().reshape(1), softmax_rtol * max(1.0, abs(loss.item())), 0.0,
             f"logf of a sum of {n} exponentials")

    # SGD on the logits with the kernel's CE gradient: the gradient's error, times lr, carries over
    w = v64.clone()
    w.grad = x.grad.clone()
    torch.optim.SGD([w], lr=lr).step()
    h.expect("sgd", w, lr * grad_atol, 4 * U32, "w - lr dw, with dw the CE gradient")


def generate(h, p):
    generator = torch.Generator().manual_seed(0x5EED)
    conv_steps(h, p, generator)
    depthwise_steps(h, p, generator)
    element_steps(h, p, generator)
