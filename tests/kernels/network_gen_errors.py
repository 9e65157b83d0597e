#!/usr/bin/env python3
"""Bad network descriptions must stop kernels/tools/network_gen.py with exit status 2 and one line on stderr,
"FILE:LINE: message", naming the line of the fault; the shipped descriptions must pass.

    network_gen_errors.py GENERATOR BAD_DIR SHIPPED_DIR
"""
import glob
import os
import re
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
    for failure in failures:
        print(failure)
    print(f"{len(BAD)} bad and {len(shipped)} shipped descriptions: {'FAIL' if failures else 'OK'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
