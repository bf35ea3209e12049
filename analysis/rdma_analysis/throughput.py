"""Throughput that fits open-loop traffic: bytes delivered inside the
measurement window, and the rate long flows get.

``goodput_gbps`` of summary.json is all bytes over the whole simulated time,
so under open-loop traffic (CDF arrivals) it measures when the last
straggler finished, not how fast the fabric delivered.  The metrics here:

``window_goodput_gbps``
    Foreground payload bytes delivered between the warm-up end and the
    cool-down start (``warmup_end_ns``, ``cooldown_start_ns`` of the summary;
    without them from t = 0 to the last foreground delivery), over that
    window's length.  A message's bytes are taken as delivered evenly from
    its start to its end (fct.csv has no finer record), so a message only
    partly inside the window counts for that part.  Messages still running
    at the end (``unfinished.csv``) count their acknowledged bytes, spread
    from their start to the run's end.
``window_offered_gbps``
    Bytes of the foreground messages that *arrive* (start) inside the
    window, over its length: the load the traffic offered.  When the fabric
    keeps up, delivered ~ offered; a delivered rate below the offered one
    means throughput was lost (a backlog grew).
``small_window_goodput_gbps``, ``large_window_goodput_gbps``
    The same for messages <= 1 BDP and > 1 BDP.
``long_flow_rate_gbps``
    Mean over the measured messages > 1 BDP (start inside the window) of
    size x 8 / FCT: the rate a long flow gets.

Units: bytes x 8 / ns = Gb/s.
"""

import math
import os

import numpy as np
import pandas as pd

PROBE_KIND = "probe"
UNFINISHED_FILE = "unfinished.csv"

METRICS = {
    "window_goodput_gbps": "foreground payload delivered inside the "
                           "measurement window / window length (Gb/s)",
    "window_offered_gbps": "foreground bytes arriving inside the window / "
                           "window length (Gb/s)",
    "small_window_goodput_gbps": "window_goodput_gbps of messages <= 1 BDP",
    "large_window_goodput_gbps": "window_goodput_gbps of messages > 1 BDP",
    "long_flow_rate_gbps": "mean of size x 8 / FCT over measured messages "
                           "> 1 BDP (Gb/s)",
    "window_us": "length of the throughput window (us)",
}


def unfinished(run, columns=("kind", "size_bytes", "start_ns",
                              "acked_bytes")):
    """*columns* of ``unfinished.csv`` (messages still running at the
    end), or an empty frame when the run has none."""
    path = os.path.join(run.directory, UNFINISHED_FILE)
    columns = list(columns)
    if not os.path.isfile(path):
        return pd.DataFrame(columns=columns)
    try:
        frame = pd.read_csv(path, skipinitialspace=True)
    except (OSError, ValueError, pd.errors.EmptyDataError):
        return pd.DataFrame(columns=columns)
    if not set(columns) <= set(frame.columns):
        return pd.DataFrame(columns=columns)
    return frame[columns]


def delivery_intervals(run):
    """Every foreground message as ``kind, size_bytes, start_ns, end_ns,
    bytes`` (bytes = what it delivered: its size when complete, its acked
    bytes when still running; end = run end then)."""
    fct = run.fct
    done = fct[np.isfinite(fct["fct_ns"].astype(float))]
    rows = pd.DataFrame({
        "kind": done["kind"].astype(str).to_numpy(),
        "size_bytes": done["size_bytes"].to_numpy(dtype=float),
        "start_ns": done["start_ns"].to_numpy(dtype=float),
        "end_ns": done["start_ns"].to_numpy(dtype=float)
        + done["fct_ns"].to_numpy(dtype=float),
        "bytes": done["size_bytes"].to_numpy(dtype=float)})
    rest = unfinished(run)
    if len(rest):
        rows = pd.concat([rows, pd.DataFrame({
            "kind": rest["kind"].astype(str).to_numpy(),
            "size_bytes": rest["size_bytes"].to_numpy(dtype=float),
            "start_ns": rest["start_ns"].to_numpy(dtype=float),
            "end_ns": np.full(len(rest), float(run.end_ns)),
            "bytes": rest["acked_bytes"].to_numpy(dtype=float)})],
            ignore_index=True)
    return rows[rows["kind"] != PROBE_KIND].reset_index(drop=True)


def throughput_window(run, intervals=None):
    """``(lo_ns, hi_ns)``: warm-up end (else 0) to cool-down start (else
    the last foreground delivery, else the run end)."""
    def mark(name):
        try:
            value = float(run.summary.get(name))
        except (TypeError, ValueError):
            return None
        return None if math.isnan(value) else value
    lo = mark("warmup_end_ns") or 0.0
    hi = mark("cooldown_start_ns")
    if hi is None:
        if intervals is None:
            intervals = delivery_intervals(run)
        hi = float(intervals["end_ns"].max()) if len(intervals) else \
            float(run.end_ns)
    return lo, hi


def bytes_in_window(intervals, lo, hi):
    """Bytes of *intervals* delivered in ``[lo, hi]``, each message's bytes
    spread evenly over ``[start_ns, end_ns]`` (an instantaneous message
    counts when its end is inside)."""
    if len(intervals) == 0 or hi <= lo:
        return 0.0
    s = intervals["start_ns"].to_numpy(dtype=float)
    e = intervals["end_ns"].to_numpy(dtype=float)
    b = intervals["bytes"].to_numpy(dtype=float)
    length = e - s
    overlap = np.clip(np.minimum(e, hi) - np.maximum(s, lo), 0.0, None)
    share = np.where(length > 0, overlap / np.where(length > 0, length, 1),
                     ((e >= lo) & (e <= hi)).astype(float))
    return float((b * share).sum())


def gbps(nbytes, lo, hi):
    """bytes x 8 / ns = Gb/s over ``[lo, hi]`` (NaN for an empty window)."""
    return nbytes * 8.0 / (hi - lo) if hi > lo else math.nan


def window_table(run, buckets, bdp):
    """Delivered throughput in the window per size bucket (*buckets*: ``[(lo,
    hi, label)]``), per side of one BDP and in all: ``group, messages,
    bytes_in_window, window_gbps``."""
    intervals = delivery_intervals(run)
    lo, hi = throughput_window(run, intervals)
    size = intervals["size_bytes"].to_numpy(dtype=float)
    groups = [(label, (size > a) & (size <= b)) for a, b, label in buckets]
    if not math.isnan(bdp):
        groups += [("<=1 BDP", size <= bdp), (">1 BDP", size > bdp)]
    groups.append(("all foreground", np.ones(len(size), dtype=bool)))
    rows = []
    for label, mask in groups:
        part = intervals[mask]
        # Messages that put bytes into the window.
        inside = int(((part["end_ns"] >= lo) & (part["start_ns"] <= hi))
                     .sum())
        nbytes = bytes_in_window(part, lo, hi)
        rows.append((label, inside, nbytes, gbps(nbytes, lo, hi)))
    return pd.DataFrame(rows, columns=["group", "messages",
                                       "bytes_in_window", "window_gbps"])


def throughput_metrics(run, measured_fg, bdp):
    """The metrics of :data:`METRICS` (NaN where not computable).
    *measured_fg*: the foreground messages inside the window (see
    :func:`rdma_analysis.data.measured_flows`)."""
    out = {name: math.nan for name in METRICS}
    intervals = delivery_intervals(run)
    lo, hi = throughput_window(run, intervals)
    if hi <= lo:
        return out
    out["window_us"] = (hi - lo) / 1e3
    out["window_goodput_gbps"] = gbps(bytes_in_window(intervals, lo, hi),
                                      lo, hi)
    arriving = intervals[(intervals["start_ns"] >= lo)
                         & (intervals["start_ns"] <= hi)]
    out["window_offered_gbps"] = gbps(float(arriving["size_bytes"].sum()),
                                      lo, hi)
    if not math.isnan(bdp):
        small = intervals["size_bytes"] <= bdp
        out["small_window_goodput_gbps"] = gbps(
            bytes_in_window(intervals[small], lo, hi), lo, hi)
        out["large_window_goodput_gbps"] = gbps(
            bytes_in_window(intervals[~small], lo, hi), lo, hi)
        large = measured_fg[measured_fg["size_bytes"] > bdp]
        fct = large["fct_ns"].to_numpy(dtype=float)
        ok = fct > 0
        if ok.any():
            rates = large["size_bytes"].to_numpy(dtype=float)[ok] * 8.0 / \
                fct[ok]
            out["long_flow_rate_gbps"] = float(rates.mean())
    return out
