#!/usr/bin/env python3
"""Files in and out of `pulpsim run`: a FIFO or a device given as the program or the platform is refused at
once (no hang, no endless read); a report target that cannot take a file (a device, a directory, an empty
path) is bad input found before the run, and nothing at it changes; a symlink is written through; an output naming an input (the program, the platform
or the --memory file) is refused; when one
of two reports cannot be written, neither is; region names with commas, quotes, line breaks or bytes that
are not UTF-8 give valid JSON and CSV. Every refusal is one line and exit status 2, within seconds."""
import argparse
import csv
import io
import json
import os
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

check = Checks()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--regions", required=True)
    ap.add_argument("--cluster-elf", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    fifo = os.path.join(w, "fifo")
    os.mkfifo(fifo)

    def run(*a):
        try:
            return subprocess.run([args.sim, "run", *a], capture_output=True, text=True, timeout=20,
                                  errors="replace")
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(a, -1, "", "timed out")

    def refused(r, *words):
        lines = r.stderr.strip().splitlines()
        return r.returncode == 2 and len(lines) == 1 and all(x in lines[0] for x in words)

    r = run(fifo)
    check(refused(r, fifo, "not a regular file"), f"a FIFO as the program is refused at once ({r.stderr.strip()})")
    for platform in (fifo, "/dev/zero"):
        r = run("--platform", platform, args.cluster_elf)
        check(refused(r, platform, "not a regular file"), f"{platform} as the platform is refused ({r.stderr.strip()})")

    null_before = os.stat("/dev/null")
    r = run("-q", "--report-json", "/dev/null", args.cluster_elf)
    null_after = os.stat("/dev/null")
    check(refused(r, "/dev/null", "not a regular file") and stat.S_ISCHR(null_after.st_mode)
          and null_after.st_ino == null_before.st_ino, "a device as the report is refused and left as it is")
    # Standard output is a pipe here: /dev/stdout leads to it through a link only the kernel resolves.
    r = run("-q", "--report-csv", "/dev/stdout", args.cluster_elf)
    check(refused(r, "/dev/stdout", "not a regular file") and not r.stdout,
          f"/dev/stdout on a pipe as the report is refused before the run ({r.stderr.strip()})")
    folder = os.path.join(w, "folder")
    os.makedirs(os.path.join(folder, "inside"))
    r = run("-q", "--report-json", folder, args.cluster_elf)
    check(refused(r, folder, "is a directory") and os.listdir(folder) == ["inside"],
          f"a directory as the report is refused by name ({r.stderr.strip()})")
    r = run("-q", "--report-json", "", args.cluster_elf)
    check(refused(r, "empty path"), f"an empty report path is refused ({r.stderr.strip()})")

    target = os.path.join(w, "real.json")
    link = os.path.join(w, "link.json")
    os.symlink("real.json", link)
    r = run("-q", "--report-json", link, args.cluster_elf)
    check(r.returncode == 0 and os.path.islink(link) and json.load(open(target))["cycles"] > 0,
          "a symlink as the report is written through and stays a symlink")
    # A report written again keeps the permissions its owner gave the file.
    os.chmod(target, 0o640)
    r = run("-q", "--report-json", target, args.cluster_elf)
    mode = stat.S_IMODE(os.stat(target).st_mode)
    check(r.returncode == 0 and mode == 0o640, f"a report written over an 0640 file keeps 0640 ({mode:o})")

    # An output naming an input, by the same path or through a link, is refused and the input stays as it was.
    program = os.path.join(w, "program.elf")
    shutil.copyfile(args.cluster_elf, program)
    platform = os.path.join(w, "platform.yaml")
    shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "platforms",
                                 "pulp-open.yaml"), platform)
    platform_link = os.path.join(w, "platform_link.yaml")
    os.symlink("platform.yaml", platform_link)
    memory_map = os.path.join(w, "map.yaml")
    with open(memory_map, "w") as f:
        f.write("memory:\n  - {base: 0x80000000, size: 4MiB}\n")
    for what, argv, victim in [
            ("--report-json naming the program", ["-q", "--report-json", program, program], program),
            ("--trace naming the platform through a link",
             ["-q", "--platform", platform, "--trace", platform_link, program], platform),
            ("--report-csv naming the --memory file",
             ["--bare", "-q", "--memory", memory_map, "--report-csv", memory_map, args.regions], memory_map)]:
        before = open(victim, "rb").read()
        r = run(*argv)
        check(refused(r, "name the same file", "overwritten") and open(victim, "rb").read() == before,
              f"{what} is refused and the input is unchanged ({r.stderr.strip()})")

    js = os.path.join(w, "both.json")
    r = run("-q", "--report-json", js, "--report-csv", folder, args.cluster_elf)
    leftovers = [f for f in os.listdir(w) if ".tmp" in f]
    check(refused(r, folder) and not os.path.exists(js) and not leftovers,
          f"when the CSV cannot be written the JSON is not written either, and no temporary stays ({leftovers})")

    js, cs = os.path.join(w, "names.json"), os.path.join(w, "names.csv")
    r = run("--bare", "-q", "--report-json", js, "--report-csv", cs, args.regions)
    try:
        names = [x["name"] for x in json.load(open(js, encoding="utf-8"))["regions"]]
    except (OSError, ValueError) as e:
        names = [f"unreadable: {e}"]
    check(r.returncode == 0 and names[:2] == ['fw,"tile"', "line\nbreak"] and names[2].startswith("caf"),
          f"region names with a comma, a quote, a line break and non-UTF-8 bytes give valid JSON ({names})")
    rows = [row for row in csv.reader(io.StringIO(open(cs, encoding="utf-8", errors="replace").read()))
            if row and row[0] == "region"]
    check([row[1] for row in rows][:2] == ['fw,"tile"', "line\nbreak"] and all(len(row) == len(rows[0]) for row in rows),
          "and a CSV whose region rows parse back to the names, each with every column")

    # The CSV's first row is the run's, named by its outcome as the JSON names it: a failed run's rows are
    # no result.
    for extra, outcome in (([], "exit"), (["--max-cycles", "50"], "max_cycles")):
        js, cs = os.path.join(w, f"{outcome}.json"), os.path.join(w, f"{outcome}.csv")
        r = run("-q", *extra, "--report-json", js, "--report-csv", cs, args.cluster_elf)
        try:
            report = json.load(open(js))
            table = list(csv.reader(open(cs)))
        except (OSError, ValueError) as e:
            report, table = {}, [[f"unreadable: {e}"]]
        first = table[1] if len(table) > 1 else []
        check(report.get("outcome") == outcome and first[:6] == [
                  "run", outcome, str(report.get("cycles")), str(report.get("instret")), str(report.get("macs")),
                  f"{report.get('mac_per_cycle', 0):.6f}"],
              f"{outcome}: the CSV's first row is the run's, with the JSON's outcome, cycles, instructions and MACs "
              f"({r.returncode}: {first})")

    # A run stopped by --max-cycles: a core asleep at the limit counts its sleep up to it, as at the end of a
    # run that finished, so that its row does not end where it fell asleep.
    limit = 100000
    js = os.path.join(w, "limit.json")
    r = run("-q", "--max-cycles", str(limit), "--report-json", js, args.cluster_elf)
    try:
        cores = json.load(open(js))["cores"]
    except (OSError, ValueError, KeyError):
        cores = []
    asleep = [c for c in cores if c["stalls"]["sleep"] > 0]
    check(r.returncode == 4 and "asleep at" in r.stderr and asleep and all(c["cycles"] == limit for c in asleep)
          and all(c["cycles"] >= limit for c in cores),
          f"--max-cycles {limit}: the cores asleep at the limit count their sleep up to it "
          f"({[(c['cycles'], c['stalls']['sleep']) for c in cores]})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
