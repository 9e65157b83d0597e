#!/usr/bin/env python3
"""Bare mode with a memory map (`pulpsim run --bare --memory`): a program linked for a 4 MiB RAM at 0 that
sets its own stack pointer to 0x00400000 runs unchanged and prints through --console-addr; without the map
its first push falls outside every memory; the YAML form does the same as the option; overlapping or
wrapping ranges, a region larger than bare mode models (past 2 GiB), an empty map, malformed entries, a
segment outside the map or across two regions, an exit register in the console's word and --memory without
--bare are one-line errors with exit status 2. A program using both ends of a 512 MiB .bss runs in the
automatic layout and in a 2 GiB region reaching the top of the address space.
"""
import argparse
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

DEVICES = ["--console-addr", "0x10000000", "--exit-addr", "0x20000004"]
OUTPUT = "stack at the top of a 4 MiB RAM at 0: OK\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--big-elf", required=True, help="a program using both ends of a 512 MiB .bss")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def run(*extra, bare=True):
        return subprocess.run([args.sim, "run", *(["--bare"] if bare else []), "-q", *extra, args.elf],
                              capture_output=True, text=True)

    r = run("--memory", "0x0:0x400000", *DEVICES)
    check(r.returncode == 0 and r.stdout == OUTPUT, f"--memory 0x0:0x400000: runs and prints ({r.returncode}: "
          f"{r.stdout!r} {r.stderr.strip()[:200]})")
    r = run("--memory", "0:4MiB,0x80000000:64KiB", *DEVICES)
    check(r.returncode == 0 and r.stdout == OUTPUT, f"a size suffix and a second region ({r.stderr.strip()[:200]})")
    r = run(*DEVICES)
    check(r.returncode == 3 and "outside every memory" in r.stderr,
          f"without the map the first push falls outside memory ({r.returncode}: {r.stderr.strip()[:200]})")

    # Regions up to Spike's default 2 GiB: the host reserves them lazily, so a program pays for what it touches.
    for what, extra in [("the automatic layout of a 512 MiB .bss", []),
                        ("a 2 GiB region ending at 4 GiB, sp at its top", ["--memory", "0x80000000:2GiB"])]:
        r = subprocess.run([args.sim, "run", "--bare", "-q", *extra, args.big_elf], capture_output=True, text=True)
        check(r.returncode == 0 and not r.stderr, f"{what}: both ends of the .bss and the stack read back "
              f"({r.returncode}: {r.stderr.strip()[:200]})")

    good = os.path.join(w, "map.yaml")
    with open(good, "w") as f:
        f.write("# the test bench's RAM\nmemory:\n  - {base: 0x0, size: 4MiB}\n")
    r = run("--memory", good, *DEVICES)
    check(r.returncode == 0 and r.stdout == OUTPUT, f"the YAML form ({r.stderr.strip()[:200]})")

    def bad_yaml(name, text):
        path = os.path.join(w, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    for what, argv, words in [
        ("overlapping ranges", ["--memory", "0x0:0x400000,0x200000:0x1000"],
         ["[0x200000, 0x201000) overlaps [0x0, 0x400000)"]),
        ("a range wrapping past 4 GiB", ["--memory", "0xfffff000:0x2000"], ["runs past the 4 GiB address space"]),
        ("an empty region", ["--memory", "0x0:0"], ["size '0' is not a positive size"]),
        ("an entry without a size", ["--memory", "0x0"], ["a region is BASE:SIZE"]),
        ("a bad base", ["--memory", "zero:4MiB"], ["base 'zero' is not an address"]),
        ("a segment outside the map", ["--memory", "0x80000000:4MiB"], ["lies outside the --memory regions"]),
        # Inside the two regions taken together: the error says why that is not enough.
        ("a segment across two regions", ["--memory", "0x0:0x40,0x40:0x3fffc0"],
         ["segment [0x00000000, 0x", "runs from one --memory region into another", "ram1 [0x00000040, "]),
        ("YAML: an unknown key", ["--memory", bad_yaml("key.yaml", "memory:\n  - {base: 0, size: 4MiB, cached: 1}\n")],
         ["key.yaml:2: unknown key 'cached'"]),
        ("YAML: overlapping regions", ["--memory", bad_yaml("ov.yaml", "memory:\n  - {base: 0, size: 4MiB}\n"
                                                                        "  - {base: 0x100, size: 16}\n")],
         ["ov.yaml:3: [0x100, 0x110) overlaps [0x0, 0x400000)"]),
        ("YAML: malformed", ["--memory", bad_yaml("bad.yaml", "memory: [\n")], ["bad.yaml:", "malformed YAML"]),
        # yaml-cpp keeps both values of a key given twice, and would hand back the first without a word.
        ("YAML: a region's key twice",
         ["--memory", bad_yaml("dup.yaml", "memory:\n  - {base: 0x0, size: 4MiB, base: 0x80000000}\n")],
         ["dup.yaml:2: key 'base' given twice (first on line 2)"]),
        ("YAML: memory twice", ["--memory", bad_yaml("dup2.yaml", "memory: [{base: 0x0, size: 4MiB}]\n"
                                                                 "memory: [{base: 0x80000000, size: 1MiB}]\n")],
         ["dup2.yaml:2: key 'memory' given twice (first on line 1)"]),
        # 4 GiB from 0 fits the address space but not a 32-bit size, and is far more than one region models.
        ("4 GiB at 0", ["--memory", "0x0:4GiB"], ["--memory 0x0:4GiB: region [0x0, 0x100000000)", "larger than"]),
        ("YAML: 4 GiB at 0", ["--memory", bad_yaml("4g.yaml", "memory:\n  - {base: 0, size: 4GiB}\n")],
         ["4g.yaml:2: region [0x0, 0x100000000)", "larger than", "--memory"]),
        ("an empty map", ["--memory", ""], ["--memory '': expected BASE:SIZE"]),
        ("2 GiB and a page", ["--memory", "0x0:0x80001000"],
         ["--memory 0x0:0x80001000: region [0x0, 0x80001000) is larger than the 2048 MiB"]),
    ]:
        r = run(*argv, *DEVICES)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and all(x in lines[0] for x in words) and not r.stdout,
              f"{what}: one line, exit 2 ({r.returncode}: {lines})")
    # Both registers decode a whole word: an exit address inside the console's word is refused by name.
    r = run("--memory", "0x0:0x400000", "--console-addr", "0x10000000", "--exit-addr", "0x10000003")
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "--exit-addr 0x10000003 overlaps --console-addr 0x10000000" in lines[0],
          f"an exit register in the console's word: one line naming both ({r.returncode}: {lines})")
    r = run("--memory", "0x0:4MiB", bare=False)
    check(r.returncode == 2 and "run: --memory belongs to bare mode (add --bare)" in r.stderr,
          f"--memory without --bare ({r.stderr.strip()})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
