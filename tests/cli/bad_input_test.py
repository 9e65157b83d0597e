#!/usr/bin/env python3
"""Bad input must give one clear line on stderr, a small non-zero exit status, and no report file.

Each case runs pulpsim and checks: the exit status, that stderr is exactly one line matching a pattern
(the file, address or option it names), and that a requested --report-json file was not written. Then
every key `run --help` names for --set must be accepted with the value it shows.
"""
import argparse
import json
import os
import re
import resource
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rv32_elf import A0, A1, A2, A7, ECALL, ZERO, addi, lui, segment, write_program  # noqa: E402


# AddressSanitizer reserves terabytes of address space for its shadow memory, so a sanitized simulator
# (PULPSIM_SANITIZE) runs under the CPU limit only, and the sanitizer itself reports oversized allocations.
SANITIZED = "--sanitized" in sys.argv


def limited(seconds, megabytes):
    """A preexec_fn bounding a run's CPU time and address space: unbounded work from input shows as a failure."""
    def apply():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))
        if not SANITIZED:
            resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return apply


def with_huge_code_section(src, dst):
    """A copy of an ELF whose first executable section header claims 4 GiB - 1 bytes at address 0."""
    data = bytearray(open(src, "rb").read())
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    for i in range(shnum):
        at = shoff + i * shentsize
        flags, = struct.unpack_from("<I", data, at + 8)
        if flags & 0x4:  # SHF_EXECINSTR
            struct.pack_into("<II", data, at + 12, 0, 0)          # sh_addr
            struct.pack_into("<I", data, at + 20, 0xFFFFFFFF)     # sh_size
            break
    open(dst, "wb").write(bytes(data))


def patched(src, dst, edit, size=None):
    """A copy of the ELF `src` (its first `size` bytes) after edit(bytearray) changed it in place."""
    data = bytearray(open(src, "rb").read())
    if size is not None:
        del data[size:]
    edit(data)
    open(dst, "wb").write(bytes(data))
    return dst


def loads(data):
    """(index, header offset, vaddr, memsz) of each PT_LOAD with bytes in memory."""
    phoff, = struct.unpack_from("<I", data, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
    out = []
    for i in range(phnum):
        at = phoff + i * phentsize
        kind, _, vaddr, _, _, memsz = struct.unpack_from("<6I", data, at)
        if kind == 1 and memsz:
            out.append((i, at, vaddr, memsz))
    return out


def overlapping_copy(src, dst):
    """A copy of `src` whose second loadable segment starts 0x100 into the first; the expected error's text."""
    data = bytearray(open(src, "rb").read())
    (i, _, lo, size), (j, at, _, size2) = loads(data)[:2]
    struct.pack_into("<II", data, at + 8, lo + 0x100, lo + 0x100)  # p_vaddr, p_paddr
    open(dst, "wb").write(bytes(data))
    return (rf"segments {i} and {j} overlap \(\[{lo:#x}, {lo + size:#x}\) and "
            rf"\[{lo + 0x100:#x}, {lo + 0x100 + size2:#x}\)\)")


def set_keys_in_help(args):
    """Every key `run --help` names for --set, run with the value it shows, in the mode it names it for."""
    help_text = subprocess.run([args.sim, "run", "--help"], capture_output=True, text=True).stdout
    m = re.search(r"^\s+--set KEY=VALUE(.*?)(?=^\s+--)", help_text, re.S | re.M)
    text = " ".join(m.group(1).split()) if m else ""
    cluster_part, _, bare_part = text.partition("bare mode")
    failed = 0
    named = re.findall(r"\b[a-z_]+\.[a-z_]+\b(?:=[^\s,;)]*)?", text)
    if not named or not bare_part:
        print(f"FAIL --set in run --help: no keys, or none for bare mode ({text!r})")
        return 1
    for mode, part in (("cluster", cluster_part), ("bare", bare_part)):
        for token in re.findall(r"\b[a-z_]+\.[a-z_]+\b(?:=[^\s,;)]*)?", part):
            key, _, value = token.partition("=")
            if not value:
                print(f"FAIL --set in run --help names {key} without a value to try")
                failed += 1
                continue
            program = (["--bare", os.path.join(args.kernels, "matmul_fp32.elf")] if mode == "bare"
                       else [os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")])
            r = subprocess.run([args.sim, "run", "-q", "--set", token] + program, capture_output=True, text=True,
                               timeout=120)
            ok = r.returncode == 0 and not r.stderr.strip()
            print(f"{'ok  ' if ok else 'FAIL'} --set {token} ({mode} mode, from run --help): exit {r.returncode} "
                  f"{r.stderr.strip()[:200]}")
            failed += 0 if ok else 1
    return failed


def bounded_inputs(args, w):
    """Inputs that asked the host for unbounded work: each now ends within 10 s of CPU and 512 MiB."""
    failed = 0
    huge = os.path.join(w, "huge_code_section.elf")
    # A cluster program: every core sizes its decode cache from the code range.
    with_huge_code_section(os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf"), huge)
    for name, argv, status, pattern in [
        ("write of 4 GiB - 1 bytes", ["run", "--bare", os.path.join(args.programs, "bad_huge_write.elf")], 3,
         r"write host call with buffer \[0x[0-9a-f]+, \+4294967295\) outside every memory"),
        ("code section header of 4 GiB at 0", ["run", "-q", huge], 0, None),
    ]:
        try:
            r = subprocess.run([args.sim] + argv, capture_output=True, text=True, timeout=60,
                               preexec_fn=limited(10, 512))
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: timed out")
            failed += 1
            continue
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        ok = r.returncode == status and (pattern is None and not lines or
                                         pattern is not None and len(lines) == 1 and re.search(pattern, lines[0]))
        print(f"{'ok  ' if ok else 'FAIL'} {name}: exit {r.returncode} {lines[:2]}")
        failed += 0 if ok else 1
    return failed


def deadlock_report(args, w, program):
    """A deadlock's report shows every core asleep up to the cycle it was found in, not idle after its last
    instruction."""
    report = os.path.join(w, "deadlock.json")
    r = subprocess.run([args.sim, "run", "-q", "--report-json", report, program], capture_output=True, text=True)
    m = re.search(r"deadlock at cycle (\d+)", r.stderr)
    try:
        cores = json.load(open(report))["cores"]
    except (OSError, ValueError, KeyError):
        cores = []
    ok = (r.returncode == 3 and m is not None and len(cores) > 1 and
          all(c["cycles"] == int(m.group(1)) for c in cores) and
          sum(c["stalls"]["sleep"] > 0 for c in cores) >= len(cores) - 1)
    print(f"{'ok  ' if ok else 'FAIL'} deadlock: every core asleep up to the cycle it was found in "
          f"({[(c['cycles'], c['stalls']['sleep']) for c in cores]}; {r.stderr.strip()[:120]})")
    return 0 if ok else 1


def nested_region_macs(args, w, elf, fail_in_region):
    """A region inside another declares MACs its enclosing region holds too: the run's total counts them once,
    while each region's row keeps its own."""
    report = os.path.join(w, "nested.json")
    r = subprocess.run([args.sim, "run", "--bare", "-q", "--report-json", report, elf], capture_output=True,
                       text=True, timeout=60)
    problems = [] if r.returncode == 0 else [f"exit status {r.returncode}: {r.stderr!r}"]
    if not problems:
        j = json.load(open(report))
        macs = {reg["name"]: reg["macs"] for reg in j["regions"]}
        if macs != {"outer": 8, "inner": 2, "left_open": 2}:
            problems.append(f"region MACs {macs}, expected outer 8, inner 2 (two runs of 1), left_open 2")
        if j["macs"] != 10:
            problems.append(f"the run's MACs are {j['macs']}, expected 10 (outer 8 + left_open 2; inner is in outer)")
        elif abs(j["mac_per_cycle"] - 10 / j["cycles"]) > 1e-12:
            problems.append(f"the run's MAC/cycle {j['mac_per_cycle']} is not 10 / {j['cycles']} cycles")
    print(("FAIL" if problems else "ok  ") + " nested regions count their MACs once in the run's total" +
          (": " + "; ".join(problems) if problems else ""))
    failed = 1 if problems else 0

    # A program that exits with status 1 inside a region: the region is no result, and the one warning names
    # where the program failed, not the open regions or their MACs.
    report = os.path.join(w, "fail_in_region.json")
    r = subprocess.run([args.sim, "run", "--bare", "-q", "--report-json", report, fail_in_region],
                       capture_output=True, text=True, timeout=60)
    j = json.load(open(report)) if os.path.exists(report) else {}
    broken = next((reg for reg in j.get("regions", []) if reg["name"] == "broken"), {})
    said = ("pulpsim: warning: the program exited with status 1 in region 'broken' (inside 'step'): the "
            "region's figures are no result\n")
    ok = (r.returncode == 1 and r.stderr == said and broken.get("count") == 0 and broken.get("macs") == 0 and
          j.get("macs") == 0)
    print(("ok  " if ok else "FAIL") + " a region open at a failing exit is no result, and named once: "
          f"exit {r.returncode}, stderr {r.stderr!r}, region {broken}, run MACs {j.get('macs')}")
    return failed + (0 if ok else 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--programs", required=True, help="folder of the prebuilt bad_*.elf programs")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--kernels", required=True, help="folder of the built kernels")
    ap.add_argument("--sanitized", action="store_true", help="the simulator is built with AddressSanitizer")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    w = args.workdir
    p = lambda name: os.path.join(args.programs, f"bad_{name}.elf")
    cluster_matmul = os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")

    text_file = os.path.join(w, "notes.txt")
    with open(text_file, "w") as f:
        f.write("not a program\n")
    rv64 = os.path.join(w, "rv64.elf")
    # A minimal 64-bit RISC-V ELF header (EM_RISCV = 243, ET_EXEC).
    hdr = bytearray(64)
    hdr[0:7] = b"\x7fELF\x02\x01\x01"
    hdr[16], hdr[18], hdr[20], hdr[52] = 2, 243, 1, 64
    with open(rv64, "wb") as f:
        f.write(hdr)

    # Broken ELFs: a cluster kernel cut short or with headers patched, and small programs written here.
    overlap_cluster = os.path.join(w, "overlap_cluster.elf")
    overlap_cluster_error = overlapping_copy(cluster_matmul, overlap_cluster)
    base = 0x80000000
    overlap_bare = write_program(os.path.join(w, "overlap_bare.elf"), [
        segment(base, [addi(A0, ZERO, 7), addi(A7, ZERO, 93), ECALL], executable=True),
        segment(base + 8, [42, 42])], base)
    cut = 100000
    truncated = patched(cluster_matmul, os.path.join(w, "truncated.elf"), lambda d: None, size=cut)
    shoff, = struct.unpack_from("<I", open(cluster_matmul, "rb").read(), 0x20)
    phentsize7 = patched(cluster_matmul, os.path.join(w, "phentsize7.elf"),
                         lambda d: struct.pack_into("<H", d, 0x2A, 7))
    phnum_xnum = patched(cluster_matmul, os.path.join(w, "phnum_xnum.elf"),
                         lambda d: struct.pack_into("<H", d, 0x2C, 0xFFFF))
    phoff, = struct.unpack_from("<I", open(cluster_matmul, "rb").read(), 0x1C)
    big_endian = patched(cluster_matmul, os.path.join(w, "big_endian.elf"), lambda d: d.__setitem__(5, 2))
    entry, = struct.unpack_from("<I", open(cluster_matmul, "rb").read(), 0x18)
    odd_entry = patched(cluster_matmul, os.path.join(w, "odd_entry.elf"),
                        lambda d: struct.pack_into("<I", d, 0x18, entry | 1))
    in_peripherals = write_program(os.path.join(w, "in_peripherals.elf"),
                                   [segment(0x1C000000, [ECALL], executable=True), segment(0x10200000, [0] * 4)],
                                   0x1C000000)
    write_words = [addi(A0, ZERO, 9), lui(A1, base >> 12), addi(A2, ZERO, 4), addi(A7, ZERO, 64), ECALL,
                   addi(A0, ZERO, 0), addi(A7, ZERO, 93), ECALL]
    write_fd9 = write_program(os.path.join(w, "write_fd9.elf"), [segment(base, write_words, executable=True)], base)
    write_pc = base + 4 * write_words.index(ECALL)
    # 2 GiB of memory from 0x10000 plus the stack after it: one region past the 2 GiB bare mode models.
    low_2gib = write_program(os.path.join(w, "low_2gib.elf"), [
        segment(0x10000, [addi(A0, ZERO, 0), addi(A7, ZERO, 93), ECALL], executable=True, memsz=0x80000000)],
        0x10000)

    cases = [
        # Echoed values are escaped: a line break cannot split the error line, an ESC cannot drive the terminal.
        ("a line break in the program path", ["run", os.path.join(w, "no\nsuch.elf")], 2, r"no\\nsuch\.elf: "),
        ("a terminal escape in a --set value",
         ["run", "--set", "tcdm.size=1\x1b[2J", os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")], 2,
         r"got '1\\x1b\[2J'"),
        ("a TCDM reaching the cluster peripherals", ["run", "--set", "tcdm.size=4MiB",
                                                     os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")],
         2, r"--set tcdm.size: the TCDM \[0x10000000, 0x103FFFFF\] overlaps the cluster peripherals"),
        ("compare shape whose MAC count overflows 64 bits",
         ["compare", "--layer", "pointwise", "--step", "fw", "--shape", "2147483648x2147483648x2147483648"], 2,
         r"--shape 2147483648x2147483648x2147483648: .* exceed the 32-bit count of a region"),
        # A program that takes no shape would run its own work, reported as the step's (or tiling instead).
        ("compare --program that is no comparison program",
         ["compare", "--layer", "linear", "--step", "fw", "--shape", "64x16", "--program", cluster_matmul], 2,
         r"matmul_fp32_parallel_rows\.elf: not a comparison program of the linear steps: it has no symbol "
         r"'compare_m' to take the shape from"),
        ("autotune --program that is no comparison program",
         ["autotune", "--layer", "depthwise", "--step", "fw", "--shape", "4x4x4", "--program",
          os.path.join(args.kernels, "matmul_compare.elf"), "--db", os.path.join(w, "never.db"),
          "--tuning", os.path.join(w, "never.yaml")], 2,
         r"matmul_compare\.elf: not a comparison program of the depthwise steps: it has no symbol 'compare_c'"),
        # A tuning entry is keyed by platform name, cores and TCDM size: one measured with another FPU latency
        # would stand for the platform as named.
        ("autotune --set of a setting outside the tuning key",
         ["autotune", "--layer", "linear", "--step", "fw", "--shape", "8x8", "--set", "fpu.addmul_latency=2",
          "--db", os.path.join(w, "never.db"), "--tuning", os.path.join(w, "never.yaml")], 2,
         r"--set fpu\.addmul_latency=2: tuning entries are keyed by platform name, cores and TCDM size, so this one "
         r"would stand for platform 'pulp-open' as pulpsim's default gives it; name the changed platform"),
        # Data linked for the TCDM at 0x10000000 lies outside one moved to 0: not a TCDM too small for it.
        ("a TCDM moved away from the program's data", ["run", "--set", "tcdm.base=0x0", cluster_matmul], 2,
         r"segment \[0x10000000, 0x[0-9a-f]{8}\) lies outside the modelled memory \(tcdm \[0x00000000, "),
        ("--max-cycles past 64 bits", ["run", "--max-cycles", "1e20", cluster_matmul], 2,
         r"--max-cycles: 1e20 is larger than 18446744073709551615$"),
        # Which of the two would win is no rule a user can guess.
        ("--quantum and --set engine.quantum", ["run", "--quantum", "7", "--set", "engine.quantum = 5",
                                                cluster_matmul], 2,
         r"run: --quantum and --set engine\.quantum give one setting twice: give one$"),
        ("two bare-mode options without --bare", ["run", "--console-addr", "0x100", "--exit-addr", "0x104",
                                                  cluster_matmul], 2,
         r"run: --console-addr and --exit-addr belong to bare mode \(add --bare\)$"),
        # A value the program's start-up would clear after the host wrote it must be refused, not lost.
        ("--symbol on a zero-initialised (.bss) word", ["run", "-q", "--symbol", "arena=7",
                                                       os.path.join(args.kernels, "tiled_tune.elf")], 2,
         r"tiled_tune\.elf: symbol 'arena' at 0x[0-9a-f]+ is zero-initialised \(\.bss\)"),
        ("--symbol naming no symbol", ["run", "-q", "--symbol", "no_such_word=1", cluster_matmul], 2,
         r"no symbol 'no_such_word' to write"),
        ("--symbol without a value", ["run", "-q", "--symbol", "tune_m", cluster_matmul], 2,
         r"--symbol tune_m: expected NAME=VALUE"),
        ("--symbol in bare mode", ["run", "--bare", "--symbol", "x=1", p("runaway")], 2, r"--symbol needs a cluster"),
        # Quiet logging does not hide why a run failed.
        ("--log-level off", ["run", "--log-level", "off", "--set", "cluster.cores=0", cluster_matmul], 2,
         r"--set cluster\.cores: must be between 1 and 16, got 0$"),
        # A byte variable takes a byte: a larger value would spill into its neighbour.
        ("--symbol too large for its variable", ["run", "-q", "--symbol", "byte_var=256",
                                                 os.path.join(args.programs, "symbol_sizes.elf")], 2,
         r"symbol_sizes\.elf: symbol 'byte_var' is 1 byte long: 256 does not fit$"),
        # (name, argv, exit status, stderr pattern)
        ("missing file", ["run", "--bare", os.path.join(w, "nope.elf")], 2, r"nope\.elf: cannot open file"),
        ("text file", ["run", "--bare", text_file], 2, r"notes\.txt: not an ELF file"),
        ("x86-64 ELF", ["run", "--bare", "/bin/sh"], 2, r"/bin/sh: x86-64 64-bit ELF, expected a 32-bit RISC-V ELF"),
        ("64-bit RISC-V ELF", ["run", "--bare", rv64], 2, r"rv64\.elf: 64-bit RISC-V ELF"),
        # Named as such, not by the machine number its byte-swapped header would give.
        ("big-endian ELF", ["run", big_endian], 2, r"big_endian\.elf: big-endian ELF, expected a little-endian"),
        ("no room for the stack", ["run", "--bare", p("huge_bss")], 2,
         r"huge_bss\.elf: no room for a 1024 KiB stack above the program \(ends at 0xffff[0-9a-f]{4}\)"),
        ("a region past 2 GiB", ["run", "--bare", low_2gib], 2,
         r"low_2gib\.elf: memory \[0x00010000, 0x80110000\) \(segments plus stack\) lies outside the "
         r"modelled memory: bare mode models regions of at most 2048 MiB"),
        # Its _start is a global label without .type, as hand-written assembly often has it: it still names the pc.
        ("illegal instruction", ["run", "--bare", p("illegal_instruction")], 3,
         r"illegal instruction 0xffffffff at pc 0x80000002 \[in _start\+0x2\]$"),
        ("misaligned hwloop setup", ["run", "--bare", p("hwloop_misaligned_setup")], 3,
         r"hardware-loop setup instruction at misaligned pc 0x80000002"),
        ("hwloop body too short", ["run", "--bare", p("hwloop_short_body")], 3,
         r"hardware loop 0 \[0x80000004, 0x8000000c\).*at least 3 instructions"),
        ("hwloop compressed body", ["run", "--bare", p("hwloop_compressed_body")], 3,
         r"hardware loop 0 .*compressed instruction at 0x80000008"),
        # CV32E40P v2 raises no exception for a broken loop rule: a trap handler changes nothing.
        ("hwloop body too short, with a trap handler", ["run", "--bare", p("hwloop_short_body_with_handler")], 3,
         r"hardware loop 0 \[0x[0-9a-f]{8}, 0x[0-9a-f]{8}\) set up at pc 0x[0-9a-f]{8}: the body must hold at "
         r"least 3 instructions"),
        ("hwloop start changed while counting", ["run", "--bare", p("hwloop_start_while_counting")], 3,
         r"hardware loop 0 \[0x[0-9a-f]{8}, 0x[0-9a-f]{8}\) changed its start at pc 0x[0-9a-f]{8} while it "
         r"still counts 1 \(start and end must not change while the count is not 0"),
        ("fetch from a device", ["run", "--bare", "--console-addr", "0x10000000", p("fetch_from_device")], 3,
         r"instruction fetch at 0x10000000 outside every memory$"),
        ("store outside memory", ["run", "--bare", p("store_outside_memory")], 3,
         r"store at address 0x40000000 outside every memory \(pc 0x80000004"),
        ("store running past the end of memory",
         ["run", "--bare", "--memory", "0x80000000:64KiB", p("store_past_memory_end")], 3,
         r"store at address 0x8000fffe runs past the end of the memory it starts in \(pc 0x80000006; memory: "
         r"ram0 \[0x80000000, 0x80010000\)\)"),
        ("a region declaring more MACs than cores can do", ["run", "--bare", "-q", p("impossible_macs")], 0,
         r"^pulpsim: warning: region 'dot' declares 4294967295 MACs in \d+ cycles, more than 1 core can do at 4 "
         r"MACs per cycle each: its MAC/cycle is wrong"),
        ("a region left open at the exit", ["run", "--bare", "-q", p("nested_regions")], 0,
         r"^pulpsim: warning: region 'left_open' was still open when the program exited: it counts up to the exit "
         r"\(a region_end\(\) missing\?\)$"),
        ("runaway", ["run", "--bare", "--max-cycles", "5000", p("runaway")], 4,
         r"did not finish within --max-cycles 5000"),
        # Scientific notation, as the help's default (1e10) and the sweep files write it: a whole number only.
        ("runaway, a limit in scientific notation", ["run", "--bare", "--max-cycles", "2.5e3", p("runaway")], 4,
         r"did not finish within --max-cycles 2500 "),
        ("a fraction of a cycle", ["run", "--bare", "--max-cycles", "25e-1", p("runaway")], 2,
         r"--max-cycles: '25e-1' is not a non-negative integer"),
        # Under the default --max-cycles: each repeats its trap with nothing changed, a livelock found at once.
        ("a trap handler that cannot be fetched", ["run", "--bare", p("unfetchable_trap_handler")], 3,
         r"livelock at cycle \d{1,3}: the instruction access fault at pc 0x40000000 goes to the handler at "
         r"0x40000000, which comes back to it with every register and memory byte as before"),
        # The handler is at 0x80000040; mtvec keeps bits 31:8 of it, so every trap starts the program again.
        ("a trap handler below mtvec's 256-byte alignment", ["run", "--bare", p("trap_loop")], 3,
         r"livelock at cycle \d{1,3}: the illegal instruction at pc 0x8000000c goes to the handler at "
         r"0x80000000, which"),
        # Core 0 is still in its start-up code while the workers sleep: one entry for the seven of them.
        ("cluster runaway", ["run", "--max-cycles", "1000", cluster_matmul], 4,
         r"did not finish within --max-cycles 1000 \(core 0 at 0x[0-9a-f]{8} \(_start\+0x[0-9a-f]+\); "
         r"cores 1-7 asleep at 0x[0-9a-f]{8} \(__cluster_worker_loop\+0x[0-9a-f]+\)\)$"),
        ("unknown option", ["run", "--bare", "--frobnicate", p("runaway")], 2, r"unrecognised option '--frobnicate'$"),
        ("misspelt option", ["run", "--bare", "--max-cylces", "9", p("runaway")], 2,
         r"unrecognised option '--max-cylces' \(did you mean '--max-cycles'\?\)$"),
        ("bad number", ["run", "--bare", "--max-cycles", "lots", p("runaway")], 2, r"--max-cycles: 'lots' is not"),
        ("unknown setting", ["run", "--set", "core.warp=9", p("runaway")], 2, r"unknown key 'core\.warp'"),
        ("missing platform file", ["run", "--platform", os.path.join(w, "nope.yaml"), p("runaway")], 2, r"nope\.yaml"),
        ("bare with platform", ["run", "--bare", "--platform", "x.yaml", p("runaway")], 2, r"exclude each other"),
        ("cluster key in bare mode", ["run", "--bare", "--set", "tcdm.size=128KiB", p("runaway")], 2,
         r"--set tcdm.size=128KiB: bare mode takes only the FPU timing keys fpu.addmul_latency, "),
        # One core with its own FPU: the pool's keys would change nothing, and fpu.count would be checked
        # against the cluster's core count.
        ("FPU pool key in bare mode", ["run", "--bare", "--set", "fpu.mapping=static-modulo", p("runaway")], 2,
         r"--set fpu.mapping=static-modulo: bare mode takes only the FPU timing keys"),
        ("FPU count in bare mode", ["run", "--bare", "--set", " fpu.count =1", p("runaway")], 2,
         r"--set  fpu.count =1: bare mode takes only the FPU timing keys .*fpu.divsqrt_exact_latency$"),
        ("TCDM too small", ["run", "--set", "tcdm.size=16KiB", cluster_matmul], 2,
         r"needs 57 KiB of TCDM but tcdm.size is 16 KiB"),
        # The cluster's peripherals are no part of the TCDM: no size of it would hold the segment.
        ("a segment among the peripherals", ["run", in_peripherals], 2,
         r"segment \[0x10200000, 0x10200010\) lies outside the modelled memory"),
        ("bad platform value", ["run", "--set", "tcdm.banks=12", p("runaway")], 2, r"tcdm.banks"),
        ("deadlock", ["run", p("cluster_deadlock")], 3, r"deadlock at cycle \d+: every core is asleep"),
        ("region closed by another core", ["run", p("region_other_core")], 3,
         r"core 3: region_end \(pc 0x1c[0-9a-f]{6}\) would close region 'cluster_step', which core 0 opened: "
         r"a region counts the cluster from one core's region_begin to that core's region_end"),
        ("unknown command", ["frobnicate"], 2, r"unknown command 'frobnicate'"),
        # compare and autotune take no positional argument: the stray one is named, not an "ambiguous option".
        ("stray argument to compare", ["compare", "--layer", "linear", "layers.yaml"], 2,
         r"^pulpsim: error: compare: unexpected argument 'layers\.yaml': this command takes options only$"),
        ("two programs", ["run", "-q", p("runaway"), "--bare", "second.elf"], 2,
         r"^pulpsim: error: run: unexpected argument 'second\.elf': this command takes one argument$"),
        ("two sweep files", ["sweep", "a.yaml", "b.yaml"], 2,
         r"^pulpsim: error: sweep: unexpected argument 'b\.yaml': this command takes one argument$"),
        ("compare without --layer", ["compare", "--step", "fw", "--shape", "4x4"], 2,
         r"^pulpsim: error: --layer: missing \(linear, pointwise, depthwise or conv2d\)$"),
        ("compare without --step", ["compare", "--layer", "pointwise", "--shape", "4x4x4"], 2,
         r"^pulpsim: error: --step: missing \(fw, wg or ig\)$"),
        ("a trace to '-'", ["run", "--bare", "--trace", "-", p("runaway")], 2,
         r"^pulpsim: error: --trace -: standard output carries the program's own output; give a file "
         r"\(or /dev/stdout to mix the two\)$"),
        ("a report to '-'", ["run", "--bare", "--report-csv", "-", p("runaway")], 2,
         r"^pulpsim: error: -: cannot write: these files are written whole, not to standard output$"),
        ("a Slurm array of no task", ["sweep", "--backend", "slurm", "--max-tasks", "0", "s.yaml"], 2,
         r"^pulpsim: error: --max-tasks: must be at least 1$"),
        ("Slurm tasks of no CPU", ["sweep", "--backend", "slurm", "--cpus-per-task", "0", "s.yaml"], 2,
         r"^pulpsim: error: --cpus-per-task: must be at least 1$"),
        ("a negative count", ["regress", "--jobs", "-1", "b.yaml"], 2,
         r"^pulpsim: error: regress: --jobs: '-1' is negative$"),
        ("a conv2d stride of 0", ["compare", "--layer", "conv2d", "--step", "fw", "--shape", "1x1x4x4x3x3x0x0"], 2,
         r"^pulpsim: error: --shape 1x1x4x4x3x3x0x0: every size must be at least 1$"),
        ("stray argument to autotune", ["autotune", "pointwise"], 2,
         r"^pulpsim: error: autotune: unexpected argument 'pointwise': this command takes options only$"),
        ("DMA bandwidth 0", ["run", "--set", "dma.bandwidth_bits=0", cluster_matmul], 2,
         r"--set dma.bandwidth_bits: must be between 8 and 256, got 0"),
        ("DMA bandwidth not whole bytes", ["run", "--set", "dma.bandwidth_bits=12", cluster_matmul], 2,
         r"dma.bandwidth_bits.*multiple of 8"),
        ("DMA transfer outside L2", ["run", p("dma_bad_l2")], 3,
         r"core 0: DMA L2->L1 transfer issued at pc 0x1c[0-9a-f]{6}: L2 range \[0x1c7fff00, 0x1c800100\) lies outside L2"),
        ("DMA transfer outside the TCDM", ["run", p("dma_bad_l1")], 3,
         r"core 0: DMA L1->L2 transfer issued at pc 0x1c[0-9a-f]{6}: TCDM range \[0x10100000, 0x10100040\) lies outside"),
        ("DMA 2-D transfer with 0 rows", ["run", p("dma_zero_rows")], 3, r"core 0: DMA .* pc 0x1c[0-9a-f]{6}: ROWS 0 is not a positive row count"),
        ("DMA 2-D transfer with negative rows", ["run", p("dma_negative_rows")], 3, r"ROWS -3 is not a positive row count"),
        ("DMA transfer of 0 bytes", ["run", p("dma_zero_length")], 3, r"LENGTH 0 is not a positive byte count"),
        ("DMA negative stride", ["run", p("dma_negative_stride")], 3, r"L2_STRIDE -16 is negative"),
        ("DMA transfer into a guard zone", ["run", p("dma_guard_zone")], 3,
         r"core 0: DMA L2->L1 transfer issued at pc 0x1c[0-9a-f]{6}: row 0 \(L2 \[0x1c[0-9a-f]{6}, \+68\)\) touches "
         r"the guard zone after the tensor"),
        ("DMA wait for an unknown id", ["run", p("dma_unknown_id")], 3, r"core 0: DMA wait for transfer 77 at pc 0x1c[0-9a-f]{6}: no such transfer"),
        # A device offset with no register of that direction ends the run (CV32E40P has no data bus error to trap on).
        ("read of the event unit's write-only TEAM_MASK", ["run", p("device_eu_read_team_mask")], 3,
         r"core 0: load at address 0x10200100 \(pc 0x1c[0-9a-f]{6}\): device 'event_unit' \[0x10200000, 0x10201000\) "
         r"has no register to read at offset 0x100 \[in main\+0x[0-9a-f]+\]$"),
        ("write into the event unit's gap", ["run", p("device_eu_write_gap")], 3,
         r"core 0: store at address 0x10200400 \(pc 0x1c[0-9a-f]{6}\): device 'event_unit' .* has no register to write "
         r"at offset 0x400 \[in main\+0x[0-9a-f]+\]$"),
        ("read past the DMA's last register", ["run", p("device_dma_read_past_last")], 3,
         r"core 0: load at address 0x10201830 .*device 'dma' \[0x10201800, 0x10201c00\) has no register to read at "
         r"offset 0x30 \[in main\+0x[0-9a-f]+\]$"),
        ("write to the DMA's PUSH_IN", ["run", p("device_dma_write_push")], 3,
         r"core 0: store at address 0x10201818 .*device 'dma' .* has no register to write at offset 0x18 "
         r"\[in main\+0x[0-9a-f]+\]$"),
        # One segment's bytes would replace the other's.
        ("overlapping segments (cluster)", ["run", "-q", overlap_cluster], 2, r"overlap_cluster\.elf: " + overlap_cluster_error),
        ("overlapping segments (bare)", ["run", "-q", "--bare", overlap_bare], 2,
         r"overlap_bare\.elf: segments 0 and 1 overlap \(\[0x80000000, 0x8000000c\) and \[0x80000008, 0x80000010\)\)"),
        # Without its section headers the program would run with no symbols: profiles, regions and messages blind.
        ("section headers cut off", ["run", "-q", truncated], 2,
         rf"truncated\.elf: truncated: section headers at offset {shoff} .* beyond the file's {cut} bytes"),
        # No instruction starts on an odd address: the program would run from misaligned bytes.
        ("odd entry point (cluster)", ["run", "-q", odd_entry], 2,
         rf"odd_entry\.elf: entry point {entry | 1:#010x} is odd: no instruction can start there$"),
        ("odd entry point (bare)", ["run", "-q", "--bare", odd_entry], 2,
         rf"odd_entry\.elf: entry point {entry | 1:#010x} is odd: no instruction can start there$"),
        ("program header entries of 7 bytes", ["run", "-q", phentsize7], 2,
         r"phentsize7\.elf: program header entries of 7 bytes \(e_phentsize\), expected 32"),
        ("e_phnum 0xffff", ["run", "-q", phnum_xnum], 2,
         rf"phnum_xnum\.elf: truncated: program header table at offset {phoff} \(65535 entries of 32 bytes\) beyond"),
        ("write to fd 9", ["run", "-q", "--bare", write_fd9], 3,
         rf"write_fd9\.elf: write host call to fd 9 \(pc {write_pc:#010x}\): only fd 1 \(stdout\) and 2"),
        # The runtime links stacks for __cluster_max_cores cores, 9 unless relinked (kernels/runtime/link_cluster.ld).
        # The bare runtime links at L2's base but past the cluster's L2: the hint names the cause.
        ("a program for one core on the cluster", ["run", "-q", os.path.join(args.kernels, "matmul_fp32.elf")], 2,
         r"matmul_fp32\.elf: segment \[0x1c000000, 0x1c100000\) lies outside the modelled memory \(.*\); the program "
         r"has no cluster runtime \(no symbol __cluster_max_cores\): a program for one core runs with --bare$"),
        ("a cluster program linked for more L2 than the platform has",
         ["run", "-q", os.path.join(args.kernels, "network_ds_cnn.elf")], 2,
         r"network_ds_cnn\.elf: segment \[0x1c000000, 0x[0-9a-f]{8}\) needs \d+ (bytes|KiB) of L2 but "
         r"l2\.size is 512 KiB \(raise it with --set l2\.size=\.\.\.\)$"),
        ("a cluster program in bare mode", ["run", "--bare", "-q", cluster_matmul], 3,
         r"matmul_fp32_parallel_rows\.elf: load at address 0x10200004 outside every memory .*; the program links the "
         r"cluster runtime \(symbol __cluster_max_cores\): run it without --bare$"),
        ("a platform with more cores than the program", ["run", "--set", "cluster.cores=16", "--set", "fpu.count=16",
                                                         cluster_matmul], 2,
         r"matmul_fp32_parallel_rows\.elf: the program supports at most 9 cores; the platform has 16 \(cluster\.cores\)"),
    ]
    failed = 0
    for name, argv, status, pattern in cases:
        report = os.path.join(w, "report.json")
        if os.path.exists(report):
            os.remove(report)
        full = [args.sim] + argv
        if argv and argv[0] == "run" and status in (2, 3):
            full += ["--report-json", report]
        try:
            r = subprocess.run(full, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: timed out")
            failed += 1
            continue
        lines = [l for l in r.stderr.splitlines() if l.strip()]
        problems = []
        if r.returncode != status:
            problems.append(f"exit status {r.returncode}, expected {status}")
        if len(lines) != 1:
            problems.append(f"stderr has {len(lines)} lines, expected 1: {r.stderr!r}")
        elif not re.search(pattern, lines[0]):
            problems.append(f"stderr {lines[0]!r} does not match {pattern!r}")
        if status == 2 and os.path.exists(report):
            problems.append("a report file was written")
        if status == 3 and "--report-json" in full:
            # The instruction the run failed in retires nothing: its cycles must still be counted as a stall.
            with open(report) as f:
                for c in json.load(f)["cores"]:
                    if c["cycles"] != c["instret"] + sum(c["stalls"].values()):
                        problems.append(f"core {c['id']}: {c['cycles']} cycles, but {c['instret']} "
                                        f"instructions and {sum(c['stalls'].values())} stall cycles")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            print(f"ok   {name}: {lines[0]}")
    failed += bounded_inputs(args, w)
    failed += set_keys_in_help(args)
    failed += deadlock_report(args, w, p("cluster_deadlock"))
    failed += nested_region_macs(args, w, p("nested_regions"), p("fail_in_region"))
    print(f"{len(cases) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
