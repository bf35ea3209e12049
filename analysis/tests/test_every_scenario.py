"""Sweep, emit and tune accept every shipped scenario, and what they write
runs again from anywhere.

Each scenario of ``scenarios/*.json`` is shrunk to 0.2 ms of simulated time
with overrides that are valid for its traffic (CDF arrivals inside the stop
time; incast groups rescaled into a CSV next to the spec, which also checks
that a file key in a spec is relative to the spec file).  Then:

* a 2-point sweep (grid over ``switch.ecn.pmax``) runs both points, and
  every point's ``config.json`` (written by the simulator) runs again from
  another folder;
* ``--emit`` writes one command per point, each naming only absolute paths;
* a 2-trial tune writes ``best.json`` and ``tune.md``; every file key in
  ``best.json`` is absolute and names an existing file, and ``best.json``
  runs.
"""

import csv
import glob
import json
import os
import shlex
import subprocess

import pandas as pd
import pytest

import crafted
from rdma_analysis import runner_check as rc
from rdma_analysis import sweep as rdma_sweep
from rdma_analysis import tune as rdma_tune

SCENARIOS = sorted(glob.glob(os.path.join(crafted.REPO_ROOT, "scenarios",
                                          "*.json")))
STOP_MS = 0.2

try:
    import optuna  # noqa: F401
    HAVE_OPTUNA = True
except ImportError:
    HAVE_OPTUNA = False


def rescaled_groups(src, dst, stop_us):
    """*src* (an incast-groups CSV) with join/leave/jitter scaled so every
    group leaves by 80% of *stop_us*; comment lines kept."""
    with open(src) as handle:
        lines = handle.read().splitlines()
    comments = [line for line in lines if line.startswith("#")]
    rows = list(csv.DictReader(line for line in lines
                               if not line.startswith("#")))
    scale = 0.8 * stop_us / max(float(r["leave_us"]) for r in rows)
    for r in rows:
        for col in ("join_us", "leave_us", "jitter_us"):
            if r.get(col):
                r[col] = f"{float(r[col]) * scale:.3f}"
    with open(dst, "w", newline="") as handle:
        handle.write("\n".join(comments) + "\n")
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def shrink(scenario_path, folder):
    """``set`` overrides that make the scenario a 0.2 ms run (paths in
    them relative to *folder*, where the spec is written)."""
    with open(scenario_path) as handle:
        scenario = json.load(handle)
    traffic = scenario.get("traffic", {})
    over = {"stop_time_ms": STOP_MS}
    if traffic.get("cdf", {}).get("enabled"):
        over.update({"traffic.cdf.start_us": 0,
                     "traffic.cdf.duration_us": 100,
                     "traffic.cdf.warmup_us": 20,
                     "traffic.cdf.cooldown_us": 20})
    if traffic.get("incast", {}).get("until_ms"):
        over["traffic.incast.until_ms"] = STOP_MS
    groups = traffic.get("incast_groups_csv")
    if groups:
        rescaled_groups(os.path.join(os.path.dirname(scenario_path), groups),
                        os.path.join(folder, "groups.csv"), STOP_MS * 1000)
        over["traffic.incast_groups_csv"] = "groups.csv"  # spec-relative
    return over


def run_cli(main, capsys, *args):
    capsys.readouterr()
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_paths_portable(scenario, keys):
    """Every file key with a value is absolute and names an existing
    file."""
    for key in keys:
        value = rc.get_dotted(scenario, key)
        if value:
            assert os.path.isabs(value), (key, value)
            assert os.path.isfile(value), (key, value)


def rerun(runner, scenario_file, out_dir, cwd):
    proc = subprocess.run([runner, scenario_file, "--out", out_dir,
                           "--quiet"], capture_output=True, text=True,
                          cwd=cwd, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert os.path.isfile(os.path.join(out_dir, "summary.json"))


@crafted.needs_runner
@pytest.mark.skipif(not HAVE_OPTUNA, reason="Optuna not installed")
@pytest.mark.parametrize("scenario", SCENARIOS, ids=os.path.basename)
def test_sweep_emit_and_tune_accept_the_scenario(tmp_path, capsys,
                                                  monkeypatch, scenario):
    monkeypatch.setenv("RDMA_RUNNER", crafted.RUNNER)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    fixed = shrink(scenario, tmp_path)
    keys = rc.path_keys(crafted.RUNNER)
    assert "traffic.cdf.file" in keys and "topology.file" in keys

    sweep_spec = crafted.write_spec(tmp_path, {
        "base": scenario, "out": "sweep", "set": fixed,
        "grid": {"switch.ecn.pmax": [0.1, 0.2]}, "metrics": ["events"],
        "jobs": 1}, name="sweep.json")
    code, _, err = run_cli(rdma_sweep.main, capsys, sweep_spec,
                           "--no-plots")
    assert code == 0, err
    table = pd.read_csv(tmp_path / "sweep" / "sweep.csv")
    assert list(table["status"]) == ["ok", "ok"]
    for run_dir in table["run_dir"]:
        config_file = tmp_path / "sweep" / run_dir / "config.json"
        with open(config_file) as handle:
            assert_paths_portable(json.load(handle), keys)
        rerun(crafted.RUNNER, str(config_file),
              str(elsewhere / f"config-{os.path.basename(run_dir)}"),
              cwd=elsewhere)

    code, _, err = run_cli(rdma_sweep.main, capsys, sweep_spec, "--emit",
                           "--out", tmp_path / "emit")
    assert code == 0, err
    with open(tmp_path / "emit" / "commands.txt") as handle:
        commands = handle.read().splitlines()
    assert len(commands) == 2
    for line in commands:
        words = shlex.split(line.split(" || ", 1)[1])
        assert os.path.isabs(words[0]) and os.path.isabs(words[1])
        for word in words:
            if "=" in word and word.split("=", 1)[0] in keys:
                assert os.path.isabs(word.split("=", 1)[1]), word

    tune_spec = crafted.write_spec(tmp_path, {
        "base": scenario, "out": "tune", "set": fixed,
        "params": {"switch.ecn.pmax": {"min": 0.05, "max": 0.5}},
        "objective": {"metric": "summary.events",
                      "direction": "minimize"},
        "seeds": [1], "trials": 2, "jobs": 1,
        "sampler": {"seed": 0, "startup_trials": 2}}, name="tune.json")
    code, _, err = run_cli(rdma_tune.main, capsys, tune_spec)
    assert code == 0, err
    best_file = tmp_path / "tune" / "best.json"
    assert (tmp_path / "tune" / "tune.md").is_file()
    with open(best_file) as handle:
        best = json.load(handle)
    assert_paths_portable(best, keys)
    rerun(crafted.RUNNER, str(best_file), str(elsewhere / "best"),
          cwd=elsewhere)
