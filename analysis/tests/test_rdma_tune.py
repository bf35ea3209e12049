"""Tests of rdma_analysis.tune."""

import json
import os
import subprocess

import pandas as pd
import pytest

import crafted
from rdma_analysis import tune as rdma_tune
from rdma_analysis import tune_report  # noqa: F401

try:
    import optuna  # noqa: F401
    HAVE_OPTUNA = True
except ImportError:
    HAVE_OPTUNA = False

needs_optuna = pytest.mark.skipif(
    not HAVE_OPTUNA, reason="Optuna not installed (apt-get install "
                            "python3-optuna, or ./rdma setup)")


def write_spec(folder, spec, name="tune.json"):
    return crafted.write_spec(folder, spec, name)


def run_main(capsys, *args):
    return crafted.run_cli(rdma_tune.main, capsys, *args)


TINY_SPEC = {
    "base": crafted.TINY,
    "out": "out",
    "params": {
        "switch.ecn.kmin_kb": {"min": 5, "max": 400, "log": True},
        "cc.dcqcn.RateAi": {"min": 5, "max": 200, "log": True,
                            "unit": "Mbps"},
        "cc.algorithm": {"values": ["dcqcn", "none"]},
    },
    "objective": {"metric": "probe_slowdown_p99", "direction": "minimize",
                  "constraints": [{"metric": "goodput_utilization",
                                   "min": 0.1}]},
    "seeds": [1],
    "trials": 3,
    "sampler": {"seed": 0, "startup_trials": 2},
}


@crafted.needs_runner
@needs_optuna
def test_tune_writes_a_scenario_that_rdma_run_accepts_and_resumes(
        tmp_path, capsys):
    path = write_spec(tmp_path, TINY_SPEC)
    out = tmp_path / "out"
    rc, stdout, err = run_main(capsys, path, "--jobs", "2")
    assert rc == 0, err
    assert "0 finished trial(s), 3 to run" in err
    for name in ("best.json", "trials.csv", "optimization_history.png",
                 "param_importance.png", "tune.md", "study.db"):
        assert (out / name).exists(), name
    assert stdout.splitlines()[0] == str(out / "best.json")
    crafted.assert_png(out / "optimization_history.png")
    crafted.assert_png(out / "param_importance.png")

    trials = pd.read_csv(out / "trials.csv")
    assert list(trials["trial"]) == [0, 1, 2]
    assert set(trials["state"]) == {"COMPLETE"}
    # best.json holds the values of the lowest-objective feasible trial
    best = trials[trials["feasible"]].sort_values(["value", "trial"]).iloc[0]
    with open(out / "best.json") as handle:
        scenario = json.load(handle)
    assert scenario["switch"]["ecn"]["kmin_kb"] == best["switch.ecn.kmin_kb"]
    assert scenario["cc"]["algorithm"] == best["cc.algorithm"]
    assert scenario["cc"]["dcqcn"]["RateAi"] == best["cc.dcqcn.RateAi"]
    assert scenario["cc"]["dcqcn"]["RateAi"].endswith("Mbps")
    assert scenario["name"] == "tiny-incast-tuned"
    # the rest of the base scenario is kept
    assert scenario["traffic"]["incast"]["senders"] == [1, 2, 3]
    with open(out / "tune.md") as handle:
        assert f"Trial {int(best['trial'])}:" in handle.read()

    result = subprocess.run([crafted.RDMA, "run", str(out / "best.json"),
                             "--out", str(tmp_path / "rerun"), "--quiet"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "rerun" / "summary.json").exists()

    # Same command with a larger budget resumes the stored study.
    rc, _, err = run_main(capsys, path, "--jobs", "1", "--trials", "4")
    assert rc == 0, err
    assert "3 finished trial(s), 1 to run" in err
    assert list(pd.read_csv(out / "trials.csv")["trial"]) == [0, 1, 2, 3]


@pytest.mark.parametrize("change,message", [
    ({"objectve": {}}, "unknown key 'objectve'"),
    ({"params": {}}, "key 'params' has invalid value {}"),
    ({"objective": {"metric": "p99"}},
     "key 'objective.metric' has invalid value \"p99\""),
    ({"objective": {"metric": "slowdown_p99", "direction": "down"}},
     "key 'objective.direction' has invalid value \"down\""),
    ({"objective": {"metric": "slowdown_p99", "constraints": [
        {"metric": "goodput_gbps", "min": 1, "max": 2}]}},
     "give exactly one of 'min' and 'max'"),
    ({"sampler": {"seed": -1}}, "key 'sampler.seed' has invalid value -1"),
    ({"trials": "many"}, "key 'trials' has invalid value \"many\""),
])
def test_bad_tune_spec_exits_2(tmp_path, capsys, change, message):
    spec = dict(TINY_SPEC)
    spec.update(change)
    path = write_spec(tmp_path, spec)
    rc, out, err = run_main(capsys, path)
    assert rc == 2
    assert err.startswith(f"rdma tune: error: {path}: ")
    assert message in err
    assert len(err.strip().splitlines()) == 1 and out == ""
    assert not (tmp_path / "out").exists()


def test_param_importance_known_answer():
    # y depends only on a: eta^2(a) = 1, eta^2(b) = 0; c groups {0,1,2}
    # (mean 5/3) and {3} (mean 3) around 2: between = 3/9 + 1 = 4/3 over
    # total 4 -> 1/3.  Normalized: a 3/4, b 0, c 1/4.
    frame = pd.DataFrame({"state": ["COMPLETE"] * 4 + ["FAIL"],
                          "value": [1.0, 1.0, 3.0, 3.0, None],
                          "a": [0, 0, 1, 1, 5], "b": [0, 1, 0, 1, 5],
                          "c": ["p", "p", "p", "q", "q"]})
    imp = rdma_tune.param_importance(frame, ["a", "b", "c"])
    assert imp == pytest.approx({"a": 0.75, "b": 0.0, "c": 0.25})
    flat = frame.assign(value=[2.0] * 5)
    assert rdma_tune.param_importance(flat, ["a"]) == {"a": 0.0}


def test_param_importance_groups_many_values_by_rank():
    # 10 distinct values -> 5 rank groups of 2: {0,1} {2,3} ... {8,9}
    frame = pd.DataFrame({"state": ["COMPLETE"] * 10,
                          "value": [float(v // 2) for v in range(10)],
                          "x": list(range(10))})
    assert rdma_tune.param_importance(frame, ["x"]) == {"x": 1.0}


class _FakeTune:
    direction = "minimize"


def test_best_row_needs_a_feasible_completed_trial():
    frame = pd.DataFrame({"trial": [0, 1, 2, 3],
                          "state": ["COMPLETE", "COMPLETE", "FAIL",
                                    "COMPLETE"],
                          "value": [1.0, 2.0, 0.5, 2.0],
                          "feasible": [False, True, False, True]})
    # lowest feasible value 2.0 (trials 1 and 3): the earlier trial wins
    assert rdma_tune.best_row(_FakeTune(), frame)["trial"] == 1
    frame["feasible"] = False
    assert rdma_tune.best_row(_FakeTune(), frame) is None


def test_constraint_violation_sign():
    floor = rdma_tune.Constraint("goodput_utilization", low=0.9)
    assert floor.violation(0.95) == pytest.approx(-0.05)   # met
    assert floor.violation(0.8) == pytest.approx(0.1)      # not met
    ceiling = rdma_tune.Constraint("drops", high=0)
    assert ceiling.violation(0) == 0 and ceiling.violation(3) == 3


PATH_VALUES = {"traffic.flows_csv": "flows.csv",
               "traffic.cdf.file": "workloads/w.cdf",
               "topology.file": "../topo/t.txt",
               "traffic.incast_groups_csv": "groups.csv",
               "traffic.trace.csv": "trace.csv",
               "traffic.hpcc_flow_file": "flow.txt"}


def test_best_scenario_makes_every_file_key_absolute(tmp_path):
    # Every file key of the base scenario, relative to the base's folder,
    # must still name the same (existing) file from the output folder.
    scen_dir = tmp_path / "scen"
    base = {"name": "b"}
    for key, rel in PATH_VALUES.items():
        target = scen_dir / rel
        os.makedirs(target.parent, exist_ok=True)
        target.write_text("x\n")
        rdma_tune.set_dotted(base, key, rel)
    crafted.write_json(scen_dir / "base.json", base)
    path = write_spec(tmp_path, {
        "base": "scen/base.json", "out": "results/t",
        "params": {"switch.ecn.kmin_kb": {"min": 1, "max": 2}},
        "objective": {"metric": "slowdown_p99"}})
    tune = rdma_tune.Tune(path, check_runner=False)
    scenario = rdma_tune.best_scenario(tune, {"switch.ecn.kmin_kb": 1.5,
                                              "cc.dcqcn.RateAi": "40Mbps"})
    assert scenario["switch"] == {"ecn": {"kmin_kb": 1.5}}
    assert scenario["cc"] == {"dcqcn": {"RateAi": "40Mbps"}}
    for key, rel in PATH_VALUES.items():
        value = tune_report.rc.get_dotted(scenario, key)
        assert os.path.isabs(value), key
        assert os.path.samefile(value, scen_dir / rel), key
    assert scenario["name"] == "b-tuned"
    assert tune.storage == "sqlite:///" + str(tmp_path / "results" / "t" /
                                              "study.db")


def test_spec_path_values_are_relative_to_the_spec_file(tmp_path):
    # A file key in the spec's "set" is relative to the spec file.
    (tmp_path / "specs").mkdir()
    (tmp_path / "w.cdf").write_text("x\n")
    path = write_spec(tmp_path / "specs", {
        "base": crafted.TINY, "out": "o",
        "set": {"traffic.cdf.file": "../w.cdf"},
        "params": {"cc.algorithm": {"values": ["dcqcn", "none"]}},
        "objective": {"metric": "slowdown_p99"}})
    tune = rdma_tune.Tune(path, check_runner=False)
    assert tune.fixed["traffic.cdf.file"] == str(tmp_path / "w.cdf")
