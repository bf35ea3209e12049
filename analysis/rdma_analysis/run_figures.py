"""The figures of one run's report (``./rdma plot``), following the rules
of :mod:`rdma_analysis.style`: time in ms with the warm-up and cool-down
shaded, queue axes in KB/MB, ports named ``leaf1->spine0``
(:mod:`rdma_analysis.names`), congestion-control state of the largest
sampled flows drawn only while each flow runs.
"""

import numpy as np
import pandas as pd

from . import names as nm
from . import style
from . import throughput as tp
from .data import (NS_PER_US, PFC_KEY, STAT_NAMES, STAT_TITLES, cc_state,
                   fct_window, measured_flows, pause_frame_count,
                   pause_intervals, port_kinds, port_queue, port_queue_stats,
                   port_throughput, port_totals, qp_throughput,
                   queue_sample_period_ns, queue_samples, slowdown_cdf,
                   top_ports, uplink_imbalance, value_cdf)

import matplotlib.pyplot as plt  # noqa: E402  (style sets the backend)

BYTES_PER_KB = 1_000.0


def time_unit(end_ns=None):
    """``(divisor_ns, label)`` of every time axis: always ms (one unit for
    every run, see :mod:`rdma_analysis.style`); *end_ns* is ignored."""
    return style.NS_PER_TIME_UNIT, style.TIME_UNIT


def activity_end_ns(run):
    """Where time axes end: the last delivery (``last_delivery_ns`` of the
    summary, else the last message end), not the simulated time, which can
    run on long after the traffic; never past the run's end."""
    last = run.summary.get("last_delivery_ns")
    try:
        last = float(last)
    except (TypeError, ValueError):
        ends = run.fct["start_ns"] + run.fct["fct_ns"]
        last = float(ends.max()) if ends.notna().any() else float(run.end_ns)
    if not last == last or last <= 0:
        last = float(run.end_ns)
    return min(float(run.end_ns), last * 1.02) or float(run.end_ns)


def _time_axis(ax, run, last_ns=0):
    """Time axis in ms up to the run's last activity (or *last_ns* when
    later), warm-up and cool-down shaded; returns the divisor from ns."""
    end = max(activity_end_ns(run), float(last_ns))
    warmup, cooldown = fct_window(run)
    shade_window(ax, warmup, cooldown, end)
    return style.time_axis(ax, end)


def shade_window(ax, warmup, cooldown, end):
    """:func:`rdma_analysis.style.shade_window` (re-exported)."""
    return style.shade_window(ax, warmup, cooldown, end)


def _legend(ax):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize="small")


# ---------------------------------------------------------------------------
# Figures of one run
# ---------------------------------------------------------------------------

def plot_queue_top_ports(run, path, top=4):
    """Draw queue length over time of the *top* most loaded ports.

    Samples are drawn as steps: each sampled value holds until the next
    sample.  Returns the list of plotted ``(node, port)``.
    """
    ports = top_ports(run.queue, top)
    names = nm.port_names(run)
    fig, ax = plt.subplots(figsize=(7, 4))
    div = _time_axis(ax, run)
    peak = float(run.queue["bytes"].max()) if len(run.queue) else 0.0
    bdiv, bunit = style.bytes_unit(peak)
    for i, (node, port) in enumerate(ports):
        times, values = port_queue(run.queue, node, port)
        # Queues are empty when the run starts: anchor each line at (0, 0);
        # the last sample's value holds to the end of the run.
        times = np.concatenate(([0.0], times, [run.end_ns]))
        values = np.concatenate(([0.0], values, values[-1:]))
        ax.plot(times / div, values / bdiv, drawstyle="steps-post",
                color=style.series_color(i),
                label=nm.port_label(run, node, port, names))
    if not ports:
        style.no_data(ax)
    _legend(ax)
    ax.set_ylim(bottom=0)
    style.plain_axis(ax.yaxis)
    ax.set_ylabel(f"Queue length ({bunit})")
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
    bdiv, bunit = style.bytes_unit(float(values.max()) if len(values) else 0)
    names = nm.port_names(run)
    if len(values):
        n = len(values) + zeros
        y = (zeros + np.arange(1, len(values) + 1)) / n
        x = values / bdiv
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
    style.plain_axis(left.xaxis)
    left.set_xlabel(f"Queue length ({bunit})")
    left.set_ylabel("CDF (fraction of samples)")
    left.set_title(f"All samples of the {len(all_stats)} port(s) that "
                   "queued")
    left.grid(True, alpha=0.3)
    if len(stats):
        pos = np.arange(len(stats))
        right.bar(pos - 0.2, stats["max_bytes"] / bdiv, 0.4,
                  label="max", color="0.55")
        right.bar(pos + 0.2, stats["p99_bytes"] / bdiv, 0.4,
                  label="p99", color=style.algorithm_color(run.algorithm))
        right.set_xticks(pos)
        right.set_xticklabels([nm.port_label(run, n, p, names) for n, p in
                               zip(stats["node"], stats["port"])],
                              rotation=90 if len(stats) > 4 else 0,
                              fontsize="small")
        right.legend(fontsize="small")
    else:
        style.no_data(right)
    right.set_xlabel("Switch egress port")
    style.plain_axis(right.yaxis)
    right.set_ylabel(f"Queue length ({bunit})")
    right.set_title("Per port" if len(stats) == len(all_stats) else
                    f"Per port (the {len(stats)} with the largest maximum)")
    right.grid(True, axis="y", alpha=0.3)
    fig.suptitle(f"{run.scenario}: queue length distribution")
    style.save(fig, path)


def cdf_axes(ax, cdfs, xlabel, styles=None, extra=None):
    """Step CDFs ``{name: (sorted x, y)}`` on a log x axis, each starting
    at 0; *styles*: one ``{color, linestyle}`` per curve (default: series
    colours); *extra*: text added to each legend entry after n."""
    drawn = False
    for i, (kind, (x, y)) in enumerate(cdfs.items()):
        positive = x > 0  # a log axis cannot show values <= 0
        x, y = x[positive], y[positive]
        if len(x) == 0:
            continue
        sty = styles[i] if styles else {"color": style.series_color(i)}
        # Start each curve at 0 so the first step is visible.
        ax.step(np.concatenate(([x[0]], x)), np.concatenate(([0.0], y)),
                where="post", color=sty["color"],
                linestyle=sty.get("linestyle", "-"),
                label=f"{kind} (n={len(x)}{(extra or {}).get(kind, '')})")
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
    cdf_axes(ax, slowdown_cdf(flows),
              "FCT slowdown (FCT / ideal FCT, log scale)")
    ax.set_title(f"{run.scenario}: FCT slowdown CDF")
    style.save(fig, path)


def plot_fct_cdf(run, path):
    """Draw the CDF of the FCT itself (us, log scale), one curve per kind."""
    flows, _ = measured_flows(run)
    flows = flows.assign(fct_us=flows["fct_ns"] / NS_PER_US)
    fig, ax = plt.subplots(figsize=(6, 4))
    cdf_axes(ax, value_cdf(flows, "fct_us"), "FCT (us, log scale)")
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
    div = _time_axis(ax, run)
    names = nm.port_names(run)
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
        ax.set_yticklabels([f"{nm.port_label(run, n, p, names)} prio {c}"
                            for n, p, c in keys],
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
    div = _time_axis(ax, run)
    names = nm.port_names(run)
    if keys and len(rates):
        _step_lines(ax, rates, keys, div,
                    lambda k: nm.port_label(run, k[0], k[1], names))
    else:
        style.no_data(ax)
    _legend(ax)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Throughput (Gb/s, wire bytes)")
    ax.set_title(f"{run.scenario}: send rate of the {top} busiest switch "
                 "ports")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)
    return keys


def sampled_qp_spans(run):
    """The QPs sampled in cc.csv with the flows they carried (fct.csv rows
    with src = node, same qp): ``{(node, qp): (bytes, first start, last
    end)}``, largest first.  A QP without a completed flow keeps its whole
    sampled time and 0 bytes."""
    if run.cc is None or run.cc.empty:
        return {}
    fct = run.fct[["src", "qp", "size_bytes", "start_ns", "fct_ns"]] \
        if "qp" in run.fct.columns else run.fct.iloc[:0]
    rest = tp.unfinished(run, ["src", "qp", "size_bytes", "start_ns"])
    if len(rest):  # still running at the end: until the end
        fct = pd.concat([fct, rest.assign(fct_ns=np.nan)],
                        ignore_index=True)
    ends = fct["start_ns"] + fct["fct_ns"].fillna(
        float(run.end_ns) - fct["start_ns"])
    spans = {}
    for node, qp in dict.fromkeys(zip(run.cc["node"], run.cc["qp"])):
        mask = (fct["src"] == node) & (fct["qp"] == qp)
        mine = fct[mask]
        if len(mine):
            spans[(int(node), int(qp))] = (
                float(mine["size_bytes"].sum()), float(mine["start_ns"].min()),
                float(ends[mask].max()))
        else:
            spans[(int(node), int(qp))] = (0.0, 0.0, float(run.end_ns))
    return dict(sorted(spans.items(), key=lambda kv: (-kv[1][0], kv[0])))


def _flow_lines(ax, frame, spans, keys, div, scale, run, names, steps=True):
    """One line per QP of *keys*, only between its flow's start and end."""
    times = frame.index.to_numpy(dtype=float)
    for i, key in enumerate(keys):
        size, start, end = spans[key]
        keep = (times >= start) & (times <= end)
        y = frame[key].to_numpy(dtype=float)[keep] / scale
        label = nm.qp_label(run, key[0], key[1], names)
        if size:
            label += f" ({style.format_bytes(size, binary=False)}B)"
        ax.plot(times[keep] / div, y, color=style.series_color(i),
                drawstyle="steps-post" if steps else "default", label=label)


def plot_qp_throughput(run, path, top=4):
    """Acknowledged throughput (Gb/s) of the *top* largest sampled flows,
    each drawn from its start to its end."""
    rates = qp_throughput(run.cc)
    spans = sampled_qp_spans(run)
    keys = [k for k in spans if k in rates.columns][:top]
    fig, ax = plt.subplots(figsize=(7, 4))
    div = _time_axis(ax, run)
    names = nm.node_names(run)
    if keys and len(rates):
        _flow_lines(ax, rates, spans, keys, div, 1.0, run, names)
    else:
        style.no_data(ax, "fewer than two cc.csv samples")
    _legend(ax)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("Acked throughput (Gb/s, payload)")
    ax.set_title(f"{run.scenario}: throughput of the largest sampled flows")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)
    return keys


def plot_cc_state(run, path, top=4):
    """Congestion-control rate (Gb/s) of the *top* largest sampled flows,
    each from its start to its end, plus their window (KB) when any QP has
    one."""
    rate = cc_state(run.cc, "rate_bps")
    window = cc_state(run.cc, "window_bytes")
    has_window = len(window) and np.nanmax(window.to_numpy(dtype=float)) > 0
    spans = sampled_qp_spans(run)
    keys = [k for k in spans if k in rate.columns][:top]
    rows = 2 if has_window else 1
    fig, axes = plt.subplots(rows, 1, figsize=(7, 3.2 * rows + 0.8),
                             sharex=True, squeeze=False)
    panels = [(axes[0][0], rate, 1e9, "CC rate (Gb/s)")]
    if has_window:
        panels.append((axes[1][0], window, BYTES_PER_KB, "CC window (KB)"))
    names = nm.node_names(run)
    for ax, frame, scale, label in panels:
        div = _time_axis(ax, run)
        if keys:
            _flow_lines(ax, frame, spans, keys, div, scale, run, names)
        else:
            style.no_data(ax)
        ax.set_ylim(bottom=0)
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    _legend(axes[0][0])
    if has_window:
        axes[0][0].set_xlabel("")
    axes[0][0].set_title(f"{run.scenario}: congestion-control state of the "
                         f"largest sampled flows ({run.algorithm})")
    style.save(fig, path)
    return keys


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
    node_names = nm.node_names(run)
    for leaf in leaves:
        mine = loads[loads["leaf"] == leaf]
        xs = np.arange(pos, pos + len(mine))
        for x, spine, b in zip(xs, mine["spine"], mine["bytes"]):
            ax.bar(x, b / 1e6, color=style.series_color(spines.index(spine)),
                   label=None if spine in seen else
                   f"to {node_names.get(int(spine), spine)}")
            seen.add(spine)
        ratio = imbalance.loc[leaf, "max_over_mean"]
        ticks.append(xs.mean())
        labels.append(f"{node_names.get(int(leaf), leaf)}\nmax/mean "
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


