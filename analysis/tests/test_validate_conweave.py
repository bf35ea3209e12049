"""The ``conweave`` case of ./rdma validate, with a fake simulator (the real
case runs 20 simulations of a 128-host fabric): its window, its pass/fail
rule (mean of the seeds' average slowdown within 15% of 1.93, mean p99 within
20% of 10.9) and the setting it names as the one that explains the defaults'
difference.

The fake's runs are two hosts on one switch (100G, 1 us links, 1000-byte MTU)
with 1000-byte flows, whose ideal by ConWeave's definition is worked out by
hand: base RTT 2 x 2000 + 2 x 80 = 4160 ns, plus 1048 x 8 / 100 = 83.84 -> 83
ns, 4243 ns; a flow of FCT v x 4243 ns has slowdown v.
"""

import os
import sys

import pandas as pd
import pytest

import crafted

sys.path.insert(0, os.path.join(crafted.REPO_ROOT, "validation"))
from rdma_validate.cases import ALL, conweave  # noqa: E402
from rdma_analysis.runs import LINKS_COLUMNS, Run  # noqa: E402

IDEAL = 4243
G100 = 100_000_000_000


def values_for(avg, p99):
    """100 slowdowns whose mean is *avg* and nearest-rank p99 *p99*: 98 of x,
    two of p99 (the 99th and 100th smallest)."""
    x = (100 * avg - 2 * p99) / 98
    assert 1 <= x <= p99
    return [x] * 98 + [p99, p99]


def fake_run(avg, p99):
    rows = []
    for i, v in enumerate(values_for(avg, p99)):
        start = 5_000_000 + 1000 * (i + 1)  # inside (5, 10] ms
        if i == 99:
            start = 10_000_000               # the window's closed end
        rows.append(("cdf", 0, 1, 1000, start, v * IDEAL, 9.99))
    # Outside the window: at 5 ms exactly, before it, after it; and a probe.
    rows += [("cdf", 0, 1, 1000, 5_000_000, 500 * IDEAL, 9.99),
             ("cdf", 0, 1, 1000, 1_000_000, 500 * IDEAL, 9.99),
             ("cdf", 0, 1, 1000, 10_000_001, 500 * IDEAL, 9.99),
             ("probe", 0, 1, 1000, 6_000_000, 500 * IDEAL, 9.99)]
    fct = pd.DataFrame(rows, columns=["kind", "src", "dst", "size_bytes",
                                      "start_ns", "fct_ns", "slowdown"])
    links = pd.DataFrame(
        [(0, 0, "host", 2, 0, "switch", G100, 1000),
         (1, 0, "host", 2, 1, "switch", G100, 1000)],
        columns=list(LINKS_COLUMNS))
    return Run(directory="fake", summary={"sim_time_s": 0.01, "pfc_pause_episodes": 2,
                                          "pfc_pause_frames_per_packet_rule": 40},
               fct=fct, queue=None, pfc=None, config={"nic": {"mtu_bytes": 1000}},
               links=links)


class FakeSim:
    """Answers sim.run by the run's tag (``conweave-<tag>-s<seed>``)."""

    def __init__(self, out, figures):
        self.out = out
        self.figures = figures
        self.calls = []

    def run(self, name, scenario, overrides=None):
        self.calls.append((name, scenario, dict(overrides or {})))
        tag = name.split("-")[1]
        return fake_run(*self.figures.get(tag, self.figures["other"]))


def run_case(tmp_path, matched, quick=False):
    figures = {"matched": matched, "defaults": (2.93, 18.2),
               "alone2": (2.16, 12.0), "other": (2.85, 17.5)}
    sim = FakeSim(tmp_path, figures)
    return conweave.run(sim, quick), sim


def test_fake_ideal_is_hand_computed():
    from rdma_analysis.slowdown import peer_ideal_fct_ns
    assert peer_ideal_fct_ns(1000, 1000, [(G100, 1000)] * 2) == IDEAL


def test_published_figures_pass_and_name_the_ecn_setting(tmp_path):
    res, sim = run_case(tmp_path, (1.93, 10.9))
    assert res.passed
    assert [c.passed for c in res.checks] == [True, True]
    assert "1.93 (+0.0%" in res.checks[0].simulated
    # 5 matched + 5 defaults + 5 settings x 2 seeds; seeds set by override.
    assert len(sim.calls) == 20
    assert {c[2]["seed"] for c in sim.calls} == {1, 2, 3, 4, 5}
    text = "\n".join(res.notes)
    ecn = conweave.SETTINGS[2][0]
    assert ecn.startswith("ECN")
    # 2.93 -> 2.16 of 2.93 -> 1.93: 77% of the gap.
    assert f"explains the difference:** {ecn}" in text
    assert "from 2.93 to 2.16, 77% of the way" in text
    assert (tmp_path / "conweave.png").exists()


@pytest.mark.parametrize("matched, expect", [
    ((2.2, 10.9), [True, True]),     # +14.0%: inside 15%
    ((2.25, 10.9), [False, True]),   # +16.6%
    ((1.62, 10.9), [False, True]),   # -16.1%
    ((1.93, 13.0), [True, True]),    # +19.3%: inside 20%
    ((1.93, 13.2), [True, False]),   # +21.1%
    ((1.93, 8.6), [True, False]),    # -21.1%
])
def test_tolerances(tmp_path, matched, expect):
    res, _ = run_case(tmp_path, matched)
    assert [c.passed for c in res.checks] == expect
    assert res.passed == all(expect)


def test_window_keeps_flows_starting_in_5_to_10_ms_only(tmp_path):
    stats = conweave.seed_stats(fake_run(1.93, 10.9))
    assert stats["n"] == 100
    assert stats["avg"] == pytest.approx(1.93)
    assert stats["p99"] == pytest.approx(10.9)
    assert stats["module_avg"] == pytest.approx(9.99)  # fct.csv's column
    assert stats["episodes"] == 2 and stats["per_packet"] == 40


def test_defaults_are_the_scenario_without_the_settings():
    import json
    matched = json.loads((conweave.ROOT / conweave.SCENARIO).read_text())
    defaults, alone = conweave.scenarios(matched, conweave.ROOT / "scenarios")
    assert "switch" not in defaults
    assert defaults["cc"] == {"algorithm": "dcqcn"}  # the default controller
    assert "nic" not in defaults
    assert defaults["topology"] == matched["topology"]
    assert os.path.isabs(defaults["traffic"]["cdf"]["file"])
    ecn = alone[conweave.SETTINGS[2][0]]
    assert ecn["switch"] == {"ecn": matched["switch"]["ecn"]}
    dcqcn = alone[conweave.SETTINGS[3][0]]
    assert dcqcn["cc"] == matched["cc"]
    assert dcqcn["nic"] == {"cnp_interval_us": 0}


def test_quick_skips_it_and_a_quick_run_uses_one_seed(tmp_path):
    case = [c for c in ALL if c.name == "conweave"][0]
    assert not case.quick
    res, sim = run_case(tmp_path, (1.93, 10.9), quick=True)
    assert len(sim.calls) == 7 and res.passed
