"""Uncertainty (rdma_analysis.stats) and open-loop throughput
(rdma_analysis.throughput), against hand-computed answers and independent
computations."""

import math
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

import crafted
from rdma_analysis import data as rdma_data
from rdma_analysis import stats as st
from rdma_analysis import throughput as tp


# --- stats -----------------------------------------------------------------

def test_t_quantiles_are_the_textbook_values():
    # Student t, two-sided 95%: df 1 -> 12.706, 2 -> 4.303, 4 -> 2.776,
    # 10 -> 2.228, 30 -> 2.042; large df tends to the normal 1.96.
    assert [st.t975(d) for d in (1, 2, 4, 10, 30)] == \
        [12.706, 4.303, 2.776, 2.228, 2.042]
    assert st.t975(5000) == 1.96
    assert math.isnan(st.t975(0))
    # Never below the normal quantile, and non-increasing in df.
    t = [st.t975(d) for d in range(1, 300)]
    assert all(a >= b for a, b in zip(t, t[1:])) and min(t) >= 1.96


def test_mean_ci_known_answer():
    # 2, 4, 9: mean 5, sd sqrt((9 + 1 + 16) / 2) = sqrt(13),
    # half-width 4.303 x sqrt(13) / sqrt(3).
    mean, sd, half, n = st.mean_ci([2, 4, 9, float("nan")])
    assert (mean, n) == (5.0, 3)
    assert sd == pytest.approx(13 ** 0.5)
    assert half == pytest.approx(4.303 * 13 ** 0.5 / 3 ** 0.5)
    assert math.isnan(st.mean_ci([7])[2]) and st.mean_ci([])[3] == 0


def test_ci_half_width_shrinks_with_n():
    # The same spread (values alternating 0 and 1) with more seeds gives a
    # narrower interval.
    halves = [st.mean_ci([k % 2 for k in range(n)])[2]
              for n in (2, 4, 8, 16, 64)]
    assert all(a > b for a, b in zip(halves, halves[1:]))


def test_percentile_sample_rule():
    assert [st.min_samples(p) for p in (50, 95, 99, 99.9)] == \
        [2, 20, 100, 1000]
    assert st.enough(99, 100) and not st.enough(99, 99)
    assert st.enough(None, 1)
    # At the rule's n, at least one value is above the nearest-rank
    # percentile; one fewer, and it is the maximum.
    for p in (50, 95, 99):
        n = st.min_samples(p)
        values = np.arange(1, n + 1)
        assert rdma_data.percentile(values, p) < values.max()
        assert rdma_data.percentile(values[:-1], p) == values[:-1].max()


def test_differs_needs_separated_intervals():
    a = st.mean_ci([10, 11, 12])
    assert st.differs(a, st.mean_ci([20, 21, 22]))
    assert not st.differs(a, st.mean_ci([11, 12, 13]))
    assert not st.differs(a, st.mean_ci([30]))   # one seed: no verdict


# --- throughput --------------------------------------------------------------

# Window [1000, 5000] ns (4000 ns); ideal FCT 1000 ns (slowdown = fct/1000).
#   A 1000 B, [0, 2000]: half inside -> 500 B
#   B 4000 B, [2000, 3000]: all inside -> 4000 B
#   C 10000 B, [4000, 8000]: a quarter inside -> 2500 B
#   probe 64 B inside: not foreground
# Delivered 7000 B x 8 / 4000 ns = 14 Gb/s.  Arriving in the window: B + C
# = 14000 B -> 28 Gb/s.  BDP 5000: small (A, B) 4500 B -> 9 Gb/s, large C
# 2500 B -> 5 Gb/s; long-flow rate: C (starts inside) 10000 x 8 / 4000 =
# 20 Gb/s.
FLOWS = [(0, "flow", 1, 0, 0, 3, 1000, 0, 2),
         (1, "flow", 2, 0, 0, 3, 4000, 2000, 1),
         (2, "flow", 3, 0, 0, 3, 10000, 4000, 4),
         (3, "probe", 1, 0, 9, 3, 64, 3000, 1)]


def crafted_run(tmp_path):
    path = crafted.write_run(
        tmp_path / "run", fct=crafted.fct_text(FLOWS, extra=()),
        summary={"warmup_end_ns": 1000, "cooldown_start_ns": 5000,
                 "bdp_bytes": 5000, "sim_time_s": 1e-5})
    return rdma_data.load_run(path)


def test_window_throughput_hand_computed(tmp_path):
    run = crafted_run(tmp_path)
    m = rdma_data.run_metrics(run)
    assert m["window_us"] == pytest.approx(4.0)
    assert m["window_goodput_gbps"] == pytest.approx(14.0)
    assert m["window_offered_gbps"] == pytest.approx(28.0)
    assert m["small_window_goodput_gbps"] == pytest.approx(9.0)
    assert m["large_window_goodput_gbps"] == pytest.approx(5.0)
    assert m["long_flow_rate_gbps"] == pytest.approx(20.0)
    table = tp.window_table(run, rdma_data.size_buckets([1024, 8192]),
                            5000).set_index("group")
    # <=1K: A (500 B); 1K-8K: B (4000 B); >8K: C (2500 B).
    assert table.loc["<=1K", "bytes_in_window"] == pytest.approx(500)
    assert table.loc["1K-8K", "window_gbps"] == pytest.approx(8.0)
    assert table.loc[">8K", "bytes_in_window"] == pytest.approx(2500)
    assert table.loc["all foreground", "window_gbps"] == pytest.approx(14)


def test_unfinished_messages_count_their_acked_bytes(tmp_path):
    run = crafted_run(tmp_path)
    # D: 1,000,000 B started at 3000 ns, 8000 B acked by the run's end
    # (10000 ns): 8000 B over [3000, 10000] -> 2000/7000 of it inside.
    with open(os.path.join(run.directory, "unfinished.csv"), "w") as f:
        f.write("flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,"
                "acked_bytes\n9,flow,1,0,5,3,1000000,3000,8000\n")
    m = rdma_data.run_metrics(rdma_data.load_run(run.directory))
    expected = (7000 + 8000 * 2000 / 7000) * 8 / 4000
    assert m["window_goodput_gbps"] == pytest.approx(expected)


@crafted.needs_runner
def test_window_goodput_equals_bytes_delivered_in_window(tmp_path):
    # A real CDF run: integrate each message's delivery (its bytes spread
    # evenly over its FCT) on a 1 ns grid inside the window, straight from
    # fct.csv, and compare with the metric.
    scenario = os.path.join(crafted.REPO_ROOT, "scenarios",
                            "cdf-websearch-leaf-spine.json")
    out = tmp_path / "run"
    proc = subprocess.run(
        [crafted.RUNNER, scenario, "--out", str(out), "--quiet",
         "--set", "stop_time_ms=3", "--set", "traffic.cdf.duration_us=1000",
         "--set", "traffic.cdf.warmup_us=200",
         "--set", "traffic.cdf.cooldown_us=200"],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    fct = pd.read_csv(out / "fct.csv")
    summary = rdma_data.load_run(str(out)).summary
    lo, hi = summary["warmup_end_ns"], summary["cooldown_start_ns"]
    fg = fct[fct["kind"] != "probe"]
    spans = list(zip(fg["size_bytes"], fg["start_ns"], fg["end_ns"]))
    # Messages still running at the end: their acked bytes, spread from
    # their start to the end of the run.
    end_ns = round(summary["sim_time_s"] * 1e9)
    if os.path.exists(out / "unfinished.csv"):
        rest = pd.read_csv(out / "unfinished.csv")
        spans += [(b, s, end_ns) for b, s in zip(rest["acked_bytes"],
                                                 rest["start_ns"])]
    total = 0.0
    for size, start, end in spans:
        a, b = max(start, lo), min(end, hi)
        if b > a:
            grid = np.arange(a, b) + 0.5      # 1 ns steps
            total += size / (end - start) * len(grid)
    metric = rdma_data.run_metrics(rdma_data.load_run(str(out)))
    assert metric["window_goodput_gbps"] == pytest.approx(
        total * 8 / (hi - lo), rel=1e-3)
    # and it is not the whole-run goodput
    assert metric["window_goodput_gbps"] != pytest.approx(
        summary["goodput_gbps"], rel=0.05)
