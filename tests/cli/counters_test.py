#!/usr/bin/env python3
"""mhpmcounter3 on cluster cores counts what the report counts: counters_cluster.c has every core count, with
the APU_CONT event, the cycles its shared FPU refused its operations over its only FP operations; each core's
count must equal the fpu_contention stall the JSON report gives it, on a platform whose cores share FPUs and,
as a check that the event counts something, be non-zero on some core there and zero on a platform with an
FPU per core."""
import argparse
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--elf", required=True, help="counters_cluster.elf")
    ap.add_argument("--platform", required=True, help="a platform file whose cores share FPUs")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    fresh_dir(args.workdir)
    check = Checks()
    private = ["--set", "fpu.count=9", "--set", "fpu.mapping=private"]
    for label, extra, shared in [("shared FPUs", [], True), ("an FPU per core", private, False)]:
        report = os.path.join(args.workdir, f"{'shared' if shared else 'private'}.json")
        r = subprocess.run([args.sim, "run", "--platform", args.platform, *extra, "-q", "--report-json", report,
                            args.elf], capture_output=True, text=True)
        counted = {int(c): int(n) for c, n in re.findall(r"core (\d+) refused (\d+)", r.stdout)}
        cores = json.load(open(report))["cores"] if r.returncode == 0 else []
        stalls = {i: c["stalls"]["fpu_contention"] for i, c in enumerate(cores)}
        check(r.returncode == 0 and counted and all(counted[i] == stalls.get(i) for i in counted),
              f"{label}: each core's APU_CONT count equals its fpu_contention stall (counted {counted}, "
              f"report {stalls})")
        check(any(counted.values()) == shared, f"{label}: some core was refused: {any(counted.values())}")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
