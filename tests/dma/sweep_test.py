#!/usr/bin/env python3
"""`pulpsim sweep` on a small grid: the Linear training step (every weight used once, ~4 bytes per MAC)
on 2 cores must be DMA-bound at 8 bit/cycle and compute-bound at 64 bit/cycle, faster at 64 than at 8, and
the table and the CSV export must say so."""
import argparse
import csv
import io
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--platform", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    spec = os.path.join(args.workdir, "verdicts.yaml")
    with open(spec, "w") as f:
        f.write(f"""name: verdicts
program: {args.program}
platform: {args.platform}
set:
  dma.duplex: half-duplex
grid:
  cluster.cores: [2]
  dma.bandwidth_bits: [8, 64]
regions: lin_train
table:
  rows: cluster.cores
  columns: dma.bandwidth_bits
""")
    db = os.path.join(args.workdir, "verdicts.db")
    if os.path.exists(db):
        os.remove(db)
    r = subprocess.run([args.sim, "sweep", spec, "--db", db, "--jobs", "2"], capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        sys.exit(f"FAIL pulpsim sweep exited {r.returncode}: {r.stderr}")
    e = subprocess.run([args.sim, "sweep", spec, "--db", db, "--export", "csv"], capture_output=True, text=True,
                       timeout=600)
    rows = {row["dma.bandwidth_bits"]: row for row in csv.DictReader(io.StringIO(e.stdout))}
    table_row = [line for line in r.stdout.splitlines() if line.startswith("| 2 |")]
    checks = [
        ("8 bit/cycle is DMA-bound", rows["8"]["dma_verdict"] == "dma-bound", rows["8"]["dma_verdict"]),
        ("64 bit/cycle is compute-bound", rows["64"]["dma_verdict"] == "compute-bound", rows["64"]["dma_verdict"]),
        ("64 bit/cycle is faster", float(rows["64"]["mac_per_cycle"]) > 1.2 * float(rows["8"]["mac_per_cycle"]),
         (rows["8"]["mac_per_cycle"], rows["64"]["mac_per_cycle"])),
        ("the table marks the DMA-bound cell only", len(table_row) == 1 and table_row[0].count("*") == 1, table_row),
        ("the progress line counts the points", "2/2 points, 0 failed" in r.stderr, r.stderr.strip().splitlines()),
    ]
    failed = 0
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
