#!/usr/bin/env python3
"""The sweeps shipped in configs/sweeps/ parse, expand to the points their grids promise, and run.

The quick sweep (README command 1) must draw its plot; the seed-003 Linear grid must show the paper's
sweet spots at 128 KiB of L1: with one half-duplex DMA channel, 2 / 4 / 8 cores stop being DMA-bound at
16 / 32 / 64 bit/cycle (continual-learning platform paper, Fig. 9), and the widest DMA beats the narrowest everywhere.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, repository_view  # noqa: E402

check = Checks()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    # The shipped sweeps name build/kernels/... and configs/... relative to where pulpsim runs.
    repository_view(args.source, args.build, args.workdir)
    db = os.path.join(args.workdir, "results", "shipped.db")

    def sweep(spec, *extra):
        return subprocess.run([args.sim, "sweep", spec, "--db", db, *extra], cwd=args.workdir, capture_output=True,
                              text=True, timeout=900)

    # First, as --export below only reads an existing database.
    r = sweep("configs/sweeps/quick.yaml")
    png = os.path.join(args.workdir, "results", "quick", "quick-mac-per-cycle.png")
    check(r.returncode == 0 and "| 128KiB |" in r.stdout, f"the quick sweep runs and prints its table ({r.stderr[-200:]})")
    check(os.path.exists(png) and os.path.getsize(png) > 1000, "the quick sweep draws its plot")

    specs = sorted(glob.glob(os.path.join(args.source, "configs", "sweeps", "*.yaml")))
    check(len(specs) >= 4, f"configs/sweeps/ ships the sweeps ({len(specs)})")
    expected = {"quick": 2 * 2 * 4, "seed003-pointwise": 4 * 3 * 5, "seed003-linear": 4 * 3 * 5,
                "core-scaling": 5 * 4}
    for spec in specs:
        name = os.path.splitext(os.path.basename(spec))[0]
        r = sweep(os.path.join("configs", "sweeps", os.path.basename(spec)), "--export", "json")
        points = {row["point_id"] for row in json.loads(r.stdout)} if r.returncode == 0 else set()
        check(r.returncode == 0 and len(points) == expected.get(name, len(points)) and points,
              f"{name}: parses and expands to {expected.get(name, '?')} points (got {len(points)}; {r.stderr.strip()})")

    r = sweep("configs/sweeps/seed003-linear.yaml", "--no-plots", "-q")
    check(r.returncode == 0, f"the seed-003 Linear grid runs ({r.stderr[-200:]})")
    rows = json.loads(sweep("configs/sweeps/seed003-linear.yaml", "--export", "json").stdout)
    cell = {(int(x["cluster.cores"]), x["tcdm.size"], int(x["dma.bandwidth_bits"])): x for x in rows}
    for cores, knee in ((2, 16), (4, 32), (8, 64)):
        verdicts = [(bw, cell[(cores, "128KiB", bw)]["dma_verdict"]) for bw in (8, 16, 32, 64, 128)]
        want = [(bw, "dma-bound" if bw < knee else "compute-bound") for bw in (8, 16, 32, 64, 128)]
        check(verdicts == want, f"{cores} cores, 128 KiB: DMA-bound below {knee} bit/cycle, compute-bound from it "
                                f"({verdicts})")
    # (Neighbouring bandwidths may swap by a few %: the tiler picks its tiles from the DMA speed it measures.)
    faster = all(cell[(c, l, 128)]["mac_per_cycle"] > cell[(c, l, 8)]["mac_per_cycle"]
                 for c in (1, 2, 4, 8) for l in ("128KiB", "256KiB", "512KiB"))
    check(faster, "128 bit/cycle beats 8 bit/cycle at every core count and L1 size")
    single = [cell[(1, l, b)]["mac_per_cycle"] for l in ("128KiB", "256KiB", "512KiB") for b in (8, 128)]
    check(max(single) / min(single) < 1.25 and all(cell[(1, l, b)]["dma_verdict"] == "compute-bound"
                                                   for l in ("128KiB", "256KiB", "512KiB") for b in (16, 128)),
          f"one core is compute-bound and barely moved by L1 or bandwidth ({min(single):.3f}..{max(single):.3f})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
