"""The figures of ``./rdma compare``: groups of runs (one label = one or
more runs, e.g. one per seed), drawn by the rules of
:mod:`rdma_analysis.style` (colour per algorithm, time in ms, KB/MB axes).

* ``slowdown_by_bucket.png``: per size bucket the mean over a label's runs
  of each run's p50 / p99 (p99.9 only when some bucket has the 1000
  messages per run it needs) with the 95% interval as an error bar; the
  tick labels give n (messages per run); a hatched bar is a percentile
  from too few messages (:mod:`rdma_analysis.stats`).
* ``fct_slowdown_cdf.png``: each label's runs pooled.
* ``queue_cdf.png``: the queue distribution of every run, one line each.
* ``queue_over_time.png``, ``throughput_over_time.png``: the first run of
  each label (a representative; the tables hold the statistics).
"""

import math

import numpy as np

from . import names as nm
from . import stats as st
from . import style
from .data import (PROBE_KIND, STAT_TITLES, fct_window, measured_flows,
                   port_kinds, port_queue, port_throughput, port_totals,
                   queue_sample_period_ns, queue_samples, size_buckets,
                   top_ports)

import matplotlib.patches as mpatches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

HATCHES = [None, "//", "..", "xx"]
PERCENTILE = {"p50": 50.0, "p95": 95.0, "p99": 99.0, "p999": 99.9}


def _group_order(frame, edges):
    order = [label for _, _, label in size_buckets(edges)]
    order += ["<=1 BDP", ">1 BDP", "all foreground"]
    present = set(frame.loc[frame["flows"] > 0, "group"])
    return [g for g in order if g in present]


def bucket_stats(frame, labels, edges):
    """``[stats shown]`` and per (label, group, stat): ``(mean, half, n
    runs, mean messages per run)`` of the per-run statistic."""
    groups = _group_order(frame, edges)
    shown = ["p50", "p99"]
    if (frame["flows"] >= st.min_samples(99.9)).any():
        shown.append("p999")
    cells = {}
    for label in labels:
        mine = frame[frame["label"] == label]
        for g in groups:
            part = mine[mine["group"] == g]
            for stat in shown:
                mean, _, half, n = st.mean_ci(part[stat])
                cells[(label, g, stat)] = (mean, half, n,
                                           float(part["flows"].mean())
                                           if len(part) else 0.0)
    return groups, shown, cells


def plot_buckets(frame, labels, styles, edges, path):
    """One panel per statistic; groups on x, one bar per label (mean over
    its runs, 95% error bar)."""
    groups, shown, cells = bucket_stats(frame, labels, edges)
    fig, axes = plt.subplots(1, len(shown), figsize=(
        min(16, 3 + len(shown) * max(3.2, 0.55 * len(groups) * len(labels))),
        4.6), squeeze=False)
    width = 0.8 / max(1, len(labels))
    for ax, stat in zip(axes[0], shown):
        pos = np.arange(len(groups))
        for i, (label, sty) in enumerate(zip(labels, styles)):
            vals = [cells[(label, g, stat)] for g in groups]
            y = [v[0] for v in vals]
            err = [0.0 if v[1] != v[1] else v[1] for v in vals]
            x = pos + (i - (len(labels) - 1) / 2) * width
            low = [not st.enough(PERCENTILE[stat], v[3]) for v in vals]
            ax.bar(x, y, width, yerr=err, capsize=2, color=sty["color"],
                   label=label, edgecolor="white",
                   hatch=HATCHES[_repeat_index(sty) % len(HATCHES)])
            for xi, yi, lo in zip(x, y, low):
                if lo and yi == yi:
                    ax.bar(xi, yi, width, fill=False, hatch="xxx",
                           edgecolor="0.3", linewidth=0)
        n_text = []
        for g in groups:
            ns = [cells[(label, g, stat)][3] for label in labels]
            n_text.append(f"{g}\nn={style.format_number(round(min(ns)))}")
        ax.set_xticks(pos)
        ax.set_xticklabels(n_text, rotation=30, ha="right",
                           fontsize="x-small")
        ax.set_yscale("log")
        style.readable_log(ax.yaxis)
        ax.axhline(1.0, color="0.3", linewidth=0.8)
        ax.set_title(f"{STAT_TITLES[stat]} FCT slowdown (mean of runs, "
                     "95% CI)", fontsize="medium")
        ax.set_xlabel("Flow size (bytes, K = 1024); n = messages per run")
        ax.set_ylabel("FCT slowdown (log scale)")
        ax.grid(True, axis="y", which="both", alpha=0.3)
        if not groups:
            style.no_data(ax)
    handles, names = axes[0][-1].get_legend_handles_labels()
    handles.append(mpatches.Patch(facecolor="white", edgecolor="0.3",
                                  hatch="xxx"))
    names.append(f"too few messages ({st.LOW_N_MARK})")
    axes[0][-1].legend(handles, names, fontsize="small", loc="upper left",
                       bbox_to_anchor=(1.02, 1.0))
    style.save(fig, path)
    return shown


def _repeat_index(sty):
    return style.LINE_STYLES.index(sty["linestyle"])


def plot_cdfs(groups, styles, path):
    """Foreground FCT slowdown CDF of each label, its runs pooled."""
    from .run_figures import cdf_axes
    cdfs, extra = {}, {}
    for label, runs in groups:
        parts = [np.zeros(0)]
        for run in runs:
            flows, _ = measured_flows(run)
            parts.append(flows.loc[flows["kind"] != PROBE_KIND, "slowdown"]
                         .to_numpy(dtype=float))
        x = np.sort(np.concatenate(parts))
        cdfs[label] = (x, np.arange(1, len(x) + 1) / max(len(x), 1))
        extra[label] = f", {len(runs)} run(s)"
    fig, ax = plt.subplots(figsize=(6.5, 4))
    cdf_axes(ax, cdfs, "FCT slowdown (FCT / ideal FCT, log scale)", styles,
             extra)
    ax.set_ylabel("CDF (fraction of foreground messages)")
    ax.set_title("FCT slowdown CDF (runs of a label pooled)")
    ax.grid(True, which="both", alpha=0.3)
    style.save(fig, path)


def plot_queue_cdfs(groups, styles, path):
    """Queue distribution (all samples of the ports that queued) of every
    run: one line per run, in its label's style."""
    fig, ax = plt.subplots(figsize=(6.5, 4))
    data = []
    for (label, runs), sty in zip(groups, styles):
        for k, run in enumerate(runs):
            values, zeros = queue_samples(run.queue,
                                          queue_sample_period_ns(run),
                                          run.end_ns)
            data.append((label, k, sty, values, zeros))
    peak = max((float(v.max()) for *_, v, _ in data if len(v)), default=0)
    div, unit = style.bytes_unit(peak)
    drawn = False
    for label, k, sty, values, zeros in data:
        if not len(values):
            continue
        n = len(values) + zeros
        y = (zeros + np.arange(1, len(values) + 1)) / n
        x = values / div
        if len(x) > 3000:
            keep = np.unique(np.linspace(0, len(x) - 1, 3000).astype(int))
            x, y = x[keep], y[keep]
        ax.step(np.concatenate(([0.0], x)), np.concatenate(([zeros / n], y)),
                where="post", color=sty["color"], linestyle=sty["linestyle"],
                alpha=0.8, linewidth=1.0, label=label if k == 0 else None)
        drawn = True
    if drawn:
        ax.legend(fontsize="small", loc="lower right")
    else:
        style.no_data(ax)
    ax.set_xlim(left=0)
    ax.set_ylim(0, 1.02)
    style.plain_axis(ax.xaxis)
    ax.set_xlabel(f"Queue length ({unit})")
    ax.set_ylabel("CDF (fraction of samples)")
    ax.set_title("Queue distribution, one line per run")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def _end(groups):
    from .run_figures import activity_end_ns
    return max(activity_end_ns(runs[0]) for _, runs in groups)


def _shade_first(ax, groups, end):
    warmup, cooldown = fct_window(groups[0][1][0])
    style.shade_window(ax, warmup, cooldown, end)


def plot_queues(groups, styles, path):
    """Queue of each label's first run's most loaded switch port."""
    end = _end(groups)
    fig, ax = plt.subplots(figsize=(7, 4))
    div = style.time_axis(ax, end)
    _shade_first(ax, groups, end)
    peak = max((float(runs[0].queue["bytes"].max()) for _, runs in groups
                if len(runs[0].queue)), default=0.0)
    bdiv, bunit = style.bytes_unit(peak)
    drawn = False
    for (label, runs), sty in zip(groups, styles):
        run = runs[0]
        ports = top_ports(run.queue, 1)
        if not ports:
            continue
        times, values = port_queue(run.queue, *ports[0])
        t = np.concatenate(([0.0], times, [run.end_ns]))
        y = np.concatenate(([0.0], values, values[-1:]))
        ax.plot(t / div, y / bdiv, drawstyle="steps-post", color=sty["color"],
                linestyle=sty["linestyle"],
                label=f"{label} ({nm.port_label(run, *ports[0])})")
        drawn = True
    style.legend_or_empty(ax, drawn)
    ax.set_ylim(bottom=0)
    style.plain_axis(ax.yaxis)
    ax.set_ylabel(f"Queue length ({bunit})")
    ax.set_title("Most loaded switch port: queue over time (first run of "
                 "each label)", fontsize="medium")
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


def plot_throughput(groups, styles, path):
    """Send rate of each label's first run's busiest switch port."""
    end = _end(groups)
    fig, ax = plt.subplots(figsize=(7, 4))
    div = style.time_axis(ax, end)
    _shade_first(ax, groups, end)
    drawn = False
    for (label, runs), sty in zip(groups, styles):
        run = runs[0]
        key = busiest_switch_port(run) if run.ports is not None else None
        rates = port_throughput(run.ports) if key else None
        if key is None or rates is None or rates.empty:
            continue
        times = rates.index.to_numpy(dtype=float)
        starts = np.concatenate(([0.0], times[:-1]))
        y = rates[key].to_numpy(dtype=float)
        ax.step(np.concatenate((starts, times[-1:])) / div,
                np.concatenate((y, y[-1:])), where="post", color=sty["color"],
                linestyle=sty["linestyle"],
                label=f"{label} ({nm.port_label(run, *key)})")
        drawn = True
    style.legend_or_empty(ax, drawn, "no ports.csv in these runs")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Throughput (Gb/s, wire bytes)")
    ax.set_title("Busiest switch port: send rate (first run of each label)",
                 fontsize="medium")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def is_nan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))
