#!/usr/bin/env python3
"""Runs one program over a grid of platform settings and tabulates a perf region's MAC/cycle.

Every combination of the --grid values is one `pulpsim run --set ...` (in parallel, --jobs at a time).
The table has one row per combination of all grid keys but the last, and one column per value of the last
key; each cell is the region's MAC/cycle, marked * where the report's verdict for the region is
"dma-bound". --csv writes every run's figures (written only when every run succeeded).

Example (the L1 size x DMA bandwidth x cores experiment of the continual-learning paper, README.md):
  scripts/sweep.py --program build/kernels/pointwise_train_tiled.elf --region pw_train \\
      --platform configs/platforms/vega.yaml --set dma.duplex=half-duplex \\
      --grid cluster.cores=1,2,4,8 --grid tcdm.size=128KiB,256KiB,512KiB \\
      --grid dma.bandwidth_bits=8,16,32,64,128
"""
import argparse
import concurrent.futures
import csv
import io
import itertools
import json
import os
import subprocess
import sys
import tempfile


def parse_grid(text):
    key, sep, values = text.partition("=")
    if not sep or not key or not values:
        raise argparse.ArgumentTypeError(f"--grid {text!r}: expected KEY=V1,V2,...")
    return key, [v for v in values.split(",") if v]


def run_one(args, combo, workdir, index):
    report = os.path.join(workdir, f"run{index}.json")
    cmd = [args.sim, "run", "-q", "--report-json", report]
    if args.platform:
        cmd += ["--platform", args.platform]
    for s in args.set:
        cmd += ["--set", s]
    for key, value in combo:
        cmd += ["--set", f"{key}={value}"]
    cmd.append(args.program)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        err = (r.stderr.strip().splitlines() or [f"exit status {r.returncode}"])[-1]
        return combo, None, err
    with open(report) as f:
        rep = json.load(f)
    region = next((x for x in rep["regions"] if x["name"] == args.region), None)
    if region is None:
        return combo, None, f"the program has no region '{args.region}'"
    return combo, {"cycles": region["cycles"], "macs": region["macs"], "mac_per_cycle": region["mac_per_cycle"],
                   "verdict": region.get("dma", {}).get("verdict", "no-dma"),
                   "dma_utilisation": region.get("dma", {}).get("utilisation", 0.0)}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sim", default=os.path.join(os.path.dirname(__file__), "..", "build", "bin", "pulpsim"))
    ap.add_argument("--program", required=True, help="the ELF to run")
    ap.add_argument("--region", required=True, help="the perf region whose MAC/cycle is tabulated")
    ap.add_argument("--platform", help="platform YAML (default: pulpsim's default platform)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="fixed setting, repeatable")
    ap.add_argument("--grid", action="append", type=parse_grid, required=True, metavar="KEY=V1,V2,...",
                    help="a swept setting, repeatable; the last one gives the table's columns")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--csv", help="write every run's figures here")
    args = ap.parse_args()
    if not os.path.exists(args.sim):
        sys.exit(f"sweep: {args.sim}: no such simulator (build it first, or give --sim)")
    if not os.path.exists(args.program):
        sys.exit(f"sweep: {args.program}: no such program")

    keys = [k for k, _ in args.grid]
    combos = [tuple(zip(keys, values)) for values in itertools.product(*(v for _, v in args.grid))]
    results = {}
    with tempfile.TemporaryDirectory() as work, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, args, c, work, i) for i, c in enumerate(combos)]
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            combo, figures, error = fut.result()
            label = " ".join(f"{k}={v}" for k, v in combo)
            if error:
                for f in futures:
                    f.cancel()
                sys.exit(f"sweep: {label}: {error}")
            results[combo] = figures
            print(f"[{done}/{len(combos)}] {label}: {figures['mac_per_cycle']:.3f} MAC/cycle ({figures['verdict']})",
                  file=sys.stderr, flush=True)

    row_keys, col_key = keys[:-1], keys[-1]
    col_values = args.grid[-1][1]
    header = " | ".join(row_keys + [f"{col_key}={v}" for v in col_values])
    print(f"| {header} |")
    print("|" + "---|" * (len(row_keys) + len(col_values)))
    for row in itertools.product(*(v for _, v in args.grid[:-1])):
        cells = []
        for v in col_values:
            fig = results[tuple(zip(row_keys, row)) + ((col_key, v),)]
            cells.append(f"{fig['mac_per_cycle']:.3f}{'*' if fig['verdict'] == 'dma-bound' else ''}")
        print("| " + " | ".join(list(row) + cells) + " |")
    print(f"\n{args.region}: MAC/cycle; * = DMA-bound (the DMA was busy longer than the cores computed)")

    if args.csv:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(keys + ["cycles", "macs", "mac_per_cycle", "dma_utilisation", "verdict"])
        for combo in combos:
            f = results[combo]
            w.writerow([v for _, v in combo] + [f["cycles"], f["macs"], f"{f['mac_per_cycle']:.6f}",
                                                f"{f['dma_utilisation']:.6f}", f["verdict"]])
        tmp = args.csv + ".tmp"
        with open(tmp, "w", newline="") as fh:
            fh.write(out.getvalue())
        os.replace(tmp, args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
