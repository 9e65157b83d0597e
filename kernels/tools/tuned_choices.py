#!/usr/bin/env python3
"""Turns a tuning file of `pulpsim autotune` into tuned_choices.h, the table of tiled_matmul choices a
kernel build compiles in (kernels/lib/tiled_matmul.h, "Tuned choices"; CMake: -DPULPSIM_TUNING=FILE).

Every entry with a tile (a step tuned through the TCDM, e.g. with `autotune --tiled`) becomes one row: the
step's matmul and layout, the cores and TCDM size it was tuned for, its tiles, kernel and guard bytes. At
run time tiled_matmul() takes the row that matches its call; other calls keep the planner. Entries without
a tile (steps ranked inside the TCDM) name a kernel to call directly and are listed as comments.

  tuned_choices.py TUNING.yaml OUT.h [--platform NAME] [--kernels kernels/lib/matmul_fp32.h]

A malformed file, an entry without the fields of a tiled entry, an unknown kernel, or two platforms
tuning the same call (give --platform) is one line on stderr naming the file and line, and exit 2; OUT.h
is then left as it was.
"""
import argparse
import os
import re
import sys
import tempfile

import yaml


class TuningError(Exception):
    pass


def line_of(node):
    return node.start_mark.line + 1


def scalar(node, key, path):
    if not isinstance(node, yaml.ScalarNode):
        raise TuningError(f"{path}:{line_of(node)}: {key}: expected a value")
    return node.value


def integer(node, key, path, low=0, high=2**32 - 1):
    text = scalar(node, key, path)
    try:
        value = int(text, 0)
    except ValueError:
        raise TuningError(f"{path}:{line_of(node)}: {key}: '{text}' is not an integer") from None
    if not low <= value <= high:
        raise TuningError(f"{path}:{line_of(node)}: {key}: {value} is outside {low}..{high}")
    return value


def integers(node, key, path, count):
    if not isinstance(node, yaml.SequenceNode) or len(node.value) != count:
        raise TuningError(f"{path}:{line_of(node)}: {key}: expected a list of {count} integers")
    return [integer(v, key, path) for v in node.value]


def family_kernels(header):
    """The matmul kernels a tiled step can run: the family's functions, and matmul_l1."""
    with open(header, encoding="utf-8") as f:
        names = re.findall(r"^void (\w+)\(const matmul_args_t\* args\);", f.read(), re.M)
    if not names:
        raise TuningError(f"{header}: no matmul kernels declared")
    return set(names)


def load(path, kernels, platform):
    try:
        with open(path, encoding="utf-8") as f:
            root = yaml.compose(f)
    except OSError as e:
        raise TuningError(f"{path}: {e.strerror}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise TuningError(f"{path}:{mark.line + 1 if mark else 1}: malformed YAML: "
                          f"{getattr(e, 'problem', e)}") from None
    rows, untiled = [], []
    if root is None:
        return rows, untiled
    entries = None
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if k.value == "tunings":
                entries = v
    if not isinstance(entries, yaml.SequenceNode):
        raise TuningError(f"{path}:{line_of(root)}: expected `tunings:` with a list of entries")
    for entry in entries.value:
        if not isinstance(entry, yaml.MappingNode):
            raise TuningError(f"{path}:{line_of(entry)}: an entry is a map (platform, cores, ...)")
        fields = {k.value: v for k, v in entry.value}
        for key in ("platform", "cores", "tcdm_size", "layer", "step", "shape", "kernel"):
            if key not in fields:
                raise TuningError(f"{path}:{line_of(entry)}: an entry needs '{key}'")
        name = scalar(fields["platform"], "platform", path)
        if platform and name != platform:
            continue
        what = (f"{name} {scalar(fields['layer'], 'layer', path)} {scalar(fields['step'], 'step', path)} "
                f"{scalar(fields['shape'], 'shape', path)}")
        kernel = scalar(fields["kernel"], "kernel", path)
        if "tile" not in fields:
            untiled.append(f"{what}: {kernel} (in the TCDM)")
            continue
        for key in ("matmul", "transposed", "guard"):
            if key not in fields:
                raise TuningError(f"{path}:{line_of(entry)}: a tiled entry needs '{key}' "
                                  "(tune it again with this pulpsim)")
        if kernel != "matmul_l1" and kernel not in kernels:
            raise TuningError(f"{path}:{line_of(fields['kernel'])}: kernel '{kernel}' is neither "
                              "matmul_l1 nor a kernel of matmul_fp32.h")
        tm, tn, tk = integers(fields["tile"], "tile", path, 3)
        m, n, k = integers(fields["matmul"], "matmul", path, 3)
        a_trans, b_trans = integers(fields["transposed"], "transposed", path, 2)
        guard = integer(fields["guard"], "guard", path, 0, 4096)
        if min(tm, tn, tk, m, n, k) == 0 or guard % 4 or a_trans > 1 or b_trans > 1:
            raise TuningError(f"{path}:{line_of(entry)}: tile and matmul sizes must be at least 1, "
                              "transposed flags 0 or 1, guard a multiple of 4")
        rows.append({"what": what, "platform": name, "line": line_of(entry),
                     "cores": integer(fields["cores"], "cores", path, 1, 64),
                     "tcdm_size": integer(fields["tcdm_size"], "tcdm_size", path),
                     "m": m, "n": n, "k": k, "a_trans": a_trans, "b_trans": b_trans,
                     "tm": tm, "tn": tn, "tk": tk, "kernel": kernel, "guard": guard,
                     "cycles": fields["cycles"].value if "cycles" in fields else "?"})
    # One row per call a kernel can make: two platforms with the same cores and TCDM size would be
    # indistinguishable at run time.
    seen = {}
    for r in rows:
        key = (r["cores"], r["tcdm_size"], r["m"], r["n"], r["k"], r["a_trans"], r["b_trans"])
        if key in seen and seen[key]["platform"] != r["platform"]:
            raise TuningError(f"{path}:{r['line']}: {r['what']} and {seen[key]['what']} (line "
                              f"{seen[key]['line']}) tune the same call; choose one with --platform "
                              "(CMake: PULPSIM_TUNING_PLATFORM)")
        seen.setdefault(key, r)
    return rows, untiled


def comment(text):
    """Text from the file inside a C comment: a platform named 'a*/b' must not end it."""
    return text.replace("*/", "* /").replace("\n", " ")


def render(source, rows, untiled):
    out = [f"/* tiled_matmul choices from {comment(os.path.basename(source))} (pulpsim autotune), made by",
           " * kernels/tools/tuned_choices.py: do not edit. */"]
    for u in untiled:
        out.append(f"/* not tiled, call the kernel directly: {comment(u)} */")
    out.append(f"#define TUNED_MATMUL_CHOICES {len(rows)}u")
    out.append(f"static const tuned_matmul_t tuned_matmul_choices[{max(1, len(rows))}] = {{")
    for r in rows:
        kernel = "0 /* matmul_l1 */" if r["kernel"] == "matmul_l1" else r["kernel"]
        out.append(f"    /* {comment(r['what'])}: {comment(str(r['cycles']))} cycles */")
        out.append(f"    {{{r['cores']}u, {r['tcdm_size']}u, {r['m']}u, {r['n']}u, {r['k']}u, {r['a_trans']}u, "
                   f"{r['b_trans']}u, {{{r['tm']}u, {r['tn']}u, {r['tk']}u, {kernel}, {r['guard']}u}}}},")
    out.append("};")
    return "\n".join(out) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tuning")
    parser.add_argument("out")
    parser.add_argument("--platform", default="", help="only this platform's entries")
    parser.add_argument("--kernels", default=os.path.join(here, "..", "lib", "matmul_fp32.h"))
    args = parser.parse_args()
    try:
        rows, untiled = load(args.tuning, family_kernels(args.kernels), args.platform)
    except TuningError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    text = render(args.tuning, rows, untiled)
    # Unchanged text keeps the file's time stamp, so the kernels are not rebuilt for nothing.
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.out)), prefix=".tuned.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
