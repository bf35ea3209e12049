"""One flat dict of metrics per run, for compare, sweep and tune: every
numeric summary.json value plus the derived metrics (see docs/analysis.md).
"""

import math

import numpy as np
import pandas as pd

from .links import port_utilization, uplink_imbalance, uplink_loads
from .queues import (pause_intervals, percentile_with_zeros,
                     queue_sample_period_ns, queue_samples)
from .runs import (NS_PER_US, PROBE_KIND, STAT_NAMES, STAT_TITLES,
                   bdp_bytes, measured_flows, percentile, slowdown_stats)
from .throughput import METRICS as THROUGHPUT_METRICS
from .throughput import throughput_metrics


# ---------------------------------------------------------------------------
# One flat dict of metrics per run (compare, sweep, tune)
# ---------------------------------------------------------------------------

# Metrics derived here (beyond summary.json), with their meaning; used to
# validate metric names in sweep and tune specs and in docs/analysis.md.
DERIVED_METRICS = {
    "flows_measured": "foreground messages inside the warm-up/cool-down "
                      "window",
    "flows_excluded": "completed messages left out by the window",
    "bdp_bytes": "one BDP in bytes (summary, or base RTT x host rate)",
    "small_flows": "foreground messages of size <= 1 BDP",
    "large_flows": "foreground messages of size > 1 BDP",
    "probe_flows": "probe messages",
    "fct_avg_us": "mean FCT of the foreground messages (us)",
    "fct_p99_us": "p99 FCT of the foreground messages (us)",
    "goodput_utilization": "max over receivers of payload bits delivered / "
                           "(host rate x receiver's active time)",
    "max_port_utilization": "max over ports of bytes sent x 8 / (rate x "
                            "time), from ports.csv",
    "queue_p99_bytes": "p99 over all samples of ports that ever queued",
    "pfc_paused_time_us": "sum of PFC pause intervals over all "
                          "(port, priority)",
    "uplink_max_over_mean": "max over leaves of busiest uplink bytes / mean "
                        "uplink bytes",
    "collective_time_us": "last collective end - first collective start",
    "collective_phase_mean_us": "mean phase duration",
    "collective_phase_max_us": "longest phase duration",
}
DERIVED_METRICS.update(THROUGHPUT_METRICS)
for _group, _what in (("", "foreground"), ("small_", "foreground <= 1 BDP"),
                      ("large_", "foreground > 1 BDP"), ("probe_", "probe")):
    for _stat in STAT_NAMES:
        DERIVED_METRICS[f"{_group}slowdown_{_stat}"] = \
            f"{STAT_TITLES[_stat]} FCT slowdown of the {_what} messages"

# Summary keys documented for summary.json (present in every run).
SUMMARY_METRICS = [
    "sim_time_s", "wall_s", "cpu_s", "events", "events_per_s",
    "mean_queue_bytes", "last_delivery_ns", "flows_unfinished",
    "packets_forwarded", "peak_rss_mb", "flows_total", "flows_completed",
    "all_flows_completed", "bytes_sent", "bytes_delivered", "goodput_gbps",
    "data_packets", "retransmitted_packets", "timeouts", "nacks",
    "out_of_order_packets", "cnps", "ecn_marked_packets", "drops",
    "pfc_pause_frames", "pfc_pause_episodes", "pfc_pause_frames_per_packet_rule",
    "pfc_resume_frames", "max_queue_bytes", "base_rtt_us",
    "probes_completed", "probe_latency_mean_ns", "probe_latency_p50_ns",
    "probe_latency_p99_ns", "warmup_end_ns", "cooldown_start_ns",
]


def known_metric(name):
    """True if *name* is a derived metric, a documented summary key, or
    ``summary.KEY`` (any summary.json key)."""
    return (name in DERIVED_METRICS or name in SUMMARY_METRICS
            or (name.startswith("summary.") and len(name) > 8))


def metric_value(metrics, name):
    """Value of metric *name* in a :func:`run_metrics` dict (NaN if
    absent); ``summary.KEY`` reads summary key KEY."""
    if name.startswith("summary."):
        name = name[len("summary."):]
    value = metrics.get(name)
    return math.nan if value is None else value


def run_metrics(run):
    """Every numeric summary.json value plus the derived metrics listed in
    :data:`DERIVED_METRICS` (NaN when not computable), as one flat dict."""
    out = {}
    for key, value in run.summary.items():
        if isinstance(value, bool):
            out[key] = int(value)
        elif isinstance(value, (int, float)):
            out[key] = value
    out.update({name: math.nan for name in DERIVED_METRICS})

    flows, excluded = measured_flows(run)
    bdp = bdp_bytes(run)
    fg = flows[flows["kind"] != PROBE_KIND]
    probes = flows[flows["kind"] == PROBE_KIND]
    out["flows_measured"] = int(len(fg))
    out["flows_excluded"] = excluded
    out["bdp_bytes"] = bdp
    out["probe_flows"] = int(len(probes))
    groups = {"": fg, "probe_": probes}
    if not math.isnan(bdp):
        groups["small_"] = fg[fg["size_bytes"] <= bdp]
        groups["large_"] = fg[fg["size_bytes"] > bdp]
        out["small_flows"] = int(len(groups["small_"]))
        out["large_flows"] = int(len(groups["large_"]))
    for prefix, frame in groups.items():
        stats = slowdown_stats(frame["slowdown"])
        for stat in STAT_NAMES:
            out[f"{prefix}slowdown_{stat}"] = stats[stat]
    fct_us = fg["fct_ns"].to_numpy(dtype=float) / NS_PER_US
    if len(fct_us):
        out["fct_avg_us"] = float(np.nanmean(fct_us))
        out["fct_p99_us"] = percentile(fct_us, 99)

    out.update(throughput_metrics(run, fg, bdp))
    out["goodput_utilization"] = goodput_utilization(run, fg)
    util = port_utilization(run)
    if util:
        out["max_port_utilization"] = max(util.values())
    values, zeros = queue_samples(run.queue, queue_sample_period_ns(run),
                                  run.end_ns)
    out["queue_p99_bytes"] = percentile_with_zeros(values, zeros, 99) \
        if len(values) + zeros else 0.0
    out["pfc_paused_time_us"] = float(
        pause_intervals(run.pfc, run.end_ns)["duration_ns"].sum()) / NS_PER_US
    imbalance = uplink_imbalance(uplink_loads(run))
    if not imbalance.empty and imbalance["max_over_mean"].notna().any():
        out["uplink_max_over_mean"] = float(imbalance["max_over_mean"].max())
    coll = run.collectives
    if coll is not None and not coll.empty:
        out["collective_time_us"] = float(
            (coll["end_ns"].max() - coll["start_ns"].min()) / NS_PER_US)
        d = coll["duration_ns"].to_numpy(dtype=float) / NS_PER_US
        d = d[np.isfinite(d)]
        if len(d):
            out["collective_phase_mean_us"] = float(d.mean())
            out["collective_phase_max_us"] = float(d.max())
    return out


def goodput_utilization(run, flows):
    """Max over destination hosts of the payload bytes of *flows* to that
    host x 8 / (host rate x (last end - first start of those flows)); NaN
    without flows or host rate."""
    rate = run.host_rate_gbps
    if flows.empty or math.isnan(rate) or rate <= 0:
        return math.nan
    best = math.nan
    ends = flows["start_ns"].to_numpy(dtype=float) + \
        flows["fct_ns"].to_numpy(dtype=float)
    frame = pd.DataFrame({"dst": flows["dst"].to_numpy(),
                          "size": flows["size_bytes"].to_numpy(dtype=float),
                          "start": flows["start_ns"].to_numpy(dtype=float),
                          "end": ends})
    for _, group in frame.groupby("dst"):
        span = group["end"].max() - group["start"].min()
        if span > 0:
            u = group["size"].sum() * 8.0 / (rate * span)  # Gb/ns -> Gb/s
            best = u if math.isnan(best) else max(best, u)
    return best
