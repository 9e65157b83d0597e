#!/usr/bin/env python3
"""`pulpsim compare`: every matmul kernel on a layer step's matmul, as a table and as JSON.

Runs a Linear and a PointWise step and checks the table (24 kernels, sorted by cycles, `mm` at speed-up
1.00, MAC/cycle = MACs / cycles) against the JSON; then checks that bad input gives exit status 2, one
line on stderr naming the option, and no JSON file.
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


def check_step(sim, workdir, layer, step, shape, mnk):
    json_path = os.path.join(workdir, f"compare_{layer}_{step}.json")
    if os.path.exists(json_path):
        os.remove(json_path)
    r = run(sim, ["--layer", layer, "--step", step, "--shape", shape, "--json", json_path])
    where = f"{layer} {step} {shape}"
    assert r.returncode == 0, f"{where}: exit {r.returncode}: {r.stderr}"
    assert r.stderr == "", f"{where}: unexpected stderr: {r.stderr}"
    lines = r.stdout.strip().splitlines()
    m, n, k = mnk
    macs = m * n * k
    assert lines[0].startswith(f"{layer} {step} {shape}: matmul M={m} N={n} K={k} ({macs} MACs)"), lines[0]
    assert lines[1].split() == ["variant", "cycles", "MAC/cyc", "speed-up"], lines[1]
    rows = [line.split() for line in lines[2:]]
    assert len(rows) == VARIANTS, f"{where}: {len(rows)} rows, expected {VARIANTS}"
    names = [row[0] for row in rows]
    assert len(set(names)) == VARIANTS, f"{where}: repeated kernels {names}"
    cycles = [int(row[1]) for row in rows]
    assert cycles == sorted(cycles), f"{where}: not sorted by cycles: {cycles}"
    naive = cycles[names.index("mm")]
    assert rows[names.index("mm")][3] == "1.00", f"{where}: mm speed-up {rows[names.index('mm')][3]}"
    for name, cyc, mac_per_cycle, speedup in rows:
        assert abs(float(mac_per_cycle) - macs / int(cyc)) <= 0.0005, f"{where}: {name} MAC/cyc {mac_per_cycle}"
        assert abs(float(speedup) - naive / int(cyc)) <= 0.005, f"{where}: {name} speed-up {speedup}"

    with open(json_path) as f:
        doc = json.load(f)
    assert (doc["layer"], doc["step"], doc["shape"]) == (layer, step, shape), doc
    assert (doc["m"], doc["n"], doc["k"], doc["macs"]) == (m, n, k, macs), doc
    assert [v["name"] for v in doc["variants"]] == names, f"{where}: JSON order differs from the table"
    for v, row in zip(doc["variants"], rows):
        assert v["cycles"] == int(row[1]), f"{where}: {v['name']} cycles {v['cycles']} vs {row[1]}"
        assert abs(v["mac_per_cycle"] - macs / v["cycles"]) < 1e-9, v
        assert abs(v["speedup"] - naive / v["cycles"]) < 1e-9, v
        assert f"{v['mac_per_cycle']:.3f}" == row[2] and f"{v['speedup']:.2f}" == row[3], (v, row)
    print(f"{where}: OK (best {names[0]}, {naive / cycles[0]:.2f}x over mm)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)

    check_step(args.sim, args.workdir, "linear", "fw", "64x16", (16, 1, 64))
    check_step(args.sim, args.workdir, "pointwise", "wg", "24x20x36", (20, 24, 36))

    json_path = os.path.join(args.workdir, "compare_bad.json")
    base = ["--layer", "linear", "--step", "fw", "--json", json_path]
    cases = [
        # (name, argv, stderr pattern)
        ("unknown step", ["--layer", "linear", "--step", "bw", "--shape", "64x16", "--json", json_path], r"--step: 'bw'"),
        ("unknown layer", ["--layer", "conv", "--step", "fw", "--shape", "64x16", "--json", json_path], r"--layer: 'conv'"),
        ("zero size", base + ["--shape", "0x16"], r"--shape 0x16: every size must be at least 1"),
        ("malformed shape", base + ["--shape", "64xx16"], r"--shape: '64xx16' is not"),
        ("sizes missing", base + ["--shape", "64"], r"--shape 64: a linear layer takes"),
        ("too big for the TCDM", base + ["--shape", "8000x8"], r"--shape 8000x8: .* need \d+ bytes of TCDM"),
        ("missing program", base + ["--shape", "64x16", "--program", os.path.join(args.workdir, "nope.elf")],
         r"--program .*nope\.elf: no such file"),
    ]
    failures = 0
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
