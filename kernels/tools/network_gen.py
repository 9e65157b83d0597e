#!/usr/bin/env python3
"""Training-step programs for the cluster from a network description (kernels/networks/*.yaml).

    network_gen.py check DESC [--print WHAT]        validate; print the layers, shapes and MACs
    network_gen.py autotune-commands DESC [OPTIONS]  the `pulpsim autotune --tiled` command of each
                                                    Linear / PointWise step (OPTIONS added to each)
    network_gen.py generate DESC --out-dir DIR [--name NAME] [--perturb CHECK]

`generate` writes into DIR:
    network.c         main(): one training step (FW, loss, WG / IG, SGD), a perf region per layer and step,
                      then the check of every result against PyTorch
    network_data.S    the tensors: initial weights (.data), inputs and expected values with their
                      tolerances (.rodata, .incbin of the two .bin files), activations and gradients
                      (.l2_noinit, not zeroed at start)
    weights.bin, golden.bin, network.ld (the L2 size the program needs, for the linker)

PyTorch (float64 on the float32 inputs, autograd) computes every expected value; each value's tolerance is
a first-order bound of the float32 rounding errors of the program's computation, propagated through the
network (see `ErrorModel`). --perturb CHECK moves the first expected value of one check (e.g. L1_linear_wg)
ten tolerances and 2^-10 away, for the test that a program fails loudly.

A bad description prints one line "FILE:LINE: message" on stderr and exits with status 2.
"""
import argparse
import difflib
import math
import os
import re
import sys
from dataclasses import dataclass

import yaml

DEFAULT_L2_SIZE = 4 * 1024 * 1024  # the L2 region of kernels/runtime/link_cluster.ld


class DescriptionError(Exception):
    def __init__(self, node_or_line, message):
        line = node_or_line if isinstance(node_or_line, int) else node_or_line.start_mark.line + 1
        super().__init__(message)
        self.line = line
        self.message = message


# ---- the description -------------------------------------------------------------------------------------

WEIGHTED = {"conv2d", "depthwise", "pointwise", "linear"}
ACTIVATIONS = {"relu", "leaky_relu", "sigmoid", "tanh"}
SHORT = {"conv2d": "conv", "depthwise": "dw", "pointwise": "pw", "linear": "linear", "relu": "relu",
         "leaky_relu": "lrelu", "sigmoid": "sigmoid", "tanh": "tanh", "avgpool": "pool", "flatten": "flatten"}
LAYER_KEYS = {
    "conv2d": {"out_channels", "kernel", "stride", "padding"},
    "depthwise": {"kernel", "stride", "padding", "variant"},
    "pointwise": {"out_channels"},
    "linear": {"out_features"},
    "relu": set(),
    "leaky_relu": {"alpha"},
    "sigmoid": set(),
    "tanh": set(),
    "avgpool": {"kernel"},
    "flatten": set(),
}
COMMON_LAYER_KEYS = {"type", "train"}
# kernels of dw3x3_variants[] (kernels/lib/depthwise_fp32.h) for a 3x3 DepthWise at stride 1, padding 1;
# dw_u2 is the fastest on every step for a DS-CNN channel group on pulp-open (pulpsim autotune --layer
# depthwise --shape 13x25x5: 3.5-3.7x over dw)
DW3X3_VARIANTS = ("dw", "dw_ch", "dw_u2", "dw_u4", "dw_ch_u2", "dw_ch_u4", "dw_ch_c2")
DEFAULT_DW3X3_VARIANT = "dw_u2"
TOP_KEYS = {"network", "description", "input", "layers", "loss", "optimizer", "seed", "first_layer", "l2_size"}


def scalar(node, kind, what):
    """The value of a scalar node as `kind` (int, float, bool, str)."""
    if not isinstance(node, yaml.ScalarNode):
        raise DescriptionError(node, f"{what} must be a single value")
    if kind is str:
        return node.value
    value = yaml.safe_load(node.value) if node.style is None else node.value
    if kind is bool:
        if not isinstance(value, bool):
            raise DescriptionError(node, f"{what} must be true or false, not '{node.value}'")
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise DescriptionError(node, f"{what} must be an integer, not '{node.value}'")
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DescriptionError(node, f"{what} must be a number, not '{node.value}'")
    return float(value)


def positive(node, what):
    value = scalar(node, int, what)
    if value < 1:
        raise DescriptionError(node, f"{what} must be at least 1, not {value}")
    return value


def int_list(node, what, lengths):
    """An integer or a list of `lengths` positive integers."""
    if isinstance(node, yaml.ScalarNode):
        return [scalar(node, int, what)]
    if not isinstance(node, yaml.SequenceNode) or len(node.value) not in lengths:
        raise DescriptionError(node, f"{what} must be an integer or a list of {' or '.join(map(str, lengths))}")
    return [scalar(item, int, what) for item in node.value]


def unknown_name_hint(name, known):
    """What an error about an unknown name ends with: the known name it likely meant, else all of them."""
    close = difflib.get_close_matches(str(name), sorted(known), n=1, cutoff=0.75)
    return f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(sorted(known))})"


def mapping(node, what, allowed):
    """The keys of a mapping node as {key: (key node, value node)}; unknown or repeated keys are errors."""
    if not isinstance(node, yaml.MappingNode):
        raise DescriptionError(node, f"{what} must be a mapping")
    out = {}
    for key_node, value_node in node.value:
        key = key_node.value
        if key not in allowed:
            raise DescriptionError(key_node, f"unknown key '{key}' in {what}{unknown_name_hint(key, allowed)}")
        if key in out:
            raise DescriptionError(key_node, f"key '{key}' given twice in {what}")
        out[key] = (key_node, value_node)
    return out


@dataclass
class Layer:
    kind: str
    line: int
    number: int
    in_shape: tuple
    out_shape: tuple = None
    train: bool = False
    out_channels: int = 0
    kernel: tuple = (1, 1)
    stride: int = 1
    pad: tuple = (0, 0, 0, 0)  # top, bottom, left, right
    alpha: float = 0.01
    variant: str = None  # depthwise 3x3 / stride 1 / padding 1: a kernel of the DepthWise 3x3 family
    # filled by the generator
    weight_shape: tuple = None

    @property
    def name(self):
        return f"L{self.number}_{SHORT[self.kind]}"

    def macs(self):
        """MACs of each of FW, WG and IG."""
        if self.kind == "linear":
            return self.in_shape[0] * self.out_shape[0]
        if self.kind == "pointwise":
            return self.in_shape[0] * self.out_shape[0] * self.out_shape[1] * self.out_shape[2]
        if self.kind == "conv2d":
            return (self.out_shape[0] * self.in_shape[0] * self.kernel[0] * self.kernel[1] * self.out_shape[1] *
                    self.out_shape[2])
        if self.kind == "depthwise":
            return self.out_shape[0] * self.kernel[0] * self.kernel[1] * self.out_shape[1] * self.out_shape[2]
        return 0

    def params(self):
        return 0 if self.weight_shape is None else math.prod(self.weight_shape)


@dataclass
class Network:
    path: str
    name: str
    input_shape: tuple
    layers: list
    loss: str
    target: str = "random"  # mse: random | input
    label: int = None  # cross-entropy; None: drawn from the seed
    lr: float = 0.01
    seed: int = 0
    l2_size: int = 0
    description: str = ""


def padding_of(node, kernel, stride, size, what):
    """(top, bottom, left, right) from 'same' (TensorFlow: out = ceil(in / stride), the odd pixel at the
    bottom / right), 'valid', p, [ph, pw] or [top, bottom, left, right]."""
    if node is None:
        return (0, 0, 0, 0)
    if isinstance(node, yaml.ScalarNode) and node.value in ("same", "valid"):
        if node.value == "valid":
            return (0, 0, 0, 0)
        pads = []
        for n, k in zip(size, kernel):
            out = -(-n // stride)
            total = max((out - 1) * stride + k - n, 0)
            pads += [total // 2, total - total // 2]
        return tuple(pads)
    if isinstance(node, yaml.ScalarNode) and not re.fullmatch(r"[-+]?[0-9]+", node.value):
        raise DescriptionError(node, f"{what} must be same, valid, an integer or a list of 2 or 4, not '{node.value}'")
    values = int_list(node, what, (1, 2, 4))
    if any(v < 0 for v in values):
        raise DescriptionError(node, f"{what} must not be negative")
    if len(values) == 1:
        return (values[0],) * 4
    if len(values) == 2:
        return (values[0], values[0], values[1], values[1])
    return tuple(values)


def parse(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise DescriptionError(1, f"cannot read the description: {e.strerror}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DescriptionError(data[:e.start].count(b"\n") + 1,
                               f"not UTF-8 text (byte {e.start} is {data[e.start]:#04x})")
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise DescriptionError(mark.line + 1 if mark else 1, f"not valid YAML: {getattr(e, 'problem', e)}")
    if root is None:
        raise DescriptionError(1, "the description is empty")
    top = mapping(root, "the description", TOP_KEYS)
    for required in ("network", "input", "layers", "loss", "optimizer"):
        if required not in top:
            raise DescriptionError(root, f"missing key '{required}'")
    name = scalar(top["network"][1], str, "network")
    if not name.replace("_", "").isalnum() or not name[0].isalpha():
        raise DescriptionError(top["network"][1], f"network name '{name}' must be letters, digits and _")
    seed = scalar(top["seed"][1], int, "seed") if "seed" in top else 0
    # PyTorch's generators take seeds of 64 bits, signed or not.
    if not -2**63 <= seed < 2**64:
        raise DescriptionError(top["seed"][1], f"seed {seed} does not fit in 64 bits")
    first = positive(top["first_layer"][1], "first_layer") if "first_layer" in top else 1
    l2_size = 0
    if "l2_size" in top:
        node = top["l2_size"][1]
        match = re.fullmatch(r"([0-9]+)(KiB|MiB)?", scalar(node, str, "l2_size"))
        if not match or int(match.group(1)) == 0:
            raise DescriptionError(node, f"l2_size must be a positive number of bytes, KiB or MiB, not '{node.value}'")
        l2_size = int(match.group(1)) * {None: 1, "KiB": 1024, "MiB": 1024**2}[match.group(2)]
        # What the platform's l2.size takes, so that the program built for it can run.
        if not 1024 <= l2_size <= 1024**3 or l2_size % 4:
            raise DescriptionError(node, f"l2_size must be 1KiB to 1024MiB and a multiple of 4 bytes, as l2.size "
                                         f"takes it, not '{node.value}'")

    inp = mapping(top["input"][1], "input", {"shape"})
    if "shape" not in inp:
        raise DescriptionError(top["input"][1], "input needs 'shape': [C, H, W] or [N]")
    shape_node = inp["shape"][1]
    if not isinstance(shape_node, yaml.SequenceNode) or len(shape_node.value) not in (1, 3):
        raise DescriptionError(shape_node, "input shape must be [C, H, W] or [N]")
    input_shape = tuple(positive(v, "an input dimension") for v in shape_node.value)

    layers_node = top["layers"][1]
    if not isinstance(layers_node, yaml.SequenceNode) or not layers_node.value:
        raise DescriptionError(layers_node, "layers must be a non-empty list")
    layers = []
    shape = input_shape
    number = first - 1
    for item in layers_node.value:
        if not isinstance(item, yaml.MappingNode):
            raise DescriptionError(item, "a layer must be a mapping with a 'type'")
        type_node = next((v for k, v in item.value if k.value == "type"), None)
        if type_node is None:
            raise DescriptionError(item, "a layer needs a 'type'")
        kind = scalar(type_node, str, "type")
        if kind not in LAYER_KEYS:
            raise DescriptionError(type_node, f"unknown layer type '{kind}'{unknown_name_hint(kind, LAYER_KEYS)}")
        keys = mapping(item, f"a {kind} layer", LAYER_KEYS[kind] | COMMON_LAYER_KEYS)
        line = item.start_mark.line + 1
        if kind in WEIGHTED:
            number += 1
        layer = Layer(kind=kind, line=line, number=number, in_shape=shape)
        if "train" in keys:
            if kind not in WEIGHTED:
                raise DescriptionError(keys["train"][0], f"a {kind} layer has no weights to train")
            layer.train = scalar(keys["train"][1], bool, "train")
        elif kind in WEIGHTED:
            layer.train = True
        layer.out_shape = chain(layer, keys, item)
        shape = layer.out_shape
        if any(other.name == layer.name for other in layers):
            raise DescriptionError(item, f"two steps of layer {layer.number} would both be named {layer.name}")
        layers.append(layer)

    loss_node = top["loss"][1]
    target, label = "random", None
    if isinstance(loss_node, yaml.MappingNode):
        keys = mapping(loss_node, "loss", {"type", "target", "label"})
        if "type" not in keys:
            raise DescriptionError(loss_node, "loss needs a 'type' (mse, cross_entropy)")
        loss = scalar(keys["type"][1], str, "loss type")
        if "target" in keys:
            if loss != "mse":
                raise DescriptionError(keys["target"][0], "only the mse loss takes a target")
            target = scalar(keys["target"][1], str, "target")
            if target not in ("random", "input"):
                raise DescriptionError(keys["target"][1], f"target must be random or input, not '{target}'")
        if "label" in keys:
            if loss != "cross_entropy":
                raise DescriptionError(keys["label"][0], "only the cross_entropy loss takes a label")
            label = scalar(keys["label"][1], int, "label")
    else:
        loss = scalar(loss_node, str, "loss")
    if loss not in ("mse", "cross_entropy"):
        raise DescriptionError(loss_node, f"unknown loss '{loss}' (known: mse, cross_entropy)")
    out_shape = layers[-1].out_shape
    if loss == "cross_entropy" and len(out_shape) != 1:
        raise DescriptionError(loss_node, f"cross_entropy needs a vector output; the last layer gives {fmt(out_shape)} "
                               "(add a flatten layer)")
    if label is not None and not 0 <= label < out_shape[0]:
        raise DescriptionError(loss_node, f"label {label} is outside the {out_shape[0]} classes")
    if target == "input" and math.prod(out_shape) != math.prod(input_shape):
        raise DescriptionError(loss_node, f"target: input needs the output {fmt(out_shape)} to have the input's "
                               f"{math.prod(input_shape)} values")

    opt = mapping(top["optimizer"][1], "optimizer", {"sgd"})
    if "sgd" not in opt:
        raise DescriptionError(top["optimizer"][1], "optimizer needs 'sgd: {lr: ...}'")
    sgd = mapping(opt["sgd"][1], "sgd", {"lr"})
    if "lr" not in sgd:
        raise DescriptionError(opt["sgd"][1], "sgd needs a learning rate 'lr'")
    lr = scalar(sgd["lr"][1], float, "lr")
    if not lr > 0:
        raise DescriptionError(sgd["lr"][1], "lr must be positive")
    if not any(layer.train for layer in layers):
        raise DescriptionError(layers_node, "no layer trains (every weighted layer has train: false)")
    description = scalar(top["description"][1], str, "description") if "description" in top else ""
    net = Network(path=path, name=name, input_shape=input_shape, layers=layers, loss=loss, target=target,
                  label=label, lr=lr, seed=seed, l2_size=l2_size, description=description)
    # Found here, the linker's dozen lines about overflowing sections become one.
    weights, data, work = l2_floor(net)
    if weights + data + work > (l2_size or DEFAULT_L2_SIZE):
        where = top["l2_size"][1] if "l2_size" in top else root
        size = size_text(l2_size) if l2_size else f"{size_text(DEFAULT_L2_SIZE)} by default"
        inputs = "input and target" if net.loss == "mse" else "input"
        raise DescriptionError(where, f"the tensors need {weights + data + work} bytes of L2 at the least (weights "
                               f"{weights}, {inputs} {data}, activations and gradients {work}) but l2_size is {size}")
    return net


def size_text(size):
    for unit, scale in (("MiB", 1024**2), ("KiB", 1024)):
        if size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def fmt(shape):
    return "x".join(map(str, shape))


def chain(layer, keys, item):
    """The layer's output shape; checks that its input shape suits it."""
    kind, shape = layer.kind, layer.in_shape
    spatial = len(shape) == 3

    def need_spatial():
        if not spatial:
            raise DescriptionError(item, f"{kind} needs a C x H x W input, but the previous layer gives a vector of "
                                   f"{shape[0]}")

    def required(key):
        if key not in keys:
            raise DescriptionError(item, f"{kind} needs '{key}'")
        return keys[key][1]

    if kind in ("conv2d", "depthwise"):
        need_spatial()
        kernel = int_list(required("kernel"), "kernel", (1, 2))
        kernel = (kernel * 2)[:2]
        if min(kernel) < 1:
            raise DescriptionError(keys["kernel"][1], "kernel sizes must be at least 1")
        if kind == "depthwise" and kernel[0] != kernel[1]:
            raise DescriptionError(keys["kernel"][1], "a depthwise kernel must be square")
        stride = positive(keys["stride"][1], "stride") if "stride" in keys else 1
        pad = padding_of(keys.get("padding", (None, None))[1], kernel, stride, shape[1:], "padding")
        out_h = (shape[1] + pad[0] + pad[1] - kernel[0]) // stride + 1
        out_w = (shape[2] + pad[2] + pad[3] - kernel[1]) // stride + 1
        if shape[1] + pad[0] + pad[1] < kernel[0] or shape[2] + pad[2] + pad[3] < kernel[1]:
            raise DescriptionError(item, f"a {fmt(kernel)} kernel does not fit the padded {fmt(shape)} input")
        if max(pad[0], pad[1]) >= kernel[0] or max(pad[2], pad[3]) >= kernel[1]:
            raise DescriptionError(keys["padding"][1], "padding must be smaller than the kernel")
        layer.kernel, layer.stride, layer.pad = tuple(kernel), stride, pad
        if kind == "conv2d":
            layer.out_channels = positive(required("out_channels"), "out_channels")
            layer.weight_shape = (layer.out_channels, shape[0], kernel[0], kernel[1])
            return (layer.out_channels, out_h, out_w)
        layer.weight_shape = (shape[0], 1, kernel[0], kernel[1])
        family = layer.kernel == (3, 3) and stride == 1 and pad == (1, 1, 1, 1)
        if "variant" in keys:
            layer.variant = scalar(keys["variant"][1], str, "variant")
            if not family:
                raise DescriptionError(keys["variant"][0], "variant needs a 3x3 kernel at stride 1 with padding 1")
            if layer.variant not in DW3X3_VARIANTS:
                raise DescriptionError(keys["variant"][1], f"unknown DepthWise 3x3 kernel '{layer.variant}' (known: "
                                       f"{', '.join(DW3X3_VARIANTS)})")
        elif family:
            layer.variant = DEFAULT_DW3X3_VARIANT
        return (shape[0], out_h, out_w)
    if kind == "pointwise":
        need_spatial()
        layer.out_channels = positive(required("out_channels"), "out_channels")
        layer.weight_shape = (layer.out_channels, shape[0], 1, 1)
        return (layer.out_channels, shape[1], shape[2])
    if kind == "linear":
        if spatial:
            raise DescriptionError(item, f"linear needs a vector input, but the previous layer gives {fmt(shape)} "
                                   "(add a flatten layer)")
        layer.out_channels = positive(required("out_features"), "out_features")
        layer.weight_shape = (layer.out_channels, shape[0])
        return (layer.out_channels,)
    if kind == "avgpool":
        need_spatial()
        node = required("kernel")
        if isinstance(node, yaml.ScalarNode) and node.value == "global":
            kernel = [shape[1], shape[2]]
        else:
            kernel = (int_list(node, "kernel", (1, 2)) * 2)[:2]
        if min(kernel) < 1 or kernel[0] > shape[1] or kernel[1] > shape[2]:
            raise DescriptionError(node, f"pooling window {fmt(kernel)} does not fit the {fmt(shape)} input")
        layer.kernel = tuple(kernel)
        return (shape[0], shape[1] // kernel[0], shape[2] // kernel[1])
    if kind == "flatten":
        return (math.prod(shape),)
    if kind == "leaky_relu" and "alpha" in keys:
        layer.alpha = scalar(keys["alpha"][1], float, "alpha")
        if not 0 <= layer.alpha <= 1:
            raise DescriptionError(keys["alpha"][1], "alpha must be in [0, 1]")
    return shape


# ---- the plan: tensors and steps -------------------------------------------------------------------------

def work_tensors(net):
    """The tensors the step computes into L2 (.l2_noinit): (symbol, floats) in order, and the symbols of each
    layer's output and input gradient (flatten passes its neighbour's on)."""
    ig = needs_input_gradient(net)
    tensors, out_sym, din_sym = [], {}, {}
    prev = "net_input"
    for layer in net.layers:
        if layer.kind == "flatten":
            out_sym[layer.name] = prev
        else:
            out_sym[layer.name] = f"{layer.name}_out"
            tensors.append((out_sym[layer.name], math.prod(layer.out_shape)))
        prev = out_sym[layer.name]
        if layer.train:
            tensors.append((f"{layer.name}_dw", layer.params()))
    tensors.append(("net_loss_grad", math.prod(net.layers[-1].out_shape)))
    tensors.append(("net_loss_value", 2))
    dout = "net_loss_grad"
    for layer, has_ig in reversed(list(zip(net.layers, ig))):
        if not has_ig:
            break
        if layer.kind == "flatten":
            din_sym[layer.name] = dout
        else:
            din_sym[layer.name] = f"{layer.name}_din"
            tensors.append((din_sym[layer.name], math.prod(layer.in_shape)))
        dout = din_sym[layer.name]
    return tensors, out_sym, din_sym


def aligned_bytes(floats):
    """What a tensor takes in L2: the generated data aligns each to 8 bytes."""
    return -(-4 * floats // 8) * 8


def l2_floor(net):
    """Bytes of L2 the step's tensors take at the least: the weights, the input (and an MSE target), the
    activations and gradients. The expected values, the code and the stack come on top."""
    weights = sum(aligned_bytes(layer.params()) for layer in net.layers if layer.weight_shape is not None)
    data = aligned_bytes(math.prod(net.input_shape))
    if net.loss == "mse":
        data += aligned_bytes(math.prod(net.layers[-1].out_shape))  # the target
    work = sum(aligned_bytes(floats) for _, floats in work_tensors(net)[0])
    return weights, data, work


def needs_input_gradient(net):
    """For each layer, whether its IG / BW step runs: only when a layer before it trains."""
    out, trained_before = [], False
    for layer in net.layers:
        out.append(trained_before)
        trained_before = trained_before or layer.train
    return out


def summary(net):
    lines = [f"network {net.name}: input {fmt(net.input_shape)}, loss {net.loss}, SGD lr {net.lr}"]
    ig = needs_input_gradient(net)
    total = {"fw": 0, "wg": 0, "ig": 0}
    for layer, has_ig in zip(net.layers, ig):
        steps = ["fw"] + (["wg"] if layer.train else []) + (["ig" if layer.kind in WEIGHTED else "bw"] if has_ig else [])
        if layer.kind == "flatten":
            steps = []
        macs = layer.macs()
        total["fw"] += macs
        total["wg"] += macs if layer.train else 0
        total["ig"] += macs if has_ig and layer.kind in WEIGHTED else 0
        frozen = " (frozen)" if layer.kind in WEIGHTED and not layer.train else ""
        frozen += f", kernel {layer.variant}" if layer.variant else ""
        lines.append(f"  {layer.name:<12} {fmt(layer.in_shape):>12} -> {fmt(layer.out_shape):<12} "
                     f"{macs:>10} MACs  {layer.params():>8} weights  steps {' '.join(steps) or '-'}{frozen}")
    lines.append(f"  MACs per step: FW {total['fw']}, WG {total['wg']}, IG {total['ig']}, "
                 f"total {sum(total.values())}")
    return "\n".join(lines)


def autotune_commands(net, options):
    """One `pulpsim autotune` per distinct Linear / PointWise shape of the network: the steps it runs through
    tiled_matmul(), whose tuning-file entries a build configured with -DPULPSIM_TUNING takes."""
    seen, out = set(), []
    ig = needs_input_gradient(net)
    for layer, has_ig in zip(net.layers, ig):
        if layer.kind == "linear":
            shape = f"{layer.in_shape[0]}x{layer.out_shape[0]}"
        elif layer.kind == "pointwise":
            shape = f"{layer.in_shape[0]}x{layer.out_shape[0]}x{layer.in_shape[1] * layer.in_shape[2]}"
        else:
            continue
        steps = ["fw"] + (["wg"] if layer.train else []) + (["ig"] if has_ig else [])
        for step in steps:
            if (layer.kind, shape, step) in seen:
                continue
            seen.add((layer.kind, shape, step))
            out.append(" ".join(["build/bin/pulpsim autotune --tiled --layer", layer.kind, "--step", step, "--shape",
                                 shape, *options]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate a description and print its layers")
    check.add_argument("description")
    check.add_argument("--print", choices=("summary", "l2-size", "name"), default="summary", dest="show",
                       help="what to print: the layers (default), the L2 bytes to link the program with "
                            "(l2_size, or 4 MiB), or the network's name")
    tune = sub.add_parser("autotune-commands",
                          help="print the `pulpsim autotune --tiled` command of each Linear / PointWise shape")
    tune.add_argument("description")
    tune.add_argument("options", nargs=argparse.REMAINDER, help="options added to every command")
    gen = sub.add_parser("generate", help="write the training-step program of a description")
    gen.add_argument("description")
    gen.add_argument("--out-dir", required=True)
    gen.add_argument("--name", help="program name in its messages (default: the network's)")
    gen.add_argument("--perturb", metavar="CHECK", help="move CHECK's first expected value off (tests)")
    args = parser.parse_args()
    try:
        net = parse(args.description)
    except DescriptionError as e:
        print(f"{args.description}:{e.line}: {e.message}", file=sys.stderr)
        return 2
    if args.command == "autotune-commands":
        print("\n".join(autotune_commands(net, args.options)))
        return 0
    if args.command == "check":
        shown = {"summary": lambda: summary(net), "l2-size": lambda: net.l2_size or DEFAULT_L2_SIZE,
                 "name": lambda: net.name}
        print(shown[args.show]())
        return 0
    try:
        import network_golden  # torch is needed from here on
    except ModuleNotFoundError as e:
        print(f"{args.description}: generate needs PyTorch (Debian's python3-torch), which {sys.executable} cannot "
              f"import ({e})", file=sys.stderr)
        return 2
    try:
        network_golden.generate(net, args.out_dir, args.name or net.name, args.perturb)
    except network_golden.GenerateError as e:
        print(f"{args.description}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
