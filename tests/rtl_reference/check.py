#!/usr/bin/env python3
"""Single-core kernels against the CV32E40P RTL: each program of this folder, run in bare mode on the test
bench's memory map, must write the 64 result words (the cycles of each kernel call, then a hash of what it
wrote) that the RTL wrote for the same program (reference.json; README.md says how they were measured), at
the default FPU latencies and at those the RTL was also measured with.
A program whose image is not the one measured is reported as such: the reference then needs measuring again.
"""
import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402


def image_sha256(path):
    """sha256 over the loadable segments (address, sizes, bytes): what the test bench's memory held."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1:
        raise ValueError(f"{path}: not a 32-bit ELF")
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    digest = hashlib.sha256()
    for i in range(phnum):
        p_type, p_offset, p_vaddr, _, p_filesz, p_memsz = struct.unpack_from("<IIIIII", data, phoff + i * phentsize)
        if p_type == 1:  # PT_LOAD
            digest.update(struct.pack("<III", p_vaddr, p_filesz, p_memsz))
            digest.update(data[p_offset:p_offset + p_filesz])
    return digest.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--reference-dir", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("elfs", nargs="+")
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()
    with open(os.path.join(args.reference_dir, "reference.json")) as f:
        reference = json.load(f)["programs"]
    check(sorted(reference) == sorted(os.path.splitext(os.path.basename(e))[0] for e in args.elfs),
          "one program per reference entry")
    for elf in args.elfs:
        name = os.path.splitext(os.path.basename(elf))[0]
        ref = reference.get(name)
        if not check(ref is not None, f"{name}: has a reference"):
            continue
        if not check(image_sha256(elf) == ref["image_sha256"],
                     f"{name}: the program is the one measured on the RTL (if not, measure it again: README.md)"):
            continue
        # The default FPU latencies, then those the RTL was also built with (FPU_ADDMUL_LAT/FPU_OTHERS_LAT).
        runs = [("", [], ref["rtl_signature"])]
        for latencies, words in ref.get("rtl_signature_at_fpu_latencies", {}).items():
            addmul, other = latencies.split("/")
            runs.append((f" at FPU latencies {latencies}",
                         ["--set", f"fpu.addmul_latency={addmul}", "--set", f"fpu.other_latency={other}"], words))
        for label, settings, words in runs:
            compare(check, args.sim, w, elf, f"{name}{label}", settings, ref["kernels"], words)
    return check.exit_status()


def compare(check, sim, workdir, elf, name, settings, kernels, words):
    """Runs `elf` with `settings` and checks its 64 result words against the RTL's `words`."""
    signature = os.path.join(workdir, "result.signature")
    if os.path.exists(signature):
        os.remove(signature)
    r = subprocess.run([sim, "run", "--bare", "-q", "--memory", "0x0:0x400000", "--exit-addr", "0x20000004",
                        "--signature", signature, *settings, elf], capture_output=True, text=True)
    if not check(r.returncode == 0, f"{name}: runs to exit 0 ({r.stderr.strip()[:200]})"):
        return
    with open(signature) as f:
        got = [int(line, 16) for line in f]
    want = [int(word, 16) for word in words]
    check(len(got) == len(want), f"{name}: {len(got)} result words ({len(want)} expected)")
    for i, kernel in enumerate(kernels):
        check(got[i] == want[i], f"{name}: {kernel}: {got[i]} cycles (RTL {want[i]})")
        check(got[32 + i] == want[32 + i], f"{name}: {kernel}: its outputs hash as on the RTL")
    rest = [i for i in range(len(want)) if i % 32 >= len(kernels)]
    check(all(got[i] == want[i] for i in rest if i < len(got)), f"{name}: the unused words as on the RTL")


if __name__ == "__main__":
    sys.exit(main())
