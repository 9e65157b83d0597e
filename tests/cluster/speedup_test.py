#!/usr/bin/env python3
"""8-core FP32 matmul (64x64x64, private FPUs): correct on 1 and 8 cores, and faster by more than 7x.

The speed-up compares the cycles of the kernel's perf region ("matmul") on 8 cores with 1 core, both on
pulp-open with one private FPU per core.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def region_cycles(sim, elf, cores, workdir):
    report = os.path.join(workdir, f"{os.path.basename(elf)}.{cores}.json")
    r = subprocess.run([sim, "run", "-q", "--set", f"cluster.cores={cores}", "--set", f"fpu.count={cores}",
                        "--report-json", report, elf], capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or "OK" not in r.stdout:
        sys.exit(f"{elf} on {cores} cores failed (exit {r.returncode}): {r.stdout} {r.stderr}")
    with open(report) as f:
        regions = {x["name"]: x for x in json.load(f)["regions"]}
    return regions["matmul"]["cycles"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--min-speedup", type=float, default=7.0)
    ap.add_argument("elfs", nargs="+")
    args = ap.parse_args()
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for elf in args.elfs:
            one, eight = region_cycles(args.sim, elf, 1, work), region_cycles(args.sim, elf, 8, work)
            speedup = one / eight
            ok = speedup > args.min_speedup
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(elf)}: {one} cycles on 1 core, {eight} on 8: "
                  f"speed-up {speedup:.2f} (needs > {args.min_speedup})")
    print(f"{len(args.elfs) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
