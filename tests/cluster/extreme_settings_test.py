#!/usr/bin/env python3
"""Every value the platform accepts for a latency, the lookahead or a queue depth simulates: the tiled
PointWise program with odd shapes (DMA, barriers, shared banks, L2 and instruction-cache traffic) runs to its
own check at the lowest and the highest value of each key (the exact-result fdiv latency within the inexact one's), and at the settings that once broke the engine's
bank bookkeeping (l2.latency=56, icache.refill_latency=49, engine.lookahead=32). Each run must pass the
program's check against the plain loops and end with exit status 0, without an engine error.
"""
import argparse
import subprocess
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

# (key, lowest, highest) as sim/cluster/platform_config.cpp accepts them.
KEYS = [
    ("l2.latency", 1, 1000),
    ("fpu.addmul_latency", 0, 31),
    ("fpu.other_latency", 0, 31),
    ("fpu.divsqrt_latency", 7, 200),
    ("fpu.divsqrt_exact_latency", 1, 19),
    ("icache.refill_latency", 0, 100),
    ("event_unit.sleep_latency", 0, 1000),
    ("event_unit.wake_latency", 0, 1000),
    ("dma.queue_depth", 1, 64),
    ("engine.lookahead", 1, 32),
]
ONCE_BROKEN = [["l2.latency=56"], ["icache.refill_latency=49"], ["engine.lookahead=32"]]
# The exact-result latency may not exceed the inexact one: their common extremes.
BOTH_DIVSQRT = [["fpu.divsqrt_latency=1", "fpu.divsqrt_exact_latency=1"],
                ["fpu.divsqrt_latency=200", "fpu.divsqrt_exact_latency=200"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--program", required=True)
    args = ap.parse_args()
    check = Checks()
    settings = ONCE_BROKEN + BOTH_DIVSQRT + [[f"{k}={v}"] for k, lo, hi in KEYS for v in (lo, hi)]
    for sets in settings:
        s = " ".join(sets)
        r = subprocess.run([args.sim, "run", "-q", *[a for x in sets for a in ("--set", x)], args.program],
                           capture_output=True, text=True, timeout=600)
        last = (r.stdout.strip().splitlines() or [""])[-1]
        check(r.returncode == 0 and last.endswith(": OK") and not r.stderr.strip(),
              f"--set {s}: runs to the program's check ({r.returncode}: {last[-80:]} {r.stderr.strip()[:200]})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
