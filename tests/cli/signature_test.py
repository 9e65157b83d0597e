#!/usr/bin/env python3
"""`pulpsim run --bare --signature FILE`: the words between the program's begin_signature and end_signature
symbols, one per line as 8 hex digits, as the RISC-V architectural tests compare them; a program without
the symbols, --signature without --bare, and a signature file that is also the JSON report are one-line
errors with exit status 2 that leave no file behind; a run that does not end by exiting leaves none either.
"""
import argparse
import os
import signal
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

MASK = 0xFFFFFFFF
# What signature.S stores, computed here from its operands; the fifth word keeps its initial value.
EXPECTED = [(0x12345678 + 0x11111111) & MASK, (5 - 7) & MASK, (0x10001 * 0x10001) & MASK, (1 << 31) & MASK,
            0xDEADBEEF]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--no-signature-elf", required=True)
    ap.add_argument("--forever-elf", required=True, help="signature_forever.S: only an interrupt ends it")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def run(elf, *extra, bare=True):
        return subprocess.run([args.sim, "run", *(["--bare"] if bare else []), "-q", "--exit-addr", "0x20000004",
                               *extra, elf], capture_output=True, text=True)

    sig = os.path.join(w, "program.signature")
    r = run(args.elf, "--signature", sig)
    text = open(sig).read() if os.path.exists(sig) else None
    want = "".join(f"{v:08x}\n" for v in EXPECTED)
    check(r.returncode == 0 and text == want, f"the signature, one word per line ({r.returncode}: {text!r} "
          f"{r.stderr.strip()[:200]})")

    def refused(what, result, path, words):
        lines = result.stderr.strip().splitlines()
        check(result.returncode == 2 and len(lines) == 1 and all(x in lines[0] for x in words)
              and not os.path.exists(path), f"{what}: one line, exit 2, no file ({result.returncode}: {lines})")

    # A run that does not end by exiting writes no signature, and takes away the one an earlier run left, so
    # that a harness comparing files sees no stale words: cut short by --max-cycles before its last store.
    r = run(args.elf, "--signature", sig, "--max-cycles", "10")
    check(r.returncode == 4 and "--max-cycles 10" in r.stderr and not os.path.exists(sig),
          f"a run stopped by --max-cycles leaves no signature, not even the earlier run's ({r.returncode}: "
          f"{r.stderr.strip()[:200]})")

    # The same for a run an interrupt ends.
    open(sig, "w").write("stale\n")
    started = os.path.join(w, "forever.trace")  # made just before the run starts
    p = subprocess.Popen([args.sim, "run", "--bare", "-q", "--signature", sig, "--trace", started, "--trace-window",
                          ":10", args.forever_elf], stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not os.path.exists(started) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=60)[1]
    check(p.returncode == -signal.SIGINT and "interrupted by SIGINT" in err and not os.path.exists(sig),
          f"a run ended by SIGINT leaves no signature, not even the earlier run's ({p.returncode}: "
          f"{err.strip()[:200]})")

    missing = os.path.join(w, "missing.signature")
    refused("a program without the symbols", run(args.no_signature_elf, "--signature", missing), missing,
            [args.no_signature_elf, "begin_signature"])
    cluster = os.path.join(w, "cluster.signature")
    refused("--signature without --bare", run(args.elf, "--signature", cluster, bare=False), cluster,
            ["run: --exit-addr and --signature belong to bare mode (add --bare)"])
    same = os.path.join(w, "same.txt")
    refused("the signature and the JSON report in one file",
            run(args.elf, "--signature", same, "--report-json", same), same, ["name the same file"])
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
