"""Every shipped scenario writes the same fct.csv (and queue.csv, pfc.csv) under ns-3's
DefaultSimulatorImpl (simulator.scheduler heap) as under the module's own event core
(rdma): the model reaches the core only through RdmaSim, and the core's speed machinery
(reserved event orders, deferred ends of transmission, prefetching) must not change what
is simulated."""
import filecmp
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNNER = os.environ.get("RDMA_RUNNER", str(ROOT / "build" / "bin" / "rdma-run"))
SCENARIOS = sorted((ROOT / "scenarios").glob("*.json"))


def run(scenario, engine, out):
    p = subprocess.run([RUNNER, str(scenario), "--quiet", "--out", str(out),
                        "--set", f"simulator.scheduler={engine}"],
                       capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stderr
    return out


def test_every_scenario_is_shipped():
    assert len(SCENARIOS) >= 18


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.stem for s in SCENARIOS])
def test_same_outputs_under_the_default_simulator(scenario, tmp_path):
    fast = run(scenario, "rdma", tmp_path / "rdma")
    default = run(scenario, "heap", tmp_path / "heap")
    for name in ("fct.csv", "queue.csv", "pfc.csv"):
        if (fast / name).exists() or (default / name).exists():
            assert filecmp.cmp(fast / name, default / name, shallow=False), name
    assert (fast / "fct.csv").stat().st_size > 0
