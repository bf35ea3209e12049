"""Overlay several runs (e.g. one incast under each congestion control).

Usage::

    python3 -m rdma_analysis compare DIR DIR... [--labels A B ...]
        [--out OUTDIR] [--top N] [--buckets 1K,8K,...]

(``./rdma compare ...``) writes into OUTDIR (default ``out/compare``):

* ``compare.md``: the comparison report, linking every figure;
* ``summary.csv`` / ``summary.md``: one row per run, its label, folder,
  algorithm and every metric (CSV) or the key ones (Markdown);
* ``slowdown_by_bucket.csv``: FCT slowdown statistics per run and size
  bucket (long format);
* ``slowdown_by_bucket.png``: p50 / p99 / p99.9 slowdown per size bucket,
  one bar per run;
* ``fct_slowdown_cdf.png``: foreground slowdown CDFs overlaid;
* ``queue_over_time.png``: each run's most loaded switch port over time;
* ``throughput_over_time.png``: each run's busiest switch port's send rate
  over time (runs with ports.csv).

Colours come from the algorithm (:mod:`rdma_analysis.style`); several
runs of the same algorithm differ by line style / hatch.  Labels default to
the folder names.  Bad input: one line on stderr, exit code 2, nothing written.
"""

import argparse
import math
import os
import sys

import numpy as np
import pandas as pd

from . import style
from .data import (PROBE_KIND, STAT_TITLES,
                       RunDataError, bdp_bytes, fct_table, load_run,
                       measured_flows, port_kinds, port_queue,
                       port_throughput, port_totals, run_metrics,
                       size_buckets, top_ports)
from .plot import parse_buckets, time_unit

import matplotlib.pyplot as plt  # noqa: E402

DEFAULT_OUT = os.path.join("out", "compare")
REPORT_FILE = "compare.md"
SUMMARY_CSV = "summary.csv"
SUMMARY_MD = "summary.md"
BUCKETS_CSV = "slowdown_by_bucket.csv"
BUCKET_PLOT = "slowdown_by_bucket.png"
CDF_PLOT = "fct_slowdown_cdf.png"
QUEUE_PLOT = "queue_over_time.png"
TPUT_PLOT = "throughput_over_time.png"

HATCHES = [None, "//", "..", "xx"]

# Markdown summary: (title, metric, scale) - value shown is metric * scale.
SUMMARY_COLUMNS = [
    ("flows done", "flows_completed", 1),
    ("sim time (ms)", "sim_time_s", 1e3),
    ("goodput (Gb/s)", "goodput_gbps", 1),
    ("slowdown p50", "slowdown_p50", 1),
    ("slowdown p99", "slowdown_p99", 1),
    ("slowdown p99.9", "slowdown_p999", 1),
    ("<=BDP p99", "small_slowdown_p99", 1),
    (">BDP p99", "large_slowdown_p99", 1),
    ("probe p99", "probe_slowdown_p99", 1),
    ("max queue (KB)", "max_queue_bytes", 1e-3),
    ("PFC pauses", "pfc_pause_frames", 1),
    ("drops", "drops", 1),
    ("CNPs", "cnps", 1),
    ("ECN marks", "ecn_marked_packets", 1),
]


def default_labels(dirs):
    """Folder names; the full given paths when two names are the same."""
    names = [os.path.basename(os.path.normpath(d)) for d in dirs]
    if len(set(names)) == len(names):
        return names
    return [os.path.normpath(d) for d in dirs]


def split_labels(items):
    """``['a,b', 'c']`` -> ``['a', 'b', 'c']`` (commas or spaces)."""
    labels = []
    for item in items or []:
        labels.extend(part.strip() for part in item.split(","))
    return [label for label in labels if label]


def summary_frame(runs, labels):
    """One row per run: ``label, dir, algorithm`` and every metric."""
    rows = []
    for run, label in zip(runs, labels):
        row = {"label": label, "dir": os.path.abspath(run.directory),
               "algorithm": run.algorithm}
        row.update(run_metrics(run))
        rows.append(row)
    frame = pd.DataFrame(rows)
    first = ["label", "dir", "algorithm"]
    return frame[first + [c for c in frame.columns if c not in first]]


def bucket_frame(runs, labels, edges=None):
    """Long table: ``label, group, lo_bytes, hi_bytes, flows, avg ...``
    for the size buckets and BDP split of every run, buckets ordered by
    size."""
    parts = []
    for run, label in zip(runs, labels):
        flows, _ = measured_flows(run)
        table = fct_table(flows, edges, bdp_bytes(run))
        table = table[~table["group"].str.startswith("kind=")]
        table.insert(0, "label", label)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def _group_order(frame, edges):
    order = [label for _, _, label in size_buckets(edges)]
    order += ["<=1 BDP", ">1 BDP", "all foreground"]
    present = set(frame.loc[frame["flows"] > 0, "group"])
    return [g for g in order if g in present]


def plot_buckets(frame, labels, styles, edges, path,
                 stats=("p50", "p99", "p999")):
    """One panel per statistic; groups on x, one bar per run."""
    groups = _group_order(frame, edges)
    fig, axes = plt.subplots(1, len(stats), figsize=(
        min(16, 3 + len(stats) * max(3.0, 0.5 * len(groups) * len(labels))),
        4.2), squeeze=False)
    width = 0.8 / max(1, len(labels))
    for ax, stat in zip(axes[0], stats):
        pos = np.arange(len(groups))
        for i, (label, st) in enumerate(zip(labels, styles)):
            mine = frame[frame["label"] == label].set_index("group")
            y = [float(mine.loc[g, stat]) if g in mine.index else math.nan
                 for g in groups]
            ax.bar(pos + (i - (len(labels) - 1) / 2) * width, y, width,
                   color=st["color"], label=label, edgecolor="white",
                   hatch=HATCHES[_repeat_index(st) % len(HATCHES)])
        ax.set_xticks(pos)
        ax.set_xticklabels(groups, rotation=30, ha="right",
                           fontsize="small")
        ax.set_yscale("log")
        style.readable_log(ax.yaxis)
        ax.axhline(1.0, color="0.3", linewidth=0.8)
        ax.set_title(f"{STAT_TITLES[stat]} FCT slowdown")
        ax.set_xlabel("Flow size (bytes, K = 1024)")
        ax.set_ylabel("FCT slowdown (log scale)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        if not groups:
            style.no_data(ax)
    axes[0][-1].legend(fontsize="small", loc="upper left",
                       bbox_to_anchor=(1.02, 1.0))
    style.save(fig, path)


def _repeat_index(st):
    """Index of a run style's line style (0 for the first run of an
    algorithm)."""
    return style.LINE_STYLES.index(st["linestyle"])


def plot_cdfs(runs, labels, styles, path):
    """Foreground FCT slowdown CDF of each run."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    drawn = False
    for run, label, st in zip(runs, labels, styles):
        flows, _ = measured_flows(run)
        x = np.sort(flows.loc[flows["kind"] != PROBE_KIND, "slowdown"]
                    .to_numpy(dtype=float))
        x = x[x > 0]
        if len(x) == 0:
            continue
        y = np.arange(1, len(x) + 1) / len(x)
        ax.step(np.concatenate(([x[0]], x)), np.concatenate(([0.0], y)),
                where="post", color=st["color"], linestyle=st["linestyle"],
                label=f"{label} (n={len(x)})")
        drawn = True
    ax.set_xscale("log")
    if drawn:
        style.readable_log(ax.xaxis)
        ax.legend(loc="lower right", fontsize="small")
    else:
        ax.set_xlim(1, 10)
        style.no_data(ax)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("FCT slowdown (FCT / ideal FCT, log scale)")
    ax.set_ylabel("CDF (fraction of foreground messages)")
    ax.set_title("FCT slowdown CDF")
    ax.grid(True, which="both", alpha=0.3)
    style.save(fig, path)


def plot_queues(runs, labels, styles, path):
    """Queue of each run's most loaded switch port over time."""
    end = max(run.end_ns for run in runs)
    div, unit = time_unit(end)
    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = False
    for run, label, st in zip(runs, labels, styles):
        ports = top_ports(run.queue, 1)
        if not ports:
            continue
        times, values = port_queue(run.queue, *ports[0])
        # From (0, 0) to the run's end (the last sample's value holds).
        t = np.concatenate(([0.0], times))
        y = np.concatenate(([0.0], values))
        if run.end_ns > t[-1]:
            t, y = np.append(t, run.end_ns), np.append(y, y[-1])
        ax.plot(t / div, y / 1e3, drawstyle="steps-post", color=st["color"],
                linestyle=st["linestyle"],
                label=f"{label} (node {ports[0][0]} port {ports[0][1]})")
        drawn = True
    if drawn:
        ax.legend(fontsize="small")
    else:
        style.no_data(ax)
    ax.set_xlim(0, end / div or 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"Time ({unit})")
    ax.set_ylabel("Queue length (KB)")
    ax.set_title("Most loaded switch port: queue over time")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def busiest_switch_port(run):
    """``(node, port)`` of the switch port that sent most, or None."""
    totals = port_totals(run.ports)
    kinds = port_kinds(run)
    switch = {k: v for k, v in totals.items()
              if kinds.get(k, "switch") != "host"} or totals
    if not switch:
        return None
    return sorted(switch.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


def plot_throughput(runs, labels, styles, path):
    """Send rate of each run's busiest switch port over time."""
    end = max(run.end_ns for run in runs)
    div, unit = time_unit(end)
    fig, ax = plt.subplots(figsize=(7, 4))
    drawn = False
    for run, label, st in zip(runs, labels, styles):
        key = busiest_switch_port(run) if run.ports is not None else None
        rates = port_throughput(run.ports) if key else None
        if key is None or rates is None or rates.empty:
            continue
        times = rates.index.to_numpy(dtype=float)
        starts = np.concatenate(([0.0], times[:-1]))
        y = rates[key].to_numpy(dtype=float)
        ax.step(np.concatenate((starts, times[-1:])) / div,
                np.concatenate((y, y[-1:])), where="post", color=st["color"],
                linestyle=st["linestyle"],
                label=f"{label} (node {key[0]} port {key[1]})")
        drawn = True
    if drawn:
        ax.legend(fontsize="small")
    else:
        style.no_data(ax, "no ports.csv in these runs")
    ax.set_xlim(0, end / div or 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(f"Time ({unit})")
    ax.set_ylabel("Throughput (Gb/s, wire bytes)")
    ax.set_title("Busiest switch port: send rate over time")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def summary_markdown(summary):
    """The key columns of :func:`summary_frame` as a Markdown table."""
    header = ["run", "algorithm"] + [t for t, _, _ in SUMMARY_COLUMNS]
    rows = []
    for _, r in summary.iterrows():
        cells = [r["label"], r["algorithm"]]
        for _, metric, scale in SUMMARY_COLUMNS:
            value = r.get(metric)
            if value is None or (isinstance(value, float) and
                                 math.isnan(value)):
                cells.append("n/a")
            else:
                cells.append(style.format_number(float(value) * scale))
        rows.append(cells)
    return style.markdown_table(header, rows)


def compare(dirs, labels, out_dir, edges=None):
    """Load the runs, write every output into *out_dir*; return the paths.

    Raises :class:`RunDataError` before writing anything if a run cannot
    be loaded.
    """
    runs = [load_run(d) for d in dirs]
    styles = style.run_styles([run.algorithm for run in runs])
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def path(name):
        p = os.path.join(out_dir, name)
        written.append(p)
        return p

    summary = summary_frame(runs, labels)
    summary.to_csv(path(SUMMARY_CSV), index=False)
    table_md = summary_markdown(summary)
    with open(path(SUMMARY_MD), "w", encoding="utf-8") as handle:
        handle.write(table_md + "\n")
    buckets = bucket_frame(runs, labels, edges)
    buckets.to_csv(path(BUCKETS_CSV), index=False)
    plot_buckets(buckets, labels, styles, edges, path(BUCKET_PLOT))
    plot_cdfs(runs, labels, styles, path(CDF_PLOT))
    plot_queues(runs, labels, styles, path(QUEUE_PLOT))
    plot_throughput(runs, labels, styles, path(TPUT_PLOT))

    md = ["# Comparison", "", "| run | algorithm | folder |", "|---|---|---|"]
    md += [f"| {label} | {run.algorithm} | `{os.path.abspath(run.directory)}`"
           " |" for run, label in zip(runs, labels)]
    md += ["", "## Summary", "", table_md, "",
           f"All metrics: [{SUMMARY_CSV}]({SUMMARY_CSV}). Slowdown = FCT / "
           "ideal FCT of foreground messages (all kinds but `probe`) inside "
           "each run's warm-up/cool-down window; percentiles are "
           "nearest-rank.", "",
           "## FCT slowdown by flow size", "",
           f"![FCT slowdown by flow size]({BUCKET_PLOT})", "",
           f"Per run and bucket: [{BUCKETS_CSV}]({BUCKETS_CSV}).", "",
           f"![FCT slowdown CDF]({CDF_PLOT})", "",
           "## Queue and throughput over time", "",
           f"![Queue over time]({QUEUE_PLOT})",
           f"![Throughput over time]({TPUT_PLOT})", ""]
    report = os.path.join(out_dir, REPORT_FILE)
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("\n".join(md))
    return [report] + written


def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        prog="rdma compare",
        description="Overlay several runs: slowdown by size bucket, CDFs, "
                    "queue and throughput over time, one summary table "
                    "(Markdown and CSV).")
    parser.add_argument("dirs", nargs="+", metavar="DIR",
                        help="run output folders")
    parser.add_argument("--labels", nargs="+", metavar="LABEL",
                        help="one label per run (space- or comma-separated; "
                             "default: the folder names)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="OUTDIR",
                        help=f"output folder (default: {DEFAULT_OUT})")
    parser.add_argument("--buckets", type=parse_buckets, metavar="SIZES",
                        help="flow-size bucket upper bounds, e.g. "
                             "1K,8K,64K,512K,4M (the default; K = 1024)")
    args = parser.parse_args(argv)
    labels = split_labels(args.labels) if args.labels else \
        default_labels(args.dirs)
    if len(labels) != len(args.dirs):
        print(f"rdma compare: error: {len(labels)} label(s) for "
              f"{len(args.dirs)} run folder(s)", file=sys.stderr)
        return 2
    if len(set(labels)) != len(labels):
        print(f"rdma compare: error: labels must differ: "
              f"{', '.join(labels)}", file=sys.stderr)
        return 2
    try:
        paths = compare(args.dirs, labels, args.out, args.buckets)
    except RunDataError as exc:
        print(f"rdma compare: error: {exc}", file=sys.stderr)
        return 2
    for p in paths:
        print(p)
    return 0
