"""One run's files loaded (:class:`Run`, :func:`load_run`), and its FCT
statistics: nearest-rank percentiles, the measurement window, size buckets,
BDP.  See :mod:`rdma_analysis.data` for the conventions.
"""

import json
import math
import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


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
PFC_TIME_FILE = "pfc_time.csv"

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
PFC_TIME_COLUMNS = {"node": "int64", "port": "int64", "prio": "int64",
                    "paused_ns": "int64", "pauses": "int64"}

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
    pfc_time: pd.DataFrame = None

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
    def ignores_ecn(self):
        """True if the run's controller does not act on ECN (its summary.json
        ``cc_reacts_to_cnp`` is false: the simulator asked the controller);
        False otherwise, and for runs that do not say."""
        return self.summary.get("cc_reacts_to_cnp") is False

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
        pfc_time=_read_optional_csv(
            os.path.join(run_dir, PFC_TIME_FILE), PFC_TIME_COLUMNS),
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
