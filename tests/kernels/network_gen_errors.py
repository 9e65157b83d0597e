#!/usr/bin/env python3
"""Bad network descriptions must stop kernels/tools/network_gen.py with exit status 2 and one line on stderr,
"FILE:LINE: message", naming the line of the fault; the shipped descriptions must pass. With a Python that
imports torch, `generate` must stop the same way, writing nothing, on a description whose tensors with their
expected values do not fit its l2_size.

    network_gen_errors.py GENERATOR BAD_DIR SHIPPED_DIR [TORCH_PYTHON WORKDIR]
"""
import glob
import os
import re
import shutil
import subprocess
import sys

# file: (line of the fault, what the message must say)
BAD = {
    "shape_mismatch.yaml": (7, r"linear needs a vector input, but the previous layer gives 4x6x6 \(add a flatten layer\)"),
    "unknown_layer.yaml": (5, r"unknown layer type 'softplus'"),
    "unknown_key.yaml": (6, r"unknown key 'bias' in a linear layer \(known: out_features, train, type\)"),
    "misspelt_key.yaml": (5, r"unknown key 'out_feature' in a linear layer \(did you mean 'out_features'\?\)"),
    "bad_value.yaml": (8, r"lr must be positive"),
    "kernel_too_large.yaml": (4, r"a 5x5 kernel does not fit the padded 2x4x4 input"),
    "bad_variant.yaml": (4, r"variant needs a 3x3 kernel at stride 1 with padding 1"),
    "seed_too_large.yaml": (9, r"seed 99999999999999999999999 does not fit in 64 bits"),
    "not_utf8.yaml": (3, r"not UTF-8 text \(byte 44 is 0xe9\)"),
    "l2_too_large.yaml": (2, r"l2_size must be 1KiB to 1024MiB and a multiple of 4 bytes, as l2.size takes it, "
                             r"not '4096MiB'"),
    "padding_typo.yaml": (4, r"padding must be same, valid, an integer or a list of 2 or 4, not 'sam'"),
    # 2 MiB of weights, as much of weight gradient, 4 KiB of input and 2 KiB of target, 2 KiB of output and its
    # gradient and 8 bytes of loss value.
    "l2_too_small.yaml": (8, r"the tensors need 4204552 bytes of L2 at the least \(weights 2097152, input and target "
                             r"6144, activations and gradients 2101256\) but l2_size is 1 MiB"),
    "l2_default_too_small.yaml": (1, r"the tensors need 16797704 bytes of L2 at the least \(weights 8388608, input "
                                     r"and target 12288, activations and gradients 8396808\) but l2_size is 4 MiB "
                                     r"by default"),
}


def run(generator, path):
    return subprocess.run([sys.executable, generator, "check", path], capture_output=True, text=True)


def main():
    generator, bad_dir, shipped_dir = sys.argv[1:4]
    failures = []
    for name, (line, message) in BAD.items():
        path = os.path.join(bad_dir, name)
        result = run(generator, path)
        lines = result.stderr.splitlines()
        pattern = re.escape(path) + f":{line}: " + message + r"( \(.*\))?$"
        if result.returncode != 2:
            failures.append(f"{name}: exit status {result.returncode}, expected 2")
        elif len(lines) != 1 or not re.match(pattern, lines[0]):
            failures.append(f"{name}: stderr {result.stderr!r} does not match {pattern!r} on one line")
        elif result.stdout:
            failures.append(f"{name}: printed {result.stdout!r} on stdout")
    # the shipped descriptions in this process (one interpreter start instead of one per file)
    sys.path.insert(0, os.path.dirname(os.path.abspath(generator)))
    import network_gen
    shipped = sorted(glob.glob(os.path.join(shipped_dir, "*.yaml")))
    if not shipped:
        failures.append(f"no descriptions in {shipped_dir}")
    for path in shipped:
        try:
            if "MACs per step" not in network_gen.summary(network_gen.parse(path)):
                failures.append(f"{path}: no summary")
        except network_gen.DescriptionError as e:
            failures.append(f"{path}:{e.line}: {e.message}")
    if len(sys.argv) > 5:
        failures += generate_too_large(generator, bad_dir, *sys.argv[4:6])
    for failure in failures:
        print(failure)
    print(f"{len(BAD)} bad and {len(shipped)} shipped descriptions: {'FAIL' if failures else 'OK'}")
    return 1 if failures else 0


def generate_too_large(generator, bad_dir, torch_python, workdir):
    """1 MiB of weights and as much of weight gradient pass the check against 3 MiB; with the expected updated
    weights, weight gradient and output, each with its tolerances (5 MiB), they do not."""
    path = os.path.join(bad_dir, "l2_too_small_for_expected.yaml")
    out = os.path.join(workdir, "l2_too_small_for_expected")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    checked = run(generator, path)
    if checked.returncode != 0:
        return [f"{path}: check failed ({checked.stderr.strip()}); only generate knows the expected values"]
    result = subprocess.run([torch_python, generator, "generate", path, "--out-dir", out], capture_output=True,
                            text=True)
    pattern = (re.escape(path) + r": the tensors need \d+ bytes of L2 \(weights 1048576, input and expected values "
               r"\d+, activations and gradients 1052680\) but l2_size is 3 MiB$")
    lines = result.stderr.splitlines()
    if result.returncode != 2 or len(lines) != 1 or not re.match(pattern, lines[0]):
        return [f"generate {path}: exit status {result.returncode}, stderr {result.stderr!r}, expected 2 and one line "
                f"matching {pattern!r}"]
    if os.path.exists(out):
        return [f"generate {path}: failed but left {out}"]
    return []


if __name__ == "__main__":
    sys.exit(main())
