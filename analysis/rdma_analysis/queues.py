"""Queue samples and PFC pauses of one run (queue.csv, pfc.csv)."""

import math

import numpy as np
import pandas as pd

from .runs import (INTERVAL_COLUMNS, NS_PER_US, PFC_KEY, PORT_KEY,
                   _number, config_value)


# ---------------------------------------------------------------------------
# Queues and PFC
# ---------------------------------------------------------------------------

def queue_series(queue_df):
    """Full per-port queue time series from sparse ``queue.csv`` samples.

    Bytes are summed over priorities.  Returns a frame indexed by every
    sample time present in *queue_df* (``time_ns``, ascending) with one
    column per ``(node, port)`` (a column MultiIndex); a port without a row
    at a sample time gets 0 bytes there.
    """
    if queue_df.empty:
        columns = pd.MultiIndex.from_tuples([], names=PORT_KEY)
        index = pd.Index([], name="time_ns", dtype="int64")
        return pd.DataFrame(index=index, columns=columns, dtype="int64")
    per_port = queue_df.groupby(["time_ns"] + PORT_KEY)["bytes"].sum()
    series = per_port.unstack(PORT_KEY, fill_value=0).sort_index()
    return series.sort_index(axis=1).astype("int64")


def port_sums(queue_df):
    """Sparse per-port queue: bytes summed over priorities for each
    ``(time_ns, node, port)`` present in queue.csv (a Series)."""
    return queue_df.groupby(["time_ns"] + PORT_KEY)["bytes"].sum()


def port_queue(queue_df, node, port):
    """``(times, bytes)`` of one port's rows, priorities summed.  Exact as
    a step function: the simulator writes a row while the queue is
    non-zero and one when it has just drained, so each value holds until
    the port's next row."""
    mine = queue_df[(queue_df["node"] == node) & (queue_df["port"] == port)]
    sums = mine.groupby("time_ns")["bytes"].sum().sort_index()
    return sums.index.to_numpy(dtype=float), sums.to_numpy(dtype=float)


def top_ports(queue_df, n):
    """The *n* most loaded switch ports as a list of ``(node, port)``.

    Ports are ranked by the maximum, over sample times, of their queue
    bytes summed over priorities; ties are ordered by (node, port).
    """
    if queue_df.empty or n <= 0:
        return []
    peaks = port_sums(queue_df).groupby(level=PORT_KEY).max()
    ranked = sorted(peaks.items(), key=lambda item: (-item[1], item[0]))
    return [(int(node), int(port)) for (node, port), _ in ranked[:n]]


def queue_sample_period_ns(run):
    """``output.queue_sample_us`` of config.json in ns, or None."""
    value = _number(config_value(run.config, "output.queue_sample_us"))
    if math.isnan(value) or value <= 0:
        return None
    return value * NS_PER_US


def _grid_size(queue_df, period_ns, end_ns):
    if period_ns and end_ns:
        return int(math.floor(end_ns / period_ns + 1e-9))
    return int(queue_df["time_ns"].nunique())


def queue_samples(queue_df, period_ns=None, end_ns=None):
    """``(values, zeros)``: the queue samples of every port that ever
    queued, as the sorted per-port sums present in the file plus the number
    of grid samples absent from it (empty queues), without materializing
    those zeros.

    The sample grid is ``k * period_ns`` for ``k = 1 .. end_ns //
    period_ns`` when both are given, else the distinct times of the file;
    each port that appears in *queue_df* has one sample per grid time.
    """
    if queue_df.empty:
        return np.zeros(0), 0
    sums = port_sums(queue_df)
    ports = sums.index.droplevel("time_ns").nunique()
    values = np.sort(sums.to_numpy(dtype=float))
    zeros = max(0, _grid_size(queue_df, period_ns, end_ns) * ports
                - len(values))
    return values, zeros


def percentile_with_zeros(values, zeros, p):
    """Nearest-rank percentile of sorted non-negative *values* plus *zeros*
    extra zeros."""
    n = len(values) + zeros
    if n == 0:
        return math.nan
    rank = min(max(math.ceil(p * n / 100.0 - 1e-9), 1), n)
    return 0.0 if rank <= zeros else float(values[rank - zeros - 1])


def queue_distribution(queue_df, period_ns=None, end_ns=None):
    """All queue samples (see :func:`queue_samples`), zeros included,
    sorted ascending."""
    values, zeros = queue_samples(queue_df, period_ns, end_ns)
    return np.concatenate((np.zeros(zeros), values))


def port_queue_stats(queue_df, period_ns=None, end_ns=None):
    """Per port: ``node, port, p99_bytes, max_bytes`` (grid as in
    :func:`queue_samples`), sorted by max then p99, descending."""
    rows = []
    if not queue_df.empty:
        grid = _grid_size(queue_df, period_ns, end_ns)
        for (node, port), group in port_sums(queue_df).groupby(
                level=PORT_KEY):
            values = np.sort(group.to_numpy(dtype=float))
            zeros = max(0, grid - len(values))
            rows.append((int(node), int(port),
                         percentile_with_zeros(values, zeros, 99),
                         float(values.max())))
    frame = pd.DataFrame(rows, columns=["node", "port", "p99_bytes",
                                        "max_bytes"])
    return frame.sort_values(["max_bytes", "p99_bytes", "node", "port"],
                             ascending=[False, False, True, True]) \
        .reset_index(drop=True)


def pause_intervals(pfc_df, end_ns):
    """PFC pause intervals per ``(node, port, prio)``.

    Frames of each (node, port, prio) are taken in time order (file order
    for equal times).  A ``pause`` opens an interval, which the next
    ``resume`` closes; ``pause``/``refresh`` frames inside an open interval
    only re-send the pause and are ignored.  A ``refresh`` while not paused
    still pauses the class, so it opens an interval too; a ``resume`` while
    not paused is ignored.  An interval still open at the end is extended to
    *end_ns* (the run end) and marked ``terminated=False``.

    Returns a frame with columns ``node, port, prio, start_ns, end_ns,
    duration_ns, terminated`` sorted by (node, port, prio, start_ns).
    """
    rows = []
    if not pfc_df.empty:
        ordered = pfc_df.sort_values("time_ns", kind="stable")
        for key, frames in ordered.groupby(PFC_KEY, sort=True):
            start = None
            for time_ns, event in zip(frames["time_ns"], frames["event"]):
                event = str(event).strip().lower()
                if event in ("pause", "refresh") and start is None:
                    start = int(time_ns)
                elif event == "resume" and start is not None:
                    rows.append((*key, start, int(time_ns), True))
                    start = None
            if start is not None:
                rows.append((*key, start, max(start, int(end_ns)), False))
    intervals = pd.DataFrame(
        rows, columns=PFC_KEY + ["start_ns", "end_ns", "terminated"])
    intervals = intervals.astype(
        {name: "int64" for name in PFC_KEY + ["start_ns", "end_ns"]})
    intervals["terminated"] = intervals["terminated"].astype(bool)
    intervals["duration_ns"] = intervals["end_ns"] - intervals["start_ns"]
    intervals = intervals[INTERVAL_COLUMNS]
    return intervals.sort_values(PFC_KEY + ["start_ns"]).reset_index(
        drop=True)


def pfc_totals(pfc_df, end_ns):
    """Per ``(node, port, prio)``: ``pause_frames`` (pause + refresh),
    ``resume_frames``, ``intervals``, ``paused_ns`` and ``paused_fraction``
    (of *end_ns*), sorted by paused time (descending) then key."""
    intervals = pause_intervals(pfc_df, end_ns)
    events = pfc_df.assign(event=pfc_df["event"].str.lower())
    rows = []
    for key, frames in events.groupby(PFC_KEY, sort=True):
        mine = intervals[(intervals["node"] == key[0])
                         & (intervals["port"] == key[1])
                         & (intervals["prio"] == key[2])]
        paused = int(mine["duration_ns"].sum())
        rows.append((*(int(k) for k in key),
                     int(frames["event"].isin(["pause", "refresh"]).sum()),
                     int((frames["event"] == "resume").sum()),
                     int(len(mine)), paused,
                     paused / end_ns if end_ns > 0 else math.nan))
    frame = pd.DataFrame(rows, columns=PFC_KEY + [
        "pause_frames", "resume_frames", "intervals", "paused_ns",
        "paused_fraction"])
    return frame.sort_values(["paused_ns"] + PFC_KEY,
                             ascending=[False, True, True, True]) \
        .reset_index(drop=True)


def pause_frame_count(run):
    """Total PFC pause frames: ``pfc_pause_frames`` from the summary if
    present, else the number of ``pause``/``refresh`` rows in pfc.csv."""
    count = run.summary.get("pfc_pause_frames")
    if count is not None:
        return int(count)
    events = run.pfc["event"].str.lower()
    return int(events.isin(["pause", "refresh"]).sum())
