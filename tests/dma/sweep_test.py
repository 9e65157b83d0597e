#!/usr/bin/env python3
"""scripts/sweep.py on a small grid: the Linear training step (every weight used once, ~4 bytes per MAC)
on 2 cores must be DMA-bound at 8 bit/cycle and compute-bound at 64 bit/cycle, faster at 64 than at 8, and
the table and CSV must say so."""
import argparse
import csv
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--sweep", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--platform", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    out = os.path.join(args.workdir, "sweep.csv")
    r = subprocess.run([sys.executable, args.sweep, "--sim", args.sim, "--program", args.program,
                        "--region", "lin_train", "--platform", args.platform, "--set", "dma.duplex=half-duplex",
                        "--grid", "cluster.cores=2", "--grid", "dma.bandwidth_bits=8,64", "--jobs", "2",
                        "--csv", out], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit(f"FAIL sweep.py exited {r.returncode}: {r.stderr}")
    with open(out) as f:
        rows = {row["dma.bandwidth_bits"]: row for row in csv.DictReader(f)}
    table_row = [l for l in r.stdout.splitlines() if l.startswith("| 2 |")]
    checks = [
        ("8 bit/cycle is DMA-bound", rows["8"]["verdict"] == "dma-bound", rows["8"]["verdict"]),
        ("64 bit/cycle is compute-bound", rows["64"]["verdict"] == "compute-bound", rows["64"]["verdict"]),
        ("64 bit/cycle is faster", float(rows["64"]["mac_per_cycle"]) > 1.2 * float(rows["8"]["mac_per_cycle"]),
         (rows["8"]["mac_per_cycle"], rows["64"]["mac_per_cycle"])),
        ("the table marks the DMA-bound cell only", len(table_row) == 1 and table_row[0].count("*") == 1, table_row),
        ("the progress lines count the runs", "[2/2]" in r.stderr, r.stderr.strip().splitlines()[-1:]),
    ]
    failed = 0
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
