"""Report of one RDMA congestion-control simulation run: figures + Markdown.

Usage::

    python3 -m rdma_analysis plot DIR [--top N] [--buckets 1K,8K,...]
                                      [--out PLOTDIR]

(``./rdma plot DIR``) reads the run folder ``DIR`` (see
:mod:`rdma_analysis.data`) and writes into ``DIR/plots/`` (or PLOTDIR):

* ``report.md``: the report, linking every figure below;
* ``fct_buckets.csv``: FCT slowdown statistics by size bucket and group;
* ``metrics.json``: the run's metrics (summary + derived, see
  rdma_analysis.data);
* ``fct_slowdown_buckets.png``, ``fct_slowdown_cdf.png``, ``fct_cdf.png``,
  ``queue_top_ports.png``, ``queue_distribution.png``, ``pfc_timeline.png``;
* when the run has the optional files: ``throughput_ports.png``
  (ports.csv), ``throughput_qps.png`` and ``cc_state.png`` (cc.csv),
  ``uplinks.png`` (links.csv with leaf->spine links, and ports.csv),
  ``collectives.png`` (collectives.csv).

It prints the path of every file written, one per line.  A missing or
unreadable input is reported in one line on stderr, exit code 2, and
nothing is written.

The data preparation lives in :mod:`rdma_analysis.data` (re-exported here)
so it can be unit-tested; this module only draws and writes.
"""

import argparse
import json
import math
import os
import sys

import numpy as np

from . import style
from .data import (  # noqa: F401  (re-exported for users and tests)
    DEFAULT_BUCKET_EDGES, NS_PER_US, PFC_KEY, STAT_NAMES, STAT_TITLES, Run,
    RunDataError, bdp_bytes, cc_state, collective_stats, fct_table,
    fct_window, load_run, measured_flows, parse_size, pause_frame_count,
    pause_intervals, pfc_totals, port_kinds, port_queue_stats,
    port_queue, port_throughput, port_totals, qp_throughput,
    queue_distribution, queue_sample_period_ns, queue_samples, queue_series,
    run_metrics, slowdown_cdf, top_ports, uplink_imbalance, uplink_loads,
    value_cdf)

import matplotlib.pyplot as plt  # noqa: E402  (style sets the backend)

BYTES_PER_KB = 1_000.0
PLOTS_SUBDIR = "plots"

REPORT_FILE = "report.md"
BUCKETS_CSV = "fct_buckets.csv"
METRICS_JSON = "metrics.json"
BUCKET_PLOT = "fct_slowdown_buckets.png"
CDF_PLOT = "fct_slowdown_cdf.png"
FCT_CDF_PLOT = "fct_cdf.png"
QUEUE_PLOT = "queue_top_ports.png"
QUEUE_DIST_PLOT = "queue_distribution.png"
PFC_PLOT = "pfc_timeline.png"
PORT_TPUT_PLOT = "throughput_ports.png"
QP_TPUT_PLOT = "throughput_qps.png"
CC_PLOT = "cc_state.png"
UPLINK_PLOT = "uplinks.png"
COLLECTIVE_PLOT = "collectives.png"


def time_unit(end_ns):
    """``(divisor_ns, label)`` for time axes: us up to 20 ms, else ms."""
    if end_ns > 20e6:
        return 1e6, "ms"
    return NS_PER_US, "us"


def _time_axis(ax, run, last_ns=0):
    div, unit = time_unit(max(run.end_ns, last_ns))
    ax.set_xlim(0, max(run.end_ns, last_ns) / div or 1)
    ax.set_xlabel(f"Time ({unit})")
    return div


# ---------------------------------------------------------------------------
# Figures of one run
# ---------------------------------------------------------------------------

def plot_queue_top_ports(run, path, top=4):
    """Draw queue length over time of the *top* most loaded ports.

    Samples are drawn as steps: each sampled value holds until the next
    sample.  Returns the list of plotted ``(node, port)``.
    """
    ports = top_ports(run.queue, top)
    fig, ax = plt.subplots(figsize=(7, 4))
    last = int(run.queue["time_ns"].max()) if len(run.queue) else 0
    div = _time_axis(ax, run, last)
    for i, (node, port) in enumerate(ports):
        times, values = port_queue(run.queue, node, port)
        # Queues are empty when the run starts: anchor each line at (0, 0);
        # the last sample's value holds to the end of the run.
        times = np.concatenate(([0.0], times, [max(run.end_ns, last)]))
        values = np.concatenate(([0.0], values, values[-1:]))
        ax.plot(times / div, values / BYTES_PER_KB, drawstyle="steps-post",
                color=style.series_color(i), label=f"node {node} port {port}")
    if ports:
        ax.legend(loc="best", fontsize="small")
    else:
        style.no_data(ax)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Queue length (KB)")
    ax.set_title(f"{run.scenario}: egress queue of the {top} most loaded "
                 "ports")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)
    return ports


def plot_queue_distribution(run, path, max_ports=32):
    """CDF of all queue samples of the ports that ever queued (left) and
    each port's p99 and maximum (right, the *max_ports* largest)."""
    period, end = queue_sample_period_ns(run), run.end_ns
    values, zeros = queue_samples(run.queue, period, end)
    all_stats = port_queue_stats(run.queue, period, end)
    stats = all_stats.head(max_ports)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    if len(values):
        n = len(values) + zeros
        y = (zeros + np.arange(1, len(values) + 1)) / n
        x = values / BYTES_PER_KB
        if len(x) > 5000:  # enough points for the eye
            keep = np.unique(np.linspace(0, len(x) - 1, 5000).astype(int))
            x, y = x[keep], y[keep]
        left.step(np.concatenate(([0.0], x)), np.concatenate(([zeros / n],
                                                               y)),
                  where="post", color=style.algorithm_color(run.algorithm))
        left.set_xlim(left=0)
    else:
        style.no_data(left)
    left.set_ylim(0, 1.02)
    left.set_xlabel("Queue length (KB)")
    left.set_ylabel("CDF (fraction of samples)")
    left.set_title(f"All samples of the {len(all_stats)} port(s) that "
                   "queued")
    left.grid(True, alpha=0.3)
    if len(stats):
        pos = np.arange(len(stats))
        right.bar(pos - 0.2, stats["max_bytes"] / BYTES_PER_KB, 0.4,
                  label="max", color="0.55")
        right.bar(pos + 0.2, stats["p99_bytes"] / BYTES_PER_KB, 0.4,
                  label="p99", color=style.algorithm_color(run.algorithm))
        right.set_xticks(pos)
        right.set_xticklabels([f"n{n}p{p}" for n, p in
                               zip(stats["node"], stats["port"])],
                              rotation=90 if len(stats) > 6 else 0,
                              fontsize="small")
        right.legend(fontsize="small")
    else:
        style.no_data(right)
    right.set_xlabel("Switch port (node, port)")
    right.set_ylabel("Queue length (KB)")
    right.set_title("Per port" if len(stats) == len(all_stats) else
                    f"Per port (the {len(stats)} with the largest maximum)")
    right.grid(True, axis="y", alpha=0.3)
    fig.suptitle(f"{run.scenario}: queue length distribution")
    style.save(fig, path)


def _cdf_axes(ax, cdfs, xlabel):
    drawn = False
    for i, (kind, (x, y)) in enumerate(cdfs.items()):
        positive = x > 0  # a log axis cannot show values <= 0
        x, y = x[positive], y[positive]
        if len(x) == 0:
            continue
        # Start each curve at 0 so the first step is visible.
        ax.step(np.concatenate(([x[0]], x)), np.concatenate(([0.0], y)),
                where="post", color=style.series_color(i),
                label=f"{kind} (n={len(x)})")
        drawn = True
    ax.set_xscale("log")
    if drawn:
        style.readable_log(ax.xaxis)
        ax.legend(loc="lower right", fontsize="small")
    else:
        ax.set_xlim(1, 10)
        style.no_data(ax)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("CDF (fraction of messages)")
    ax.grid(True, which="both", alpha=0.3)


def plot_fct_slowdown_cdf(run, path):
    """Draw the CDF of FCT slowdown, one curve per message kind (messages
    inside the warm-up/cool-down window)."""
    flows, _ = measured_flows(run)
    fig, ax = plt.subplots(figsize=(6, 4))
    _cdf_axes(ax, slowdown_cdf(flows),
              "FCT slowdown (FCT / ideal FCT, log scale)")
    ax.set_title(f"{run.scenario}: FCT slowdown CDF")
    style.save(fig, path)


def plot_fct_cdf(run, path):
    """Draw the CDF of the FCT itself (us, log scale), one curve per kind."""
    flows, _ = measured_flows(run)
    flows = flows.assign(fct_us=flows["fct_ns"] / NS_PER_US)
    fig, ax = plt.subplots(figsize=(6, 4))
    _cdf_axes(ax, value_cdf(flows, "fct_us"), "FCT (us, log scale)")
    ax.set_title(f"{run.scenario}: FCT CDF")
    style.save(fig, path)


def bucket_rows(table):
    """Rows of an :func:`rdma_analysis.data.fct_table` that are size
    buckets or the BDP split (what the bucket figure shows)."""
    keep = ~table["group"].str.startswith(("all", "kind="))
    return table[keep]


def plot_slowdown_buckets(run, table, path):
    """Grouped bars: avg, p50, p95, p99 and p99.9 slowdown per size bucket
    (and below/above one BDP), log scale."""
    rows = bucket_rows(table)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(rows) + 2), 4))
    if len(rows):
        pos = np.arange(len(rows))
        width = 0.8 / len(STAT_NAMES)
        greys = ["0.75", "0.6", "0.45", "0.3", "0.1"]
        base = style.algorithm_color(run.algorithm)
        for i, stat in enumerate(STAT_NAMES):
            ax.bar(pos + (i - 2) * width, rows[stat].to_numpy(dtype=float),
                   width, label=STAT_TITLES[stat],
                   color=base if stat == "p99" else greys[i])
        ax.set_xticks(pos)
        ax.set_xticklabels([f"{g}\n(n={n})" for g, n in
                            zip(rows["group"], rows["flows"])],
                           fontsize="small")
        ax.set_yscale("log")
        style.readable_log(ax.yaxis)
        split = rows["group"].str.contains("BDP").to_numpy()
        if split.any() and not split.all():
            # dashed line between the size buckets and the BDP split
            ax.axvline(np.argmax(split) - 0.5, color="0.5", linestyle="--",
                       linewidth=0.8)
        ax.legend(fontsize="small", loc="upper left",
                  bbox_to_anchor=(1.01, 1.0))
    else:
        style.no_data(ax, "no completed foreground flows")
    ax.axhline(1.0, color="0.3", linewidth=0.8)
    ax.set_xlabel("Flow size (bytes, K = 1024)")
    ax.set_ylabel("FCT slowdown (log scale)")
    ax.set_title(f"{run.scenario}: FCT slowdown by flow size")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    style.save(fig, path)


def plot_pfc_timeline(run, path):
    """Draw PFC pause intervals as horizontal bars per (node, port, prio)."""
    intervals = pause_intervals(run.pfc, run.end_ns)
    keys = sorted({tuple(int(v) for v in key) for key in
                   intervals[PFC_KEY].itertuples(index=False)})
    height = min(20.0, max(3.0, 1.5 + 0.3 * len(keys)))
    fig, ax = plt.subplots(figsize=(7, height))
    last = int(intervals["end_ns"].max()) if keys else 0
    div = _time_axis(ax, run, last)
    for row, key in enumerate(keys):
        node, port, prio = key
        mine = intervals[(intervals["node"] == node)
                         & (intervals["port"] == port)
                         & (intervals["prio"] == prio)]
        bars = [(start / div, duration / div) for start, duration in
                zip(mine["start_ns"], mine["duration_ns"])]
        ax.broken_barh(bars, (row - 0.4, 0.8), color="tab:red")
    if keys:
        ax.set_yticks(range(len(keys)))
        ax.set_yticklabels([f"n{n} p{p} c{c}" for n, p, c in keys],
                           fontsize="small" if len(keys) > 20 else None)
        ax.set_ylim(-0.6, len(keys) - 0.4)
        ax.invert_yaxis()
    else:
        ax.set_yticks([])
        style.no_data(ax, "no PFC pause")
    ax.set_ylabel("Switch port / priority")
    ax.set_title(f"{run.scenario}: PFC pauses "
                 f"({pause_frame_count(run)} pause frames)")
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    style.save(fig, path)


def _throughput_ports(run, top):
    """Switch ports (all ports if kinds are unknown) ranked by bytes sent."""
    totals = port_totals(run.ports)
    kinds = port_kinds(run)
    switch = {k: v for k, v in totals.items()
              if kinds.get(k, "switch") != "host"}
    ranked = sorted((switch or totals).items(),
                    key=lambda item: (-item[1], item[0]))
    return [key for key, _ in ranked[:top]]


def _step_lines(ax, rates, keys, div, label_fmt):
    """Interval rates as steps: each value holds over the interval that
    ends at its time."""
    times = rates.index.to_numpy(dtype=float)
    starts = np.concatenate(([0.0], times[:-1])) if len(times) else times
    for i, key in enumerate(keys):
        y = rates[key].to_numpy(dtype=float)
        ax.step(np.concatenate((starts, times[-1:])) / div,
                np.concatenate((y, y[-1:])), where="post",
                color=style.series_color(i), label=label_fmt(key))


def plot_port_throughput(run, path, top=4):
    """Send rate (Gb/s) over time of the *top* busiest switch ports."""
    rates = port_throughput(run.ports)
    keys = _throughput_ports(run, top)
    fig, ax = plt.subplots(figsize=(7, 4))
    div = _time_axis(ax, run, int(rates.index.max()) if len(rates) else 0)
    if keys and len(rates):
        _step_lines(ax, rates, keys, div,
                    lambda k: f"node {k[0]} port {k[1]}")
        ax.legend(loc="best", fontsize="small")
    else:
        style.no_data(ax)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Throughput (Gb/s, wire bytes)")
    ax.set_title(f"{run.scenario}: send rate of the {top} busiest switch "
                 "ports")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)
    return keys


def plot_qp_throughput(run, path, top=8):
    """Acknowledged throughput (Gb/s) of the sampled QPs over time."""
    rates = qp_throughput(run.cc)
    keys = list(rates.columns)[:top]
    fig, ax = plt.subplots(figsize=(7, 4))
    div = _time_axis(ax, run, int(rates.index.max()) if len(rates) else 0)
    if keys and len(rates):
        _step_lines(ax, rates, keys, div,
                    lambda k: f"host {k[0]} QP {k[1]}")
        ax.legend(loc="best", fontsize="small")
    else:
        style.no_data(ax, "fewer than two cc.csv samples")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Acked throughput (Gb/s, payload)")
    ax.set_title(f"{run.scenario}: throughput of sampled QPs")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def plot_cc_state(run, path, top=8):
    """Congestion-control rate (Gb/s) of the sampled QPs over time, plus
    their window (KB) when any QP has one."""
    rate = cc_state(run.cc, "rate_bps")
    window = cc_state(run.cc, "window_bytes")
    has_window = len(window) and np.nanmax(window.to_numpy(dtype=float)) > 0
    rows = 2 if has_window else 1
    fig, axes = plt.subplots(rows, 1, figsize=(7, 3.2 * rows + 0.8),
                             sharex=True, squeeze=False)
    keys = list(rate.columns)[:top]
    last = int(rate.index.max()) if len(rate) else 0
    panels = [(axes[0][0], rate, 1e9, "CC rate (Gb/s)")]
    if has_window:
        panels.append((axes[1][0], window, BYTES_PER_KB, "CC window (KB)"))
    for ax, frame, scale, label in panels:
        div = _time_axis(ax, run, last)
        times = frame.index.to_numpy(dtype=float) / div
        for i, key in enumerate(keys):
            ax.plot(times, frame[key].to_numpy(dtype=float) / scale,
                    drawstyle="steps-post", color=style.series_color(i),
                    label=f"host {key[0]} QP {key[1]}")
        if not keys:
            style.no_data(ax)
        ax.set_ylim(bottom=0)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    if keys:
        axes[0][0].legend(loc="best", fontsize="small")
    if has_window:
        axes[0][0].set_xlabel("")
    axes[0][0].set_title(f"{run.scenario}: congestion-control state "
                         f"({run.algorithm})")
    style.save(fig, path)


def plot_uplinks(run, loads, path):
    """Bytes sent by each ToR uplink, grouped by leaf (one colour per
    spine), with each leaf's max/mean imbalance in its label."""
    imbalance = uplink_imbalance(loads).set_index("leaf")
    leaves = sorted(loads["leaf"].unique())
    spines = sorted(loads["spine"].unique())
    fig, ax = plt.subplots(figsize=(min(12, max(6, 0.5 * len(loads) + 3)),
                                    4))
    pos = 0
    ticks, labels, seen = [], [], set()
    for leaf in leaves:
        mine = loads[loads["leaf"] == leaf]
        xs = np.arange(pos, pos + len(mine))
        for x, spine, b in zip(xs, mine["spine"], mine["bytes"]):
            ax.bar(x, b / 1e6, color=style.series_color(spines.index(spine)),
                   label=None if spine in seen else f"to spine {spine}")
            seen.add(spine)
        ratio = imbalance.loc[leaf, "max_over_mean"]
        ticks.append(xs.mean())
        labels.append(f"leaf {leaf}\nmax/mean "
                      f"{style.format_number(ratio)}")
        pos += len(mine) + 1
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, fontsize="small")
    top = float(loads["bytes"].max()) / 1e6
    ax.set_ylim(0, 1.3 * top if top > 0 else 1)
    if len(spines) <= 12:
        ax.legend(fontsize="small", ncol=min(len(spines), 6),
                  loc="upper right")
    ax.set_ylabel("Bytes sent per uplink (MB)")
    ax.set_xlabel("ToR uplinks (one bar per leaf->spine port)")
    ax.set_title(f"{run.scenario}: uplink load balance")
    ax.grid(True, axis="y", alpha=0.3)
    style.save(fig, path)


def plot_collectives(run, path):
    """Duration (us) of each collective phase per layer, one line per
    phase name."""
    coll = run.collectives
    fig, ax = plt.subplots(figsize=(7, 4))
    layers = list(dict.fromkeys(coll["layer"]))
    numeric = all(_is_number(v) for v in layers)
    for i, (phase, group) in enumerate(coll.groupby("phase", sort=False)):
        if numeric:
            x = [float(v) for v in group["layer"]]
        else:
            x = [layers.index(v) for v in group["layer"]]
        ax.plot(x, group["duration_ns"] / NS_PER_US, marker="o",
                color=style.series_color(i), label=str(phase))
    if not numeric:
        ax.set_xticks(range(len(layers)))
        ax.set_xticklabels(layers, fontsize="small")
    ax.legend(fontsize="small")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("Layer")
    ax.set_ylabel("Phase completion time (us)")
    ax.set_title(f"{run.scenario}: collective completion times")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def _is_number(text):
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def _fmt(x):
    return style.format_number(x)


def _table_md(table):
    header = ["flows", "n"] + [STAT_TITLES[s] for s in STAT_NAMES]
    rows = [[g, n] + [_fmt(v) for v in vals] for g, n, *vals in
            table[["group", "flows"] + STAT_NAMES].itertuples(index=False)]
    return style.markdown_table(header, rows)


def _summary_md(run, metrics):
    s = run.summary
    items = [
        ("algorithm", run.algorithm),
        ("flows completed", f"{_fmt(s.get('flows_completed'))} / "
                            f"{_fmt(s.get('flows_total'))}"),
        ("simulated time", f"{_fmt(float(s['sim_time_s']) * 1e3)} ms"),
        ("goodput", f"{_fmt(s.get('goodput_gbps'))} Gb/s"),
        ("bytes delivered / sent", f"{_fmt(s.get('bytes_delivered'))} / "
                                   f"{_fmt(s.get('bytes_sent'))}"),
        ("base RTT", f"{_fmt(s.get('base_rtt_us'))} us"),
        ("BDP", f"{_fmt(metrics['bdp_bytes'])} bytes"),
        ("max queue", f"{_fmt(s.get('max_queue_bytes'))} bytes"),
        ("drops", _fmt(s.get("drops"))),
        ("retransmitted packets", _fmt(s.get("retransmitted_packets"))),
        ("timeouts", _fmt(s.get("timeouts"))),
        ("ECN-marked packets", _fmt(s.get("ecn_marked_packets"))),
        ("CNPs", _fmt(s.get("cnps"))),
        ("PFC pause / resume frames", f"{_fmt(s.get('pfc_pause_frames'))} / "
                                      f"{_fmt(s.get('pfc_resume_frames'))}"),
        ("probe latency mean / p99",
         f"{_fmt(_us(s.get('probe_latency_mean_ns')))} / "
         f"{_fmt(_us(s.get('probe_latency_p99_ns')))} us"),
        ("wall time", f"{_fmt(s.get('wall_s'))} s"),
    ]
    return style.markdown_table(["", "value"], items)


def _us(ns):
    try:
        return float(ns) / NS_PER_US
    except (TypeError, ValueError):
        return None


def _img(name, alt):
    return f"![{alt}]({name})"


def write_report(run, out_dir, top=4, edges=None):
    """Write every figure, table and report.md of *run* into *out_dir*.

    Returns the list of written paths (report.md first).
    """
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def path(name):
        p = os.path.join(out_dir, name)
        written.append(p)
        return p

    metrics = run_metrics(run)
    flows, excluded = measured_flows(run)
    bdp = bdp_bytes(run)
    table = fct_table(flows, edges, bdp)
    warmup, cooldown = fct_window(run)
    md = [f"# Run report: {run.scenario}", "",
          f"Run folder: `{os.path.abspath(run.directory)}`", "",
          "## Summary", "", _summary_md(run, metrics), ""]

    # FCT -------------------------------------------------------------------
    md += ["## FCT slowdown by flow size", ""]
    window = []
    if warmup is not None:
        window.append(f"messages starting at or after {_fmt(warmup / NS_PER_US)} us "
                      "(warm-up end)")
    if cooldown is not None:
        window.append(f"messages starting at or before {_fmt(cooldown / NS_PER_US)} "
                      "us (cool-down start)")
    scope = (" and ".join(window) if window
             else "all completed messages (no warm-up/cool-down marks)")
    md.append(
        f"Messages measured: {scope}; {len(flows)} measured, {excluded} "
        "left out by the window. Foreground = every kind except `probe`. "
        "Buckets are (lo, hi] in bytes (K = 1024); one BDP = "
        f"{_fmt(bdp)} bytes. Slowdown = FCT / ideal FCT; percentiles are "
        "nearest-rank.")
    md += ["", _table_md(table), ""]
    table.to_csv(path(BUCKETS_CSV), index=False)
    plot_slowdown_buckets(run, table, path(BUCKET_PLOT))
    md += [_img(BUCKET_PLOT, "FCT slowdown by flow size"), "",
           "## FCT distributions", ""]
    plot_fct_slowdown_cdf(run, path(CDF_PLOT))
    plot_fct_cdf(run, path(FCT_CDF_PLOT))
    md += [_img(CDF_PLOT, "FCT slowdown CDF"), _img(FCT_CDF_PLOT, "FCT CDF"),
           ""]

    # Queues ----------------------------------------------------------------
    ports = plot_queue_top_ports(run, path(QUEUE_PLOT), top=top)
    plot_queue_distribution(run, path(QUEUE_DIST_PLOT))
    md += ["## Queues", "",
           f"Most loaded switch egress ports (by peak): "
           f"{', '.join(f'node {n} port {p}' for n, p in ports) or 'none'}; "
           f"p99 of all queue samples: {_fmt(metrics['queue_p99_bytes'])} "
           "bytes.", "",
           _img(QUEUE_PLOT, "Queue length over time"),
           _img(QUEUE_DIST_PLOT, "Queue length distribution"), ""]

    # Throughput and CC ------------------------------------------------------
    md += ["## Throughput", ""]
    if run.ports is not None:
        keys = plot_port_throughput(run, path(PORT_TPUT_PLOT), top=top)
        md += [f"Busiest switch ports: "
               f"{', '.join(f'node {n} port {p}' for n, p in keys) or 'none'}"
               f"; highest mean port utilization: "
               f"{_fmt(metrics['max_port_utilization'])}.", "",
               _img(PORT_TPUT_PLOT, "Port throughput"), ""]
    else:
        md += ["No `ports.csv` in this run: per-port throughput not "
               "available.", ""]
    md.append(f"Goodput utilization of the busiest receiver: "
              f"{_fmt(metrics['goodput_utilization'])}.")
    md.append("")
    if run.cc is not None:
        plot_qp_throughput(run, path(QP_TPUT_PLOT))
        plot_cc_state(run, path(CC_PLOT))
        md += [_img(QP_TPUT_PLOT, "QP throughput"), "",
               "## Congestion-control state", "",
               _img(CC_PLOT, "Congestion-control state"), ""]
    else:
        md += ["No `cc.csv` in this run: per-QP throughput and "
               "congestion-control state not available.", ""]

    # PFC -------------------------------------------------------------------
    plot_pfc_timeline(run, path(PFC_PLOT))
    totals = pfc_totals(run.pfc, run.end_ns)
    md += ["## PFC", "",
           f"{pause_frame_count(run)} pause frames (including refreshes), "
           f"{_fmt(run.summary.get('pfc_resume_frames'))} resume frames; "
           f"total paused time {_fmt(metrics['pfc_paused_time_us'])} us "
           f"over {len(totals)} (port, priority).", ""]
    if len(totals):
        rows = [[f"node {n} port {p} prio {c}", pf, rf, iv,
                 _fmt(ns / NS_PER_US), f"{100 * fr:.1f}%"]
                for n, p, c, pf, rf, iv, ns, fr in
                totals.head(20).itertuples(index=False)]
        md += [style.markdown_table(
            ["port", "pause frames", "resume frames", "intervals",
             "paused (us)", "of run"], rows), ""]
        if len(totals) > 20:
            md += [f"({len(totals) - 20} more not shown.)", ""]
    md += [_img(PFC_PLOT, "PFC pause timeline"), ""]

    # Optional sections -------------------------------------------------------
    loads = uplink_loads(run)
    if loads is not None:
        plot_uplinks(run, loads, path(UPLINK_PLOT))
        imb = uplink_imbalance(loads)
        rows = [[leaf, n, _fmt(b), _fmt(r), _fmt(c)]
                for leaf, n, b, r, c in imb.itertuples(index=False)]
        md += ["## Uplink load balance", "",
               "Bytes each leaf sent up to the spines, per uplink; max/mean "
               "= 1 is a perfect balance.", "",
               style.markdown_table(["leaf", "uplinks", "bytes", "max/mean",
                                     "CoV"], rows), "",
               _img(UPLINK_PLOT, "Uplink load"), ""]
    if run.collectives is not None and not run.collectives.empty:
        plot_collectives(run, path(COLLECTIVE_PLOT))
        stats = collective_stats(run.collectives)
        rows = [[ph, n, _fmt(m), _fmt(p50), _fmt(p99), _fmt(mx), _fmt(b)]
                for ph, n, m, p50, p99, mx, b in
                stats.itertuples(index=False)]
        md += ["## Collectives", "",
               f"Total time (first start to last end): "
               f"{_fmt(metrics['collective_time_us'])} us.", "",
               style.markdown_table(["phase", "count", "mean (us)",
                                     "p50 (us)", "p99 (us)", "max (us)",
                                     "bytes"], rows), "",
               _img(COLLECTIVE_PLOT, "Collective completion times"), ""]

    with open(path(METRICS_JSON), "w", encoding="utf-8") as handle:
        json.dump(_json_safe(metrics), handle, indent=1, sort_keys=True)
        handle.write("\n")
    report = os.path.join(out_dir, REPORT_FILE)
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("\n".join(md))
    return [report] + written


def _json_safe(d):
    """NaN -> None so the file is strict JSON."""
    out = {}
    for k, v in d.items():
        if isinstance(v, float) and math.isnan(v):
            v = None
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


def make_plots(run, out_dir, top=4):
    """Backwards-compatible name of :func:`write_report`."""
    return write_report(run, out_dir, top=top)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text}")
    return value


def parse_buckets(text):
    """``'1K,64K,1M'`` -> ``[1024, 65536, 1048576]`` (argparse type)."""
    try:
        return sorted({parse_size(part) for part in text.split(",")
                       if part.strip()})
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        prog="rdma plot",
        description="Write the report of one run (report.md, PNG figures, "
                    "fct_buckets.csv, metrics.json) into DIR/plots/.")
    parser.add_argument("run_dir", metavar="DIR",
                        help="simulation output folder")
    parser.add_argument("--top", type=_positive_int, default=4, metavar="N",
                        help="number of most loaded ports to plot "
                             "(default: 4)")
    parser.add_argument("--buckets", type=parse_buckets, metavar="SIZES",
                        help="flow-size bucket upper bounds, e.g. "
                             "1K,8K,64K,512K,4M (the default; K = 1024)")
    parser.add_argument("--out", metavar="PLOTDIR",
                        help="write here instead of DIR/plots/")
    args = parser.parse_args(argv)
    try:
        run = load_run(args.run_dir)
    except RunDataError as exc:
        print(f"rdma plot: error: {exc}", file=sys.stderr)
        return 2
    out_dir = args.out or os.path.join(args.run_dir, PLOTS_SUBDIR)
    for path in write_report(run, out_dir, top=args.top, edges=args.buckets):
        print(path)
    return 0
