"""Throughput counters, congestion-control state and the port map of one
run (ports.csv, cc.csv, links.csv, collectives.csv)."""

import math

import numpy as np
import pandas as pd

from .runs import NS_PER_US, PORT_KEY, config_value, percentile


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
