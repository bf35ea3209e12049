"""Running a sweep elsewhere: ``./rdma sweep SPEC --emit`` writes
``commands.txt`` (one idempotent shell command per point), ``slurm.sh`` (a
Slurm job array over those lines) and ``parallel.sh`` (the GNU parallel
command line).  Paths are absolute (the scenario's file keys too, see
:meth:`rdma_analysis.spec.Experiment.resolve_paths`), so any node sharing
the file system can run them.

With ``--ranks N`` every point is an MPI job of N ranks on the MPI build of
``./rdma setup --mpi`` (the runner gets ``--ranks N`` too): commands.txt runs
``mpirun -np N``, for GNU parallel (``N`` cores per point, so as many points
at once as N fit in the cores) or by hand; slurm.sh asks for N tasks per
array task (``#SBATCH --ntasks=N``) and runs ``srun -n N`` lines, kept in
srun-commands.txt.
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
SRUN_COMMANDS_FILE = "srun-commands.txt"


def _safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)



def _write_commands(path, sweep, points, launcher=(), ranks=None):
    """One idempotent command per point (a finished point is skipped); an
    MPI job (*launcher* ... --ranks N) when *ranks* is given."""
    with open(path, "w", encoding="utf-8") as handle:
        for p in points:
            done = shlex.quote(os.path.join(p.run_dir, "summary.json"))
            command = sweep.command(p)
            if ranks:
                command = [*launcher, *command, "--ranks", str(ranks)]
            handle.write(f"test -f {done} || {shlex.join(command)}\n")


def emit(sweep, stream=None, ranks=None):
    """Write commands.txt, slurm.sh and parallel.sh into the output folder
    (and srun-commands.txt with *ranks*: MPI jobs of that many ranks);
    return their paths."""
    stream = stream or sys.stdout
    points = sweep.points()
    os.makedirs(os.path.join(sweep.out, rs.RUNS_DIR), exist_ok=True)
    os.makedirs(os.path.join(sweep.out, rs.LOGS_DIR), exist_ok=True)
    commands = os.path.join(sweep.out, COMMANDS_FILE)
    _write_commands(commands, sweep, points, ("mpirun", "-np", str(ranks)),
                    ranks)
    # Slurm's array tasks run their lines of this file (srun with ranks).
    task_commands = commands
    if ranks:
        task_commands = os.path.join(sweep.out, SRUN_COMMANDS_FILE)
        _write_commands(task_commands, sweep, points,
                        ("srun", "-n", str(ranks)), ranks)
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
             *([f"#SBATCH --ntasks={ranks}"] if ranks else []),
             f"#SBATCH --cpus-per-task={s.get('cpus_per_task', 1)}",
             f"#SBATCH --output={os.path.join(sweep.out, rs.LOGS_DIR)}"
             "/slurm-%A_%a.log"]
    for key, opt in (("partition", "partition"), ("account", "account"),
                     ("time", "time"), ("mem", "mem")):
        if key in s:
            lines.append(f"#SBATCH --{opt}={s[key]}")
    lines += [f"#SBATCH {e}" for e in s.get("extra", [])]
    lines += ["set -euo pipefail",
              f"COMMANDS={q(task_commands)}",
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
    jobs = sweep.jobs or (max(1, rs.default_jobs() // ranks) if ranks
                          else rs.default_jobs())
    parallel_cmd = (f"parallel --jobs {jobs} "
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
    return [commands, slurm, par] + ([task_commands] if ranks else [])


