"""The MPI plumbing of ./rdma: `run --ranks N` and `sweep --emit --ranks N` use the MPI
build that `./rdma setup --mpi` records in $RDMA_NS3_CACHE/mpi/RUNNER, and without one
they stop at once with one line naming `./rdma setup --mpi` (exit code 2), creating
nothing. No MPI is needed: the build is faked by a record, and mpirun by a script on
PATH that prints its arguments."""
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RDMA = str(ROOT / "rdma")
SCENARIO = str(ROOT / "scenarios" / "demo.json")


def rdma(tmp_path, *args, cache=None, path=None):
    env = dict(os.environ, RDMA_NS3_CACHE=str(cache or tmp_path / "empty-cache"))
    env.pop("RDMA_RUNNER", None)
    if path:
        env["PATH"] = f"{path}:{env['PATH']}"
    return subprocess.run([RDMA, *args], env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)


def fake_mpi_build(tmp_path, source=ROOT / "src" / "rdma"):
    """A cache holding a recorded MPI build (a runner that prints its arguments) and a
    folder holding an mpirun that prints its own, then runs the program like mpirun."""
    cache = tmp_path / "cache"
    (cache / "mpi").mkdir(parents=True)
    runner = tmp_path / "ns3.48-rdma-run"
    runner.write_text('#!/bin/sh\necho "runner: $*"\n')
    runner.chmod(0o755)
    (cache / "mpi" / "RUNNER").write_text(
        f"runner={runner}\nlibdir={tmp_path / 'lib'}\ntree={tmp_path}\nsource={source}\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    mpirun = bin_dir / "mpirun"
    mpirun.write_text('#!/bin/sh\necho "mpirun: $*"\n'
                      'while [ "$1" != "-np" ]; do shift; done; shift 2; exec "$@"\n')
    mpirun.chmod(0o755)
    return cache, runner, bin_dir


@pytest.mark.parametrize("ranks", ["2", "1"])
def test_run_ranks_without_an_mpi_build_names_setup_mpi(tmp_path, ranks):
    out = tmp_path / "X"
    result = rdma(tmp_path, "run", SCENARIO, "--out", str(out), "--ranks", ranks)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "./rdma setup --mpi" in lines[0], result.stderr
    assert not out.exists()
    assert not (tmp_path / "empty-cache").exists()


@pytest.mark.parametrize("ranks", ["0", "-1", "two", "1.5", ""])
def test_run_ranks_not_a_positive_integer(tmp_path, ranks):
    result = rdma(tmp_path, "run", SCENARIO, "--out", "X", f"--ranks={ranks}")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "--ranks" in lines[0] and "positive integer" in lines[0]
    assert not (tmp_path / "X").exists()


def test_run_ranks_runs_mpirun_on_the_mpi_build(tmp_path):
    cache, runner, bin_dir = fake_mpi_build(tmp_path)
    result = rdma(tmp_path, "run", SCENARIO, "--out", "X", "--set", "seed=3", "--ranks", "3",
                  cache=cache, path=bin_dir)
    assert result.returncode == 0, result.stderr
    root = "--allow-run-as-root " if os.geteuid() == 0 else ""
    args = f"{SCENARIO} --out {tmp_path / 'X'} --set seed=3 --ranks 3"
    assert result.stdout.splitlines() == [
        f"mpirun: {root}--oversubscribe -np 3 {runner} {args}", f"runner: {args}"]


def test_run_ranks_refuses_the_mpi_build_of_another_checkout(tmp_path):
    cache, _, bin_dir = fake_mpi_build(tmp_path, source="/elsewhere/src/rdma")
    result = rdma(tmp_path, "run", SCENARIO, "--out", "X", "--ranks", "2", cache=cache,
                  path=bin_dir)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "/elsewhere/src/rdma" in lines[0]
    assert "./rdma setup --mpi" in lines[0]


def test_sweep_emit_ranks_without_an_mpi_build_names_setup_mpi(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(f'{{"base": "{SCENARIO}", "out": "out", "seeds": [1]}}')
    result = rdma(tmp_path, "sweep", str(spec), "--emit", "--ranks", "2")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "./rdma setup --mpi" in lines[0], result.stderr
    assert not (tmp_path / "out").exists()


def test_setup_rejects_unknown_options(tmp_path):
    result = rdma(tmp_path, "setup", "--mpi-please")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "--mpi" in result.stderr


DIED = """--------------------------------------------------------------------------
Primary job  terminated normally, but 1 process returned
a non-zero exit code. Per user-direction, the job has been aborted.
--------------------------------------------------------------------------
--------------------------------------------------------------------------
mpirun noticed that process rank 1 with PID 4242 on node vm exited on signal 9 (Killed).
--------------------------------------------------------------------------
[vm:04240] 1 more process has sent help message help-mpi-api.txt / mpi-abort
rdma-run: interrupted (SIGTERM); partial results removed
"""


@pytest.mark.parametrize("code", [137, 2])
def test_a_rank_that_dies_is_one_line_and_no_output(tmp_path, code):
    """mpirun's report of a rank killed (as Open MPI prints it: blocks between lines of
    dashes, a [host:pid] line, rank 0 stopped by SIGTERM) becomes one line naming the
    rank, exit code 1; what the run staged (DIR.partial-PID of a process gone) is removed
    and no DIR is left. A rank's own error (exit code 2, its one line) stays that line."""
    cache, runner, bin_dir = fake_mpi_build(tmp_path)
    report = tmp_path / "report.txt"
    report.write_text(DIED if code == 137 else "rdma-run: bad.json: key 'x' has value 'y'\n")
    (bin_dir / "mpirun").write_text(
        '#!/bin/sh\nwhile [ "$1" != "--out" ]; do shift; done\n'
        'mkdir -p "$2.partial-999999"\necho "a rank\'s progress" >&2\n'
        f'cat "{report}" >&2\nexit {code}\n')
    out = tmp_path / "X"
    result = rdma(tmp_path, "run", SCENARIO, "--out", str(out), "--ranks", "2",
                  cache=cache, path=bin_dir)
    lines = result.stderr.splitlines()
    assert lines[0] == "a rank's progress", result.stderr
    if code == 137:
        assert result.returncode == 1
        assert len(lines) == 2, result.stderr
        assert "rank 1 was killed by signal 9 (Killed)" in lines[1]
        assert str(out) in lines[1]
    else:
        assert result.returncode == 2
        assert lines[1:] == ["rdma-run: bad.json: key 'x' has value 'y'"], result.stderr
    assert not out.exists()
    assert not list(tmp_path.glob("X.partial-*"))
