#!/usr/bin/env python3
"""`pulpsim run --profile / --profile-json`: the per-function profile adds up to the report, core by core
(cycles, instructions and every stall kind, with the cycles after a core's last instruction as their own
row, which holds no instruction), and it puts the work where the program does it: the matmul slice on every
core of the cluster matmul, the workers' sleep in the runtime's worker loop, the bare matmul in `matmul`.
A report path that cannot take the file is refused before the run.

Per source line (--profile-lines, the JSON's `lines`): the lines of each function add up to the function,
and all lines to the report; the matmul's hottest line is in its inner loop, whose line range the test finds
by the marker comments in the C source; the annotated listing of the hottest function has the encodings of
the disassembly (.dis) and the source lines llvm-addr2line gives, and adds up to the function; a program
whose DWARF was stripped gets one note and its function profile unchanged.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

AFTER = "(after the last instruction)"


def counter_tuple(c):
    return (c["cycles"], c["instret"], tuple(sorted(c["stalls"].items())))


def add_counters(a, b):
    if a is None:
        return {"cycles": b["cycles"], "instret": b["instret"], "stalls": dict(b["stalls"])}
    return {"cycles": a["cycles"] + b["cycles"], "instret": a["instret"] + b["instret"],
            "stalls": {k: a["stalls"][k] + v for k, v in b["stalls"].items()}}


def by_function(rows):
    """Per function name: the total and each core's counters, summed over the rows of that name."""
    out = defaultdict(lambda: {"total": None, "cores": defaultdict(lambda: None)})
    for r in rows:
        f = out[r["function"]]
        f["total"] = add_counters(f["total"], r["total"])
        for c in r["cores"]:
            f["cores"][c["core"]] = add_counters(f["cores"][c["core"]], c)
    return {name: (counter_tuple(f["total"]), {k: counter_tuple(v) for k, v in f["cores"].items()})
            for name, f in out.items()}


def loop_lines(source):
    """The line range between the source's inner-loop marker comments (1-based, inclusive)."""
    text = open(source).read().splitlines()
    begin = [i + 1 for i, line in enumerate(text) if "inner loop begins" in line]
    end = [i + 1 for i, line in enumerate(text) if "inner loop ends" in line]
    assert len(begin) == 1 and len(end) == 1 and begin[0] <= end[0], f"{source}: one pair of loop markers"
    return begin[0], end[0]


def dis_listing(dis, function):
    """{address: encoding} of `function` in an llvm-objdump listing, within the size its symbol table gives
    (the padding after a function is not part of it)."""
    text = open(dis).read().splitlines()
    sizes = [re.match(r"^([0-9a-f]+) .* F \S+\s+([0-9a-f]+) (\S+)$", line) for line in text]
    extent = [(int(m.group(1), 16), int(m.group(2), 16)) for m in sizes if m and m.group(3) == function]
    if len(extent) != 1:
        return {}
    start, size = extent[0]
    out = {}
    for line in text:
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{8}|[0-9a-f]{4})\s", line)
        if m and start <= int(m.group(1), 16) < start + size:
            out[int(m.group(1), 16)] = int(m.group(2), 16)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--cluster-elf", required=True, help="matmul_fp32_parallel_rows.elf")
    ap.add_argument("--bare-elf", required=True, help="matmul_fp32.elf")
    ap.add_argument("--cluster-source", required=True, help="the cluster matmul's C source (loop markers)")
    ap.add_argument("--bare-source", required=True, help="the bare matmul's C source (loop markers)")
    ap.add_argument("--objcopy", required=True, help="llvm-objcopy, to strip the DWARF")
    ap.add_argument("--addr2line", required=True, help="llvm-addr2line, the reference for source lines")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def profiled(elf, *extra):
        stem = os.path.basename(elf)
        prof, rep = os.path.join(w, f"{stem}.profile.json"), os.path.join(w, f"{stem}.report.json")
        r = subprocess.run([args.sim, "run", "-q", *extra, "--profile-json", prof, "--report-json", rep, elf],
                           capture_output=True, text=True)
        if not check(r.returncode == 0, f"{os.path.basename(elf)} runs profiled ({r.stderr.strip()[:200]})"):
            return None, None
        return json.load(open(prof)), json.load(open(rep))

    cluster_profile = None
    for elf, extra, source, kernel in [(args.cluster_elf, [], args.cluster_source, "matmul_slice"),
                                       (args.bare_elf, ["--bare"], args.bare_source, "matmul")]:
        profile, report = profiled(elf, *extra)
        if profile is None:
            continue
        functions = profile["functions"]
        if not extra:
            cluster_profile = profile
        name = os.path.basename(elf)
        for i, core in enumerate(report["cores"]):
            rows = [f["cores"][i] for f in functions]
            same = (sum(r["cycles"] for r in rows) == core["cycles"] and
                    sum(r["instret"] for r in rows) == core["instret"] and
                    all(sum(r["stalls"][k] for r in rows) == v for k, v in core["stalls"].items()))
            check(same, f"{name} core {core['id']}: the functions add up to the report's {core['cycles']} cycles, "
                  f"{core['instret']} instructions and each stall kind")
        after = [f for f in functions if f["function"] == AFTER]
        check(not after or after[0]["total"]["instret"] == 0, f"{name}: the last row holds no instruction")
        top = max((f for f in functions if f["function"] != AFTER), key=lambda f: f["total"]["instret"])
        if extra:
            check(top["function"] == "matmul", f"bare matmul: most instructions in matmul ({top['function']})")
        else:
            check(top["function"] == "matmul_slice" and all(c["instret"] > 100000 for c in top["cores"]),
                  f"cluster matmul: most instructions in matmul_slice, on every core ({top['function']})")
            loop = [f for f in functions if f["function"] == "__cluster_worker_loop"]
            sleep_1 = sum(f["cores"][1]["stalls"]["sleep"] for f in functions if f["function"] != AFTER)
            check(loop and loop[0]["cores"][1]["stalls"]["sleep"] >= 0.9 * sleep_1 > 0,
                  "worker core 1 sleeps in __cluster_worker_loop")

        lines = profile.get("lines")
        if not check(bool(lines) and "lines_note" not in profile, f"{name}: the JSON has a lines array"):
            continue
        for i, core in enumerate(report["cores"]):
            rows = [ln["cores"][i] for ln in lines]
            same = (sum(r["cycles"] for r in rows) == core["cycles"] and
                    sum(r["instret"] for r in rows) == core["instret"] and
                    all(sum(r["stalls"][k] for r in rows) == v for k, v in core["stalls"].items()))
            check(same, f"{name} core {core['id']}: the lines add up to the report's {core['cycles']} cycles, "
                  f"{core['instret']} instructions and each stall kind")
        check(by_function(lines) == by_function(functions),
              f"{name}: each function's lines add up to the function, in total and on each core")
        begin, end = loop_lines(source)
        own = [ln for ln in lines if ln["function"] == kernel and
               os.path.realpath(ln["file"]) == os.path.realpath(source)]
        hottest = max(own, key=lambda ln: ln["total"]["cycles"], default=None)
        check(hottest is not None and begin <= hottest["line"] <= end,
              f"{name}: {kernel}'s hottest line ({hottest and hottest['line']}) is in the inner loop, "
              f"lines {begin}-{end} of {os.path.basename(source)}")
        in_loop = sum(ln["total"]["cycles"] for ln in own if begin <= ln["line"] <= end)
        kernel_cycles = sum(f["total"]["cycles"] for f in functions if f["function"] == kernel)
        check(in_loop > 0.9 * kernel_cycles,
              f"{name}: the inner loop's lines hold over 90% of {kernel}'s cycles ({in_loop} of {kernel_cycles})")

    plain = os.path.join(w, "plain.json")
    subprocess.run([args.sim, "run", "-q", "--report-json", plain, args.cluster_elf], capture_output=True)
    check(json.load(open(plain))["cores"] == json.load(open(os.path.join(w, os.path.basename(args.cluster_elf) + ".report.json")))["cores"]
          if os.path.exists(plain) else False, "profiling changes no cycle count (cluster matmul, every core)")
    # One run shows every table: the report, the functions, the lines, the annotated hottest function.
    r = subprocess.run([args.sim, "run", "--profile", "--profile-lines", "--profile-annotate", args.cluster_elf],
                       capture_output=True, text=True)
    check(r.returncode == 0 and "profile: cycles per function, 8 cores" in r.stdout and "matmul_slice" in r.stdout and
          r.stdout.index("cycles") < r.stdout.index("profile: cycles per function"),
          "--profile prints the table after the report")
    out = r.stdout.split("profile: cycles per source line", 1)
    first = out[1].splitlines()[2] if len(out) == 2 and len(out[1].splitlines()) > 2 else ""
    m = re.match(r"^\S*matmul_parallel\.c:(\d+)\s+matmul_slice\s", first)
    begin, end = loop_lines(args.cluster_source)
    check("profile: cycles per function" in out[0] and m and begin <= int(m.group(1)) <= end,
          f"--profile-lines prints the functions, then the lines, the inner loop's first ({first[:60]!r})")

    # The annotated hottest function: the disassembly's instructions, llvm-addr2line's lines, the function's sums.
    listing = r.stdout.split("profile: matmul_slice instruction by instruction", 1)
    rows = [ln.split() for ln in listing[1].splitlines()[2:]] if len(listing) == 2 else []
    # address, encoding, the instruction's text (several words), cycles, share, instret, 11 stall kinds, line
    rows = [t for t in rows if len(t) >= 18 and re.fullmatch(r"[0-9a-f]{8}", t[0])]
    dis = dis_listing(os.path.splitext(args.cluster_elf)[0] + ".dis", "matmul_slice")
    check(r.returncode == 0 and dis and {int(t[0], 16): int(t[1], 16) for t in rows} == dis,
          f"--profile-annotate lists every instruction of matmul_slice with its encoding ({len(rows)} rows, "
          f"{len(dis)} in the .dis)")
    if cluster_profile and rows:
        slice_total = [f["total"] for f in cluster_profile["functions"] if f["function"] == "matmul_slice"][0]
        check(sum(int(t[-15]) for t in rows) == slice_total["cycles"] and
              sum(int(t[-13]) for t in rows) == slice_total["instret"],
              "the annotated instructions add up to matmul_slice's cycles and instructions")
        ref = subprocess.run([args.addr2line, "-e", args.cluster_elf, *[f"0x{t[0]}" for t in rows]],
                             capture_output=True, text=True).stdout.splitlines()
        ref = [os.path.basename(re.sub(r" \(discriminator \d+\)$", "", x)) for x in ref]
        ours = [os.path.basename(t[-1]) for t in rows]
        check(len(ref) == len(rows) and ours == ref,
              f"each annotated instruction has the source line llvm-addr2line gives "
              f"({[(a, b) for a, b in zip(ours, ref) if a != b][:3]})")

    # No DWARF: one note, the function profile as before.
    stripped = os.path.join(w, "stripped.elf")
    subprocess.run([args.objcopy, "--strip-debug", args.cluster_elf, stripped], check=True)
    prof = os.path.join(w, "stripped.profile.json")
    r = subprocess.run([args.sim, "run", "-q", "--profile-lines", "--profile-annotate", "--profile-json", prof,
                        stripped], capture_output=True, text=True)
    note = f"no DWARF line information in {stripped}"
    check(r.returncode == 0 and r.stdout.count(note) == 1 and r.stdout.count("no DWARF") == 1 and
          "profile: cycles per function" in r.stdout and "per source line" not in r.stdout,
          "a program without DWARF: the function table and one note instead of the line views")
    stripped_profile = json.load(open(prof)) if os.path.exists(prof) else {}
    check(stripped_profile.get("lines") == [] and stripped_profile.get("lines_note") == note and cluster_profile and
          stripped_profile.get("functions") == cluster_profile["functions"],
          "a program without DWARF: an empty lines array with the note in the JSON, the same functions")

    # Limited to a region: the instructions issued while it is open, as the report counts them for it.
    for elf, extra in [(args.cluster_elf, []), (args.bare_elf, ["--bare"])]:
        name = os.path.basename(elf)
        profile, report = profiled(elf, *extra, "--view-region", "matmul")
        if profile is None:
            continue
        region = next(g for g in report["regions"] if g["name"] == "matmul")
        shown = sum(f["total"]["instret"] for f in profile["functions"])
        check(shown == region["instret"] and "matmul" in profile["shows"],
              f"{name} --view-region matmul: the profile holds the region's {region['instret']} instructions ({shown})")
        # The workers sleep at both edges of the region (fork and join), so each core's cycles in it are
        # exactly the region's, however long the workers slept before it opened.
        cycles = [sum(f["cores"][c]["cycles"] for f in profile["functions"]) for c in range(len(report["cores"]))]
        check(cycles == [region["cycles"]] * len(report["cores"]),
              f"{name} --view-region matmul: each core's rows add up to the region's {region['cycles']} cycles "
              f"({cycles})")
        kernel = "matmul_slice" if not extra else "matmul"
        check({f["function"] for f in profile["functions"]} >= {kernel} and
              all(f["function"] != "main" or f["total"]["instret"] < 100 for f in profile["functions"]),
              f"{name} --view-region matmul: {kernel} is in it and main is not beyond the region's calls")
    # Limited to a window: each core's instructions issued in it, as the instruction trace lists them.
    trace = os.path.join(w, "window.trace")
    profile, _ = profiled(args.cluster_elf, "--view-window", "300000:304000", "--trace", trace,
                          "--trace-window", "300000:304000")
    if profile is not None:
        per_core = {}
        for line in open(trace):
            if not line.startswith("#"):
                core = int(line.split()[1])
                per_core[core] = per_core.get(core, 0) + 1
        ours = {c: sum(f["cores"][c]["instret"] for f in profile["functions"]) for c in range(8)}
        check(ours == {c: per_core.get(c, 0) for c in range(8)} and min(ours.values()) > 1000,
              f"--view-window 300000:304000: per core, the profile's instructions are the trace's lines ({ours})")
        cycles = [sum(f["cores"][c]["cycles"] for f in profile["functions"]) for c in range(8)]
        check(cycles == [4000] * 8, f"--view-window 300000:304000: each core's rows add up to 4000 cycles ({cycles})")
    r = subprocess.run([args.sim, "run", "-q", "--view-region", "matmul", args.cluster_elf],
                       capture_output=True, text=True)
    check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "--profile" in r.stderr,
          f"--view-region without a view: one line naming the views, exit 2 ({r.stderr.strip()})")

    r = subprocess.run([args.sim, "run", "--profile-json", w, args.cluster_elf], capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "--profile-json" not in r.stdout and not r.stdout,
          f"a directory as --profile-json: one line, exit 2, no run ({lines})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
