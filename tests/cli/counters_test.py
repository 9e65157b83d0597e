#!/usr/bin/env python3
"""mhpmcounter3 on cluster cores counts what the report counts: counters_cluster.c has every core count, with
the APU_CONT event, the cycles its shared FPU refused its operations over its only FP operations; each core's
count must equal the fpu_contention stall the JSON report gives it, on a platform whose cores share FPUs and,
as a check that the event counts something, be non-zero on some core there and zero on a platform with an
FPU per core. Then core 0, with core 1 awake, counts APU_DEP and LD together over an fsw waiting behind a lw
for an fdiv's result: one less than the two counted apart (the lw's cycle starts the wait).

Core 0 first counts PIPE_STALL (cycles with a cv.elw in EX): none over DMA pushes into a full command queue,
although they take the transfers' time (a load waiting for its answer), and some over the cv.elw wait for
the transfers, no more than the wait's cycles."""
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
        behind = {int(c): (int(d), int(ld), int(both)) for c, d, ld, both in
                   re.findall(r"core (\d+) behind a load: apu_dep (\d+) ld (\d+) both (\d+)", r.stdout)}
        # Two cores awake: they take lockstep turns, which go through the observed path while the counter needs
        # the class of the instruction ahead.
        check(len(behind) == 1 and all(d > 0 and ld == 1 and both == d + ld - 1 for d, ld, both in behind.values()),
              f"{label}: APU_DEP with LD counts the lw's cycle, where the wait starts, once: {behind}")
        pipe = {what: (int(p), int(c)) for what, p, c in
                re.findall(r"(pushes|wait): pipe_stall (\d+) cycles (\d+)", r.stdout)}
        pushes, wait = pipe.get("pushes", (None, 0)), pipe.get("wait", (None, 0))
        # Two 2 KiB transfers at 64 bit/cycle: the last two pushes wait for at least 256 cycles each.
        check(pushes[0] == 0 and pushes[1] >= 512,
              f"{label}: no PIPE_STALL over pushes into a full DMA queue (counted, cycles: {pushes})")
        check(wait[0] is not None and 0 < wait[0] <= wait[1],
              f"{label}: PIPE_STALL over the cv.elw wait for the transfers (counted, cycles: {wait})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
