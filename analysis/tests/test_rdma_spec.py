"""Tests of what sweeps and tuning share (rdma_analysis.spec), of the key
list the runner gives as JSON, and of the package's one entry point."""

import json
import os
import re
import subprocess
import sys

import pytest

import crafted
from rdma_analysis import __main__ as entry
from rdma_analysis import spec as rs
from rdma_analysis import sweep as rdma_sweep
from rdma_analysis import tune as rdma_tune

KEYS_DOC = os.path.join(crafted.REPO_ROOT, "docs", "scenario-keys.md")

TUNE_SPEC = {
    "base": crafted.TINY, "out": "out",
    "params": {"switch.ecn.kmin_kb": {"min": 5, "max": 400}},
    "objective": {"metric": "slowdown_p99"},
}


def documented_keys():
    """``{key: unit}`` of every row of docs/scenario-keys.md (the main
    table's unit column; the congestion-control tables have none)."""
    keys = {}
    with open(KEYS_DOC) as handle:
        for line in handle:
            m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
            if m:
                cells = [c.strip() for c in
                         re.split(r"(?<!\\)\|", line.strip().strip("|"))]
                keys[m.group(1)] = cells[2] if len(cells) >= 6 else ""
    return keys


# --- the key list as JSON ----------------------------------------------------

def test_parse_keys_json():
    text = json.dumps({"keys": [
        {"path": "seed", "kind": "scenario", "unit": ""},
        {"path": "stop_time_ms", "kind": "scenario", "unit": "ms"},
        {"path": "cc.dcqcn.G", "kind": "cc", "unit": ""}]})
    assert rs.parse_keys_json(text) == {"seed": "", "stop_time_ms": "ms",
                                        "cc.dcqcn.G": ""}
    assert rs.parse_keys_json("| `seed` | integer |") is None
    assert rs.parse_keys_json('{"no": "keys"}') is None
    assert rs.parse_keys_json('{"keys": [{"unit": "ms"}]}') is None


@crafted.needs_runner
def test_runner_lists_every_documented_key_as_json():
    proc = subprocess.run([crafted.RUNNER, "--list-keys", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    entries = json.loads(proc.stdout)["keys"]
    fields = {"path", "kind", "type", "unit", "min", "max", "choices",
              "default", "doc"}
    assert all(fields <= set(e) for e in entries)
    by_path = {e["path"]: e for e in entries}
    assert len(by_path) == len(entries)
    # The same keys and units as the Markdown reference.
    assert {p: e["unit"] for p, e in by_path.items()} == documented_keys()
    assert rs.scenario_keys(crafted.RUNNER) == documented_keys()
    stop = by_path["stop_time_ms"]
    assert (stop["kind"], stop["type"], stop["unit"], stop["min"],
            stop["max"], stop["default"]) == ("scenario", "number", "ms",
                                              1e-6, None, 100)
    seed = by_path["seed"]
    assert (seed["type"], seed["min"], seed["max"]) == ("int", 0,
                                                        4294967295)
    assert by_path["topology.type"]["choices"][:2] == ["star", "leaf_spine"]
    assert by_path["nic.cnp_interval_us"]["default"] is None  # derived
    gain = by_path["cc.dcqcn.G"]  # the preset's (nic 5/1024, paper 1/256)
    assert (gain["kind"], gain["algorithm"], gain["attribute"],
            gain["type"], gain["default"]) == ("cc", "dcqcn", "G",
                                               "double 0:1 or preset", "preset")
    assert by_path["cc.hpcc.RttBoundary"]["choices"] == ["Psn", "SendTime"]


@crafted.needs_runner
def test_json_flag_goes_with_list_keys():
    proc = subprocess.run([crafted.RUNNER, crafted.TINY, "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--json goes with --list-keys" in proc.stderr


# --- the setup sweeps and tunes share ----------------------------------------

@pytest.mark.parametrize("load", [rdma_sweep.Sweep, rdma_tune.Tune])
def test_sweep_and_tune_read_the_shared_keys_alike(tmp_path, load):
    spec = dict(TUNE_SPEC, set={"traffic.probe.enabled": False},
                seeds=[3, 1], description="x")
    if load is rdma_sweep.Sweep:
        spec = {k: v for k, v in spec.items()
                if k not in ("params", "objective")}
    path = crafted.write_spec(tmp_path, spec)
    exp = load(path, runner="/nonexistent", check_runner=False)
    assert isinstance(exp, rs.Experiment)
    assert exp.base == crafted.TINY
    assert exp.out == str(tmp_path / "out")
    assert exp.fixed == {"traffic.probe.enabled": False}
    assert exp.seeds == [3, 1]
    assert exp.runner == "/nonexistent"
    assert exp.run_dir("abc") == str(tmp_path / "out" / "runs" / "abc")
    assert exp.log_path("abc") == str(tmp_path / "out" / "logs" / "abc.log")
    assert exp.algorithm() == "dcqcn"


@pytest.mark.parametrize("extra,message", [
    ({"set": {"switch.ecn.kmin_kb": 1}},
     "'switch.ecn.kmin_kb' is given in both 'set' and 'params'"),
    ({"params": {"seed": {"values": [1, 2]}}, "seeds": [1]},
     "'seed' is given in both 'params' and 'seeds'"),
    ({"set": {"seed": 4}, "seeds": [1]},
     "'seed' is given in both 'set' and 'seeds'"),
    ({"description": 3}, "key 'description' has invalid value 3"),
    ({"objective": {"metric": "slowdown_p98"}},
     "key 'objective.metric' has invalid value \"slowdown_p98\" (unknown "
     "metric"),
    ({"objective": {}}, "missing key 'objective.metric'"),
])
def test_tune_spec_errors_name_the_key(tmp_path, extra, message):
    path = crafted.write_spec(tmp_path, dict(TUNE_SPEC, **extra))
    with pytest.raises(rs.SpecError) as info:
        rdma_tune.Tune(path, check_runner=False)
    assert str(info.value).startswith(f"{path}: ")
    assert message in str(info.value)


@crafted.needs_runner
def test_check_run_gives_the_runners_message(tmp_path):
    assert rs.check_run(crafted.RUNNER, crafted.TINY) is None
    assert rs.check_run(crafted.RUNNER, crafted.TINY,
                        {"switch.ecn.pmax": 2}).startswith(
        "rdma-run: error: --set: key 'switch.ecn.pmax' has invalid value 2")


@crafted.needs_runner
def test_check_run_works_for_cdf_traffic_and_names_bad_time_values():
    # CDF arrivals: a zero-length run would be rejected; --check is not.
    cdf = os.path.join(crafted.REPO_ROOT, "scenarios",
                       "cdf-websearch-leaf-spine.json")
    assert rs.check_run(crafted.RUNNER, cdf) is None
    # A malformed time is rejected with the key and value (ns-3's parser
    # used to abort the runner on it).
    msg = rs.check_run(crafted.RUNNER, cdf,
                       {"cc.dcqcn.RateIncreaseInterval": "bogus"})
    assert msg.startswith("rdma-run: error: --set: key "
                          "'cc.dcqcn.RateIncreaseInterval' has invalid value "
                          "\"bogus\"")


def test_check_run_reports_a_crash_with_the_values_it_was_given(tmp_path):
    fake = tmp_path / "crashing-runner.sh"
    fake.write_text("#!/bin/sh\necho 'aborted. msg=\"boom\"' >&2\n"
                    "kill -ABRT $$\n")
    fake.chmod(0o755)
    msg = rs.check_run(str(fake), "s.json", {"cc.x.T": "bad"})
    assert "crashed" in msg and "s.json" in msg and "cc.x.T=bad" in msg
    assert 'msg="boom"' in msg


# --- the entry point ---------------------------------------------------------

def test_entry_point_lists_the_commands(capsys):
    assert entry.main([]) == 2
    assert "plot" in capsys.readouterr().err
    assert entry.main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("plot", "compare", "sweep", "tune"))
    assert entry.main(["plott"]) == 2
    assert "unknown command 'plott'" in capsys.readouterr().err


def test_entry_point_runs_a_command_as_a_module(tmp_path):
    run = crafted.full_run(tmp_path / "run")
    proc = subprocess.run(
        [sys.executable, "-m", "rdma_analysis", "plot", run, "--out",
         str(tmp_path / "plots")], capture_output=True, text=True,
        timeout=300, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=crafted.ANALYSIS_DIR))
    assert proc.returncode == 0, proc.stderr
    assert os.path.isfile(tmp_path / "plots" / "report.md")
