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

from . import names as nm
from . import stats as st
from . import style
from . import throughput as tp
from .run_figures import (  # noqa: F401  (re-exported)
    activity_end_ns, bucket_rows, plot_cc_state, plot_collectives,
    plot_fct_cdf, plot_fct_slowdown_cdf, plot_pfc_timeline,
    plot_port_throughput, plot_qp_throughput, plot_queue_distribution,
    plot_queue_top_ports, plot_slowdown_buckets, plot_uplinks,
    sampled_qp_spans, time_unit)
from .data import (  # noqa: F401  (re-exported for users and tests)
    DEFAULT_BUCKET_EDGES, NS_PER_US, PFC_KEY, STAT_NAMES, STAT_TITLES, Run,
    RunDataError, bdp_bytes, cc_state, collective_stats, fct_table,
    fct_window, load_run, measured_flows, parse_size, pause_frame_count,
    pause_intervals, pfc_totals, port_kinds, port_queue_stats,
    port_queue, port_throughput, port_totals, qp_throughput,
    queue_distribution, queue_sample_period_ns, queue_samples, queue_series,
    run_metrics, size_buckets, slowdown_cdf, top_ports, uplink_imbalance,
    uplink_loads, value_cdf)
from .slowdown import FORMULAS, with_slowdown

BYTES_PER_KB = 1_000.0
# Statistics of the report's tables: the percentile each is (None = mean).
STAT_PERCENTILES = {"avg": None, "p50": 50.0, "p95": 95.0, "p99": 99.0,
                    "p999": 99.9}
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


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def _fmt(x):
    return style.format_number(x)


def stat_cell(value, stat, n):
    """A percentile's cell, marked when *n* samples are too few for it
    (:func:`rdma_analysis.stats.enough`)."""
    text = _fmt(value)
    if text != "n/a" and not st.enough(STAT_PERCENTILES[stat], n):
        text += st.LOW_N_MARK
    return text


def _table_md(table):
    header = ["flows", "n"] + [STAT_TITLES[s] for s in STAT_NAMES]
    rows = [[g, n] + [stat_cell(v, s, n) for s, v in zip(STAT_NAMES, vals)]
            for g, n, *vals in
            table[["group", "flows"] + STAT_NAMES].itertuples(index=False)]
    return style.markdown_table(header, rows)


def _window_md(run, edges, bdp):
    """Delivered throughput inside the window, per size bucket."""
    table = tp.window_table(run, size_buckets(edges), bdp)
    rows = [[g, m, _fmt(b), _fmt(r)] for g, m, b, r in
            table.itertuples(index=False) if m > 0]
    return style.markdown_table(["messages", "delivering in window",
                                 "bytes in window", "Gb/s"], rows)


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
        ("ECN-marked packets", _fmt(s.get("ecn_marked_packets"))
         + ecn_note(run)),
        ("CNPs", _fmt(s.get("cnps")) + ecn_note(run)),
        ("PFC pause / resume frames", f"{_fmt(s.get('pfc_pause_frames'))} / "
                                      f"{_fmt(s.get('pfc_resume_frames'))}"),
        ("probe latency mean / p99",
         f"{_fmt(_us(s.get('probe_latency_mean_ns')))} / "
         f"{_fmt(_us(s.get('probe_latency_p99_ns')))} us"),
        ("wall time", f"{_fmt(s.get('wall_s'))} s"),
    ]
    return style.markdown_table(["", "value"], items)


def ecn_note(run):
    """A note for the ECN rows when the run's algorithm ignores ECN."""
    if run.ignores_ecn:
        return (f" (switches still mark when ECN is on; {run.algorithm} "
                "ignores marks and CNPs)")
    return ""


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
    names = nm.port_names(run)
    md = [f"# Run report: {run.scenario}", "",
          f"Run folder: `{os.path.abspath(run.directory)}`", "",
          "## Summary", "", _summary_md(run, metrics), ""]
    # Each section writes its files (through *path*, in this order) and
    # returns its Markdown.
    md += _fct_section(run, path, edges)
    md += _queue_section(run, path, metrics, names, top)
    md += _throughput_section(run, path, metrics, names, top, edges)
    md += _pfc_section(run, path, metrics, names)
    md += _uplink_section(run, path)
    md += _collective_section(run, path, metrics)

    with open(path(METRICS_JSON), "w", encoding="utf-8") as handle:
        json.dump(_json_safe(metrics), handle, indent=1, sort_keys=True)
        handle.write("\n")
    report = os.path.join(out_dir, REPORT_FILE)
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("\n".join(md))
    return [report] + written


def _fct_section(run, path, edges):
    """FCT slowdown by flow size (table and figure) and the FCT CDFs."""
    flows, excluded = measured_flows(run)
    bdp = bdp_bytes(run)
    table = fct_table(flows, edges, bdp)
    warmup, cooldown = fct_window(run)
    md = ["## FCT slowdown by flow size", ""]
    if "slowdown_module" in run.fct.columns:
        md += ["Slowdown by the HPCC/ConWeave simulators' definition "
               "(`--slowdown hpcc`: base RTT + (size + 48 B per packet) x 8 / "
               "bandwidth, at least 1; docs/analysis.md), not fct.csv's.", ""]
    window = []
    if warmup is not None:
        window.append(f"messages starting at or after {_fmt(warmup / NS_PER_US)} us "
                      "(warm-up end)")
    if cooldown is not None:
        window.append(f"messages starting at or before {_fmt(cooldown / NS_PER_US)} "
                      "us (cool-down start)")
    scope = (" and ".join(window) if window
             else "all completed messages (no warm-up/cool-down marks)")
    n_probe = int((flows["kind"] == "probe").sum())
    md.append(
        f"Messages measured: {scope}; {len(flows) - n_probe} foreground "
        f"messages and {n_probe} probes measured, {excluded} completed "
        "messages left out by the window. Foreground = every kind except "
        "`probe`. "
        "Buckets are (lo, hi] in bytes (K = 1024); one BDP = "
        f"{_fmt(bdp)} bytes. Slowdown = FCT / ideal FCT; percentiles are "
        "nearest-rank; every percentile is shown with its n. " +
        st.LOW_N_NOTE)
    md += ["", _table_md(table), ""]
    table.to_csv(path(BUCKETS_CSV), index=False)
    plot_slowdown_buckets(run, table, path(BUCKET_PLOT))
    md += [_img(BUCKET_PLOT, "FCT slowdown by flow size"), "",
           "## FCT distributions", ""]
    plot_fct_slowdown_cdf(run, path(CDF_PLOT))
    plot_fct_cdf(run, path(FCT_CDF_PLOT))
    return md + [_img(CDF_PLOT, "FCT slowdown CDF"),
                 _img(FCT_CDF_PLOT, "FCT CDF"), ""]


def _queue_section(run, path, metrics, names, top):
    """The most loaded switch egress queues and the queue distribution."""
    ports = plot_queue_top_ports(run, path(QUEUE_PLOT), top=top)
    plot_queue_distribution(run, path(QUEUE_DIST_PLOT))
    return ["## Queues", "",
            f"Most loaded switch egress ports (by peak): "
            f"{', '.join(nm.port_label(run, n, p, names) for n, p in ports) or 'none'}; "
            f"p99 of all queue samples: {_fmt(metrics['queue_p99_bytes'])} "
            "bytes.", "",
            _img(QUEUE_PLOT, "Queue length over time"),
            _img(QUEUE_DIST_PLOT, "Queue length distribution"), ""]


def _throughput_section(run, path, metrics, names, top, edges):
    """Port and window throughput, per-QP throughput and CC state."""
    md = ["## Throughput", ""]
    if run.ports is not None:
        keys = plot_port_throughput(run, path(PORT_TPUT_PLOT), top=top)
        md += [f"Busiest switch ports: "
               f"{', '.join(nm.port_label(run, n, p, names) for n, p in keys) or 'none'}"
               f"; highest mean port utilization: "
               f"{_fmt(metrics['max_port_utilization'])}.", "",
               _img(PORT_TPUT_PLOT, "Port throughput"), ""]
    else:
        md += ["No `ports.csv` in this run: per-port throughput not "
               "available.", ""]
    md += [f"**Delivered throughput in the measurement window** "
           f"(`window_goodput_gbps`, the metric for \"did I lose "
           f"throughput\" under open-loop traffic): "
           f"{_fmt(metrics['window_goodput_gbps'])} Gb/s over "
           f"{_fmt(metrics['window_us'])} us, against "
           f"{_fmt(metrics['window_offered_gbps'])} Gb/s offered (bytes "
           "arriving in the window); long messages (> 1 BDP) averaged "
           f"{_fmt(metrics['long_flow_rate_gbps'])} Gb/s each "
           "(`long_flow_rate_gbps`). `goodput_gbps` "
           f"({_fmt(run.summary.get('goodput_gbps'))} Gb/s) divides all "
           "bytes by the whole simulated time, so it measures the last "
           "straggler.", "", _window_md(run, edges, bdp_bytes(run)), "",
           f"Goodput utilization of the busiest receiver: "
           f"{_fmt(metrics['goodput_utilization'])}.", ""]
    if run.cc is None:
        return md + ["No `cc.csv` in this run: per-QP throughput and "
                     "congestion-control state not available.", ""]
    plot_qp_throughput(run, path(QP_TPUT_PLOT))
    plot_cc_state(run, path(CC_PLOT))
    return md + [_img(QP_TPUT_PLOT, "QP throughput"), "",
                 "## Congestion-control state", "",
                 _img(CC_PLOT, "Congestion-control state"), ""]


def _pfc_section(run, path, metrics, names):
    """PFC pause totals per (port, priority) and the pause timeline."""
    plot_pfc_timeline(run, path(PFC_PLOT))
    totals = pfc_totals(run.pfc, run.end_ns)
    md = ["## PFC", "",
          f"{pause_frame_count(run)} pause frames (including refreshes), "
          f"{_fmt(run.summary.get('pfc_resume_frames'))} resume frames; "
          f"total paused time {_fmt(metrics['pfc_paused_time_us'])} us "
          f"over {len(totals)} (port, priority).", ""]
    if len(totals):
        rows = [[f"{nm.port_label(run, n, p, names)} prio {c}", pf, rf, iv,
                 _fmt(ns / NS_PER_US), f"{100 * fr:.1f}%"]
                for n, p, c, pf, rf, iv, ns, fr in
                totals.head(20).itertuples(index=False)]
        md += [style.markdown_table(
            ["port", "pause frames", "resume frames", "intervals",
             "paused (us)", "of run"], rows), ""]
        if len(totals) > 20:
            md += [f"({len(totals) - 20} more not shown.)", ""]
    return md + [_img(PFC_PLOT, "PFC pause timeline"), ""]


def _uplink_section(run, path):
    """Load balance of the leaves' uplinks (leaf-spine runs only)."""
    loads = uplink_loads(run)
    if loads is None:
        return []
    plot_uplinks(run, loads, path(UPLINK_PLOT))
    imb = uplink_imbalance(loads)
    rows = [[leaf, n, _fmt(b), _fmt(r), _fmt(c)]
            for leaf, n, b, r, c in imb.itertuples(index=False)]
    return ["## Uplink load balance", "",
            "Bytes each leaf sent up to the spines, per uplink; max/mean "
            "= 1 is a perfect balance.", "",
            style.markdown_table(["leaf", "uplinks", "bytes", "max/mean",
                                  "CoV"], rows), "",
            _img(UPLINK_PLOT, "Uplink load"), ""]


def _collective_section(run, path, metrics):
    """Completion times of the collective phases (collective runs only)."""
    if run.collectives is None or run.collectives.empty:
        return []
    plot_collectives(run, path(COLLECTIVE_PLOT))
    stats = collective_stats(run.collectives)
    rows = [[ph, n, _fmt(m), _fmt(p50), _fmt(p99), _fmt(mx), _fmt(b)]
            for ph, n, m, p50, p99, mx, b in
            stats.itertuples(index=False)]
    return ["## Collectives", "",
            f"Total time (first start to last end): "
            f"{_fmt(metrics['collective_time_us'])} us.", "",
            style.markdown_table(["phase", "count", "mean (us)",
                                  "p50 (us)", "p99 (us)", "max (us)",
                                  "bytes"], rows), "",
            _img(COLLECTIVE_PLOT, "Collective completion times"), ""]


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
    parser.add_argument("--slowdown", choices=FORMULAS, default="module",
                        help="slowdown definition: module (fct.csv's, the "
                             "default) or hpcc / conweave (those "
                             "simulators' ideal FCT; docs/analysis.md)")
    args = parser.parse_args(argv)
    try:
        run = with_slowdown(load_run(args.run_dir), args.slowdown)
    except RunDataError as exc:
        print(f"rdma plot: error: {exc}", file=sys.stderr)
        return 2
    out_dir = args.out or os.path.join(args.run_dir, PLOTS_SUBDIR)
    for path in write_report(run, out_dir, top=args.top, edges=args.buckets):
        print(path)
    return 0
