#!/usr/bin/env python3
"""Checks that a run which provably never ends stops at once as a livelock: a core whose instruction jumps
to itself (a jump, or a branch taken on registers nothing will change), with every other core asleep and
the DMA idle, in cluster and bare mode, under the default --max-cycles of 1e10 (minutes of simulation were it
not detected). A loop that changes a register on each turn is not one: it still runs to --max-cycles.
In bare mode a trap taken again with every register, CSR and memory byte as at the trap before is one too
(hours of simulation at a few microseconds per trap); a handler that counts its traps in memory, or one that
waits for mcycle to pass a deadline, is not.
"""
import argparse
import re
import subprocess
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

check = Checks()


def run(sim, *args):
    try:
        return subprocess.run([sim, *args], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None


def symbol(elf, name):
    out = subprocess.run(["llvm-nm-19", elf], capture_output=True, text=True).stdout
    m = re.search(rf"^([0-9a-f]+) \w {re.escape(name)}$", out, re.M)
    return int(m.group(1), 16) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--cluster-elf", required=True)
    ap.add_argument("--bare-spin", required=True)
    ap.add_argument("--bare-runaway", required=True)
    ap.add_argument("--bare-trap-retry", required=True)
    ap.add_argument("--bare-trap-counting", required=True)
    ap.add_argument("--bare-trap-deadline", required=True)
    a = ap.parse_args()

    r = run(a.sim, "run", a.cluster_elf)
    err = r.stderr.strip() if r else "timed out"
    m = re.search(r"core 0: livelock at cycle (\d+): the instruction at pc (0x[0-9a-f]{8}) jumps to itself.*"
                  r"\[in main\+0x[0-9a-f]+\]$", err)
    check(r is not None and r.returncode == 3 and m is not None and len(err.splitlines()) == 1,
          f"cluster: core 0 jumping to itself with the workers asleep is a livelock, exit 3 ({err[-300:]})")
    main_at = symbol(a.cluster_elf, "main")
    if m and main_at is not None:
        pc = int(m.group(2), 16)
        check(main_at < pc < main_at + 0x100 and int(m.group(1)) < 10**9,
              f"cluster: the livelock is named inside main ({pc:#x}, main at {main_at:#x}), long before 1e10 "
              f"cycles (cycle {m.group(1)})")

    r = run(a.sim, "run", "--bare", a.bare_spin)
    err = r.stderr.strip() if r else "timed out"
    start = symbol(a.bare_spin, "_start")
    m = re.search(r"livelock at cycle \d+: the instruction at pc (0x[0-9a-f]{8}) jumps to itself", err)
    check(r is not None and r.returncode == 3 and m is not None and start is not None and
          start < int(m.group(1), 16) <= start + 4,
          f"bare: a branch taken back to itself is a livelock at the branch, exit 3 ({err[-300:]})")

    r = run(a.sim, "run", "--bare", "--max-cycles", "300000", a.bare_runaway)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 4 and "did not finish within --max-cycles 300000" in err and
          "livelock" not in err,
          f"bare: a loop that changes a register is not a livelock, it runs to --max-cycles ({err[-200:]})")

    r = run(a.sim, "run", "--bare", a.bare_trap_retry)
    err = r.stderr.strip() if r else "timed out"
    handler = symbol(a.bare_trap_retry, "handler")
    retry = symbol(a.bare_trap_retry, "retry")
    m = re.search(r"livelock at cycle (\d+): the illegal instruction at pc (0x[0-9a-f]{8}) goes to the handler at "
                  r"(0x[0-9a-f]{8}), which comes back to it with every register and memory byte as before", err)
    check(r is not None and r.returncode == 3 and m is not None and len(err.splitlines()) == 1 and
          retry is not None and int(m.group(2), 16) == retry and handler is not None and
          int(m.group(3), 16) == handler and int(m.group(1)) < 10**4,
          f"bare: a handler that saves and restores registers on the stack and returns to the trapping "
          f"instruction is a livelock, named at that instruction and the handler, exit 3 ({err[-300:]})")

    r = run(a.sim, "run", "--bare", "--max-cycles", "300000", a.bare_trap_counting)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 4 and "livelock" not in err and
          re.search(r"did not finish within --max-cycles 300000 \(pc 0x[0-9a-f]{8}; \d{4,} traps taken, the "
                    r"last: illegal instruction at pc 0x[0-9a-f]{8}, to the handler at 0x[0-9a-f]{8}\)", err),
          f"bare: a handler that counts its traps in memory is not a livelock, it runs to --max-cycles and the "
          f"message says where the traps went ({err[-300:]})")

    r = run(a.sim, "run", "--bare", a.bare_trap_deadline)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 5 and "livelock" not in err,
          f"bare: a handler that retries until mcycle passes a deadline reads time, so it is not a livelock: it "
          f"exits 5 ({err[-300:]})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
