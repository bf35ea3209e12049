"""Running a sweep elsewhere: ``./rdma sweep SPEC --emit`` writes
``commands.txt`` (one idempotent shell command per point), ``slurm.sh`` (a
Slurm job array over those lines) and ``parallel.sh`` (the GNU parallel
command line).  Paths are absolute (the scenario's file keys too, see
:meth:`rdma_analysis.spec.Experiment.resolve_paths`), so any node sharing
the file system can run them.
"""

import math
import os
import re
import shlex
import sys

from . import spec as rs

COMMANDS_FILE = "commands.txt"
SLURM_FILE = "slurm.sh"
PARALLEL_FILE = "parallel.sh"


def _safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)



def emit(sweep, stream=None):
    """Write commands.txt, slurm.sh and parallel.sh into the output folder;
    return their paths."""
    stream = stream or sys.stdout
    points = sweep.points()
    os.makedirs(os.path.join(sweep.out, rs.RUNS_DIR), exist_ok=True)
    os.makedirs(os.path.join(sweep.out, rs.LOGS_DIR), exist_ok=True)
    commands = os.path.join(sweep.out, COMMANDS_FILE)
    with open(commands, "w", encoding="utf-8") as handle:
        for p in points:
            # Idempotent: a finished point is skipped.
            done = shlex.quote(os.path.join(p.run_dir, "summary.json"))
            handle.write(f"test -f {done} || "
                         f"{shlex.join(sweep.command(p))}\n")
    n = len(points)
    s = sweep.slurm
    per_task = s.get("points_per_task", 1)
    tasks = math.ceil(n / per_task)
    array = f"1-{tasks}" + (f"%{s['max_parallel']}"
                            if "max_parallel" in s else "")
    q = shlex.quote
    lines = ["#!/bin/bash",
             f"# Slurm job array for the sweep {sweep.spec.path}",
             f"# {n} points, {per_task} per array task. Submit with:",
             f"#   sbatch {q(os.path.join(sweep.out, SLURM_FILE))}",
             "# then build sweep.csv and the plots with:",
             f"#   ./rdma sweep {q(sweep.spec.path)} --out {q(sweep.out)} "
             "--collect",
             f"#SBATCH --job-name=rdma-sweep-{_safe(sweep.spec.stem)}",
             f"#SBATCH --array={array}",
             f"#SBATCH --cpus-per-task={s.get('cpus_per_task', 1)}",
             f"#SBATCH --output={os.path.join(sweep.out, rs.LOGS_DIR)}"
             "/slurm-%A_%a.log"]
    for key, opt in (("partition", "partition"), ("account", "account"),
                     ("time", "time"), ("mem", "mem")):
        if key in s:
            lines.append(f"#SBATCH --{opt}={s[key]}")
    lines += [f"#SBATCH {e}" for e in s.get("extra", [])]
    lines += ["set -euo pipefail",
              f"COMMANDS={q(commands)}",
              f"PER_TASK={per_task}",
              "first=$(( (SLURM_ARRAY_TASK_ID - 1) * PER_TASK + 1 ))",
              "last=$(( first + PER_TASK - 1 ))",
              "status=0",
              "while IFS= read -r cmd; do",
              "  bash -c \"$cmd\" || status=1",
              "done < <(sed -n \"${first},${last}p\" \"$COMMANDS\")",
              "exit $status", ""]
    slurm = os.path.join(sweep.out, SLURM_FILE)
    with open(slurm, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    os.chmod(slurm, 0o755)
    joblog = os.path.join(sweep.out, rs.LOGS_DIR, "parallel.joblog")
    parallel_cmd = (f"parallel --jobs {sweep.jobs or rs.default_jobs()} "
                    f"--joblog {q(joblog)} --bar < {q(commands)}")
    par = os.path.join(sweep.out, PARALLEL_FILE)
    with open(par, "w", encoding="utf-8") as handle:
        handle.write("\n".join([
            "#!/bin/bash",
            f"# GNU parallel over the {n} points of {sweep.spec.path}.",
            "# Several machines sharing this folder: add",
            "#   --sshloginfile nodes.txt --workdir $PWD",
            "# Afterwards build sweep.csv and the plots with:",
            f"#   ./rdma sweep {q(sweep.spec.path)} --out {q(sweep.out)} "
            "--collect",
            "set -euo pipefail", parallel_cmd, ""]))
    os.chmod(par, 0o755)
    print(f"{n} point commands: {commands}\n"
          f"Slurm:        sbatch {slurm}\n"
          f"GNU parallel: {parallel_cmd}\n"
          f"Afterwards:   ./rdma sweep {sweep.spec.path} --out {sweep.out} "
          "--collect", file=stream)
    return [commands, slurm, par]


