"""Every figure type, rendered from a small real run, follows the rules of
rdma_analysis.style: time in ms, queue axes in KB/MB without offset, ports
named by leaf/spine/host, the measurement window shaded, CC state of the
largest sampled flows ending with each flow, readable log ticks, compare's
per-run queue CDFs and no p99.9 panel without enough samples, strip plots
for categorical sweep keys."""

import os
import re
import subprocess

import numpy as np
import pandas as pd
import pytest

import crafted
from rdma_analysis import compare as rdma_compare
from rdma_analysis import data as rdma_data
from rdma_analysis import run_figures as rf
from rdma_analysis import style
from rdma_analysis import sweep_plots

import matplotlib.collections as mcoll  # noqa: E402
import matplotlib.patches as mpatches  # noqa: E402

SCENARIO = os.path.join(crafted.REPO_ROOT, "scenarios",
                        "cdf-websearch-leaf-spine.json")
SHRINK = ["--set", "stop_time_ms=3", "--set", "traffic.cdf.duration_us=1000",
          "--set", "traffic.cdf.warmup_us=200",
          "--set", "traffic.cdf.cooldown_us=200",
          "--set", "output.cc_sample_qps=3"]
PORT_NAME = re.compile(r"^(host|leaf|spine)\d+->(host|leaf|spine)\d+")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    if not os.access(crafted.RUNNER, os.X_OK):
        pytest.skip("simulator not built")
    folder = tmp_path_factory.mktemp("figs")
    out = []
    for algo, seed in (("dcqcn", 1), ("dcqcn", 2), ("hpcc", 1)):
        d = folder / f"{algo}-s{seed}"
        proc = subprocess.run([crafted.RUNNER, SCENARIO, "--out", str(d),
                               "--quiet", "--set", f"cc.algorithm={algo}",
                               "--set", f"seed={seed}"] + SHRINK,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        out.append(str(d))
    return out


@pytest.fixture
def figures(monkeypatch):
    """The figures saved, kept open for inspection: ``{name: fig}``."""
    saved = {}

    def keep(fig, path):
        fig.canvas.draw()
        saved[os.path.basename(path)] = fig
    monkeypatch.setattr(style, "save", keep)
    return saved


def assert_time_axis(ax, run):
    assert ax.get_xlabel() == "Time (ms)"
    # The warm-up [0, 0.2 ms] and cool-down [0.8 ms, end] are shaded.
    spans = sorted(round(float(np.asarray(p.get_xy())[:, 0].min()), 3)
                   for p in ax.patches
                   if p.get_alpha() == style.WINDOW_SHADE["alpha"])
    warm, cool = rdma_data.fct_window(run)
    assert spans == [0.0, round(cool / 1e6, 3)], spans
    assert warm == 200_000


def test_single_run_figures(runs, figures, tmp_path):
    run = rdma_data.load_run(runs[0])
    rf.plot_queue_top_ports(run, str(tmp_path / "q.png"))
    rf.plot_queue_distribution(run, str(tmp_path / "qd.png"))
    rf.plot_port_throughput(run, str(tmp_path / "tp.png"))
    rf.plot_pfc_timeline(run, str(tmp_path / "pfc.png"))
    keys = rf.plot_cc_state(run, str(tmp_path / "cc.png"), top=3)
    rf.plot_fct_cdf(run, str(tmp_path / "fct.png"))

    ax = figures["q.png"].axes[0]
    assert_time_axis(ax, run)
    assert re.fullmatch(r"Queue length \((KB|MB)\)", ax.get_ylabel())
    assert ax.yaxis.get_offset_text().get_text() == ""
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    ports = [t for t in labels if t != "outside measurement window"]
    assert ports and all(PORT_NAME.match(t) for t in ports), labels

    left, right = figures["qd.png"].axes
    assert re.fullmatch(r"Queue length \((KB|MB)\)", left.get_xlabel())
    assert all(PORT_NAME.match(t.get_text())
               for t in right.get_xticklabels())

    ax = figures["tp.png"].axes[0]
    assert_time_axis(ax, run)
    assert ax.get_ylabel() == "Throughput (Gb/s, wire bytes)"

    # CC state: the largest sampled flows, each line within its flow.
    spans = rf.sampled_qp_spans(run)
    sizes = [s[0] for s in spans.values()]
    assert sizes == sorted(sizes, reverse=True)
    # The runner sampled the 3 largest messages (finished or not).
    every = [run.fct[run.fct["kind"] != "probe"]["size_bytes"]]
    if os.path.exists(os.path.join(run.directory, "unfinished.csv")):
        every.append(pd.read_csv(os.path.join(
            run.directory, "unfinished.csv"))["size_bytes"])
    biggest = pd.concat(every).nlargest(3)
    assert sorted(sizes[:3]) == sorted(biggest.to_list())
    ax = figures["cc.png"].axes[0]
    assert ax.get_ylabel() == "CC rate (Gb/s)"
    lines = [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1]
    assert len(lines) == len(keys) == 3
    for line, key in zip(lines, keys):
        _, start, end = spans[key]
        x = np.asarray(line.get_xdata()) * 1e6
        assert x.min() >= start and x.max() <= end

    # Log ticks of the FCT CDF do not overlap.
    ax = figures["fct.png"].axes[0]
    renderer = figures["fct.png"].canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.get_xticklabels()
             if t.get_text() and t.get_visible()]
    boxes = [b for b in boxes if ax.bbox.x0 - 1 <= b.x0 <= ax.bbox.x1 + 1]
    boxes.sort(key=lambda b: b.x0)
    assert len(boxes) >= 2
    assert all(a.x1 <= b.x0 for a, b in zip(boxes, boxes[1:]))


def test_compare_figures(runs, figures, tmp_path):
    items = [("dcqcn", runs[:2]), ("hpcc", runs[2:])]
    rdma_compare.compare(items, str(tmp_path / "cmp"))
    fig = figures["slowdown_by_bucket.png"]
    titles = [ax.get_title() for ax in fig.axes]
    # Far fewer than 1000 messages per bucket: no p99.9 panel.
    assert titles == ["p50 FCT slowdown (mean of runs, 95% CI)",
                      "p99 FCT slowdown (mean of runs, 95% CI)"]
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks and all(re.search(r"\nn=\d", t) for t in ticks)
    ax = figures["queue_cdf.png"].axes[0]
    assert re.fullmatch(r"Queue length \((KB|MB)\)", ax.get_xlabel())
    assert len([ln for ln in ax.get_lines()
                if len(ln.get_xdata()) > 1]) == 3          # one per run
    for name in ("queue_over_time.png", "throughput_over_time.png"):
        assert figures[name].axes[0].get_xlabel() == "Time (ms)"


def test_categorical_sweep_key_is_a_strip_plot(figures, tmp_path):
    table = pd.DataFrame({
        "status": ["ok"] * 6,
        "cc.algorithm": ["dcqcn", "dcqcn", "dcqcn", "hpcc", "hpcc", "hpcc"],
        "seed": [1, 2, 3, 1, 2, 3],
        "m": [1.0, 2.0, 3.0, 5.0, 6.0, 7.0]})
    sweep_plots.plot_metric(table, "m", ["cc.algorithm"],
                            str(tmp_path / "m.png"))
    ax = figures["m.png"].axes[0]
    # No line joins categories; every run is a dot; the means (2, 6) carry
    # error bars.
    assert not [ln for ln in ax.get_lines() if len(ln.get_xdata()) > 1
                and ln.get_linestyle() not in ("None", "")]
    dots = sum(len(c.get_offsets()) for c in ax.collections
               if isinstance(c, mcoll.PathCollection))
    assert dots == 6
    means = sorted(float(ln.get_ydata()[0]) for ln in ax.get_lines()
                   if ln.get_marker() == "o" and len(ln.get_ydata()) == 1)
    assert means == [2.0, 6.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["dcqcn", "hpcc"]
