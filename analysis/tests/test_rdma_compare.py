"""Tests of rdma_analysis.compare and the colour map of rdma_analysis.style.

Expected values are worked out by hand from crafted.py's runs.
"""


import pandas as pd
import pytest

import crafted
from rdma_analysis import compare as rdma_compare
from rdma_analysis import style as rdma_style


def run_main(capsys, *args):
    capsys.readouterr()
    try:
        rc = rdma_compare.main([str(a) for a in args])
    except SystemExit as exc:
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def two_runs(tmp_path):
    a = crafted.full_run(tmp_path / "dcqcn-run", algorithm="dcqcn")
    # Same traffic without warm-up/cool-down marks, PFC-only baseline,
    # star without the optional files.
    b = crafted.write_run(tmp_path / "none-run", config=crafted.config(
        "none"), summary={"bdp_bytes": 10000, "cnps": 0}, queue=crafted
        .QUEUE_ROWS, ports=crafted.PORTS_ROWS)
    return a, b


def test_compare_writes_every_file_and_the_summary(tmp_path, capsys,
                                                   two_runs):
    out = tmp_path / "cmp"
    rc, stdout, err = run_main(capsys, *two_runs, "--labels", "DCQCN,PFC",
                               "--out", out)
    assert rc == 0, err
    expected = ["compare.md", "summary.csv", "summary_groups.csv",
                "summary.md", "slowdown_by_bucket.csv",
                "slowdown_by_bucket.png", "fct_slowdown_cdf.png",
                "queue_cdf.png", "queue_over_time.png",
                "throughput_over_time.png"]
    assert stdout.splitlines() == [str(out / n) for n in expected]
    for name in expected:
        if name.endswith(".png"):
            crafted.assert_png(out / name)
    summary = pd.read_csv(out / "summary.csv").set_index("label")
    assert list(summary.index) == ["DCQCN", "PFC"]
    assert list(summary["algorithm"]) == ["dcqcn", "none"]
    # DCQCN run: window applied (8 foreground flows); PFC run: no window,
    # so flows 8 (slowdown 100) and 9 (50) count too: 10 flows
    # [1 1.5 2 2 3 4 6 10 50 100]: p50 = 5th = 3, p99 = 10th = 100.
    assert summary.loc["DCQCN", "flows_measured"] == 8
    assert summary.loc["DCQCN", "slowdown_p99"] == 10.0
    assert summary.loc["PFC", "flows_measured"] == 10
    assert summary.loc["PFC", "slowdown_p50"] == 3.0
    assert summary.loc["PFC", "slowdown_p99"] == 100.0
    assert summary.loc["PFC", "cnps"] == 0
    with open(out / "summary.md") as handle:
        table = handle.read()
    assert table.splitlines()[0].startswith("| label | algorithm | runs |")
    assert "| PFC | none | 1 |" in table
    buckets = pd.read_csv(out / "slowdown_by_bucket.csv")
    pfc_small = buckets[(buckets["label"] == "PFC")
                        & (buckets["group"] == "<=1K")].iloc[0]
    # <=1K without the window: 1 2 3 4 10 100 50 -> n=7, p50 = 4th = 4
    assert (pfc_small["flows"], pfc_small["p50"]) == (7, 4.0)


def test_default_and_split_labels():
    assert rdma_compare.default_labels(["out/a", "out/b/"]) == ["a", "b"]
    # Same folder names: the paths tell them apart.
    assert rdma_compare.default_labels(["x/run", "y/run"]) == ["x/run",
                                                               "y/run"]
    assert rdma_compare.split_labels(["a,b", "c"]) == ["a", "b", "c"]


def test_compare_label_count_mismatch_exits_2(tmp_path, capsys, two_runs):
    out = tmp_path / "cmp"
    rc, stdout, err = run_main(capsys, *two_runs, "--labels", "only-one",
                               "--out", out)
    assert rc == 2
    assert "1 label(s) for 2 run folder(s) or groups" in err
    assert stdout == "" and not out.exists()


def test_compare_missing_run_exits_2_and_writes_nothing(tmp_path, capsys,
                                                        two_runs):
    out = tmp_path / "cmp"
    missing = tmp_path / "nope"
    rc, _, err = run_main(capsys, two_runs[0], missing, "--out", out)
    assert rc == 2
    assert str(missing) in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_algorithm_colours_are_fixed_and_shared():
    assert rdma_style.algorithm_color("dcqcn") == "#1f77b4"
    assert rdma_style.algorithm_color("DCQCN") == "#1f77b4"
    assert rdma_style.algorithm_color("none") == "#7f7f7f"
    known = [rdma_style.algorithm_color(a) for a in
             ("none", "dcqcn", "timely", "swift", "hpcc", "rtt-probe")]
    assert len(set(known)) == 6
    # An unknown name gets a colour from its name only (stable).
    assert rdma_style.algorithm_color("my-cc") == \
        rdma_style.algorithm_color("my-cc")
    assert rdma_style.algorithm_color("my-cc") not in known


def test_run_styles_vary_line_style_within_an_algorithm():
    styles = rdma_style.run_styles(["dcqcn", "none", "dcqcn"])
    assert [s["color"] for s in styles] == ["#1f77b4", "#7f7f7f", "#1f77b4"]
    assert [s["linestyle"] for s in styles] == ["-", "-", "--"]


def test_groups_of_runs_per_label_mean_and_ci(tmp_path, capsys):
    # Three "seeds" of one setting: crafted runs whose only difference is
    # the summary's drops (1, 2, 6); a second label with one run.
    for seed, drops in ((1, 1), (2, 2), (3, 6)):
        crafted.full_run(tmp_path / f"a-s{seed}", algorithm="dcqcn",
                         summary={"drops": drops})
    crafted.full_run(tmp_path / "b-s1", algorithm="none",
                     summary={"drops": 10})
    out = tmp_path / "cmp"
    rc, _, err = run_main(capsys, f"A={tmp_path}/a-s*",
                          f"B={tmp_path / 'b-s1'}", "--out", out)
    assert rc == 0, err
    per_run = pd.read_csv(out / "summary.csv")
    assert list(per_run["label"]) == ["A", "A", "A", "B"]
    assert list(per_run["run"]) == ["a-s1", "a-s2", "a-s3", "b-s1"]
    groups = pd.read_csv(out / "summary_groups.csv").set_index(
        ["label", "metric"])
    row = groups.loc[("A", "drops")]
    # drops 1, 2, 6: mean 3, sample sd sqrt(((−2)^2+(−1)^2+3^2)/2) =
    # sqrt(7); 95% half-width t(0.975, 2) = 4.303 x sqrt(7)/sqrt(3).
    assert row["n"] == 3 and row["mean"] == pytest.approx(3.0)
    assert row["sd"] == pytest.approx(7 ** 0.5)
    assert row["ci95"] == pytest.approx(4.303 * 7 ** 0.5 / 3 ** 0.5)
    # One run: no interval.
    assert groups.loc[("B", "drops"), "n"] == 1
    assert pd.isna(groups.loc[("B", "drops"), "ci95"])
    with open(out / "summary.md") as handle:
        table = handle.read()
    assert "| A | dcqcn | 3 |" in table and "| B | none | 1 |" in table
    buckets = pd.read_csv(out / "slowdown_by_bucket.csv")
    assert set(buckets["run"]) == {"a-s1", "a-s2", "a-s3", "b-s1"}


def test_a_group_matching_nothing_exits_2(tmp_path, capsys):
    out = tmp_path / "cmp"
    rc, stdout, err = run_main(capsys, f"A={tmp_path}/none-*", "--out", out)
    assert rc == 2 and "matches no run folder" in err and "A=" in err
    assert stdout == "" and not out.exists()
