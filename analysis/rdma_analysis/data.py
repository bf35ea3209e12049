"""Load one simulation run and turn it into numbers (no drawing here).

A run's output folder ``DIR`` (written by ``rdma-run``) holds:

``summary.json`` (required)
    Run totals.  Optional keys used here: ``warmup_end_ns`` and
    ``cooldown_start_ns`` (flows starting before the first or after the
    second are left out of FCT statistics) and ``bdp_bytes``.
``config.json`` (optional)
    The resolved scenario; ``topology.host_rate_gbps`` and ``cc.algorithm``
    are used.
``fct.csv`` (required)
    ``flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,fct_ns,
    ideal_fct_ns,slowdown``, one row per message.
``queue.csv`` (required)
    ``time_ns,node,port,prio,bytes``; sparse: absent row = empty queue.
``pfc.csv`` (required)
    ``time_ns,node,port,prio,event`` (pause, refresh, resume).
``cc.csv``, ``ports.csv``, ``links.csv``, ``collectives.csv`` (optional)
    Congestion-control state of sampled QPs, cumulative bytes sent per
    port, the port map with rates, collective phase times.

Conventions (all documented in docs/analysis.md):

* Percentiles are *nearest-rank*: the p-th percentile of n sorted values is
  the ceil(p/100 * n)-th smallest (the simulator uses the same rule).
* FCT statistics cover *foreground* flows (every kind except ``probe``);
  probes are reported on their own.
* Size buckets are half-open ``(lo, hi]`` in bytes; "small" flows have
  ``size_bytes <= BDP``, "large" ones ``> BDP``.
"""

import json
import math
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .throughput import METRICS as THROUGHPUT_METRICS
from .throughput import throughput_metrics

NS_PER_US = 1_000.0
NS_PER_S = 1_000_000_000

SUMMARY_FILE = "summary.json"
CONFIG_FILE = "config.json"
FCT_FILE = "fct.csv"
QUEUE_FILE = "queue.csv"
PFC_FILE = "pfc.csv"
CC_FILE = "cc.csv"
PORTS_FILE = "ports.csv"
LINKS_FILE = "links.csv"
COLLECTIVES_FILE = "collectives.csv"

PROBE_KIND = "probe"

# Columns needed from each CSV file and the dtype they are converted to.
# Other columns are kept as read.
QUEUE_COLUMNS = {"time_ns": "int64", "node": "int64", "port": "int64",
                 "prio": "int64", "bytes": "int64"}
PFC_COLUMNS = {"time_ns": "int64", "node": "int64", "port": "int64",
               "prio": "int64", "event": "str"}
FCT_COLUMNS = {"kind": "str", "src": "int64", "dst": "int64",
               "size_bytes": "int64", "start_ns": "int64",
               "fct_ns": "float64", "slowdown": "float64"}
CC_COLUMNS = {"time_ns": "int64", "node": "int64", "qp": "int64",
              "rate_bps": "float64", "window_bytes": "float64",
              "acked_bytes": "float64"}
PORTS_COLUMNS = {"time_ns": "int64", "node": "int64", "port": "int64",
                 "tx_bytes": "float64"}
LINKS_COLUMNS = {"node": "int64", "port": "int64", "node_kind": "str",
                 "peer_node": "int64", "peer_port": "int64",
                 "peer_kind": "str", "rate_bps": "float64",
                 "delay_ns": "float64"}
COLLECTIVES_COLUMNS = {"phase": "str", "layer": "str", "start_ns": "float64",
                       "end_ns": "float64", "duration_ns": "float64",
                       "flows": "float64", "bytes": "float64"}

PORT_KEY = ["node", "port"]
PFC_KEY = ["node", "port", "prio"]
INTERVAL_COLUMNS = PFC_KEY + ["start_ns", "end_ns", "duration_ns",
                              "terminated"]

# Statistics reported for a set of slowdowns, in order, with the percentile
# each one is (None = arithmetic mean).
STATS = [("avg", None), ("p50", 50.0), ("p95", 95.0), ("p99", 99.0),
         ("p999", 99.9)]
STAT_NAMES = [name for name, _ in STATS]
STAT_TITLES = {"avg": "avg", "p50": "p50", "p95": "p95", "p99": "p99",
               "p999": "p99.9"}

# Default flow-size buckets: inclusive upper bounds in bytes (x8 apart);
# the last bucket is everything above the last bound.
DEFAULT_BUCKET_EDGES = [1024, 8 * 1024, 64 * 1024, 512 * 1024,
                        4 * 1024 * 1024]


class RunDataError(Exception):
    """A run folder or one of its files is missing or unreadable.

    The message always names the offending path.
    """


@dataclass
class Run:
    """All data of one simulation run, as loaded by :func:`load_run`.

    Optional files that are absent are ``None`` (``config`` is ``{}``).
    """

    directory: str
    summary: dict
    fct: pd.DataFrame
    queue: pd.DataFrame
    pfc: pd.DataFrame
    config: dict = field(default_factory=dict)
    cc: pd.DataFrame = None
    ports: pd.DataFrame = None
    links: pd.DataFrame = None
    collectives: pd.DataFrame = None

    @property
    def scenario(self):
        """Scenario name for titles (falls back to the folder name)."""
        name = self.summary.get("scenario")
        if name:
            return str(name)
        return os.path.basename(os.path.normpath(self.directory))

    @property
    def end_ns(self):
        """Simulated run length in nanoseconds."""
        return int(round(float(self.summary["sim_time_s"]) * NS_PER_S))

    @property
    def algorithm(self):
        """Congestion-control algorithm (``cc.algorithm``), or ``'?'``."""
        cc = self.config.get("cc")
        if isinstance(cc, dict) and cc.get("algorithm"):
            return str(cc["algorithm"])
        value = self.summary.get("cc_algorithm") or self.summary.get("cc")
        return str(value) if isinstance(value, str) and value else "?"

    @property
    def host_rate_gbps(self):
        """Host link rate in Gb/s from config.json, or NaN."""
        return _number(config_value(self.config, "topology.host_rate_gbps"))


def config_value(config, dotted, default=None):
    """Value of a dotted key (``'topology.hosts'``) in a nested dict."""
    node = config
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def _number(x):
    try:
        value = float(x)
    except (TypeError, ValueError):
        return math.nan
    return value


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

def _require_file(path):
    if not os.path.isfile(path):
        raise RunDataError(f"required file not found: {path}")


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError) as exc:
        raise RunDataError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RunDataError(f"{path}: expected a JSON object")
    return data


def _read_summary(path):
    _require_file(path)
    summary = _read_json(path)
    try:
        float(summary["sim_time_s"])
    except KeyError:
        raise RunDataError(f"{path}: missing key 'sim_time_s'") from None
    except (TypeError, ValueError):
        raise RunDataError(f"{path}: 'sim_time_s' is not a number") from None
    return summary


def _read_csv(path, columns):
    """Read a CSV file, check and convert the columns listed in *columns*.

    A file with only a header gives an empty frame with the right dtypes.
    """
    _require_file(path)
    try:
        frame = pd.read_csv(path, skipinitialspace=True, dtype=str,
                            keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise RunDataError(f"{path}: file is empty (no header line)") from None
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise RunDataError(f"cannot read {path}: {exc}") from None
    frame.columns = [str(name).strip() for name in frame.columns]
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise RunDataError(f"{path}: missing column(s) {', '.join(missing)}")
    name = None
    try:
        for name, dtype in columns.items():
            text = frame[name].astype(str).str.strip()
            if dtype == "str":
                frame[name] = text
            elif dtype == "float64":
                frame[name] = pd.to_numeric(text.replace("", np.nan)) \
                    .astype("float64")
            else:
                frame[name] = pd.to_numeric(text).astype(dtype)
    except (TypeError, ValueError) as exc:
        raise RunDataError(f"{path}: bad value in column {name!r}: {exc}") \
            from None
    # Columns not listed stay text; make the numeric-looking ones numbers.
    for other in frame.columns:
        if other not in columns:
            converted = pd.to_numeric(frame[other], errors="coerce")
            if converted.notna().sum() == (frame[other] != "").sum():
                frame[other] = converted
    return frame


def _read_optional_csv(path, columns):
    if not os.path.exists(path):
        return None
    return _read_csv(path, columns)


def load_run(run_dir):
    """Load all files of the run folder *run_dir* into a :class:`Run`.

    Raises :class:`RunDataError` (message naming the path) if the folder or
    a required file is missing, or a file cannot be parsed.
    """
    if not os.path.isdir(run_dir):
        raise RunDataError(f"run directory not found: {run_dir}")
    config_path = os.path.join(run_dir, CONFIG_FILE)
    config = _read_json(config_path) if os.path.exists(config_path) else {}
    return Run(
        directory=run_dir,
        summary=_read_summary(os.path.join(run_dir, SUMMARY_FILE)),
        fct=_read_csv(os.path.join(run_dir, FCT_FILE), FCT_COLUMNS),
        queue=_read_csv(os.path.join(run_dir, QUEUE_FILE), QUEUE_COLUMNS),
        pfc=_read_csv(os.path.join(run_dir, PFC_FILE), PFC_COLUMNS),
        config=config,
        cc=_read_optional_csv(os.path.join(run_dir, CC_FILE), CC_COLUMNS),
        ports=_read_optional_csv(os.path.join(run_dir, PORTS_FILE),
                                 PORTS_COLUMNS),
        links=_read_optional_csv(os.path.join(run_dir, LINKS_FILE),
                                 LINKS_COLUMNS),
        collectives=_read_optional_csv(
            os.path.join(run_dir, COLLECTIVES_FILE), COLLECTIVES_COLUMNS),
    )


# ---------------------------------------------------------------------------
# Percentiles and FCT statistics
# ---------------------------------------------------------------------------

def percentile(values, p):
    """Nearest-rank p-th percentile (0 < p <= 100) of *values*.

    The ceil(p/100 * n)-th smallest of the n non-NaN values; NaN when there
    are none.  Always one of the values (never interpolated).
    """
    v = np.asarray(values, dtype=float)
    v = np.sort(v[~np.isnan(v)])
    n = len(v)
    if n == 0:
        return math.nan
    # The small tolerance keeps 99.9% of 1000 values at rank 999, not 1000
    # (99.9 * 1000 / 100 is 999.0000000000001 in binary floating point).
    rank = math.ceil(p * n / 100.0 - 1e-9)
    return float(v[min(max(rank, 1), n) - 1])


def slowdown_stats(values):
    """``{'count', 'avg', 'p50', 'p95', 'p99', 'p999'}`` of *values*."""
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    stats = {"count": int(len(v))}
    for name, p in STATS:
        if p is None:
            stats[name] = float(v.mean()) if len(v) else math.nan
        else:
            stats[name] = percentile(v, p)
    return stats


def fct_window(run):
    """``(warmup_end_ns, cooldown_start_ns)`` from the summary (None if
    absent)."""
    def get(name):
        value = run.summary.get(name)
        if value is None:
            return None
        value = _number(value)
        return None if math.isnan(value) else value
    return get("warmup_end_ns"), get("cooldown_start_ns")


def measured_flows(run):
    """Completed messages inside the measurement window.

    Keeps rows whose slowdown is a number and whose ``start_ns`` is neither
    before ``warmup_end_ns`` nor after ``cooldown_start_ns``.  Returns
    ``(frame, excluded)`` where *excluded* counts completed messages left
    out by the window.
    """
    fct = run.fct
    done = fct[np.isfinite(fct["slowdown"])]
    warmup, cooldown = fct_window(run)
    keep = pd.Series(True, index=done.index)
    if warmup is not None:
        keep &= done["start_ns"] >= warmup
    if cooldown is not None:
        keep &= done["start_ns"] <= cooldown
    return done[keep], int((~keep).sum())


def bdp_bytes(run):
    """One bandwidth-delay product of the fabric, in bytes.

    ``bdp_bytes`` from the summary if present, else ``base_rtt_us`` times
    the host rate (config ``topology.host_rate_gbps``); NaN if unknown.
    """
    value = _number(run.summary.get("bdp_bytes"))
    if not math.isnan(value):
        return value
    rtt_us = _number(run.summary.get("base_rtt_us"))
    rate = run.host_rate_gbps
    if math.isnan(rtt_us) or math.isnan(rate):
        return math.nan
    return rtt_us * 1e-6 * rate * 1e9 / 8.0


def parse_size(text):
    """``'64K'`` -> 65536, ``'1M'`` -> 1048576, ``'1500'`` -> 1500 (K=1024)."""
    s = str(text).strip().upper().rstrip("B")
    if s.endswith("I"):
        s = s[:-1]
    mult = 1
    for suffix, factor in (("K", 1024), ("M", 1024 ** 2), ("G", 1024 ** 3)):
        if s.endswith(suffix):
            s, mult = s[:-1], factor
            break
    try:
        value = float(s) * mult
    except ValueError:
        raise ValueError(f"not a size: {text!r} (examples: 1500, 64K, 1M)") \
            from None
    if value <= 0:
        raise ValueError(f"size must be > 0: {text!r}")
    return int(round(value))


def _size_label(n):
    """``65536`` -> ``'64K'``; sizes that are not a whole number of KiB
    stay in bytes (``6000`` -> ``'6000'``)."""
    from .style import format_bytes
    return format_bytes(n) if n % 1024 == 0 else str(int(n))


def size_buckets(edges=None):
    """Buckets ``[(lo, hi, label)]`` from inclusive upper bounds *edges*.

    ``[1024, 8192]`` -> ``(0, 1024, '<=1K')``, ``(1024, 8192, '1K-8K')``,
    ``(8192, inf, '>8K')``; sizes fall in the bucket with ``lo < size <=
    hi``.
    """
    edges = sorted(set(int(e) for e in (edges or DEFAULT_BUCKET_EDGES)))
    buckets = []
    lo = 0
    for hi in edges:
        label = (f"<={_size_label(hi)}" if lo == 0
                 else f"{_size_label(lo)}-{_size_label(hi)}")
        buckets.append((lo, hi, label))
        lo = hi
    buckets.append((lo, math.inf, f">{_size_label(lo)}"))
    return buckets


TABLE_COLUMNS = ["group", "lo_bytes", "hi_bytes", "flows"] + STAT_NAMES


def fct_table(flows, edges=None, bdp=math.nan):
    """FCT slowdown statistics by flow-size bucket and by group.

    *flows* is a frame of measured messages (see :func:`measured_flows`).
    Rows, in order: each non-empty size bucket of the foreground flows
    (kind != probe); ``<=1 BDP`` and ``>1 BDP`` (foreground, when the BDP is
    known; always both rows); ``all foreground``; then ``kind=K`` for every
    kind present.  Columns: ``group, lo_bytes, hi_bytes, flows, avg, p50,
    p95, p99, p999``.
    """
    rows = []
    fg = flows[flows["kind"] != PROBE_KIND]
    sizes = fg["size_bytes"].to_numpy()

    def add(group, lo, hi, values):
        stats = slowdown_stats(values)
        rows.append([group, lo, hi, stats["count"]]
                    + [stats[s] for s in STAT_NAMES])

    for lo, hi, label in size_buckets(edges):
        mask = (sizes > lo) & (sizes <= hi)
        if mask.any():
            add(label, lo, hi, fg["slowdown"].to_numpy()[mask])
    if not math.isnan(bdp):
        add("<=1 BDP", 0, bdp, fg.loc[fg["size_bytes"] <= bdp, "slowdown"])
        add(">1 BDP", bdp, math.inf,
            fg.loc[fg["size_bytes"] > bdp, "slowdown"])
    add("all foreground", 0, math.inf, fg["slowdown"])
    for kind in sorted(flows["kind"].unique()):
        add(f"kind={kind}", 0, math.inf,
            flows.loc[flows["kind"] == kind, "slowdown"])
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def slowdown_cdf(fct_df):
    """Empirical CDF of FCT slowdown for each message ``kind``.

    Returns a dict ``{kind: (x, y)}`` (kinds in sorted order) where ``x`` is
    the sorted slowdowns and ``y[i] = (i + 1) / len(x)`` is the fraction of
    messages with slowdown <= ``x[i]``.  Missing slowdowns are skipped.
    """
    return value_cdf(fct_df, "slowdown")


def value_cdf(fct_df, column):
    """Like :func:`slowdown_cdf` for any numeric column of fct.csv."""
    cdfs = {}
    if fct_df.empty:
        return cdfs
    valid = fct_df[np.isfinite(fct_df[column].astype(float))]
    for kind, group in valid.groupby("kind", sort=True):
        x = np.sort(group[column].to_numpy(dtype=float))
        y = np.arange(1, len(x) + 1, dtype=float) / len(x)
        cdfs[str(kind)] = (x, y)
    return cdfs


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


# ---------------------------------------------------------------------------
# Throughput, congestion-control state, links
# ---------------------------------------------------------------------------

def _counter_rate(frame, key, column, anchor_zero):
    """Gb/s per interval from a cumulative byte counter.

    Pivot *column* by time x *key*; a key is carried forward between its
    samples and is 0 before its first one.  With *anchor_zero*, every
    counter is 0 at time 0 (a row at t=0 is added if missing); otherwise the
    first sample time has no rate and is dropped.  Each row is the rate over
    the interval ending at its time: bytes * 8 / ns = Gb/s.
    """
    if frame is None or frame.empty:
        return pd.DataFrame(index=pd.Index([], name="time_ns"))
    table = frame.pivot_table(index="time_ns", columns=key, values=column,
                              aggfunc="last").sort_index()
    table = table.ffill().fillna(0.0)
    if anchor_zero and table.index[0] != 0:
        zero = pd.DataFrame(0.0, index=pd.Index([0], name="time_ns"),
                            columns=table.columns)
        table = pd.concat([zero, table])
    times = table.index.to_numpy(dtype=float)
    rates = table.diff().iloc[1:]
    dt = np.diff(times)
    rates = rates.div(dt, axis=0) * 8.0
    rates.index.name = "time_ns"
    return rates


def port_throughput(ports_df):
    """Per-port send rate (Gb/s) from ports.csv: a frame indexed by the
    sample time ending each interval, one column per ``(node, port)``.
    Counters are taken as 0 at t = 0."""
    return _counter_rate(ports_df, PORT_KEY, "tx_bytes", anchor_zero=True)


def qp_throughput(cc_df):
    """Per-QP acknowledged throughput (Gb/s) from cc.csv's cumulative
    ``acked_bytes``: one column per ``(node, qp)``, one row per interval
    between consecutive samples."""
    return _counter_rate(cc_df, ["node", "qp"], "acked_bytes",
                         anchor_zero=False)


def cc_state(cc_df, column):
    """*column* of cc.csv (``rate_bps`` or ``window_bytes``) pivoted: index
    time_ns, one column per ``(node, qp)``."""
    if cc_df is None or cc_df.empty:
        return pd.DataFrame(index=pd.Index([], name="time_ns"))
    return cc_df.pivot_table(index="time_ns", columns=["node", "qp"],
                             values=column, aggfunc="last").sort_index()


def host_count(run):
    """Number of hosts from config.json (star: hosts; leaf_spine: leaves x
    hosts_per_leaf), or None."""
    topo = run.config.get("topology") if run.config else None
    if not isinstance(topo, dict):
        return None
    try:
        if topo.get("type") == "leaf_spine":
            return int(topo["leaves"]) * int(topo["hosts_per_leaf"])
        return int(topo["hosts"])
    except (KeyError, TypeError, ValueError):
        return None


def port_kinds(run):
    """``{(node, port): kind}``: kind of the node owning each port, from
    links.csv; without it, nodes below the host count are ``host`` and the
    others ``switch`` (hosts are created first).  ``{}`` if unknown."""
    if run.links is not None and not run.links.empty:
        return {(int(n), int(p)): str(k) for n, p, k in
                zip(run.links["node"], run.links["port"],
                    run.links["node_kind"])}
    hosts = host_count(run)
    if hosts is None or run.ports is None:
        return {}
    keys = set(zip(run.ports["node"], run.ports["port"]))
    return {(int(n), int(p)): ("host" if n < hosts else "switch")
            for n, p in keys}


def port_rates_bps(run):
    """``{(node, port): rate_bps}`` from links.csv; for a star without
    links.csv every port has the host rate.  ``{}`` if unknown."""
    if run.links is not None and not run.links.empty:
        return {(int(n), int(p)): float(r) for n, p, r in
                zip(run.links["node"], run.links["port"],
                    run.links["rate_bps"])}
    topo_type = config_value(run.config, "topology.type")
    rate = run.host_rate_gbps
    if topo_type == "star" and not math.isnan(rate) and run.ports is not None:
        return {(int(n), int(p)): rate * 1e9
                for n, p in set(zip(run.ports["node"], run.ports["port"]))}
    return {}


def port_totals(ports_df):
    """Final cumulative bytes per ``(node, port)`` (the largest sample)."""
    if ports_df is None or ports_df.empty:
        return {}
    last = ports_df.groupby(PORT_KEY)["tx_bytes"].max()
    return {(int(n), int(p)): float(v) for (n, p), v in last.items()}


def port_utilization(run):
    """Per port: bytes sent by the last ports.csv sample x 8 / (rate x time
    of that sample), i.e. the mean utilization from t = 0 to the last
    sample.  Ports of unknown rate are skipped.  ``{(node, port): u}``."""
    if run.ports is None or run.ports.empty:
        return {}
    rates = port_rates_bps(run)
    t_last = float(run.ports["time_ns"].max())
    if t_last <= 0:
        return {}
    totals = port_totals(run.ports)
    return {key: total * 8.0 / (rates[key] * t_last * 1e-9)
            for key, total in totals.items() if rates.get(key, 0) > 0}


def uplink_loads(run):
    """ToR uplinks (links.csv rows leaf -> spine) with the bytes each sent:
    columns ``leaf, port, spine, bytes``; None without links.csv/ports.csv
    or without any uplink."""
    if run.links is None or run.ports is None:
        return None
    links = run.links
    up = links[(links["node_kind"].str.lower() == "leaf")
               & (links["peer_kind"].str.lower() == "spine")]
    if up.empty:
        return None
    totals = port_totals(run.ports)
    rows = [(int(n), int(p), int(s), totals.get((int(n), int(p)), 0.0))
            for n, p, s in zip(up["node"], up["port"], up["peer_node"])]
    return pd.DataFrame(rows, columns=["leaf", "port", "spine", "bytes"]) \
        .sort_values(["leaf", "port"]).reset_index(drop=True)


def uplink_imbalance(loads):
    """Per leaf: ``leaf, uplinks, bytes, max_over_mean, cov`` where
    max_over_mean is the busiest uplink's bytes over the mean of the leaf's
    uplinks (1 = perfectly balanced) and cov their coefficient of variation
    (population standard deviation / mean).  Leaves that sent nothing up
    get NaN."""
    rows = []
    if loads is not None:
        for leaf, group in loads.groupby("leaf", sort=True):
            b = group["bytes"].to_numpy(dtype=float)
            mean = b.mean()
            rows.append((int(leaf), len(b), float(b.sum()),
                         float(b.max() / mean) if mean > 0 else math.nan,
                         float(b.std() / mean) if mean > 0 else math.nan))
    return pd.DataFrame(rows, columns=["leaf", "uplinks", "bytes",
                                       "max_over_mean", "cov"])


def collective_stats(coll_df):
    """Per collective phase: ``phase, count, mean_us, p50_us, p99_us,
    max_us, bytes`` of ``duration_ns`` (nearest-rank percentiles)."""
    rows = []
    if coll_df is not None and not coll_df.empty:
        for phase, group in coll_df.groupby("phase", sort=False):
            d = group["duration_ns"].to_numpy(dtype=float) / NS_PER_US
            rows.append((str(phase), len(d), float(np.nanmean(d)),
                         percentile(d, 50), percentile(d, 99),
                         float(np.nanmax(d)), float(group["bytes"].sum())))
    return pd.DataFrame(rows, columns=["phase", "count", "mean_us", "p50_us",
                                       "p99_us", "max_us", "bytes"])


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
    "pfc_pause_frames", "pfc_resume_frames", "max_queue_bytes", "base_rtt_us",
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
