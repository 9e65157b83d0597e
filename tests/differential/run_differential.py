#!/usr/bin/env python3
"""Differential test: random RV32IMFC + Zfh programs on qemu-riscv32 versus pulpsim.

Each program (see gen_program.py) prints a signature of its final architectural
state. Both sides must produce the same stdout bytes and the same exit status.

    run_differential.py --sim build/bin/pulpsim [--count N] [--seed S] [--jobs J]
                        [--workdir DIR] [--keep]

Program i of a run uses seed S+i, so a failing program is reproduced alone with
--seed <its seed> --count 1.
"""

import argparse
import multiprocessing
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_program  # noqa: E402

ASSEMBLER = "clang-19"
# GNU ld (binutils-riscv64-unknown-elf) links these programs to the same bytes as ld.lld-19 in a sixth of
# the time; lld's start-up was a third of each program's cost.
LINKER = "riscv64-unknown-elf-ld"
LINKER_ARGS = ["-m", "elf32lriscv"]
REFERENCE = "qemu-riscv32"
# QEMU 7.2 (Debian 12) enables Zfh only on request, and spells the property "Zfh".
REFERENCE_ARGS = ["-cpu", "rv32,Zfh=on"]
DEFAULT_LENGTH = 250
MAX_DETAILED_FAILURES = 10  # later failures get a one-line summary only


class ToolError(Exception):
    pass


def run_tool(cmd, cwd=None):
    """Runs a build tool; raises ToolError with its stderr on failure."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except OSError as e:
        raise ToolError(f"cannot run {cmd[0]}: {e}") from e
    if proc.returncode != 0:
        raise ToolError(f"{cmd[0]} failed (status {proc.returncode}): {proc.stderr.strip()}")


def execute(cmd, timeout):
    """Runs one side; returns (exit status or a description, stdout bytes, stderr text)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        return f"timeout after {timeout}s", e.stdout or b"", (e.stderr or b"").decode(errors="replace")
    except OSError as e:
        return f"cannot run: {e}", b"", ""
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


def describe_status(status):
    if isinstance(status, str):
        return status
    if status < 0:
        return f"killed by signal {-status}"
    return f"exit status {status}"


def tail(text, lines=5):
    rows = [r for r in text.strip().splitlines() if r.strip()]
    return rows[-lines:]


def compare(ref, sim):
    """Returns None if both runs agree, else a list of report lines."""
    (ref_status, ref_out, ref_err), (sim_status, sim_out, sim_err) = ref, sim
    if ref_status != 0 or len(ref_out) != gen_program.SIG_BYTES:
        # The reference itself misbehaved: a generator or environment problem.
        report = [f"reference {REFERENCE} did not run the program cleanly: {describe_status(ref_status)}, "
                  f"{len(ref_out)} bytes of output (expected {gen_program.SIG_BYTES})"]
        return report + [f"qemu stderr: {line}" for line in tail(ref_err)]
    if sim_status == ref_status and sim_out == ref_out:
        return None
    report = []
    if sim_status != ref_status:
        report.append(f"exit: expected {describe_status(ref_status)}, got {describe_status(sim_status)}")
    if sim_out != ref_out:
        if len(sim_out) > len(ref_out) and sim_out.startswith(ref_out):
            extra = sim_out[len(ref_out):]
            report.append(f"signature matches but the simulator wrote {len(extra)} more bytes to stdout: "
                          f"{extra[:100]!r}")
        else:
            report += gen_program.diff_signatures(ref_out, sim_out)
            if len(sim_out) != len(ref_out):
                report.append(f"sim stdout begins: {sim_out[:100]!r}")
    report += [f"sim stderr: {line}" for line in tail(sim_err)]
    return report


def locate_first_divergence(source, expected, actual):
    """Names the earliest logged instruction whose result differs, if any."""
    slots = gen_program.differing_log_slots(expected, actual)
    if not slots:
        return []
    with open(source) as f:
        sources = gen_program.log_slot_sources(f.read())
    slot = min(slots)
    if slot not in sources:
        return []
    line, instr = sources[slot]
    return [f"first differing logged result: slot {slot}, from `{instr}` at {os.path.basename(source)}:{line}"]


def run_batch(task):
    """Generates, builds and runs a batch of programs; returns [(seed, report or None, kept_dir)]."""
    seeds, opts = task
    try:
        return run_batch_unguarded(seeds, opts)
    except Exception as e:  # keep the run going; every program of the batch counts as failed
        return [(seed, [f"harness error: {type(e).__name__}: {e}"], None) for seed in seeds]


def run_batch_unguarded(seeds, opts):
    batch_dir = os.path.join(opts["workdir"], "batches", f"b{seeds[0]}")
    os.makedirs(batch_dir, exist_ok=True)
    ld_script = os.path.join(opts["workdir"], "link.ld")
    results = []

    sources = {}
    for seed in seeds:
        name = f"seed_{seed}"
        with open(os.path.join(batch_dir, name + ".S"), "w") as f:
            f.write(gen_program.generate(seed, opts["length"]))
        if opts["fault"]:
            with open(os.path.join(batch_dir, name + "_fault.S"), "w") as f:
                f.write(gen_program.generate(seed, opts["length"], fault=True))
        sources[seed] = name

    names = [sources[s] for s in seeds] + ([sources[s] + "_fault" for s in seeds] if opts["fault"] else [])
    asm_cmd = [ASSEMBLER] + gen_program.ASM_FLAGS + ["-x", "assembler", "-c"]
    build_errors = {}
    try:
        # One assembler process for the whole batch: its start-up dominates otherwise.
        run_tool(asm_cmd + [n + ".S" for n in names], cwd=batch_dir)
    except ToolError:
        # Find out which files are at fault.
        for n in names:
            try:
                run_tool(asm_cmd + [n + ".S"], cwd=batch_dir)
            except ToolError as e:
                build_errors[n] = str(e)

    for seed in seeds:
        name = sources[seed]
        elf = os.path.join(batch_dir, name + ".elf")
        sim_elf = os.path.join(batch_dir, name + "_fault.elf") if opts["fault"] else elf
        report = None
        try:
            for n, out in ((name, elf), (name + "_fault", sim_elf)) if opts["fault"] else ((name, elf),):
                if n in build_errors:
                    raise ToolError(build_errors[n])
                run_tool([LINKER, *LINKER_ARGS, "-T", ld_script, n + ".o", "-o", out], cwd=batch_dir)
        except ToolError as e:
            report = [f"build failed: {e}"]
        if report is None:
            ref = execute([REFERENCE, *REFERENCE_ARGS, elf], opts["timeout"])
            sim = execute(opts["sim_cmd"] + [sim_elf], opts["timeout"])
            report = compare(ref, sim)
            if report is not None:
                report += locate_first_divergence(os.path.join(batch_dir, name + ".S"), ref[1], sim[1])
                with open(os.path.join(batch_dir, name + ".qemu.out"), "wb") as f:
                    f.write(ref[1])
                with open(os.path.join(batch_dir, name + ".sim.out"), "wb") as f:
                    f.write(sim[1])
        kept = None
        if report is not None or opts["keep"]:
            kept = os.path.join(opts["workdir"], "failures" if report is not None else "kept")
            os.makedirs(kept, exist_ok=True)
        for suffix in (".S", ".o", ".elf", "_fault.S", "_fault.o", "_fault.elf", ".qemu.out", ".sim.out"):
            path = os.path.join(batch_dir, name + suffix)
            if os.path.exists(path):
                if kept and not suffix.endswith(".o"):
                    os.replace(path, os.path.join(kept, name + suffix))
                else:
                    os.remove(path)
        results.append((seed, report, kept))
    shutil.rmtree(batch_dir, ignore_errors=True)
    return results


def check_tools(args):
    """Returns the simulator command prefix; exits with a one-line error if a tool is missing."""
    for tool in (ASSEMBLER, LINKER, REFERENCE):
        if shutil.which(tool) is None:
            sys.exit(f"error: required tool '{tool}' not found in PATH")
    if args.sim:
        if not (os.path.isfile(args.sim) and os.access(args.sim, os.X_OK)):
            sys.exit(f"error: simulator '{args.sim}' does not exist or is not executable")
        # --quiet: the end-of-run report table would otherwise follow the program's output on stdout
        return [os.path.abspath(args.sim), "run", "--bare", "--quiet"]
    cmd = shlex.split(args.sim_cmd)
    if not cmd or shutil.which(cmd[0]) is None:
        sys.exit(f"error: --sim-cmd program '{cmd[0] if cmd else ''}' not found")
    return cmd


def reproduce_command(args, seed):
    side = f"--sim {shlex.quote(args.sim)}" if args.sim else f"--sim-cmd {shlex.quote(args.sim_cmd)}"
    extra = " --inject-fault" if args.inject_fault else ""
    if args.length != DEFAULT_LENGTH:
        extra += f" --length {args.length}"
    return f"{sys.argv[0]} {side} --seed {seed} --count 1 --keep{extra}"


def main():
    parser = argparse.ArgumentParser(description="Differential test of pulpsim against qemu-riscv32.")
    side = parser.add_mutually_exclusive_group(required=True)
    side.add_argument("--sim", help="pulpsim binary; run as: SIM run --bare --quiet PROGRAM.elf")
    side.add_argument("--sim-cmd", help="arbitrary command the ELF path is appended to "
                      "(e.g. 'qemu-riscv32 -cpu rv32,Zfh=on' to check the harness itself)")
    parser.add_argument("--count", type=int, default=1000, help="number of programs (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first program (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel workers")
    parser.add_argument("--workdir", help="where programs are built; failing ones are kept in "
                        "WORKDIR/failures (default: a fresh temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep passing programs too (WORKDIR/kept)")
    parser.add_argument("--length", type=int, default=DEFAULT_LENGTH,
                        help=f"instructions in each program's random body (default {DEFAULT_LENGTH})")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per program run")
    parser.add_argument("--inject-fault", action="store_true", help="harness self-check: the simulator side "
                        "runs a copy of each program with one M/shift instruction swapped, so mismatches are expected")
    args = parser.parse_args()
    if args.count < 1 or args.jobs < 1:
        parser.error("--count and --jobs must be positive")

    sim_cmd = check_tools(args)
    if args.workdir:
        workdir = os.path.abspath(args.workdir)
        os.makedirs(workdir, exist_ok=True)
        # Leftovers of an earlier run would be mistaken for this run's failures.
        for sub in ("batches", "failures", "kept"):
            shutil.rmtree(os.path.join(workdir, sub), ignore_errors=True)
    else:
        workdir = tempfile.mkdtemp(prefix="pulpsim-differential-")
    with open(os.path.join(workdir, "link.ld"), "w") as f:
        f.write(gen_program.LINKER_SCRIPT)

    opts = {"workdir": workdir, "sim_cmd": sim_cmd, "length": args.length, "timeout": args.timeout,
            "keep": args.keep, "fault": args.inject_fault}
    seeds = list(range(args.seed, args.seed + args.count))
    # Small batches keep all workers busy until the end; large enough to amortize the assembler.
    batch = max(1, min(25, args.count // (args.jobs * 4)))
    tasks = [(seeds[i:i + batch], opts) for i in range(0, len(seeds), batch)]

    sim_desc = args.sim if args.sim else args.sim_cmd
    print(f"differential: {args.count} programs, seeds {args.seed}..{args.seed + args.count - 1}, "
          f"{REFERENCE} vs {sim_desc}, {args.jobs} jobs, workdir {workdir}", flush=True)
    start = time.monotonic()
    passed = failed = done = 0
    next_progress = 100
    failures = []
    with multiprocessing.Pool(args.jobs) as pool:
        for results in pool.imap_unordered(run_batch, tasks):
            for seed, report, kept in results:
                done += 1
                if report is None:
                    passed += 1
                    continue
                failed += 1
                failures.append(seed)
                base = os.path.join(kept, f"seed_{seed}") if kept else None
                if failed <= MAX_DETAILED_FAILURES:
                    print(f"FAIL seed {seed}: {report[0]}", flush=True)
                    for line in report[1:]:
                        print(f"    {line}")
                    if base:
                        outputs = [f"{base}{ext}" for ext in (".qemu.out", ".sim.out") if os.path.exists(base + ext)]
                        print(f"    kept: {base}.S {base}.elf" + (f" (outputs: {' '.join(outputs)})" if outputs else ""))
                    print(f"    reproduce: {reproduce_command(args, seed)}", flush=True)
                else:
                    print(f"FAIL seed {seed}: {report[0]}" + (f" (kept as {base}.*)" if base else ""), flush=True)
            if done >= next_progress or done == args.count:
                print(f"[{done:5d}/{args.count}] {passed} passed, {failed} failed, "
                      f"{time.monotonic() - start:.1f}s", flush=True)
                while next_progress <= done:
                    next_progress += 100

    elapsed = time.monotonic() - start
    if failures:
        shown = " ".join(str(s) for s in sorted(failures)[:50])
        print(f"failing seeds: {shown}{' ...' if len(failures) > 50 else ''}")
    print(f"finished in {elapsed:.1f}s")
    shutil.rmtree(os.path.join(workdir, "batches"), ignore_errors=True)
    if not args.workdir and not failures and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
