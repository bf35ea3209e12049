"""Tests of rdma_analysis.sweep and rdma_analysis.spec."""

import collections
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

import crafted
from rdma_analysis import spec as rs
from rdma_analysis import sweep as rdma_sweep

# The sweep command as ./rdma runs it (with analysis/ on PYTHONPATH).
SWEEP = [sys.executable, "-m", "rdma_analysis", "sweep"]

# Runs the real simulator; records each sweep point's command line in
# $COUNT_FILE, optionally sleeps $SLEEP seconds first and fails (exit 3)
# when the arguments contain $FAIL_MATCH.  Checks (zero-length runs with
# rdma-run --check) and --list-keys pass straight through.
WRAPPER = """#!/bin/sh
case "$*" in *--check*|*--list-keys*) exec {real} "$@";; esac
echo "$*" >> "$COUNT_FILE"
if [ -n "$SLEEP" ]; then sleep "$SLEEP"; fi
if [ -n "$FAIL_MATCH" ]; then
  case "$*" in *"$FAIL_MATCH"*) echo "rdma-run: error: boom" >&2; exit 3;;
  esac
fi
exec {real} "$@"
"""


def write_spec(folder, spec, name="spec.json"):
    return crafted.write_spec(folder, spec, name)


def run_main(capsys, *args):
    return crafted.run_cli(rdma_sweep.main, capsys, *args)


@pytest.fixture
def wrapper(tmp_path, monkeypatch):
    path = tmp_path / "fake-runner.sh"
    path.write_text(WRAPPER.format(real=crafted.RUNNER))
    path.chmod(0o755)
    count = tmp_path / "count.txt"
    monkeypatch.setenv("COUNT_FILE", str(count))
    monkeypatch.setenv("RDMA_RUNNER", str(path))
    return str(path), count


def point_runs(count_file):
    """Run folder of every sweep point the wrapper started."""
    if not os.path.exists(count_file):
        return []
    with open(count_file) as handle:
        return [line.split(" --out ")[1].split()[0]
                for line in handle if "/runs/" in line]


# --- values, parameters, points ------------------------------------------------------

def test_format_value():
    assert rs.format_value(True) == "true"
    assert rs.format_value(3) == "3"
    assert rs.format_value(2.0) == "2"
    assert rs.format_value(0.1) == "0.1"
    assert rs.format_value(1e-5) == "1e-05"
    assert rs.format_value([1, 2]) == "[1,2]"
    assert rs.format_value("40Mbps") == "40Mbps"


def test_point_id_is_order_free_and_content_based():
    a = rs.point_id("base", {"x": 1, "y": 0.5})
    assert a == rs.point_id("base", {"y": 0.5, "x": 1})
    assert a != rs.point_id("base2", {"x": 1, "y": 0.5})
    assert a != rs.point_id("base", {"x": 2, "y": 0.5})
    assert len(a) == 10


def test_random_params_are_deterministic_in_range(tmp_path):
    spec = write_spec(tmp_path, {
        "base": crafted.TINY, "out": "o",
        "random": {"samples": 50, "seed": 3, "params": {
            "a": {"min": 10, "max": 1000, "log": True, "int": True},
            "b": {"min": 0.5, "max": 1.5},
            "c": {"min": 5, "max": 80, "unit": "Mbps"},
            "d": {"values": ["none", "dcqcn"]}}}})
    sweep = rdma_sweep.Sweep(spec, check_runner=False)
    samples = sweep.random_samples()
    assert samples == rdma_sweep.Sweep(spec, check_runner=False) \
        .random_samples()
    assert len(samples) == 50
    a = [s["a"] for s in samples]
    assert all(isinstance(v, int) and 10 <= v <= 1000 for v in a)
    # log-uniform: about half the draws fall below sqrt(10 * 1000) = 100
    assert 10 <= sum(v < 100 for v in a) <= 40
    assert all(0.5 <= s["b"] <= 1.5 for s in samples)
    c, unit = rdma_sweep.numeric_view([s["c"] for s in samples])
    assert unit == "Mbps" and c.min() >= 5 and c.max() <= 80
    assert {s["d"] for s in samples} == {"none", "dcqcn"}


def test_points_are_grid_x_random_x_seeds(tmp_path):
    spec = {"base": crafted.TINY, "out": "o",
            "set": {"traffic.probe.enabled": False},
            "grid": {"switch.ecn.kmin_kb": [10, 20],
                     "cc.algorithm": ["none", "dcqcn"]},
            "random": {"samples": 3, "params": {
                "switch.ecn.pmax": {"min": 0.1, "max": 0.9}}},
            "seeds": [1, 2]}
    sweep = rdma_sweep.Sweep(write_spec(tmp_path, spec), check_runner=False)
    points = sweep.points()
    assert len(points) == 2 * 2 * 3 * 2
    assert len({p.id for p in points}) == 24
    assert sweep.param_keys() == ["switch.ecn.kmin_kb", "cc.algorithm",
                                  "switch.ecn.pmax", "seed"]
    first = points[0]
    assert list(first.params) == sweep.param_keys()
    assert (first.params["switch.ecn.kmin_kb"], first.params["cc.algorithm"],
            first.params["seed"]) == (10, "none", 1)
    assert first.overrides["traffic.probe.enabled"] is False
    assert first.run_dir == os.path.join(str(tmp_path), "o", "runs",
                                         first.id)
    # Adding a grid value keeps every existing point (same ids).
    spec["grid"]["switch.ecn.kmin_kb"].append(40)
    more = rdma_sweep.Sweep(write_spec(tmp_path, spec, "more.json"),
                            check_runner=False).points()
    assert {p.id for p in points} < {p.id for p in more}
    assert len(more) == 36


def test_numeric_view():
    x, unit = rdma_sweep.numeric_view([1, 2.5])
    assert list(x) == [1.0, 2.5] and unit == ""
    x, unit = rdma_sweep.numeric_view(["20Mbps", "1.5e2Mbps"])
    assert list(x) == [20.0, 150.0] and unit == "Mbps"
    assert rdma_sweep.numeric_view(["20Mbps", "1Gbps"]) == (None, None)
    assert rdma_sweep.numeric_view([True, False]) == (None, None)
    assert rdma_sweep.numeric_view(["none", "dcqcn"]) == (None, None)


# --- strict spec checking ------------------------------------------------------------

BAD_SPECS = [
    ({"gird": {"seed": [1]}}, "unknown key 'gird'"),
    ({"grid": {"switch.ecn.kmin_kb": 5}},
     "key 'grid.switch.ecn.kmin_kb' has invalid value 5"),
    ({"grid": {"switch.ecn.kmin_kb": [5, 5]}}, "values must differ"),
    ({"random": {"samples": 2, "params": {
        "switch.ecn.pmax": {"min": 0.9, "max": 0.1}}}},
     "key 'random.params.switch.ecn.pmax.max' has invalid value 0.1"),
    ({"random": {"samples": 2, "params": {
        "switch.ecn.pmax": {"min": 0, "max": 1, "log": True}}}},
     "must be > 0 for a log range"),
    ({"random": {"samples": 2, "params": {
        "switch.ecn.pmax": {"min": 0, "max": 1, "step": 2}}}},
     "unknown key 'random.params.switch.ecn.pmax.step'"),
    ({"seeds": [1, "2"]}, "key 'seeds' has invalid value [1,\"2\"]"),
    ({"seeds": [1], "metrics": ["slowdown_p98"]},
     "unknown metric 'slowdown_p98'"),
    ({"seeds": [1], "set": {"switch.ecn.kmin_kb": 1},
      "grid": {"switch.ecn.kmin_kb": [2, 3]}},
     "'switch.ecn.kmin_kb' is given in both 'set' and 'grid'"),
    ({}, "nothing to sweep"),
    ({"base": "no-such.json", "seeds": [1]},
     "key 'base' has invalid value \"no-such.json\""),
    ({"seeds": [1], "slurm": {"queue": "x"}}, "unknown key 'slurm.queue'"),
]


@pytest.mark.parametrize("spec,message", BAD_SPECS)
def test_bad_spec_exits_2_naming_file_key_and_value(tmp_path, capsys, spec,
                                                    message):
    full = {"base": crafted.TINY, "out": "out"}
    full.update(spec)
    path = write_spec(tmp_path, full)
    rc, out, err = run_main(capsys, path, "--dry-run")
    assert rc == 2
    assert err.startswith(f"rdma sweep: error: {path}: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1 and out == ""
    assert not os.path.exists(tmp_path / "out")


def test_spec_that_is_not_json(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text('{"base": "x",\n "grid": }')
    rc, _, err = run_main(capsys, path, "--dry-run")
    assert rc == 2 and f"{path}: not valid JSON" in err and "line 2" in err


@crafted.needs_runner
@pytest.mark.parametrize("grid,message", [
    ({"switch.ecn.kmin": [1, 2]}, "unknown scenario key 'switch.ecn.kmin' "
                                  "in 'grid' (value [1,2])"),
    ({"switch.ecn.pmax": [0.5, 2]}, "rdma-run rejects this spec: key "
                                    "'switch.ecn.pmax' has invalid value 2"),
])
def test_scenario_keys_and_values_are_checked_by_the_simulator(
        tmp_path, capsys, grid, message):
    path = write_spec(tmp_path, {"base": crafted.TINY, "out": "out",
                                 "grid": grid})
    rc, out, err = run_main(capsys, path)
    assert rc == 2
    assert err.startswith(f"rdma sweep: error: {path}: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1 and out == ""
    assert not os.path.exists(tmp_path / "out")


def test_dry_run_writes_nothing(tmp_path, capsys):
    path = write_spec(tmp_path, {"base": crafted.TINY, "out": "out",
                                 "grid": {"switch.ecn.kmin_kb": [10, 20]},
                                 "seeds": [1, 2, 3]})
    rc, out, _ = run_main(capsys, path, "--dry-run")
    assert rc == 0
    lines = out.splitlines()
    assert len(lines) == 7 and lines[-1].startswith("6 points")
    assert " todo kmin_kb=10 seed=1" in lines[0]
    assert sorted(os.listdir(tmp_path)) == ["spec.json"]


# --- running, interrupting, resuming -----------------------------------------------------

@crafted.needs_runner
def test_interrupted_sweep_resumes_without_rerunning(tmp_path, capsys,
                                                     wrapper):
    runner, count = wrapper
    path = write_spec(tmp_path, {
        "base": crafted.TINY, "out": "out",
        "grid": {"switch.ecn.kmin_kb": [10, 20, 40, 80]},
        "seeds": [1, 2], "metrics": ["slowdown_p99", "goodput_gbps"]})
    runs = tmp_path / "out" / "runs"
    env = dict(os.environ, SLEEP="0.25", PYTHONPATH=crafted.ANALYSIS_DIR)
    # A shell that runs the suite in the background (`cmd &`) starts it with SIGINT
    # ignored, and an ignored signal stays ignored in children: give the sweep Python's
    # usual SIGINT handling, as in a terminal.
    proc = subprocess.Popen(SWEEP + [path, "--jobs", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                             signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (runs.is_dir() and sum(
            (runs / n / "summary.json").exists() for n in os.listdir(runs))
            >= 2):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    done = {n: os.stat(runs / n / "summary.json").st_mtime_ns
            for n in os.listdir(runs) if (runs / n / "summary.json").exists()}
    assert 2 <= len(done) < 8
    assert not (tmp_path / "out" / "sweep.csv").exists()

    rc, out, err = run_main(capsys, path, "--jobs", "2")
    assert rc == 0, err
    assert (f"8 points, {len(done)} already done, {8 - len(done)} to run"
            in err)
    # Every point ran exactly once over both sessions; the finished ones
    # were not touched.
    started = collections.Counter(point_runs(count))
    assert len(started) == 8 and set(started.values()) == {1}
    for name, mtime in done.items():
        assert os.stat(runs / name / "summary.json").st_mtime_ns == mtime
    table = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert len(table) == 8 and set(table["status"]) == {"ok"}
    assert list(table.columns[:6]) == ["point", "status",
                                       "switch.ecn.kmin_kb", "seed",
                                       "slowdown_p99", "goodput_gbps"]
    # tiny incast: 6 messages of 64 KiB, 3 probes, in every point
    assert set(table["flows_measured"]) == {6}
    assert set(table["probe_flows"]) == {3}
    assert out.splitlines()[0] == str(tmp_path / "out" / "sweep.csv")
    for name in ("slowdown_p99.png", "goodput_gbps.png"):
        crafted.assert_png(tmp_path / "out" / "plots" / name)

    # A third run has nothing to do.
    rc, _, err = run_main(capsys, path)
    assert rc == 0 and "8 already done, 0 to run" in err
    assert len(point_runs(count)) == 8


@crafted.needs_runner
def test_failed_points_are_reported_and_retried(tmp_path, capsys, wrapper,
                                                monkeypatch):
    runner, count = wrapper
    path = write_spec(tmp_path, {"base": crafted.TINY, "out": "out",
                                 "seeds": [1, 2, 3]})
    monkeypatch.setenv("FAIL_MATCH", "seed=2")
    rc, _, err = run_main(capsys, path, "--no-plots")
    assert rc == 1
    assert "FAILED (rdma-run: error: boom)" in err
    table = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert list(table["status"]) == ["ok", "failed", "ok"]
    assert table.loc[1, "error"] == "rdma-run: error: boom"
    assert np.isnan(table.loc[1, "slowdown_p99"])
    monkeypatch.delenv("FAIL_MATCH")
    rc, _, err = run_main(capsys, path, "--no-plots")
    assert rc == 0 and "3 points, 2 already done, 1 to run" in err
    assert len(point_runs(count)) == 4


@crafted.needs_runner
def test_emit_slurm_and_parallel_then_collect(tmp_path, capsys):
    path = write_spec(tmp_path, {
        "base": crafted.TINY, "out": "out",
        "grid": {"switch.ecn.kmin_kb": [10, 20, 40]}, "seeds": [1, 2],
        "jobs": 3,
        "slurm": {"partition": "short", "time": "00:05:00",
                  "max_parallel": 4, "points_per_task": 4,
                  "extra": ["--qos=low"]}})
    rc, out, err = run_main(capsys, path, "--emit")
    assert rc == 0, err
    out_dir = tmp_path / "out"
    commands = (out_dir / "commands.txt").read_text().splitlines()
    assert len(commands) == 6
    slurm = (out_dir / "slurm.sh").read_text()
    assert "#SBATCH --array=1-2%4" in slurm      # ceil(6 / 4) = 2 tasks
    for line in ("#SBATCH --partition=short", "#SBATCH --time=00:05:00",
                 "#SBATCH --qos=low", "PER_TASK=4"):
        assert line in slurm
    parallel = (out_dir / "parallel.sh").read_text()
    assert "parallel --jobs 3" in parallel and "commands.txt" in parallel
    assert not (out_dir / "sweep.csv").exists()

    # Run the first emitted command as an engine would, twice (idempotent).
    for _ in range(2):
        subprocess.run(["bash", "-c", commands[0]], check=True, timeout=60)
    rc, _, err = run_main(capsys, path, "--collect", "--no-plots")
    assert rc == 0, err
    table = pd.read_csv(out_dir / "sweep.csv")
    assert list(table["status"]) == ["ok"] + ["missing"] * 5

    # The Slurm script runs its slice of commands.txt (task 2: lines 5-6).
    env = dict(os.environ, SLURM_ARRAY_TASK_ID="2")
    subprocess.run(["bash", str(out_dir / "slurm.sh")], check=True, env=env,
                   timeout=60)
    rc, _, _ = run_main(capsys, path, "--collect", "--no-plots")
    table = pd.read_csv(out_dir / "sweep.csv")
    assert list(table["status"]) == ["ok"] + ["missing"] * 3 + ["ok"] * 2


@crafted.needs_runner
def test_emit_ranks_makes_every_point_an_mpi_job(tmp_path, capsys):
    spec = {"base": crafted.TINY, "out": "out", "seeds": [1, 2, 3],
            "slurm": {"points_per_task": 2}}
    path = write_spec(tmp_path, spec)
    rc, _, err = run_main(capsys, path, "--emit", "--ranks", "4")
    assert rc == 0, err
    out_dir = tmp_path / "out"
    runner = os.path.abspath(crafted.RUNNER)
    mpirun = (out_dir / "commands.txt").read_text().splitlines()
    srun = (out_dir / "srun-commands.txt").read_text().splitlines()
    assert len(mpirun) == len(srun) == 3
    for line, launcher in ((mpirun[0], "mpirun -np 4"),
                           (srun[0], "srun -n 4")):
        assert line.startswith("test -f ")
        assert f" || {launcher} {runner} {crafted.TINY} --out " in line
        assert line.endswith(" --ranks 4")
    # The same point, the same runner arguments, only the launcher differs.
    assert mpirun[0].replace("mpirun -np 4", "srun -n 4") == srun[0]
    slurm = (out_dir / "slurm.sh").read_text()
    assert "#SBATCH --ntasks=4\n" in slurm
    assert "#SBATCH --array=1-2\n" in slurm      # ceil(3 / 2) tasks
    assert f"COMMANDS={out_dir / 'srun-commands.txt'}\n" in slurm
    parallel = (out_dir / "parallel.sh").read_text()
    assert "commands.txt" in parallel and "srun" not in parallel

    # Without --ranks: no MPI anywhere (the files as they always were).
    rc, _, err = run_main(capsys, write_spec(tmp_path, dict(spec, out="plain"),
                                             "plain.json"), "--emit")
    assert rc == 0, err
    plain = tmp_path / "plain"
    assert not (plain / "srun-commands.txt").exists()
    text = "".join((plain / f).read_text()
                   for f in ("commands.txt", "slurm.sh", "parallel.sh"))
    for word in ("--ranks", "mpirun", "srun", "--ntasks"):
        assert word not in text


@pytest.mark.parametrize("args", [["--ranks", "2"], ["--ranks", "0", "--emit"],
                                  ["--ranks", "x", "--emit"]])
def test_ranks_without_emit_or_not_positive_exits_2(tmp_path, capsys, args):
    path = write_spec(tmp_path, {"base": crafted.TINY, "out": "out",
                                 "seeds": [1]})
    rc, out, err = run_main(capsys, path, "--runner", "/nonexistent", *args)
    assert rc == 2 and out == ""
    assert "--ranks" in err
    assert not (tmp_path / "out").exists()


def test_clean_partials_removes_only_stale_dead_staging_folders(tmp_path):
    dead = 2 ** 22 + 12345          # above the default pid_max: no process
    old = tmp_path / f"abc.partial-{dead}"
    fresh = tmp_path / f"def.partial-{dead}"
    alive = tmp_path / f"ghi.partial-{os.getpid()}"
    other = tmp_path / "jkl"
    for folder in (old, fresh, alive, other):
        folder.mkdir()
    for folder in (old, alive, other):
        os.utime(folder, (time.time() - 3600, time.time() - 3600))
    rs.clean_partials(str(tmp_path))
    assert sorted(os.listdir(tmp_path)) == sorted(
        [fresh.name, alive.name, other.name])


def test_rdma_script_runs_sweep_from_the_callers_folder(tmp_path):
    """./rdma sweep takes relative paths from the current directory."""
    write_spec(tmp_path, {"base": crafted.TINY, "out": "out",
                          "seeds": [1, 2]})
    result = subprocess.run([crafted.RDMA, "sweep", "spec.json",
                             "--dry-run"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120,
                            env=dict(os.environ, RDMA_RUNNER="/nonexistent"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == \
        f"2 points -> {tmp_path / 'out'}"
