#!/usr/bin/env python3
"""`pulpsim sweep --backend slurm` on a real Slurm: starts a private single-node cluster (munged, slurmctld,
slurmd from Debian's packages, on loopback, every file under --workdir), runs a sweep through it and checks
that the database holds exactly what the local backend stores; resubmitting runs nothing. Stops the daemons
it started, by pid, whatever happens. Needs root (as CI runs) and scripts/install-deps.sh's packages.
"""
import argparse
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

check = Checks()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(procs):
    for p in reversed(procs):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.time() + 10
    for p in reversed(procs):
        try:
            p.wait(timeout=max(0.1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def start_cluster(work, env):
    """munged, slurmctld and slurmd in the foreground as our children; returns them once the node is idle."""
    for tool in ("munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"):
        if not shutil.which(tool, path=env["PATH"]):
            sys.exit(f"FAIL {tool} not found: run scripts/install-deps.sh (munge, slurmctld, slurmd, slurm-client)")
    host = socket.gethostname().split(".")[0]
    munge_dir = fresh_dir(os.path.join(work, "munge"))
    os.chmod(munge_dir, 0o700)
    key = os.path.join(munge_dir, "munge.key")
    subprocess.run(["mungekey", "--create", "--keyfile", key], check=True, timeout=30)
    os.chmod(key, 0o400)
    sock = os.path.join(munge_dir, "munge.socket")
    conf = os.path.join(work, "slurm.conf")
    for d in ("state", "spool", "log"):
        fresh_dir(os.path.join(work, d))
    with open(conf, "w") as f:
        f.write(f"""ClusterName=pulpsimtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={sock}
StateSaveLocation={work}/state
SlurmdSpoolDir={work}/spool
SlurmctldPidFile={work}/slurmctld.pid
SlurmdPidFile={work}/slurmd.pid
SlurmctldLogFile={work}/log/slurmctld.log
SlurmdLogFile={work}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count()} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
    env["SLURM_CONF"] = conf
    procs = []
    log = open(os.path.join(work, "log", "daemons.out"), "w")
    try:
        procs.append(subprocess.Popen(["munged", "--foreground", "--force", f"--key-file={key}", f"--socket={sock}",
                                       f"--pid-file={munge_dir}/munged.pid", f"--log-file={munge_dir}/munged.log",
                                       f"--seed-file={munge_dir}/munged.seed"], stdout=log, stderr=log, env=env))
        deadline = time.time() + 30
        while not os.path.exists(sock) and time.time() < deadline:
            time.sleep(0.1)
        procs.append(subprocess.Popen(["slurmctld", "-D", "-i", "-f", conf], stdout=log, stderr=log, env=env))
        procs.append(subprocess.Popen(["slurmd", "-D", "-f", conf, "-N", host], stdout=log, stderr=log, env=env))
        deadline = time.time() + 90
        state = ""
        while time.time() < deadline:
            r = subprocess.run(["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True, timeout=20)
            state = r.stdout.strip()
            if state == "idle":
                return procs
            if any(p.poll() is not None for p in procs):
                break
            time.sleep(0.5)
        tail = ""
        for name in ("slurmctld.log", "slurmd.log", "daemons.out"):
            path = os.path.join(work, "log", name)
            if os.path.exists(path):
                tail += f"\n--- {name}\n" + "".join(open(path).readlines()[-15:])
        raise RuntimeError(f"the Slurm node did not come up (sinfo: {state!r}){tail}")
    except BaseException:
        stop(procs)
        raise


def stored(db):
    con = sqlite3.connect(db)
    points = {r[0]: r[1:] for r in con.execute("SELECT id, status, error, exit_code, report FROM points")}
    regions = sorted(con.execute("SELECT * FROM regions"))
    con.close()
    return points, regions


def wait_until(condition, seconds):
    deadline = time.time() + seconds
    while not condition() and time.time() < deadline:
        time.sleep(0.2)
    return condition()


def job_listed(job, env):
    r = subprocess.run(["squeue", "-h", "-j", job, "-o", "%i"], capture_output=True, text=True, env=env, timeout=30)
    return r.returncode == 0 and r.stdout.strip() != ""


def interrupted_wait(sim, work, program, env):
    """--wait interrupted leaves its job, which a second command may not duplicate nor change; a Slurm folder
    whose name holds a quote and a percent sign works."""
    spec = os.path.join(work, "held.yaml")
    with open(spec, "w") as f:
        f.write(f"name: held\nprogram: {program}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\n"
                f"zip:\n  cluster.cores: [2, 4]\n  fpu.count: [2, 4]\n")
    db, folder = os.path.join(work, "held.db"), os.path.join(work, "it's 100%")
    base = [sim, "sweep", spec, "--db", db, "--no-plots", "-q", "--backend", "slurm", "--slurm-dir", folder]
    # A partition that is down queues jobs and starts none: the job stays pending as long as the test needs.
    scontrol = ["scontrol", "update", "PartitionName=debug"]
    subprocess.run(scontrol + ["State=DOWN"], check=True, env=env, timeout=30)
    try:
        waiting = subprocess.Popen(base + ["--wait"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   env=env)
        job_file = os.path.join(folder, "job_id")
        known = wait_until(lambda: os.path.exists(job_file), 60)
        job = open(job_file).read().strip() if known else ""
        check(known and waiting.poll() is None,
              f"--wait writes the job's id as it submits, before the job ends (job {job!r})")
        waiting.send_signal(signal.SIGINT)
        waiting.communicate(timeout=60)
        check(job and job_listed(job, env), f"interrupting --wait leaves job {job} queued")
        r = subprocess.run(base, capture_output=True, text=True, timeout=300, env=env)
        check(r.returncode == 2 and f"Slurm job {job} of this sweep is still queued or running" in r.stderr,
              f"a second submission while it is queued is refused ({r.stderr.strip()!r})")
        with open(spec, "a") as f:
            f.write("set:\n  l2.latency: 20\n")
        r = subprocess.run(base + ["--partition", "nosuch"], capture_output=True, text=True, timeout=300, env=env)
        submissions = os.listdir(os.path.join(folder, "submissions"))
        check(r.returncode == 2 and len(submissions) == 1,
              f"so is one of an edited sweep file, which leaves the queued job's submission alone ({submissions})")
    finally:
        subprocess.run(scontrol + ["State=UP"], check=True, env=env, timeout=30)
    check(wait_until(lambda: not job_listed(job, env), 120), f"job {job} runs once the partition is up")
    with open(spec, "w") as f:
        f.write(f"name: held\nprogram: {program}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\n"
                f"zip:\n  cluster.cores: [2, 4]\n  fpu.count: [2, 4]\n")
    r = subprocess.run(base + ["--collect"], capture_output=True, text=True, timeout=300, env=env)
    logs = os.listdir(os.path.join(folder, "logs")) if os.path.isdir(os.path.join(folder, "logs")) else []
    check(r.returncode == 0 and "collected 4 results" in r.stderr and len(stored(db)[0]) == 4 and logs,
          f"--collect then stores its 4 points, run from a folder named with ' and %, logged there "
          f"({r.stderr.strip()!r}, {len(logs)} logs)")


def retry_uncollected(sim, work, spec, env):
    """--retry-failed submits the failed points again when the job before left its results uncollected."""
    db, folder = os.path.join(work, "retry.db"), os.path.join(work, "retry")
    base = [sim, "sweep", spec, "--db", db, "--no-plots", "-q", "--backend", "slurm", "--slurm-dir", folder]
    r = subprocess.run(base, capture_output=True, text=True, timeout=300, env=env)
    check(r.returncode == 1 and "8 not run yet (collect them with --collect once the Slurm job ends)" in r.stderr,
          f"a submission without --wait ends saying how its points will be stored ({r.stderr.strip()[-200:]!r})")
    job_file = os.path.join(folder, "job_id")
    job = open(job_file).read().strip() if os.path.exists(job_file) else ""
    check(job and wait_until(lambda: not job_listed(job, env), 120), f"the sweep's job {job} ends uncollected")
    r = subprocess.run(base + ["--retry-failed", "--wait"], capture_output=True, text=True, timeout=300, env=env)
    check("collected 8 results" in r.stderr and "submitting 4 to Slurm" in r.stderr and
          "collected 4 results" in r.stderr,
          f"--retry-failed collects the 8 results, then submits the 4 failed points again ({r.stderr.strip()!r})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    work = fresh_dir(os.path.abspath(args.workdir))
    env = dict(os.environ)
    env["PATH"] = env.get("PATH", "") + ":/usr/sbin:/sbin"
    good = os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")
    bad = os.path.join(args.kernels, "layers_error_zero.elf")
    spec = os.path.join(work, "slurm-check.yaml")
    with open(spec, "w") as f:
        f.write(f"""name: slurm-check
program: [{good}, {bad}]
grid:
  tcdm.size: [64KiB, 128KiB]
zip:
  cluster.cores: [2, 4]
  fpu.count: [2, 4]
""")
    local_db, slurm_db = os.path.join(work, "local.db"), os.path.join(work, "slurm.db")
    r = subprocess.run([args.sim, "sweep", spec, "--db", local_db, "--no-plots", "-q"], capture_output=True, text=True,
                       timeout=300, env=env)
    check(r.returncode == 1, f"the local sweep runs its 8 points, 4 of them failing (exit {r.returncode})")

    # Collecting a sweep nothing was submitted for stores nothing and says so.
    empty_dir = os.path.join(work, "never-submitted")
    r = subprocess.run([args.sim, "sweep", spec, "--db", os.path.join(work, "none.db"), "--no-plots", "-q",
                        "--backend", "slurm", "--collect", "--slurm-dir", empty_dir], capture_output=True, text=True,
                       timeout=300, env=env)
    check(r.returncode == 1 and f"8 points not stored: nothing was submitted from {empty_dir}" in r.stderr,
          f"--collect of a sweep never submitted says so ({r.stderr.strip()!r})")

    # Options Slurm would refuse are refused in one line, those sbatch takes before anything is written; a
    # Slurm folder that cannot be made is named with the reason.
    bad_db = os.path.join(work, "bad.db")
    for option, value, says in (("--array-throttle", "0", "--array-throttle: must be at least 1"),
                                ("--time-limit", "1h", "--time-limit: '1h' is not a Slurm time"),
                                ("--slurm-dir", os.devnull, f"{os.devnull}/results: cannot make the Slurm folder: "
                                                            "Not a directory")):
        early = option != "--slurm-dir"
        r = subprocess.run([args.sim, "sweep", spec, "--db", bad_db, "--no-plots", "-q", "--backend", "slurm",
                            option, value], capture_output=True, text=True, timeout=300, env=env)
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and err and says in err[-1] and all(not e.startswith("pulpsim: error")
                                                                    for e in err[:-1]) and
              (not early or not os.path.exists(bad_db)),
              f"sweep --backend slurm {option} {value}: one error line, exit 2"
              f"{', no database written' if early else ''} ({r.stderr.strip()!r})")

    procs = start_cluster(os.path.join(work, "slurm"), env)
    try:
        # sbatch's own refusal becomes the end of our one error line, not lines of its own.
        r = subprocess.run([args.sim, "sweep", spec, "--db", bad_db, "--no-plots", "-q", "--backend", "slurm",
                            "--partition", "nosuch", "--slurm-dir", os.path.join(work, "nosuch")],
                           capture_output=True, text=True, timeout=300, env=env)
        err = [e for e in r.stderr.strip().splitlines() if "sbatch" in e]
        check(r.returncode == 2 and len(err) == 1 and
              re.match(r"pulpsim: error: sbatch did not accept the job \(exit status 1\): sbatch: error: .*partition",
                       err[0], re.I),
              f"a partition Slurm does not have: sbatch's last error line ends ours, exit 2 ({r.stderr.strip()!r})")
        slurm_dir = os.path.join(work, "shared")
        cmd = [args.sim, "sweep", spec, "--db", slurm_db, "--no-plots", "-q", "--backend", "slurm", "--wait",
               "--slurm-dir", slurm_dir, "--max-tasks", "3", "--time-limit", "10"]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        check("submitted Slurm job" in r.stderr and "collected 8 results" in r.stderr,
              f"the sweep goes to Slurm as one array job and its 8 results are collected ({r.stderr.strip()!r})")
        local, slurm = stored(local_db), stored(slurm_db)
        check(set(local[0]) == set(slurm[0]) and len(local[0]) == 8,
              f"the Slurm database holds the same 8 points as the local one ({len(slurm[0])})")
        check(all(local[0][i] == slurm[0].get(i) for i in local[0]),
              "every point's status, error, exit status and report are byte-identical to the local backend's")
        check(local[1] == slurm[1] and len(local[1]) == 4, "and so are the region rows")
        job_file = os.path.join(slurm_dir, "job_id")
        job = open(job_file).read() if os.path.exists(job_file) else ""
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
        check("submitted" not in r.stderr and "all 8 points already stored" in r.stderr and open(job_file).read() == job,
              f"resubmitting a complete sweep submits nothing ({r.stderr.strip()!r})")
        logs = os.listdir(os.path.join(slurm_dir, "logs"))
        check(len(logs) == 3, f"the array had the 3 tasks --max-tasks asked for ({len(logs)} logs)")
        interrupted_wait(args.sim, work, good, env)
        retry_uncollected(args.sim, work, spec, env)
    finally:
        stop(procs)
    check(all(p.poll() is not None for p in procs), "the daemons the test started are stopped")
    # squeue without a controller cannot tell whether the folder's last job still runs: that is no "ended".
    # (A short message timeout makes it give up at once rather than after 18 s of retries.)
    quick = os.path.join(work, "slurm", "slurm-quick.conf")
    with open(quick, "w") as f:
        f.write(open(env["SLURM_CONF"]).read() + "MessageTimeout=1\n")
    r = subprocess.run([args.sim, "sweep", spec, "--db", os.path.join(work, "down.db"), "--no-plots", "-q",
                        "--backend", "slurm", "--slurm-dir", os.path.join(work, "shared")],
                       capture_output=True, text=True, timeout=300, env=dict(env, SLURM_CONF=quick))
    err = r.stderr.strip().splitlines()
    check(r.returncode == 2 and err and "squeue cannot say whether Slurm job" in err[-1],
          f"with the controller down, submitting is refused in one line ({r.stderr.strip()[-300:]!r})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
