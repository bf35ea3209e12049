"""Tests for rdma_analysis.plot.

Every expected value below was worked out by hand from the crafted input.
"""

import json
import os
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

import crafted
from rdma_analysis import plot as rdma_plot


FCT_HEADER = ("flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,"
              "fct_ns,ideal_fct_ns,slowdown")
QUEUE_HEADER = "time_ns,node,port,prio,bytes"
PFC_HEADER = "time_ns,node,port,prio,event"

# Sparse queue samples following the simulator's rule (a row while non-zero
# or non-zero at the previous sample).  Per-port sums over priorities:
#   t=100: (1,1)=1000+500=1500  (2,4)=200   (3,0)=absent->0
#   t=200: (1,1)=0+700=700      (2,4)=3000  (3,0)=0
#   t=300: (1,1)=0              (2,4)=0     (3,0)=1200
#   t=400: (1,1)=absent->0      (2,4)=0     (3,0)=0
# Peaks: (2,4)=3000 > (1,1)=1500 > (3,0)=1200.  Port (1,1) only beats (3,0)
# once priorities are summed (its largest single-priority value is 1000).
QUEUE_ROWS = """\
100,1,1,0,1000
100,1,1,3,500
100,2,4,3,200
200,1,1,0,0
200,1,1,3,700
200,2,4,3,3000
300,1,1,3,0
300,2,4,3,0
300,3,0,0,1200
400,3,0,0,0
"""

# (1,2,3): pause 100, refresh 150, pause 200 (re-send), resume 300,
#          resume 350 (stray, ignored), pause 400 never resumed.
# (5,0,3): pause 200, resume 250.  Rows deliberately not in time order.
PFC_ROWS = """\
400,1,2,3,pause
100,1,2,3,pause
200,5,0,3,pause
150,1,2,3,refresh
200,1,2,3,pause
250,5,0,3,resume
300,1,2,3,resume
350,1,2,3,resume
"""

FCT_ROWS = """\
0,incast,1,0,1,3,1000,0,400,400,100,4.0
1,incast,2,0,1,3,1000,0,100,100,100,1.0
2,incast,3,0,1,3,1000,0,300,300,100,3.0
3,incast,4,0,1,3,1000,0,200,200,100,2.0
4,probe,5,0,2,3,64,10,110,100,10,10.0
"""


def write_run(run_dir, fct_rows="", queue_rows="", pfc_rows="",
              sim_time_s=1e-6, skip=()):
    """Create a run folder; files whose name is in *skip* are not written."""
    os.makedirs(run_dir, exist_ok=True)
    summary = {"sim_time_s": sim_time_s, "wall_s": 0.5, "events": 42,
               "flows_total": 5, "flows_completed": 5, "bytes_sent": 4064,
               "bytes_delivered": 4064, "drops": 0, "pfc_pause_frames": 6,
               "max_queue_bytes": 3000, "retransmitted_packets": 0,
               "scenario": "unit-test"}
    files = {"summary.json": json.dumps(summary),
             "fct.csv": FCT_HEADER + "\n" + fct_rows,
             "queue.csv": QUEUE_HEADER + "\n" + queue_rows,
             "pfc.csv": PFC_HEADER + "\n" + pfc_rows}
    for name, text in files.items():
        if name not in skip:
            with open(os.path.join(run_dir, name), "w") as handle:
                handle.write(text)
    return str(run_dir)


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def run_cli(capsys):
    """Run rdma_plot's command line in this process (fast); returns an
    object like subprocess.run's."""
    def run(*args):
        capsys.readouterr()
        try:
            rc = rdma_plot.main([str(a) for a in args])
        except SystemExit as exc:   # argparse errors
            rc = exc.code
        out, err = capsys.readouterr()
        return Result(rc, out, err)
    return run


@pytest.fixture
def full_run(tmp_path):
    return write_run(tmp_path / "run", FCT_ROWS, QUEUE_ROWS, PFC_ROWS)


# --- pause_intervals -------------------------------------------------------

def test_load_run_end_ns_from_summary(full_run):
    run = rdma_plot.load_run(full_run)
    assert run.end_ns == 1000
    assert run.scenario == "unit-test"


def test_pause_intervals_pairs_and_extends(full_run):
    run = rdma_plot.load_run(full_run)
    got = rdma_plot.pause_intervals(run.pfc, run.end_ns)
    rows = [tuple(r) for r in got[["node", "port", "prio", "start_ns",
                                   "end_ns", "duration_ns",
                                   "terminated"]].itertuples(index=False)]
    assert rows == [
        (1, 2, 3, 100, 300, 200, True),   # refresh/pause at 150/200 ignored
        (1, 2, 3, 400, 1000, 600, False),  # no resume: runs to sim end
        (5, 0, 3, 200, 250, 50, True),
    ]


def test_pause_intervals_refresh_only_inside_interval():
    pfc = pd.DataFrame({"time_ns": [10, 20, 30, 40],
                        "node": [7] * 4, "port": [1] * 4, "prio": [2] * 4,
                        "event": ["pause", "refresh", "refresh", "resume"]})
    got = rdma_plot.pause_intervals(pfc, end_ns=500)
    assert len(got) == 1
    assert (got.loc[0, "start_ns"], got.loc[0, "end_ns"]) == (10, 40)


def test_pause_intervals_empty():
    pfc = pd.DataFrame(columns=["time_ns", "node", "port", "prio", "event"])
    got = rdma_plot.pause_intervals(pfc, end_ns=500)
    assert got.empty
    assert list(got.columns) == ["node", "port", "prio", "start_ns",
                                 "end_ns", "duration_ns", "terminated"]


# --- queue_series / top_ports ----------------------------------------------

def test_queue_series_fills_absent_rows_with_zero(full_run):
    series = rdma_plot.queue_series(rdma_plot.load_run(full_run).queue)
    assert list(series.index) == [100, 200, 300, 400]
    assert sorted(series.columns) == [(1, 1), (2, 4), (3, 0)]
    assert list(series[(1, 1)]) == [1500, 700, 0, 0]
    assert list(series[(2, 4)]) == [200, 3000, 0, 0]
    assert list(series[(3, 0)]) == [0, 0, 1200, 0]


def test_top_ports_ranks_by_peak_of_priority_sum(full_run):
    queue = rdma_plot.load_run(full_run).queue
    assert rdma_plot.top_ports(queue, 2) == [(2, 4), (1, 1)]
    assert rdma_plot.top_ports(queue, 10) == [(2, 4), (1, 1), (3, 0)]
    assert rdma_plot.top_ports(queue, 1) == [(2, 4)]


def test_top_ports_tie_broken_by_node_then_port():
    queue = pd.DataFrame({"time_ns": [5, 5, 5], "node": [9, 2, 2],
                          "port": [0, 7, 3], "prio": [0, 0, 0],
                          "bytes": [800, 800, 800]})
    assert rdma_plot.top_ports(queue, 3) == [(2, 3), (2, 7), (9, 0)]


# --- slowdown_cdf ----------------------------------------------------------

def test_slowdown_cdf_per_kind(full_run):
    cdfs = rdma_plot.slowdown_cdf(rdma_plot.load_run(full_run).fct)
    assert list(cdfs) == ["incast", "probe"]
    x, y = cdfs["incast"]
    np.testing.assert_allclose(x, [1.0, 2.0, 3.0, 4.0])
    np.testing.assert_allclose(y, [0.25, 0.5, 0.75, 1.0])
    x, y = cdfs["probe"]
    np.testing.assert_allclose(x, [10.0])
    np.testing.assert_allclose(y, [1.0])


# --- command line ----------------------------------------------------------

BASE_FILES = {"report.md", "fct_buckets.csv", "metrics.json",
              "fct_slowdown_buckets.png", "fct_slowdown_cdf.png",
              "fct_cdf.png", "queue_top_ports.png", "queue_distribution.png",
              "pfc_timeline.png"}
OPTIONAL_FILES = {"throughput_ports.png", "throughput_qps.png",
                  "cc_state.png", "uplinks.png", "collectives.png"}


def assert_report_written(run_dir, result, expected):
    """stdout lists exactly the expected files (report.md first), every PNG
    is a real image and report.md links every PNG, nothing else."""
    assert result.returncode == 0, result.stderr
    plots_dir = os.path.join(run_dir, "plots")
    lines = result.stdout.splitlines()
    assert lines[0] == os.path.join(plots_dir, "report.md")
    assert sorted(lines) == sorted(os.path.join(plots_dir, name)
                                   for name in expected)
    assert sorted(os.listdir(plots_dir)) == sorted(expected)
    with open(os.path.join(plots_dir, "report.md")) as handle:
        report = handle.read()
    linked = set(re.findall(r"!\[[^\]]*\]\(([^)]+)\)", report))
    pngs = {name for name in expected if name.endswith(".png")}
    assert linked == pngs
    for name in pngs:
        crafted.assert_png(os.path.join(plots_dir, name))
    with open(os.path.join(plots_dir, "metrics.json")) as handle:
        json.load(handle)   # strict JSON (NaN written as null)


def test_cli_header_only_csvs(tmp_path, run_cli):
    run_dir = write_run(tmp_path / "empty")
    assert_report_written(run_dir, run_cli(run_dir), BASE_FILES)


def test_cli_every_optional_section(tmp_path, run_cli):
    run_dir = crafted.full_run(tmp_path / "full")
    result = run_cli(run_dir, "--buckets", "1K,8K,64K", "--top", "2")
    assert_report_written(run_dir, result, BASE_FILES | OPTIONAL_FILES)
    with open(os.path.join(run_dir, "plots", "report.md")) as handle:
        report = handle.read()
    for title in ("## FCT slowdown by flow size", "## Queues",
                  "## Throughput", "## Congestion-control state", "## PFC",
                  "## Uplink load balance", "## Collectives"):
        assert title in report
    # The bucket table, from crafted.py: <=1K 5 flows avg 4 p50 3 ...
    table = pd.read_csv(os.path.join(run_dir, "plots", "fct_buckets.csv"))
    first = table.iloc[0]
    assert (first["group"], first["flows"], first["avg"], first["p50"],
            first["p99"]) == ("<=1K", 5, 4.0, 3.0, 10.0)
    assert list(table["group"]) == ["<=1K", "1K-8K", ">64K", "<=1 BDP",
                                    ">1 BDP", "all foreground", "kind=flow",
                                    "kind=probe"]
    # n = 5: the p50 needs n >= 2 (kept plain), p95/p99/p99.9 need 20, 100,
    # 1000 samples (marked as from too few samples).
    assert "| <=1K | 5 | 4 | 3 | 10\u2020 | 10\u2020 | 10\u2020 |" in report
    # 8 foreground messages and 3 probes inside the window, counted apart.
    assert "8 foreground messages and 3 probes measured, 2 completed " \
        "messages left out by the window" in report


def test_cli_missing_folder_exits_2(tmp_path, run_cli):
    missing = str(tmp_path / "no_such_run")
    result = run_cli(missing)
    assert result.returncode == 2
    assert missing in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
    assert not os.path.exists(missing)
    assert os.listdir(tmp_path) == []


def test_cli_missing_required_file_exits_2(tmp_path, run_cli):
    run_dir = write_run(tmp_path / "run", FCT_ROWS, QUEUE_ROWS, PFC_ROWS,
                        skip=("pfc.csv",))
    result = run_cli(run_dir)
    assert result.returncode == 2
    assert os.path.join(run_dir, "pfc.csv") in result.stderr
    assert "Traceback" not in result.stderr
    assert not os.path.exists(os.path.join(run_dir, "plots"))


def test_cli_rejects_non_positive_top(full_run, run_cli):
    result = run_cli(full_run, "--top", "0")
    assert result.returncode == 2
    assert not os.path.exists(os.path.join(full_run, "plots"))


@crafted.needs_runner
def test_rdma_plot_on_a_tiny_real_run(tmp_path):
    """./rdma run + ./rdma plot on the tiny scenario: every expected file."""
    run_dir = str(tmp_path / "tiny")
    result = subprocess.run([crafted.RDMA, "run", crafted.TINY, "--out",
                             run_dir, "--quiet"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    result = subprocess.run([crafted.RDMA, "plot", run_dir],
                            capture_output=True, text=True, timeout=120)
    expected = set(BASE_FILES)
    has = set(os.listdir(run_dir))
    if "ports.csv" in has:
        expected.add("throughput_ports.png")
    if "cc.csv" in has:
        expected |= {"throughput_qps.png", "cc_state.png"}
    if "collectives.csv" in has:
        expected.add("collectives.png")
    # A star has no leaf -> spine uplinks.
    assert_report_written(run_dir, result, expected)
    table = pd.read_csv(os.path.join(run_dir, "plots", "fct_buckets.csv"))
    # 3 senders x 2 QPs x 64 KiB: six incast messages in the 8K-64K bucket
    row = table[table["group"] == "8K-64K"].iloc[0]
    assert row["flows"] == 6
    assert (table["group"] == "kind=probe").any()


def test_ecn_note_follows_what_the_run_says_of_its_controller(tmp_path):
    # No list of algorithms: the run's summary.json says whether its
    # controller acts on CNPs (rdma-run asks the controller).
    blind = rdma_plot.load_run(crafted.write_run(
        tmp_path / "blind", config=crafted.config("some_new_cc"),
        summary={"cc_reacts_to_cnp": False}))
    acting = rdma_plot.load_run(crafted.write_run(
        tmp_path / "acting", config=crafted.config("timely"),
        summary={"cc_reacts_to_cnp": True}))
    silent = rdma_plot.load_run(crafted.write_run(tmp_path / "old",
                                        config=crafted.config("timely")))
    assert "some_new_cc ignores marks and CNPs" in rdma_plot.ecn_note(blind)
    assert rdma_plot.ecn_note(acting) == ""
    assert rdma_plot.ecn_note(silent) == ""
    from rdma_analysis import compare as rdma_compare
    note = rdma_compare.ecn_blind_note([("a", [blind]), ("b", [acting])])
    assert note.startswith("some_new_cc ignore ECN")
    assert rdma_compare.ecn_blind_note([("b", [acting, silent])]) == ""
