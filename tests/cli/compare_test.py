#!/usr/bin/env python3
"""`pulpsim compare`: every kernel variant of a layer step, as a table and as JSON.

Runs a Linear and a PointWise step (24 matmul kernels), a DepthWise step (its 7 variants), a Conv2D step
(im2col + 24 kernels) and an FP16 Linear IG step (the FP16 family and the vector-matrix kernels) and checks
the table (every variant once, sorted by cycles, the naive kernel at speed-up 1.00, MAC/cycle = MACs /
cycles) against the JSON; then checks that bad input gives exit status 2, one line on stderr naming the
option, and no JSON file.
"""
import argparse
import json
import os
import re
import subprocess
import sys

VARIANTS = 24


def run(sim, argv):
    return subprocess.run([sim, "compare", *argv], capture_output=True, text=True, timeout=600)


def check_step(sim, workdir, layer, step, shape, mnk, what=None, macs=None, variants=VARIANTS, naive_name="mm",
               extra=()):
    json_path = os.path.join(workdir, f"compare_{layer}_{step}.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    r = run(sim, ["--layer", layer, "--step", step, "--shape", shape, "--json", json_path, *extra])
    where = f"{layer} {step} {shape}"
    assert r.returncode == 0, f"{where}: exit {r.returncode}: {r.stderr}"
    assert r.stderr == "", f"{where}: unexpected stderr: {r.stderr}"
    lines = r.stdout.strip().splitlines()
    if mnk:
        m, n, k = mnk
        macs = m * n * k
        what = what or f"matmul M={m} N={n} K={k}"
    assert lines[0].startswith(f"{layer} {step} {shape}: {what} ({macs} MACs)"), lines[0]
    assert lines[1].split() == ["variant", "cycles", "MAC/cyc", "speed-up"], lines[1]
    rows = [line.split() for line in lines[2:]]
    assert len(rows) == variants, f"{where}: {len(rows)} rows, expected {variants}"
    names = [row[0] for row in rows]
    assert len(set(names)) == variants, f"{where}: repeated kernels {names}"
    cycles = [int(row[1]) for row in rows]
    assert cycles == sorted(cycles), f"{where}: not sorted by cycles: {cycles}"
    naive = cycles[names.index(naive_name)]
    assert rows[names.index(naive_name)][3] == "1.00", f"{where}: {naive_name} speed-up {rows[names.index(naive_name)][3]}"
    for name, cyc, mac_per_cycle, speedup in rows:
        assert abs(float(mac_per_cycle) - macs / int(cyc)) <= 0.0005, f"{where}: {name} MAC/cyc {mac_per_cycle}"
        assert abs(float(speedup) - naive / int(cyc)) <= 0.005, f"{where}: {name} speed-up {speedup}"

    with open(json_path) as f:
        doc = json.load(f)
    assert (doc["layer"], doc["step"], doc["shape"]) == (layer, step, shape), doc
    assert doc["macs"] == macs and doc["baseline"] == naive_name, doc
    if mnk:
        assert (doc["m"], doc["n"], doc["k"]) == mnk, doc
    assert [v["name"] for v in doc["variants"]] == names, f"{where}: JSON order differs from the table"
    for v, row in zip(doc["variants"], rows):
        assert v["cycles"] == int(row[1]), f"{where}: {v['name']} cycles {v['cycles']} vs {row[1]}"
        assert abs(v["mac_per_cycle"] - macs / v["cycles"]) < 1e-9, v
        assert abs(v["speedup"] - naive / v["cycles"]) < 1e-9, v
        assert f"{v['mac_per_cycle']:.3f}" == row[2] and f"{v['speedup']:.2f}" == row[3], (v, row)
    print(f"{where}: OK (best {names[0]}, {naive / cycles[0]:.2f}x over {naive_name})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    check_step(args.sim, args.workdir, "linear", "fw", "64x16", (16, 1, 64))
    check_step(args.sim, args.workdir, "pointwise", "wg", "24x20x36", (20, 24, 36))
    check_step(args.sim, args.workdir, "depthwise", "wg", "5x9x7", None, "depthwise 3x3 C=5 H=9 W=7", 9 * 5 * 9 * 7,
               variants=7, naive_name="dw")
    # 3 -> 5 channels, 9x7 input, 3x2 kernel at stride 2 with padding 1: a 5x4 output of 5 channels.
    check_step(args.sim, args.workdir, "conv2d", "ig", "3x5x9x7x3x2x2x1", None,
               "conv2d 3x2 stride 2 padding 1, 3x9x7 -> 5x5x4, im2col + matmul", 5 * 3 * 3 * 2 * 5 * 4)
    # M = 1: the FP16 family and the three vector-matrix kernels.
    check_step(args.sim, args.workdir, "linear", "ig", "37x29", None, "FP16 matmul M=1 N=37 K=29", 37 * 29,
               variants=12, naive_name="mm_fp16", extra=["--fp16"])

    # The bar plot: one labelled bar per variant of the table, the fastest in the winner's colour.
    svg, table = os.path.join(args.workdir, "plot.svg"), os.path.join(args.workdir, "plot.json")
    r = run(args.sim, ["--layer", "pointwise", "--step", "fw", "--shape", "24x20x36", "--json", table, "--plot", svg])
    text = open(svg).read() if r.returncode == 0 and os.path.exists(svg) else ""
    names = [v["name"] for v in json.load(open(table))["variants"]] if text else []
    plot_ok = (names and all(f">{n}<" in text for n in names) and "#2a9d55" in text
               and not os.path.exists(svg + ".table.json"))
    print(("ok   " if plot_ok else "FAIL ") + f"--plot draws the {len(names)} variants, the fastest in green "
          f"({r.stderr.strip()[-200:]})")
    png = os.path.join(args.workdir, "plot.png")
    # A file of the user's whose name is the plot's and more is not the plot script's to use.
    neighbour = png + ".table.json"
    with open(neighbour, "w") as f:
        f.write("mine\n")
    r = run(args.sim, ["--layer", "linear", "--step", "fw", "--shape", "64x16", "--plot", png])
    png_ok = r.returncode == 0 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    print(("ok   " if png_ok else "FAIL ") + "--plot writes a PNG by its name")
    kept = os.path.exists(neighbour) and open(neighbour).read() == "mine\n"
    print(("ok   " if kept else "FAIL ") + f"--plot leaves {os.path.basename(neighbour)} as it was")
    # The plot gets the mode of any new file (0644 under umask 022), not mkstemp's private 0600; standard
    # output is the table alone.
    umask = os.umask(0)
    os.umask(umask)
    mode = os.stat(png).st_mode & 0o777 if png_ok else None
    first = r.stdout.splitlines()[0] if r.stdout else ""
    print(("ok   " if mode == 0o666 & ~umask and first.startswith("linear fw 64x16") else "FAIL ") +
          f"--plot gives the plot the mode of any new file (0{mode:o}), and stdout starts with the table "
          f"({first!r})" if mode is not None else "FAIL --plot mode not checked: no PNG")

    json_path = os.path.join(args.workdir, "compare_bad.json")
    base = ["--layer", "linear", "--step", "fw", "--json", json_path]
    cases = [
        # (name, argv, stderr pattern)
        ("unknown step", ["--layer", "linear", "--step", "bw", "--shape", "64x16", "--json", json_path], r"--step: 'bw'"),
        ("unknown layer", ["--layer", "conv", "--step", "fw", "--shape", "64x16", "--json", json_path], r"--layer: 'conv'"),
        ("FP16 of a layer without FP16 kernels", ["--layer", "depthwise", "--step", "fw", "--shape", "4x4x4", "--fp16",
                                                  "--json", json_path], r"--fp16: the FP16 kernels cover"),
        ("a kernel larger than the input", ["--layer", "conv2d", "--step", "fw", "--shape", "2x2x2x2x5x5x1x0",
                                            "--json", json_path], r"a 5x5 kernel does not fit"),
        # A wrong layer or step is named before a missing shape, whose example is the layer's own.
        ("unknown layer, no shape", ["--layer", "conv", "--step", "fw", "--json", json_path], r"--layer: 'conv'"),
        ("unknown step, no shape", ["--layer", "linear", "--step", "bw", "--json", json_path], r"--step: 'bw'"),
        ("no shape", ["--layer", "conv2d", "--step", "fw", "--json", json_path],
         r"--shape: missing \(e\.g\. --shape 16x16x16x16x3x3\)"),
        ("zero size", base + ["--shape", "0x16"], r"--shape 0x16: every size must be at least 1"),
        ("malformed shape", base + ["--shape", "64xx16"], r"--shape: '64xx16' is not"),
        ("sizes missing", base + ["--shape", "64"], r"--shape 64: a linear layer takes"),
        ("too big for the TCDM", base + ["--shape", "8000x8"], r"--shape 8000x8: .* needs? \d+ bytes of TCDM"),
        ("a plot of an unknown format", base + ["--shape", "64x16", "--plot", os.path.join(args.workdir, "p.txt")],
         r"--plot .*p\.txt: the name must end in \.png, \.svg or \.pdf"),
        ("missing program", base + ["--shape", "64x16", "--program", os.path.join(args.workdir, "nope.elf")],
         r"--program .*nope\.elf: no such file"),
    ]
    failures = 0 if plot_ok and png_ok and kept else 1
    for name, argv, pattern in cases:
        if os.path.exists(json_path):
            os.remove(json_path)
        r = run(args.sim, argv)
        lines = r.stderr.splitlines()
        problems = []
        if r.returncode != 2:
            problems.append(f"exit {r.returncode}, expected 2")
        if len(lines) != 1 or not re.search(pattern, lines[0]):
            problems.append(f"stderr {r.stderr!r} is not one line matching {pattern!r}")
        if os.path.exists(json_path):
            problems.append("wrote the JSON file")
        if problems:
            failures += 1
            print(f"FAIL {name}: {'; '.join(problems)}")
        else:
            print(f"ok   {name}: {lines[0]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
