"""PyTorch side of network_gen.py: draws the inputs and weights, runs the training step in float64 with
autograd, bounds the float32 rounding error of every value the cluster program computes, and writes the
program (network.c), its tensors (network_data.S + weights.bin + golden.bin).

Values. Inputs are uniform in (-1, 1); the weights of a layer uniform in +-sqrt(6 / fan_in) (He uniform, so
that activations keep their scale through ReLU layers without BatchNorm); an MSE target is uniform in (-1, 1)
or the input itself; a cross-entropy label is drawn (or given). All from torch.Generator(seed), in this
order: input, each weighted layer's weights in network order, target / label.

Tolerances. Every value v the program computes gets an estimate of the variance of its float32 error
(program - exact, where exact is the float64 result of the same network on the same float32 inputs),
propagated through the network to first order, as errors of independent roundings add up:
  - a sum of n products (FW, WG, IG of Conv2D / DepthWise / PointWise / Linear, the pooling sums) adds its own
    rounding, variance (n + 1) u^2 (sum of |products|)^2 (u = 2^-24; the square of the probabilistic bound
    sqrt(n) u sum|terms| of Higham and Mary, 2019, in any summation order, fused or not), and carries the
    errors of its operands with the squares of the other operand (Var(W x) = W^2 Var(x));
  - ReLU / LeakyReLU pass the variance through. Where an exact pre-activation is within AMBIGUOUS standard
    deviations of 0 the program might take the other branch, and its backward step would differ by the whole
    dy there, which spreads to every gradient below: the generator therefore nudges the one weight of the
    layer before that contributes most to that input until no input is that close to 0 (Step.nudge; a change
    of about 50 standard deviations of the input's error, ~1e-4 of one weight);
  - Sigmoid / Tanh through their derivatives (tanh_fast adds its 3.5e-5), the losses through theirs plus a
    few roundings for exp / log / division, the SGD update lr^2 Var(dW) plus two roundings.
A worst-case bound (sum of |products| carried through |W| at every layer) grows geometrically with depth and
is useless beyond a few layers; this estimate tracks the actual error. The check allows
|program - expected| <= SIGMAS sqrt(variance) + u |expected| (the last term the rounding of the expected value
to float32); each check prints its largest error as a fraction of its tolerance.
"""
import math
import os
import tempfile
from array import array

import torch
import torch.nn.functional as F

from network_gen import DEFAULT_L2_SIZE, WEIGHTED, aligned_bytes, needs_input_gradient, size_text, work_tensors

U = 2.0**-24
TANH_FAST_ERROR = 3.5e-5  # kernels/lib/activations_fp32.h: max |tanh_fast - tanhf| 3.1e-5


class GenerateError(Exception):
    pass


SIGMAS = 10.0  # tolerance = SIGMAS standard deviations of the estimated error (+ the rounding of the value)
AMBIGUOUS = 6.0  # a ReLU input within this many standard deviations of 0 may take either branch
NUDGE_ROUNDS = 20


def rounding(n, abs_sum):
    """Variance of the rounding error of sums of n terms whose |terms| add up to abs_sum, in any order, fused
    or not: (n + 1) u^2 abs_sum^2, the square of the probabilistic bound sqrt(n) u sum|terms| (Higham and Mary,
    2019) with one more rounding for the products."""
    return (n + 1) * U * U * abs_sum * abs_sum


# ---- the layers as float64 torch functions ----------------------------------------------------------------

def pad_input(layer, x):
    top, bottom, left, right = layer.pad
    return F.pad(x, (left, right, top, bottom))


def bilinear(layer, w, x):
    """y = layer(w, x) for a weighted layer; linear in w and in x."""
    if layer.kind == "linear":
        return F.linear(x.reshape(1, -1), w).reshape(-1)
    xp = pad_input(layer, x.unsqueeze(0))
    groups = x.shape[0] if layer.kind == "depthwise" else 1
    return F.conv2d(xp, w, stride=layer.stride, groups=groups).squeeze(0)


def vjp_x(layer, w, x_shape, cotangent):
    x = torch.zeros(x_shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(bilinear(layer, w, x), x, cotangent)
    return g


def vjp_w(layer, w_shape, x, cotangent):
    w = torch.zeros(w_shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(bilinear(layer, w, x), w, cotangent)
    return g


def pool(layer, x):
    return F.avg_pool2d(x.unsqueeze(0), layer.kernel).squeeze(0)


def pool_vjp(layer, x_shape, cotangent):
    x = torch.zeros(x_shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(pool(layer, x), x, cotangent)
    return g


def terms(layer):
    """Products per output element of FW, WG and IG."""
    kh, kw = layer.kernel
    c_out = layer.out_shape[0]
    hw_out = layer.out_shape[1] * layer.out_shape[2] if len(layer.out_shape) == 3 else 1
    return {
        "linear": (layer.in_shape[0], 1, c_out),
        "pointwise": (layer.in_shape[0], hw_out, c_out),
        "conv2d": (layer.in_shape[0] * kh * kw, hw_out, c_out * kh * kw),
        "depthwise": (kh * kw, hw_out, kh * kw),
    }[layer.kind]


# ---- drawing the values and running the step --------------------------------------------------------------

def uniform(generator, shape, scale):
    values = (torch.rand(shape, generator=generator, dtype=torch.float64) * 2.0 - 1.0) * scale
    return values.to(torch.float32)


class Step:
    """The float32 inputs and every expected value and tolerance of one training step."""

    def __init__(self, net):
        self.net = net
        g = torch.Generator().manual_seed(net.seed)
        self.input = uniform(g, net.input_shape, 1.0)
        self.weights = {}
        for layer in net.layers:
            if layer.weight_shape is not None:
                fan_in = math.prod(layer.weight_shape[1:])
                self.weights[layer.name] = uniform(g, layer.weight_shape, math.sqrt(6.0 / fan_in))
        out_shape = net.layers[-1].out_shape
        self.target = None
        self.label = None
        if net.loss == "mse":
            self.target = (self.input.reshape(out_shape).clone() if net.target == "input"
                           else uniform(g, out_shape, 1.0))
        else:
            drawn = int(torch.randint(out_shape[0], (1,), generator=g).item())
            self.label = net.label if net.label is not None else drawn
        self.nudged = 0
        self.checks = []  # (check name, expected float64, variance of the program's error)
        for _ in range(NUDGE_ROUNDS):
            ambiguous = self.run(forward_only=True)
            if not ambiguous:
                break
            self.nudge(ambiguous)
        else:
            raise GenerateError(f"ReLU inputs stay within {AMBIGUOUS} standard deviations of their error of 0 after "
                                f"{NUDGE_ROUNDS} rounds of nudging: try another seed")
        self.checks = []
        self.run()

    def check(self, name, value, variance):
        self.checks.append((name, value.detach().reshape(-1).clone(), variance.detach().reshape(-1).clone()))

    def nudge(self, ambiguous):
        """Moves each ReLU input that is within its error of 0 away from it, by changing the one weight of the
        layer before whose product contributes most to it: by 50 standard deviations in the direction of its
        sign. The program's branch is then the exact one, and its backward step has no flip to allow for."""
        for index, x_in, mask, x, x_var in ambiguous:
            layer = self.net.layers[index - 1] if index > 0 else None
            if layer is None or layer.kind not in WEIGHTED:
                raise GenerateError(f"a ReLU input of {self.net.layers[index].name} is within its error of 0 and "
                                    "follows no weighted layer: try another seed")
            w = self.weights[layer.name].double()
            shift = torch.where(x >= 0, 50.0, -50.0) * x_var.sqrt()
            if layer.kind == "linear":
                for o in mask.nonzero().reshape(-1).tolist():
                    k = int(x_in.abs().argmax())
                    w[o, k] += shift[o] / x_in[k]
            else:
                xp = pad_input(layer, x_in.unsqueeze(0)).squeeze(0)
                kh, kw = (1, 1) if layer.kind == "pointwise" else layer.kernel
                s = layer.stride
                for c, oy, ox in mask.nonzero().tolist():
                    if layer.kind == "depthwise":
                        window = xp[c, oy * s:oy * s + kh, ox * s:ox * s + kw]
                        i, j = divmod(int(window.abs().argmax()), kw)
                        w[c, 0, i, j] += shift[c, oy, ox] / window[i, j]
                    else:
                        window = xp[:, oy * s:oy * s + kh, ox * s:ox * s + kw]
                        ci, rest = divmod(int(window.abs().argmax()), kh * kw)
                        i, j = divmod(rest, kw)
                        w[c, ci, i, j] += shift[c, oy, ox] / window[ci, i, j]
            self.weights[layer.name] = w.to(torch.float32)
            self.nudged += int(mask.sum())

    def run(self, forward_only=False):
        net = self.net
        ambiguous_inputs = []
        x = self.input.double()
        x_var = torch.zeros_like(x)
        acts = []  # per layer: (x, x_var, y, y_var, ambiguous)
        for layer in net.layers:
            amb = None
            if layer.kind in WEIGHTED:
                w = self.weights[layer.name].double()
                y = bilinear(layer, w, x)
                y_var = bilinear(layer, w * w, x_var) + rounding(terms(layer)[0], bilinear(layer, w.abs(), x.abs()))
            elif layer.kind in ("relu", "leaky_relu"):
                slope = 0.0 if layer.kind == "relu" else layer.alpha
                y = torch.where(x > 0, x, slope * x)
                amb = x.abs() < AMBIGUOUS * x_var.sqrt()
                if amb.any():
                    ambiguous_inputs.append((len(acts), acts[-1][0] if acts else None, amb, x, x_var))
                y_var = torch.where((x > 0) | amb, x_var, slope * slope * x_var) + (U * y) ** 2
            elif layer.kind == "sigmoid":
                y = torch.sigmoid(x)
                y_var = (y * (1 - y)) ** 2 * x_var + (4 * U * y) ** 2
            elif layer.kind == "tanh":
                y = torch.tanh(x)
                y_var = (1 - y * y) ** 2 * x_var + TANH_FAST_ERROR**2 + (4 * U) ** 2
            elif layer.kind == "avgpool":
                n = layer.kernel[0] * layer.kernel[1]
                y = pool(layer, x)
                y_var = pool(layer, x_var) / n + rounding(n + 1, pool(layer, x.abs()))
            else:  # flatten
                y, y_var = x.reshape(-1), x_var.reshape(-1)
            acts.append((x, x_var, y, y_var, amb))
            if layer.kind != "flatten":
                self.check(f"{layer.name}_fw", y, y_var)
            x, x_var = y, y_var

        if forward_only:
            return ambiguous_inputs
        # loss and its gradient
        out, out_var = x.reshape(-1), x_var.reshape(-1)
        n = out.numel()
        if net.loss == "mse":
            t = self.target.double().reshape(-1)
            d = out - t
            loss = (d * d).sum() / n
            grad = 2.0 / n * d
            loss_var = ((2.0 / n * d) ** 2 * out_var).sum() + rounding(n + 2, loss)
            grad_var = (2.0 / n) ** 2 * out_var + (3 * U * grad) ** 2
        else:
            y = torch.softmax(out, 0)
            loss = -torch.log(y[self.label])
            grad = y.clone()
            grad[self.label] -= 1.0
            y_var = y * y * (out_var + (y * y * out_var).sum()) + ((n + 6) * U * y) ** 2
            grad_var = y_var + (U * grad) ** 2
            shifted = out[self.label] - out.max()
            loss_var = (grad * grad * out_var).sum() + ((n + 4) * U) ** 2 + (2 * U * (loss.abs() + shifted.abs())) ** 2
        self.loss = loss
        self.check("loss", loss.reshape(1), loss_var.reshape(1))
        self.check("loss_grad", grad, grad_var)

        # backward
        ig = needs_input_gradient(net)
        gy, gy_var = grad.reshape(net.layers[-1].out_shape), grad_var.reshape(net.layers[-1].out_shape)
        self.updated = {}
        for layer, has_ig, (x, x_var, y, y_var, amb) in reversed(list(zip(net.layers, ig, acts))):
            gx = gx_var = None
            if layer.kind in WEIGHTED:
                w = self.weights[layer.name].double()
                n_fw, n_wg, n_ig = terms(layer)
                if layer.train:
                    dw = vjp_w(layer, w.shape, x, gy)
                    dw_var = (vjp_w(layer, w.shape, x * x, gy_var) + vjp_w(layer, w.shape, x_var, gy * gy) +
                              rounding(n_wg, vjp_w(layer, w.shape, x.abs(), gy.abs())))
                    self.check(f"{layer.name}_wg", dw, dw_var)
                    w_new = w - net.lr * dw
                    w_new_var = net.lr**2 * dw_var + (2 * U * (net.lr * dw.abs() + w_new.abs())) ** 2
                    self.updated[layer.name] = (w_new, w_new_var)
                if has_ig:
                    gx = vjp_x(layer, w, x.shape, gy)
                    gx_var = (vjp_x(layer, w * w, x.shape, gy_var) +
                              rounding(n_ig, vjp_x(layer, w.abs(), x.shape, gy.abs())))
            elif not has_ig:
                pass
            elif layer.kind in ("relu", "leaky_relu"):
                slope = 0.0 if layer.kind == "relu" else layer.alpha
                positive = x > 0
                gx = torch.where(positive, gy, slope * gy)
                # where the pre-activation is within its error of 0 the program may take the other branch
                gx_var = (torch.where(positive | amb, gy_var, slope * slope * gy_var) + amb * ((1 - slope) * gy) ** 2 +
                          (U * gx) ** 2)
            elif layer.kind == "sigmoid":
                deriv = y * (1 - y)
                gx = gy * deriv
                gx_var = deriv**2 * gy_var + (gy * (1 - 2 * y)) ** 2 * y_var + (3 * U * gx) ** 2
            elif layer.kind == "tanh":
                deriv = 1 - y * y
                gx = gy * deriv
                gx_var = deriv**2 * gy_var + (2 * gy * y) ** 2 * y_var + (3 * U * gx) ** 2
            elif layer.kind == "avgpool":
                n = layer.kernel[0] * layer.kernel[1]
                gx = pool_vjp(layer, x.shape, gy)
                gx_var = pool_vjp(layer, x.shape, gy_var) / n + (2 * U * gx) ** 2
            else:  # flatten
                gx, gx_var = gy.reshape(x.shape), gy_var.reshape(x.shape)
            if gx is not None and layer.kind != "flatten":
                suffix = "ig" if layer.kind in WEIGHTED else "bw"
                self.check(f"{layer.name}_{suffix}", gx, gx_var)
            if gx is None:
                break
            gy, gy_var = gx, gx_var
        for layer in net.layers:
            if layer.name in self.updated:
                w_new, w_new_var = self.updated[layer.name]
                self.check(f"{layer.name}_sgd", w_new, w_new_var)
            elif layer.weight_shape is not None:  # frozen: the weights must come out untouched
                w = self.weights[layer.name].double()
                self.check(f"{layer.name}_frozen", w, torch.zeros_like(w))
        self.cross_check()

    def cross_check(self):
        """The same step with torch.nn modules, autograd and torch.optim.SGD: the hand-written passes above
        must agree with it (guards the generator itself)."""
        net = self.net
        params, x = [], self.input.double().clone()
        y = x
        for layer in net.layers:
            if layer.weight_shape is not None:
                p = self.weights[layer.name].double().clone().requires_grad_(layer.train)
                params.append((layer, p))
                y = bilinear(layer, p, y)
            elif layer.kind == "relu":
                y = F.relu(y)
            elif layer.kind == "leaky_relu":
                y = F.leaky_relu(y, layer.alpha)
            elif layer.kind == "sigmoid":
                y = torch.sigmoid(y)
            elif layer.kind == "tanh":
                y = torch.tanh(y)
            elif layer.kind == "avgpool":
                y = pool(layer, y)
            else:
                y = y.reshape(-1)
        if net.loss == "mse":
            loss = F.mse_loss(y.reshape(-1), self.target.double().reshape(-1))
        else:
            loss = F.cross_entropy(y.reshape(1, -1), torch.tensor([self.label]))
        trained = [p for layer, p in params if layer.train]
        opt = torch.optim.SGD(trained, lr=net.lr)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if abs(loss.item() - self.loss.item()) > 1e-12 * max(1.0, abs(loss.item())):
            raise GenerateError(f"internal: loss {loss.item()} != {self.loss.item()}")
        for layer, p in params:
            if layer.train:
                mine = self.updated[layer.name][0]
                if not torch.allclose(mine, p.detach(), rtol=1e-12, atol=1e-14):
                    raise GenerateError(f"internal: updated weights of {layer.name} differ from torch.optim.SGD")


# ---- tensors and program text ------------------------------------------------------------------------------

def f32_bytes(t):
    return array("f", t.detach().to(torch.float32).reshape(-1).tolist()).tobytes()


def tolerance_of(expected, variance):
    tol = SIGMAS * variance.sqrt() + U * expected.abs() + 2.0**-126
    t32 = tol.to(torch.float32)
    # round up: the float32 tolerance must not be below the float64 one
    below = t32.double() < tol
    t32[below] = torch.nextafter(t32[below], torch.tensor(float("inf"), dtype=torch.float32))
    return t32


def c_float(x):
    return repr(float(x)) + "f" if math.isfinite(x) else "0.0f"


class Blob:
    """Tensors of one section, 8-byte aligned, written as one .bin file."""

    def __init__(self, path):
        self.path = path
        self.data = bytearray()
        self.entries = []  # (symbol, offset, bytes)

    def add(self, symbol, payload):
        while len(self.data) % 8:
            self.data += b"\0"
        self.entries.append((symbol, len(self.data), len(payload)))
        self.data += payload


def write_atomically(path, data):
    mode = "wb" if isinstance(data, (bytes, bytearray)) else "w"
    folder = os.path.dirname(os.path.abspath(path))
    with tempfile.NamedTemporaryFile(mode, dir=folder, delete=False, suffix=".tmp") as tmp:
        tmp.write(data)
    os.replace(tmp.name, path)


def generate(net, out_dir, program, perturb):
    step = Step(net)
    if perturb is not None:
        names = [name for name, _, _ in step.checks]
        if perturb not in names:
            raise GenerateError(f"--perturb {perturb}: no such check (checks: {', '.join(names)})")

    weights = Blob(os.path.join(out_dir, "weights.bin"))
    golden = Blob(os.path.join(out_dir, "golden.bin"))
    golden.add("net_input", f32_bytes(step.input))
    if step.target is not None:
        golden.add("net_target", f32_bytes(step.target))
    for layer in net.layers:
        if layer.weight_shape is not None:
            weights.add(f"{layer.name}_w", f32_bytes(step.weights[layer.name]))
    checks = []
    for name, expected, variance in step.checks:
        tol = tolerance_of(expected, variance)
        exp32 = expected.to(torch.float32)
        if name == perturb:
            exp32 = exp32.clone()
            exp32[0] += 10.0 * float(tol[0]) + 2.0**-10
        golden.add(f"{name}_exp", f32_bytes(exp32))
        golden.add(f"{name}_tol", f32_bytes(tol))
        checks.append((name, expected.numel()))

    # activations and gradients: one L2 tensor per layer output, one per computed gradient
    noinit, out_sym, din_sym = work_tensors(net)
    l2_size = net.l2_size or DEFAULT_L2_SIZE
    work = sum(aligned_bytes(floats) for _, floats in noinit)
    need = len(weights.data) + len(golden.data) + work
    if need > l2_size:
        raise GenerateError(f"the tensors need {need} bytes of L2 (weights {len(weights.data)}, input and expected "
                            f"values {len(golden.data)}, activations and gradients {work}) but l2_size is "
                            f"{size_text(l2_size)}{'' if net.l2_size else ' by default'}")

    os.makedirs(out_dir, exist_ok=True)
    write_atomically(weights.path, weights.data)
    write_atomically(golden.path, golden.data)
    write_atomically(os.path.join(out_dir, "network_data.S"), assembly(weights, golden, noinit))
    write_atomically(os.path.join(out_dir, "network.c"),
                     program_text(net, program, step, out_sym, din_sym, checks))


def assembly(weights, golden, noinit):
    lines = ["/* Generated by kernels/tools/network_gen.py: the tensors of the network program. */"]
    for section, flags, blob in ((".data.network", '"aw",@progbits', weights),
                                 (".rodata.network", '"a",@progbits', golden)):
        lines.append(f"    .section {section},{flags}")
        for symbol, offset, size in blob.entries:
            lines += ["    .balign 8", f"    .globl {symbol}", f"    .type {symbol}, @object",
                      f"    .size {symbol}, {size}", f"{symbol}:",
                      f'    .incbin "{os.path.abspath(blob.path)}", {offset}, {size}']
    lines.append('    .section .l2_noinit,"aw",@nobits')
    for symbol, floats in noinit:
        lines += ["    .balign 8", f"    .globl {symbol}", f"    .type {symbol}, @object",
                  f"    .size {symbol}, {4 * floats}", f"{symbol}:", f"    .zero {4 * floats}"]
    return "\n".join(lines) + "\n"


def program_text(net, program, step, out_sym, din_sym, checks):
    ig = needs_input_gradient(net)
    cores = "num_cores()"
    externs, descriptors, forward, backward, update = [], [], [], [], []
    symbols = set()

    def extern(symbol, const=False):
        if symbol not in symbols:
            symbols.add(symbol)
            externs.append(f"extern {'const ' if const else ''}float {symbol}[];")
        return symbol

    def region(body, name, macs):
        return [f"    region_begin(\"{name}\", {macs}u);", f"    {body}", "    region_end();"]

    extern("net_input", True)
    if step.target is not None:
        extern("net_target", True)
    extern("net_loss_grad")
    extern("net_loss_value")
    prev = "net_input"
    total_macs = 0
    for layer, has_ig in zip(net.layers, ig):
        x = prev
        y = out_sym[layer.name]
        prev = y
        if layer.kind == "flatten":
            continue
        extern(y)
        dy = extern(din_sym.get(next_layer_name(net, layer), "net_loss_grad")) if has_any_grad(net, layer, ig) \
            else "NULL"
        dx = extern(din_sym[layer.name]) if has_ig else "NULL"
        w = extern(f"{layer.name}_w") if layer.weight_shape is not None else None
        dw = extern(f"{layer.name}_dw") if layer.train else "NULL"
        macs = layer.macs()
        n = layer.name
        c_in = layer.in_shape[0]
        if layer.kind == "linear":
            descriptors.append(
                f"static const linear_t {n} = {{.in_features = {c_in}, .out_features = {layer.out_shape[0]}, "
                f".in = {x}, .w = {w}, .out = {y}, .d_out = {dy}, .d_w = {dw}, .d_in = {dx}}};")
            calls = {s: f"linear_{s}(&{n}, {cores});" for s in ("fw", "wg", "ig")}
        elif layer.kind == "pointwise":
            hw = layer.in_shape[1] * layer.in_shape[2]
            descriptors.append(
                f"static const pointwise_t {n} = {{.cin = {c_in}, .cout = {layer.out_shape[0]}, .hw = {hw}, "
                f".in = {x}, .w = {w}, .out = {y}, .d_out = {dy}, .d_w = {dw}, .d_in = {dx}}};")
            calls = {s: f"pointwise_{s}(&{n}, {cores});" for s in ("fw", "wg", "ig")}
        elif layer.kind == "depthwise":
            variant = f'"{layer.variant}"' if layer.variant else "NULL"
            descriptors.append(
                f"static const net_depthwise_t {n} = {{.c = {c_in}, .h = {layer.in_shape[1]}, "
                f".w = {layer.in_shape[2]}, .k = {layer.kernel[0]}, .stride = {layer.stride}, "
                f".pad_top = {layer.pad[0]}, .pad_left = {layer.pad[2]}, .h_out = {layer.out_shape[1]}, "
                f".w_out = {layer.out_shape[2]}, "
                f".variant = {variant}, .x = {x}, .weight = {w}, "
                f".y = {y}, .dy = {dy}, .dw = {dw}, .dx = {dx}}};")
            calls = {s: f"net_depthwise_{s}(&{n});" for s in ("fw", "wg", "ig")}
        elif layer.kind == "conv2d":
            descriptors.append(
                f"static const net_conv2d_t {n} = {{.c_in = {c_in}, .h = {layer.in_shape[1]}, "
                f".w = {layer.in_shape[2]}, .c_out = {layer.out_shape[0]}, .kh = {layer.kernel[0]}, "
                f".kw = {layer.kernel[1]}, .stride = {layer.stride}, .pad_top = {layer.pad[0]}, "
                f".pad_left = {layer.pad[2]}, .h_out = {layer.out_shape[1]}, .w_out = {layer.out_shape[2]}, "
                f".x = {x}, .weight = {w}, .y = {y}, .dy = {dy}, .dw = {dw}, .dx = {dx}, .mm = NULL}};")
            calls = {s: f"net_conv2d_{s}(&{n});" for s in ("fw", "wg", "ig")}
        elif layer.kind == "avgpool":
            descriptors.append(
                f"static const net_avgpool_t {n} = {{.c = {c_in}, .h = {layer.in_shape[1]}, "
                f".w = {layer.in_shape[2]}, .kh = {layer.kernel[0]}, .kw = {layer.kernel[1]}, .x = {x}, .y = {y}, "
                f".dy = {dy}, .dx = {dx}}};")
            calls = {"fw": f"net_avgpool_fw(&{n});", "bw": f"net_avgpool_bw(&{n});"}
        else:
            op = {"relu": "RELU", "leaky_relu": "LEAKY_RELU", "sigmoid": "SIGMOID", "tanh": "TANH"}[layer.kind]
            count = math.prod(layer.in_shape)
            param = c_float(layer.alpha) if layer.kind == "leaky_relu" else "0.0f"
            bw_first = x if layer.kind in ("relu", "leaky_relu") else y
            calls = {"fw": f"net_elementwise(NET_{op}_FW, {count}u, {x}, NULL, {y}, {param});",
                     "bw": f"net_elementwise(NET_{op}_BW, {count}u, {bw_first}, {dy}, {dx}, {param});"}
        forward += region(calls["fw"], f"{n}_fw", macs)
        total_macs += macs
        steps = []
        if layer.train:
            steps.append(region(calls["wg"], f"{n}_wg", macs))
            total_macs += macs
            update.append(region(f"net_elementwise(NET_SGD, {layer.params()}u, {w}, {dw}, {w}, {c_float(net.lr)});",
                                 f"{n}_sgd", 0))
        if has_ig:
            suffix = "ig" if "ig" in calls else "bw"
            steps.append(region(calls[suffix], f"{n}_{suffix}", macs if suffix == "ig" else 0))
            total_macs += macs if suffix == "ig" else 0
        backward.insert(0, steps)

    last = out_sym[net.layers[-1].name]
    n_out = math.prod(net.layers[-1].out_shape)
    if net.loss == "mse":
        loss_call = (f"net_loss(NET_LOSS_MSE, {n_out}u, {last}, net_target, 0u, net_loss_grad, net_loss_value);")
    else:
        loss_call = (f"net_loss(NET_LOSS_CROSS_ENTROPY, {n_out}u, {last}, NULL, {step.label}u, net_loss_grad, "
                     f"net_loss_value);")
    check_symbols = {"loss": "net_loss_value", "loss_grad": "net_loss_grad"}
    for layer in net.layers:
        check_symbols[f"{layer.name}_fw"] = out_sym[layer.name]
        check_symbols[f"{layer.name}_wg"] = f"{layer.name}_dw"
        check_symbols[f"{layer.name}_sgd"] = f"{layer.name}_w"
        check_symbols[f"{layer.name}_frozen"] = f"{layer.name}_w"
        if layer.name in din_sym:
            check_symbols[f"{layer.name}_ig"] = din_sym[layer.name]
            check_symbols[f"{layer.name}_bw"] = din_sym[layer.name]
    check_lines = []
    for name, count in checks:
        extern(f"{name}_exp", True)
        extern(f"{name}_tol", True)
        check_lines.append(f"    failed += net_check(\"{name}\", {check_symbols[name]}, {name}_exp, {name}_tol, "
                           f"{count}u);")

    body = [f"/* Generated by kernels/tools/network_gen.py from {os.path.basename(net.path)}: one training step of",
            f" * network {net.name} (loss {net.loss}, SGD lr {net.lr}, seed {net.seed}), then the check of every",
            " * result against PyTorch. Do not edit: edit the description. */",
            "#include <stddef.h>", "#include <stdio.h>", "",
            "#include \"cluster.h\"", "#include \"network_layers.h\"",
            "#include \"runtime.h\"", "#include \"train_layers.h\"", "",
            *externs, "", *descriptors, "",
            "int main(void) {",
            f"    region_begin(\"train_step\", {total_macs}u);",
            *forward,
            "    region_begin(\"loss\", 0u);", f"    {loss_call}", "    region_end();"]
    for steps in backward:
        for s in steps:
            body += s
    for u in update:
        body += u
    body += ["    region_end();", "    int failed = 0;", *check_lines,
             f"    printf(\"network {program}: %s\\n\", failed ? \"FAIL\" : \"OK\");",
             "    return failed ? 1 : 0;", "}", ""]
    return "\n".join(body)


def next_layer_name(net, layer):
    i = net.layers.index(layer)
    return net.layers[i + 1].name if i + 1 < len(net.layers) else None


def has_any_grad(net, layer, ig):
    """Whether the gradient of this layer's output is computed (the layer or one before it trains)."""
    i = net.layers.index(layer)
    return layer.train or ig[i]
