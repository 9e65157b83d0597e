#!/usr/bin/env python3
"""Checks that a run which provably never ends stops at once as a livelock: a core whose instruction jumps
to itself (a jump, or a branch taken on registers nothing will change), with every other core asleep and
the DMA idle, in cluster and bare mode, under the default --max-cycles of 1e10 (minutes of simulation were it
not detected). A loop that changes a register on each turn is not one: it still runs to --max-cycles.
In bare mode a trap taken again with every register, CSR and memory byte as at the trap before is one too
(hours of simulation at a few microseconds per trap); a handler that counts its traps in memory, or one that
waits for mcycle to pass a deadline, is not.
Cores polling memory that nothing writes, in a cluster or alone, are one as well: each comes back to the same
registers with no store, device access or counter read by any core; so are cluster cores whose trap handler
address holds an illegal instruction (traps without end, no instruction retired). Cores counting their polls in a
register, reading mcycle, or polling a flag another core sets late are not.
"""
import argparse
import json
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
    ap.add_argument("--bare-poll", required=True)
    ap.add_argument("--cluster-poll", required=True, nargs=6, help="livelock_poll.c built with POLL_MODE 1 to 6")
    ap.add_argument("--vega", required=True, help="configs/platforms/vega.yaml")
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)

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
    polls(a)
    return check.exit_status()


def polls(a):
    """Polling loops on memory nothing writes: no instruction jumps to itself, yet nothing can change."""
    every, master, set_late, counting, deadline, trapping = a.cluster_poll
    for platform in ([], ["--platform", a.vega]):
        for engine in ([], ["--set", "engine.lookahead=16"]):
            label = " ".join(["vega" if platform else "pulp-open", *engine[1:]])
            r = run(a.sim, "run", "-q", *platform, *engine, every)
            err = r.stderr.strip() if r else "timed out"
            m = re.search(r"core 0: livelock at cycle (\d+): cores 0-7 loop through the same registers again and "
                          r"again, reading only memory that no core and no DMA transfer writes.*"
                          r"\[in poll\+0x[0-9a-f]+\]$", err)
            check(r is not None and r.returncode == 3 and m is not None and len(err.splitlines()) == 1 and
                  int(m.group(1)) < 10**6,
                  f"{label}: eight cores polling a flag nothing sets are a livelock, found within a million cycles, "
                  f"exit 3 ({err[-300:]})")

    # mtvec at an illegal instruction: the cores take traps without end and retire nothing.
    target = symbol(trapping, "trap_to_itself")
    for platform in ([], ["--platform", a.vega]):
        r = run(a.sim, "run", "-q", *platform, trapping)
        err = r.stderr.strip() if r else "timed out"
        m = re.search(r"livelock at cycle (\d+): cores 0-[78] loop through the same registers again and again, .*; "
                      r"core 0 takes the illegal instruction at pc (0x[0-9a-f]{8}) to the handler at (0x[0-9a-f]{8}) "
                      r"over and over", err)
        check(r is not None and r.returncode == 3 and m is not None and len(err.splitlines()) == 1 and
              target is not None and int(m.group(2), 16) == target == int(m.group(3), 16) and
              int(m.group(1)) < 10**6,
              f"{'vega' if platform else 'pulp-open'}: cores whose trap handler is an illegal instruction trap "
              f"forever: a livelock naming the trap, found within a million cycles, exit 3 ({err[-300:]})")

    r = run(a.sim, "run", "-q", master)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 3 and
          re.search(r"core 0: livelock at cycle \d+: core 0 loops through the same registers .*\[in main\+0x", err),
          f"core 0 polling after the workers went back to sleep is a livelock, exit 3 ({err[-300:]})")

    for platform in ([], ["--platform", a.vega]):
        report = os.path.join(a.workdir, "set_late.json")
        r = run(a.sim, "run", "-q", "--report-json", report, *platform, set_late)
        cycles = None
        if r is not None and r.returncode == 0:
            with open(report) as f:
                cycles = json.load(f)["cycles"]
        check(cycles is not None and cycles > 800_000,
              f"{'vega' if platform else 'pulp-open'}: seven cores polling while core 0 counts in a register for a "
              f"million cycles before it sets the flag is no livelock: the program ends, exit 0 "
              f"({cycles} cycles; {r.stderr.strip()[-300:] if r else 'timed out'})")

    r = run(a.sim, "run", "-q", "--max-cycles", "2000000", counting)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 4 and "livelock at" not in err and "--max-cycles 2000000" in err,
          f"cores that count their polls in a register are no livelock: they run to --max-cycles ({err[-200:]})")

    r = run(a.sim, "run", "-q", deadline)
    err = r.stderr.strip() if r else "timed out"
    check(r is not None and r.returncode == 0 and "livelock at" not in err,
          f"cores that poll until mcycle passes a deadline read time: no livelock, the program ends ({err[-200:]})")

    r = run(a.sim, "run", "--bare", a.bare_poll)
    err = r.stderr.strip() if r else "timed out"
    start = symbol(a.bare_poll, "_start")
    m = re.search(r"livelock at cycle (\d+): the core loops through the same registers again and again "
                  r"\(pc (0x[0-9a-f]{8})\), reading only memory it does not write", err)
    check(r is not None and r.returncode == 3 and m is not None and start is not None and
          start < int(m.group(2), 16) <= start + 16 and int(m.group(1)) < 10**6,
          f"bare: a load and a branch polling a word nothing writes are a livelock, exit 3 ({err[-300:]})")


if __name__ == "__main__":
    sys.exit(main())
