"""Known-answer tests of rdma_analysis.data (numbers, no drawing).

Expected values are worked out by hand (see crafted.py for the inputs).
"""

import math

import numpy as np
import pytest

import crafted
from rdma_analysis import data as d


# --- percentiles --------------------------------------------------------------

def test_percentile_nearest_rank_1_to_200():
    v = list(range(200, 0, -1))          # order must not matter
    assert d.percentile(v, 50) == 100    # ceil(100) = 100th
    assert d.percentile(v, 95) == 190    # ceil(190)
    assert d.percentile(v, 99) == 198    # ceil(198)
    assert d.percentile(v, 99.9) == 200  # ceil(199.8) = 200th


def test_percentile_exact_rank_is_not_rounded_up():
    # 99.9% of 1000 values is rank 999 exactly (float noise must not make
    # it 1000).
    assert d.percentile(range(1, 1001), 99.9) == 999
    assert d.percentile([7.0], 99.9) == 7.0
    assert d.percentile([3, 1, 2, 4], 50) == 2   # ceil(2) = 2nd
    assert d.percentile([3, 1, 2, 4], 51) == 3   # ceil(2.04) = 3rd


def test_percentile_ignores_nan_and_empty_is_nan():
    assert d.percentile([np.nan, 5, 1], 50) == 1
    assert math.isnan(d.percentile([], 50))
    assert math.isnan(d.percentile([np.nan], 99))


def test_slowdown_stats():
    s = d.slowdown_stats([1, 2, 3, 4, 10])
    assert s == {"count": 5, "avg": 4.0, "p50": 3.0, "p95": 10.0,
                 "p99": 10.0, "p999": 10.0}
    empty = d.slowdown_stats([])
    assert empty["count"] == 0 and math.isnan(empty["avg"])


# --- sizes and buckets ----------------------------------------------------------

def test_parse_size():
    assert d.parse_size("1500") == 1500
    assert d.parse_size("64K") == 65536
    assert d.parse_size("64KiB") == 65536
    assert d.parse_size("1M") == 1048576
    assert d.parse_size("0.5k") == 512
    for bad in ("", "abc", "-1", "0"):
        with pytest.raises(ValueError):
            d.parse_size(bad)


def test_size_buckets_are_half_open():
    assert d.size_buckets([1024, 8192]) == [
        (0, 1024, "<=1K"), (1024, 8192, "1K-8K"), (8192, math.inf, ">8K")]
    labels = [b[2] for b in d.size_buckets()]
    assert labels == ["<=1K", "1K-8K", "8K-64K", "64K-512K", "512K-4M",
                      ">4M"]


def _crafted_run(tmp_path, **summary):
    base = {"warmup_end_ns": 1000, "cooldown_start_ns": 90000,
            "bdp_bytes": 10000}
    base.update(summary)
    return d.load_run(crafted.write_run(tmp_path / "run", summary=base,
                                        config=crafted.config()))


def test_measured_flows_honour_window_and_skip_incomplete(tmp_path):
    run = _crafted_run(tmp_path)
    flows, excluded = d.measured_flows(run)
    assert sorted(flows["flow_id"]) == [0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14]
    assert excluded == 2               # flows 8 and 9; 11 never completed


def test_no_window_marks_keeps_every_completed_flow(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "run"))
    flows, excluded = d.measured_flows(run)
    assert len(flows) == 13 and excluded == 0


def test_fct_table_buckets_bdp_split_and_kinds(tmp_path):
    run = _crafted_run(tmp_path)
    flows, _ = d.measured_flows(run)
    table = d.fct_table(flows, bdp=d.bdp_bytes(run)).set_index("group")
    assert list(table.index) == ["<=1K", "1K-8K", "64K-512K", "<=1 BDP",
                                 ">1 BDP", "all foreground", "kind=flow",
                                 "kind=probe"]

    def row(g):
        r = table.loc[g]
        return [int(r["flows"])] + [float(r[s]) for s in d.STAT_NAMES]

    assert row("<=1K") == [5, 4.0, 3.0, 10.0, 10.0, 10.0]
    assert row("1K-8K") == [2, 4.0, 2.0, 6.0, 6.0, 6.0]
    assert row("64K-512K") == [1, 1.5, 1.5, 1.5, 1.5, 1.5]
    assert row("<=1 BDP") == [7, 4.0, 3.0, 10.0, 10.0, 10.0]
    assert row(">1 BDP") == [1, 1.5, 1.5, 1.5, 1.5, 1.5]
    assert row("all foreground") == [8, 3.6875, 2.0, 10.0, 10.0, 10.0]
    assert row("kind=probe") == [3, 5.0, 5.0, 9.0, 9.0, 9.0]
    assert table.loc["1K-8K", "lo_bytes"] == 1024
    assert table.loc["1K-8K", "hi_bytes"] == 8192


def test_fct_table_custom_edges(tmp_path):
    run = _crafted_run(tmp_path)
    flows, _ = d.measured_flows(run)
    table = d.fct_table(flows, edges=[1000, 6000]).set_index("group")
    # (0,1000]: four 1000-B flows 1 2 3 4; (1000,6000]: 1024 and 5000 x2:
    # 10 2 6; >6000: 100000: 1.5.  No BDP given: no split rows.
    assert int(table.loc["<=1000", "flows"]) == 4
    assert table.loc["<=1000", "avg"] == 2.5
    assert list(table.loc["1000-6000", ["flows", "p50"]]) == [3, 6.0]
    assert int(table.loc[">6000", "flows"]) == 1
    assert "<=1 BDP" not in table.index


def test_bdp_from_summary_or_rtt_times_rate(tmp_path):
    run = _crafted_run(tmp_path)
    assert d.bdp_bytes(run) == 10000
    run = d.load_run(crafted.write_run(tmp_path / "r2",
                                       config=crafted.config(rate=100)))
    # 4 us x 100 Gb/s = 400000 bits = 50000 bytes
    assert d.bdp_bytes(run) == pytest.approx(50000)
    run = d.load_run(crafted.write_run(tmp_path / "r3"))  # no config.json
    assert math.isnan(d.bdp_bytes(run))


# --- queues and PFC --------------------------------------------------------------

def _queue_run(tmp_path):
    # 400 ns run sampled every 0.1 us = 100 ns: grid 100, 200, 300, 400
    return d.load_run(crafted.write_run(
        tmp_path / "q", summary={"sim_time_s": 4e-7},
        config=crafted.config(sample_us=0.1), queue=crafted.QUEUE_ROWS,
        pfc=crafted.PFC_ROWS))


def test_queue_distribution_fills_the_grid_with_zeros(tmp_path):
    run = _queue_run(tmp_path)
    values = d.queue_distribution(run.queue, d.queue_sample_period_ns(run),
                                  run.end_ns)
    # 3 ports x 4 samples = 12 values; file has 8 per-port sums (3 zeros),
    # 4 more zeros fill the grid.
    assert list(values) == [0] * 7 + [200, 700, 1200, 1500, 3000]
    stats = d.port_queue_stats(run.queue, d.queue_sample_period_ns(run),
                               run.end_ns)
    assert [tuple(r) for r in stats.itertuples(index=False)] == [
        (2, 4, 3000.0, 3000.0), (1, 1, 1500.0, 1500.0),
        (3, 0, 1200.0, 1200.0)]


def test_queue_samples_keep_the_zeros_implicit(tmp_path):
    run = _queue_run(tmp_path)
    values, zeros = d.queue_samples(run.queue, d.queue_sample_period_ns(run),
                                    run.end_ns)
    assert list(values) == [0, 0, 0, 200, 700, 1200, 1500, 3000]
    assert zeros == 4
    # 12 samples: ranks 1-7 are 0, rank 8 is 200
    assert d.percentile_with_zeros(values, zeros, 50) == 0      # rank 6
    assert d.percentile_with_zeros(values, zeros, 60) == 200    # rank 8
    assert d.percentile_with_zeros(values, zeros, 99) == 3000   # rank 12
    assert d.percentile_with_zeros(values[3:], 10**9, 99.9) == 0


def test_port_queue_is_the_sparse_step_series(tmp_path):
    run = _queue_run(tmp_path)
    times, values = d.port_queue(run.queue, 2, 4)
    assert list(times) == [100, 200, 300] and list(values) == [200, 3000, 0]
    times, values = d.port_queue(run.queue, 1, 1)
    assert list(times) == [100, 200, 300] and list(values) == [1500, 700, 0]


def test_queue_distribution_without_grid_uses_file_times(tmp_path):
    run = _queue_run(tmp_path)
    values = d.queue_distribution(run.queue)
    assert len(values) == 12     # 4 distinct times in the file x 3 ports


def test_pfc_totals(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "p", pfc=crafted.PFC_ROWS))
    totals = d.pfc_totals(run.pfc, 1000)
    assert [tuple(r) for r in totals.itertuples(index=False)] == [
        # pause+refresh frames, resumes, intervals, paused ns, fraction
        (1, 2, 3, 4, 2, 2, 200 + 600, 0.8),
        (5, 0, 3, 1, 1, 1, 50, 0.05)]


# --- throughput, CC, links ---------------------------------------------------------

def test_port_throughput_from_cumulative_counters(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "t", ports=crafted
                                       .PORTS_ROWS))
    rates = d.port_throughput(run.ports)
    assert list(rates.index) == [10000, 20000, 30000]
    assert list(rates[(4, 0)]) == [100.0, 50.0, 50.0]
    assert list(rates[(0, 0)]) == [0.0, 20.0, 10.0]


def test_port_utilization_uses_link_rates(tmp_path):
    run = d.load_run(crafted.write_run(
        tmp_path / "u", config=crafted.config(rate=100),
        ports=crafted.PORTS_ROWS))
    util = d.port_utilization(run)
    # star without links.csv: every port at 100 Gb/s; 30 us at 100 Gb/s
    # = 375000 bytes.  (4,0) sent 250000 -> 2/3; (0,0) 37500 -> 0.1
    assert util[(4, 0)] == pytest.approx(2 / 3)
    assert util[(0, 0)] == pytest.approx(0.1)
    assert d.port_kinds(run) == {(4, 0): "switch", (0, 0): "host"}


def test_qp_throughput_and_cc_state(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "c", cc=crafted.CC_ROWS))
    rates = d.qp_throughput(run.cc)
    assert list(rates.index) == [10000, 20000]
    assert list(rates[(1, 0)]) == [50.0, 100.0]
    assert list(rates[(2, 5)]) == [10.0, 10.0]
    window = d.cc_state(run.cc, "window_bytes")
    assert list(window[(2, 5)]) == [20000, 30000, 30000]


def test_uplink_loads_and_imbalance(tmp_path):
    run = d.load_run(crafted.write_run(
        tmp_path / "l", ports=crafted.LEAF_PORTS_ROWS,
        links=crafted.LINKS_ROWS))
    loads = d.uplink_loads(run)
    assert [tuple(r) for r in loads.itertuples(index=False)] == [
        (10, 2, 20, 300.0), (10, 3, 21, 100.0), (11, 2, 20, 200.0),
        (11, 3, 21, 200.0)]
    imb = d.uplink_imbalance(loads)
    assert [tuple(r) for r in imb.itertuples(index=False)] == [
        (10, 2, 400.0, 1.5, 0.5), (11, 2, 400.0, 1.0, 0.0)]


def test_no_uplinks_without_leaf_spine_rows(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "n", ports="",
                                       links=crafted.LINKS_ROWS.splitlines()
                                       [0] + "\n"))
    assert d.uplink_loads(run) is None


def test_collective_stats(tmp_path):
    run = d.load_run(crafted.write_run(tmp_path / "k",
                                       collectives=crafted.COLLECTIVE_ROWS))
    stats = d.collective_stats(run.collectives)
    assert [tuple(r) for r in stats.itertuples(index=False)] == [
        ("a", 2, 20.0, 10.0, 30.0, 30.0, 8000.0),
        ("b", 1, 20.0, 20.0, 20.0, 20.0, 8000.0)]


# --- one flat dict of metrics ----------------------------------------------------

def test_run_metrics_known_answers(tmp_path):
    run = d.load_run(crafted.full_run(tmp_path / "full"))
    m = d.run_metrics(run)
    assert m["flows_measured"] == 8 and m["flows_excluded"] == 2
    assert m["probe_flows"] == 3
    assert (m["small_flows"], m["large_flows"]) == (7, 1)
    assert m["bdp_bytes"] == 10000
    assert (m["slowdown_avg"], m["slowdown_p50"], m["slowdown_p99"]) == \
        (3.6875, 2.0, 10.0)
    assert (m["small_slowdown_p50"], m["small_slowdown_p99"]) == (3.0, 10.0)
    assert m["large_slowdown_p99"] == 1.5
    assert (m["probe_slowdown_avg"], m["probe_slowdown_p99"]) == (5.0, 9.0)
    assert m["fct_avg_us"] == pytest.approx(3.6875)   # fct = 1000 x slowdown
    assert m["fct_p99_us"] == pytest.approx(10.0)
    assert m["uplink_max_over_mean"] == 1.5
    assert m["collective_time_us"] == 60.0
    assert m["collective_phase_mean_us"] == 20.0
    assert m["collective_phase_max_us"] == 30.0
    # pause intervals (see test_pfc_totals) with the run ending at 100 us:
    # (1,2,3) 100-300 and 400-100000, (5,0,3) 200-250 -> 99850 ns
    assert m["pfc_paused_time_us"] == pytest.approx(99.85)
    # summary values pass through
    assert m["cnps"] == 7 and m["goodput_gbps"] == 50.0
    assert d.metric_value(m, "summary.cnps") == 7
    assert math.isnan(d.metric_value(m, "no_such_metric"))


def test_goodput_utilization_is_max_over_receivers(tmp_path):
    rows = [
        # to host 1: 12500 B at 0-1000 and 12500 B at 1000-2500:
        # 200000 bits over 2500 ns at 100 bits/ns -> 0.8
        (0, "flow", 0, 1, 0, 3, 12500, 0, 1.0),
        (1, "flow", 2, 1, 0, 3, 12500, 1000, 1.5),
        # to host 2: 1250 B in 1000 ns -> 10000 / 100000 = 0.1
        (2, "flow", 0, 2, 1, 3, 1250, 0, 1.0),
    ]
    run = d.load_run(crafted.write_run(
        tmp_path / "g", config=crafted.config(rate=100),
        fct=crafted.fct_text(rows, extra=())))
    assert d.run_metrics(run)["goodput_utilization"] == pytest.approx(0.8)


def test_known_metric_names():
    assert d.known_metric("small_slowdown_p99")
    assert d.known_metric("goodput_gbps")
    assert d.known_metric("summary.anything_new")
    assert not d.known_metric("slowdown_p98")
    assert not d.known_metric("summary.")


def test_missing_required_column_names_the_file(tmp_path):
    run_dir = crafted.write_run(tmp_path / "bad",
                                fct="flow_id,kind\n1,flow\n")
    with pytest.raises(d.RunDataError, match="fct.csv: missing column"):
        d.load_run(run_dir)
