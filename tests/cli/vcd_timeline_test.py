#!/usr/bin/env python3
"""`pulpsim run --vcd / --timeline`: the waveforms and the timeline of a run agree with its report.

- The VCD parses (with the small reader below, not the simulator's code), and per core the cycles it spends
  in each state add up to the report's figures: `running` to the instructions, each stall kind to that stall
  column, all of them to the core's cycles. Per shared FPU and div/sqrt unit the busy cycles are the report's
  busy cycles, per TCDM bank the cycles requests waited (the integral of `waiting`) its conflict cycles, and
  the DMA channels are busy exactly while the report says a transfer was in flight.
- The timeline is valid trace-event JSON as trace viewers demand it (every event has ph/ts/pid/tid/name, B/E
  pairs match per track, X slices on a track nest without overlapping, counters carry numbers), its region
  slices last the report's region cycles on every core track, its sleep slices a core's sleep cycles, its DMA
  slices are the report's transfers and bytes, and the MAC/cycle counter is the report's.
- --view-window and --view-region cut both views where asked; bad values and unwritable paths are one line
  and exit status 2, before the run, with no file written; the views change no cycle count.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

STALLS = ["load_use", "jump_register", "control", "fpu_dependency", "multi_cycle", "tcdm_contention",
          "fpu_contention", "icache_miss", "memory_latency", "sleep", "dma_wait"]


class Vcd:
    """A VCD reader: scopes, variables (wire/string), the value changes of each and the dump's time span."""

    def __init__(self, path):
        self.vars = {}        # full name -> (id, type, width)
        self.changes = defaultdict(list)  # id -> [(time, value)], value a str
        self.timescale = None
        self.times = []
        scope = []
        with open(path) as f:
            tokens = iter(f.read().split("$enddefinitions", 1)[0].split())
            for tok in tokens:
                if tok == "$scope":
                    next(tokens)
                    scope.append(next(tokens))
                    assert next(tokens) == "$end"
                elif tok == "$upscope":
                    scope.pop()
                    assert next(tokens) == "$end"
                elif tok == "$var":
                    vtype, width, ident, name = next(tokens), int(next(tokens)), next(tokens), next(tokens)
                    rest = next(tokens)
                    if rest != "$end":  # a range such as [3:0]
                        assert next(tokens) == "$end"
                    self.vars[".".join(scope + [name])] = (ident, vtype, width)
                elif tok == "$timescale":
                    self.timescale = next(tokens)
                    assert next(tokens) == "$end"
                elif tok in ("$comment", "$version", "$date"):
                    while next(tokens) != "$end":
                        pass
            assert not scope, "scopes left open"
            f.seek(0)
            body = f.read().split("$enddefinitions $end", 1)[1]
        now = None
        for line in body.split("\n"):
            if not line or line in ("$dumpvars", "$end"):
                continue
            if line[0] == "#":
                t = int(line[1:])
                assert now is None or t > now, f"time goes back at #{t}"
                now = t
                self.times.append(t)
            elif line[0] in "bsr":
                value, ident = line[1:].split(" ")
                self.changes[ident].append((now, value))
            else:
                self.changes[line[1:]].append((now, line[0]))
        self.start, self.end = self.times[0], self.times[-1]

    def signal(self, name):
        return self.changes[self.vars[name][0]]

    def durations(self, name):
        """Cycles the signal holds each value, from the dump's start to its end."""
        out = defaultdict(int)
        ch = self.signal(name)
        for (t, v), nxt in zip(ch, ch[1:] + [(self.end, None)]):
            out[v] += nxt[0] - t
        return out

    def values_within(self, name, begin, end):
        """The value at `begin` and the changes up to `end`, with repeated values dropped."""
        out, current = [], None
        for t, v in self.signal(name):
            if t <= begin:
                current = v
            elif t < end and v != (out[-1][1] if out else current):
                out.append((t, v))
        return [(begin, current)] + out

    def union_of_ones(self, names):
        """Cycles in which at least one of the 1-bit signals is 1."""
        points = sorted((t, i, v) for i, n in enumerate(names) for t, v in self.signal(n))
        level, since, total = [None] * len(names), None, 0
        for t, i, v in points + [(self.end, -1, None)]:
            if since is not None:
                total += t - since
            if i >= 0:
                level[i] = v
            since = t if "1" in level else None
        return total

    def integral(self, name):
        """Sum over cycles of a vector's value (x counts 0)."""
        total = 0
        ch = self.signal(name)
        for (t, v), nxt in zip(ch, ch[1:] + [(self.end, None)]):
            total += (int(v, 2) if "x" not in v else 0) * (nxt[0] - t)
        return total


def states_add_up(d, core):
    """A core's VCD state durations against its report: each stall kind, with the share of dma_wait spent on
    pushes into a full DMA command queue as a state of its own, and the instructions."""
    full = core["counters"]["dma_queue_full_cycles"]
    stalls = dict(core["stalls"], dma_wait=core["stalls"]["dma_wait"] - full)
    return (d.get("running", 0) == core["instret"] and d.get("dma_queue_full", 0) == full and
            all(d.get(k, 0) == v for k, v in stalls.items()))


def core_tracks(events, slices):
    """The X slices of each core's timeline track, by core id."""
    threads = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    return {int(n.split()[1]): slices[(1, t)] for t, n in threads.items() if n.startswith("core ")}


def check_trace_format(events, check, what):
    """The trace-event rules a viewer enforces; returns the X slices per (pid, tid)."""
    ok = all(all(k in e for k in ("ph", "ts", "pid", "tid", "name")) for e in events)
    check(ok, f"{what}: every event has ph, ts, pid, tid and name")
    slices, open_be = defaultdict(list), defaultdict(list)
    bad_be = bad_c = 0
    for e in sorted((e for e in events if e["ph"] in "BE"), key=lambda e: e["ts"]):
        stack = open_be[(e["pid"], e["tid"])]
        if e["ph"] == "B":
            stack.append(e)
        elif not stack:
            bad_be += 1
        else:
            stack.pop()
    bad_be += sum(len(s) for s in open_be.values())
    check(bad_be == 0, f"{what}: B/E events match per track")
    for e in events:
        if e["ph"] == "X":
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e))
        if e["ph"] == "C":
            bad_c += not (isinstance(e.get("args"), dict) and e["args"] and
                          all(isinstance(v, (int, float)) for v in e["args"].values()))
    check(bad_c == 0, f"{what}: counter events carry numeric series")
    overlaps = zero = 0
    for track in slices.values():
        track.sort(key=lambda s: (s[0], -s[1]))
        ends = []
        for begin, end, _ in track:
            zero += end <= begin
            while ends and ends[-1] <= begin:
                ends.pop()
            overlaps += bool(ends) and end > ends[-1]
            ends.append(end)
    check(overlaps == 0 and zero == 0, f"{what}: X slices on each track nest, none overlaps another or is empty "
          f"({overlaps} overlapping, {zero} empty)")
    return slices


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--cluster-elf", required=True, help="matmul_fp32_parallel_rows.elf (pulp-open)")
    ap.add_argument("--dma-elf", required=True, help="depthwise_tiled_odd.elf (vega: shared FPUs, DMA)")
    ap.add_argument("--platforms", required=True)
    ap.add_argument("--regions-elf", required=True, help="region_names.elf (bare; names a region it never opens)")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def run(name, elf, *extra):
        rep, vcd, trace = (os.path.join(w, f"{name}.{ext}") for ext in ("report.json", "vcd", "trace.json"))
        r = subprocess.run([args.sim, "run", "-q", *extra, "--report-json", rep, "--vcd", vcd, "--timeline", trace,
                            elf], capture_output=True, text=True)
        if not check(r.returncode == 0, f"{name}: runs with --vcd and --timeline ({r.stderr.strip()[:200]})"):
            return None, None, None
        return json.load(open(rep)), Vcd(vcd), json.load(open(trace))

    # ---- the whole run of an 8-core matmul on pulp-open (private FPUs) ----
    report, vcd, trace = run("matmul", args.cluster_elf)
    if report:
        check(vcd.timescale == "1ns" and vcd.start == 0 and vcd.end == report["cycles"],
              f"matmul VCD: one cycle per time unit, cycles 0..{report['cycles']} ({vcd.timescale}, {vcd.start}..{vcd.end})")
        for core in report["cores"]:
            d = vcd.durations(f"cluster.core{core['id']}.state")
            same = states_add_up(d, core) and sum(v for k, v in d.items() if k != "ended") == core["cycles"]
            check(same, f"matmul core {core['id']}: its states add up to the report's {core['cycles']} cycles, "
                  f"{core['instret']} instructions and each stall kind")
            active = vcd.durations(f"cluster.core{core['id']}.active")
            check(active.get("0", 0) == core["stalls"]["sleep"] + core["stalls"]["dma_wait"],
                  f"matmul core {core['id']}: inactive exactly while asleep ({active.get('0', 0)} cycles)")
        for unit in report["fpus"]["units"]:
            busy = vcd.durations(f"cluster.fpu{unit['fpu']}.busy").get("1", 0)
            check(busy == unit["busy_cycles"], f"matmul FPU {unit['fpu']}: busy {busy} cycles, the report's {unit['busy_cycles']}")
        banks = report["tcdm"]["banks"]
        waited = [vcd.integral(next(n for n in vcd.vars if n.startswith(f"cluster.tcdm.bank{b['bank']}.waiting")))
                  for b in banks]
        check(waited == [b["conflicts"] for b in banks] and sum(waited) > 0,
              f"matmul: the requests waiting on each bank add up to its conflict cycles ({sum(waited)} in all)")
        regions = [v for t, v in vcd.signal("cluster.region")]
        check("matmul" in regions, "matmul VCD: the region signal names the perf region")

        events = trace["traceEvents"]
        slices = check_trace_format(events, check, "matmul timeline")
        threads = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
        core_tids = {int(n.split()[1]): t for t, n in threads.items() if n.startswith("core ")}
        check(sorted(core_tids) == list(range(len(report["cores"]))), f"matmul timeline: a track per core ({sorted(core_tids)})")
        want = {r["name"]: r["cycles"] for r in report["regions"]}
        for core in report["cores"]:
            track = slices[(1, core_tids[core["id"]])]
            got = defaultdict(int)
            for b, e, ev in track:
                if ev.get("cat") == "region":
                    got[ev["name"]] += e - b
            check(dict(got) == want, f"matmul timeline core {core['id']}: region slices last the report's region cycles ({dict(got)})")
            sleep = sum(e - b for b, e, ev in track if ev["name"] == "sleep")
            check(sleep == core["stalls"]["sleep"], f"matmul timeline core {core['id']}: sleep slices last its {core['stalls']['sleep']} sleep cycles")
            mm = [(b, e) for b, e, ev in track if ev["name"] == "matmul"]
            inside = [ev["name"] for b, e, ev in track if ev.get("cat") == "function" and mm and mm[0][0] <= b and e <= mm[0][1]]
            check("matmul_slice" in inside, f"matmul timeline core {core['id']}: matmul_slice runs inside the matmul region")
        macs = [e for e in events if e["ph"] == "C" and e["name"] == "MAC/cycle"]
        region = report["regions"][0]
        check(macs and abs(macs[0]["args"][region["name"]] - region["mac_per_cycle"]) < 1e-9,
              f"matmul timeline: the MAC/cycle counter reads the report's {region['mac_per_cycle']:.4f}")

        # scripts/plot_timeline.py draws the whole run (17,000 slices), and says in one line what it cannot draw.
        # Run by a Python with matplotlib (Debian's, which install-deps.sh gives it), as the README runs it.
        python = next((p for p in [sys.executable, "/usr/bin/python3"] if shutil.which(p) and subprocess.run(
            [p, "-c", "import matplotlib"], capture_output=True).returncode == 0), sys.executable)
        plot = [python, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                                     "plot_timeline.py")]
        png = os.path.join(w, "matmul.timeline.png")
        r = subprocess.run([*plot, os.path.join(w, "matmul.trace.json"), png], capture_output=True, text=True)
        drawn = os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
        check(r.returncode == 0 and drawn, f"plot_timeline.py draws the whole run's timeline ({r.stderr[-300:]})")
        for what, extra, said in [
                ("a missing file", [os.path.join(w, "none.json"), png], "none.json: No such file or directory"),
                ("the JSON report", [os.path.join(w, "matmul.report.json"), png], "not a timeline"),
                ("--from after --to", [os.path.join(w, "matmul.trace.json"), png, "--from", "500", "--to", "100"],
                 "--from 500 is not before --to 100")]:
            r = subprocess.run([*plot, *extra], capture_output=True, text=True)
            lines = r.stderr.strip().splitlines()
            check(r.returncode != 0 and len(lines) == 1 and said in lines[0],
                  f"plot_timeline.py with {what}: one line saying so ({r.stderr.strip()[-300:]})")

        plain = os.path.join(w, "plain.json")
        subprocess.run([args.sim, "run", "-q", "--report-json", plain, args.cluster_elf], capture_output=True)
        check(os.path.exists(plain) and json.load(open(plain))["cores"] == report["cores"],
              "the views change no cycle count (matmul, every core and counter)")

        # ---- a window and a region ----
        rw, vw, tw = run("window", args.cluster_elf, "--view-window", "100000:150000")
        if rw:
            check((vw.start, vw.end) == (100000, 150000), f"--view-window 100000:150000: the VCD spans it ({vw.start}..{vw.end})")
            d = vw.durations("cluster.core3.state")
            check(sum(d.values()) == 50000 and "x" not in d, "--view-window: every core state covers the window")
            xs = [e for e in tw["traceEvents"] if e["ph"] in "Xi"]
            check(xs and all(100000 <= e["ts"] and e["ts"] + e.get("dur", 0) <= 150000 for e in xs),
                  "--view-window: every timeline slice lies inside the window")
            check_trace_format(tw["traceEvents"], check, "windowed timeline")

    # ---- vega: 8 + 1 cores, shared FPUs, the DMA ----
    vega = os.path.join(args.platforms, "vega.yaml")
    report, vcd, trace = run("dma", args.dma_elf, "--platform", vega)
    if report:
        for core in report["cores"]:
            d = vcd.durations(f"cluster.core{core['id']}.state")
            check(states_add_up(d, core),
                  f"vega core {core['id']}: its states add up to the report's instructions and stalls")
        fpus = report["fpus"]
        busy = [vcd.durations(f"cluster.fpu{u['fpu']}.busy").get("1", 0) for u in fpus["units"]]
        check(busy == [u["busy_cycles"] for u in fpus["units"]] and
              all(vcd.durations(f"cluster.divsqrt{u['unit']}.busy").get("1", 0) == u["busy_cycles"]
                  for u in fpus["divsqrt_units"]),
              f"vega: each shared FPU and div/sqrt unit is busy for the report's busy cycles ({busy})")
        banks = report["tcdm"]["banks"]
        check([vcd.integral(f"cluster.tcdm.bank{b['bank']}.waiting") for b in banks] == [b["conflicts"] for b in banks],
              "vega: the requests waiting on each bank (cores and DMA) add up to its conflict cycles")
        busy = vcd.union_of_ones(["cluster.dma.in.busy", "cluster.dma.out.busy"])
        check(report["dma"]["transfers"] > 0 and busy == report["dma"]["busy_cycles"] > 0,
              f"vega: a DMA channel is busy in the report's {report['dma']['busy_cycles']} busy cycles ({busy})")
        flight = vcd.signal("cluster.dma.bytes_in_flight")
        check(int(flight[-1][1], 2) == 0 and max(int(v, 2) for t, v in flight) > 0,
              "vega: bytes in flight rise and fall back to 0")
        dma = [e for e in trace["traceEvents"] if e["ph"] == "X" and e.get("cat") == "dma"]
        check(len(dma) == report["dma"]["transfers"] and
              sum(e["args"]["bytes"] for e in dma) == report["dma"]["bytes_in"] + report["dma"]["bytes_out"],
              f"vega timeline: one DMA slice per transfer, carrying its bytes ({len(dma)} transfers)")
        check_trace_format(trace["traceEvents"], check, "vega timeline")

        reg = report["regions"][1]
        rr, vr, tr = run("region", args.dma_elf, "--platform", vega, "--view-region", reg["name"])
        if rr:
            check(vr.end - vr.start == reg["cycles"] and set(v for t, v in vr.signal("cluster.region")) == {reg["name"]},
                  f"--view-region {reg['name']}: the VCD spans the region's {reg['cycles']} cycles and nothing else")
            same = [n for n in vr.vars if vr.values_within(n, vr.start, vr.end) == vcd.values_within(n, vr.start, vr.end)]
            check(len(same) == len(vr.vars) == len(vcd.vars),
                  f"--view-region {reg['name']}: every signal reads as in the whole run's VCD ({len(same)} of {len(vr.vars)})")
            busy = vr.union_of_ones(["cluster.dma.in.busy", "cluster.dma.out.busy"])
            check(busy == reg["dma"]["busy_cycles"],
                  f"--view-region {reg['name']}: the DMA is busy for the region's {reg['dma']['busy_cycles']} cycles ({busy})")
            rs = [e for e in tr["traceEvents"] if e["ph"] == "X" and e.get("cat") == "region"]
            xs = [e for e in tr["traceEvents"] if e["ph"] in "Xi"]
            check(len(rs) == len(report["cores"]) and all(e["dur"] == reg["cycles"] for e in rs) and
                  all(rs[0]["ts"] <= e["ts"] and e["ts"] + e.get("dur", 0) <= rs[0]["ts"] + reg["cycles"] for e in xs),
                  f"--view-region {reg['name']}: the timeline holds the region on every core and nothing outside it")
            check_trace_format(tr["traceEvents"], check, "region timeline")

    # ---- a DMA command queue of one: core 0 pushes into a full queue, awake, which is no sleep ----
    report, vcd, trace = run("queue", args.dma_elf, "--platform", vega, "--set", "dma.queue_depth=1")
    if report:
        full = {c["id"]: c["counters"]["dma_queue_full_cycles"] for c in report["cores"]}
        check(full[0] > 0 and 0 < full[0] < report["cores"][0]["stalls"]["dma_wait"],
              f"queue depth 1: core 0 waits on a full queue for part of its DMA waits ({full[0]} cycles)")
        tracks = core_tracks(trace["traceEvents"], check_trace_format(trace["traceEvents"], check, "queue timeline"))
        for core in report["cores"]:
            i, stalls = core["id"], core["stalls"]
            check(states_add_up(vcd.durations(f"cluster.core{i}.state"), core),
                  f"queue depth 1, core {i}: its states add up to the report's instructions and stalls")
            inactive = vcd.durations(f"cluster.core{i}.active").get("0", 0)
            check(inactive == stalls["sleep"] + stalls["dma_wait"] - full[i],
                  f"queue depth 1, core {i}: inactive while asleep, not while pushing into a full queue "
                  f"({inactive} cycles)")
            waits = defaultdict(int)
            for b, e, ev in tracks[i]:
                if ev.get("cat") == "wait":
                    waits[ev["name"]] += e - b
            check(waits["dma_queue_full"] == full[i] and waits["dma_wait"] == stalls["dma_wait"] - full[i] and
                  waits["sleep"] == stalls["sleep"],
                  f"queue depth 1, core {i}: the timeline's wait slices are its sleep, DMA wait and full-queue "
                  f"cycles ({dict(waits)})")

    # ---- views that show no cycle: the run and its files go ahead, with one warning saying why ----
    nothing_dir = fresh_dir(os.path.join(w, "nothing"))
    rep = os.path.join(nothing_dir, "report.json")
    for elf, extra, view, why in [
            (args.cluster_elf, [], ["--timeline", "t.json", "--view-window", "5000000:"],
             r"the run's (\d+) cycles end before cycles 5000000\.\. \(to the end\)$"),
            (args.cluster_elf, [], ["--profile", "--view-window", "5000000:6000000"],
             r"the run's (\d+) cycles end before cycles 5000000\.\.6000000$"),
            (args.cluster_elf, [], ["--vcd", "w.vcd", "--view-region", "matmul", "--view-window", "0:10"],
             r"the runs of region 'matmul' lie outside cycles 0\.\.10$"),
            (args.cluster_elf, [], ["--profile", "--view-region", "matmul", "--view-window", "0:10"],
             r"the runs of region 'matmul' lie outside cycles 0\.\.10$"),
            (args.regions_elf, ["--bare"], ["--timeline", "t.json", "--view-region", "never_opened"],
             r"--view-region: region 'never_opened' never ran; the views show no cycles$"),
            (args.regions_elf, ["--bare"], ["--profile", "--view-region", "never_opened"],
             r"--view-region: region 'never_opened' never ran; the views show no cycles$")]:
        r = subprocess.run([args.sim, "run", "-q", *extra, *view, "--report-json", rep, elf], capture_output=True,
                           text=True, cwd=nothing_dir)
        lines = r.stderr.strip().splitlines()
        m = re.search(why, lines[0]) if len(lines) == 1 else None
        cycles = json.load(open(rep))["cycles"] if r.returncode == 0 else None
        check(r.returncode == 0 and m is not None and lines[0].startswith("pulpsim: warning: ") and
              (m.groups() == () or int(m.group(1)) == cycles),
              f"{' '.join(view)}: exit 0 and one warning saying why nothing is shown ({lines})")

    # ---- bad input: one line, exit 2, before the run, nothing written ----
    bad_dir = fresh_dir(os.path.join(w, "bad"))
    out = os.path.join(bad_dir, "x.vcd")
    for extra, what in [(["--vcd", out, "--view-window", "500:100"], "a window ending before it starts"),
                        (["--vcd", out, "--view-window", "abc"], "a window that is no FROM:TO"),
                        (["--vcd", out, "--view-window", "10:x"], "a window with a bad TO"),
                        (["--timeline", out, "--view-region", "no_such_region"], "a region the program does not name"),
                        (["--view-window", "0:10"], "a window without a view"),
                        (["--vcd", os.path.join(bad_dir, "missing", "x.vcd")], "a VCD in a missing folder"),
                        (["--timeline", bad_dir], "a directory as the timeline"),
                        (["--vcd", out, "--timeline", out], "the same file for both views")]:
        r = subprocess.run([args.sim, "run", "-q", *extra, args.cluster_elf], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and not r.stdout and not os.listdir(bad_dir),
              f"{what}: one line, exit 2, no run, no file ({lines})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
