#!/usr/bin/env python3
"""The program's exit value reaches the reports whole: the JSON report's exit_code and the text report's
outcome line give the 32-bit value the program exited with, while pulpsim's own exit status is its low 8 bits
(1 when those are 0, so that a failure never reads as success)."""
import argparse
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--programs", required=True, help="the folder with exit_value_<VALUE>.elf")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    fresh_dir(args.workdir)
    check = Checks()
    for name, value, status in [("0", 0, 0), ("5", 5, 5), ("300", 300, 44), ("256", 256, 1),
                                ("0x12345678", 0x12345678, 0x78), ("0xffffffff", 0xFFFFFFFF, 0xFF)]:
        report = os.path.join(args.workdir, f"{value}.json")
        elf = os.path.join(args.programs, f"exit_value_{name}.elf")
        r = subprocess.run([args.sim, "run", "--bare", "--report-json", report, elf], capture_output=True,
                           text=True)
        got = json.load(open(report))["exit_code"] if os.path.exists(report) else None
        check(r.returncode == status and got == value and f"(exit code {value})" in r.stdout,
              f"exit with {value:#x}: status {r.returncode} (expected {status}), JSON exit_code {got}")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
