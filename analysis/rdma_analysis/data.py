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
``cc.csv``, ``ports.csv``, ``links.csv``, ``collectives.csv``,
``pfc_time.csv`` (optional)
    Congestion-control state of sampled QPs, cumulative bytes sent per
    port, the port map with rates, collective phase times, the time each
    port and class was paused by PFC and its number of pauses.

Conventions (all documented in docs/analysis.md):

* Percentiles are *nearest-rank*: the p-th percentile of n sorted values is
  the ceil(p/100 * n)-th smallest (the simulator uses the same rule).
* FCT statistics cover *foreground* flows (every kind except ``probe``);
  probes are reported on their own.
* Size buckets are half-open ``(lo, hi]`` in bytes; "small" flows have
  ``size_bytes <= BDP``, "large" ones ``> BDP``.
"""

# The modules below hold the code; this one gathers their names, so
# ``from rdma_analysis import data`` gives everything in one place.
from .links import (  # noqa: F401
    _counter_rate, cc_state, collective_stats, host_count, port_kinds,
    port_rates_bps, port_throughput, port_totals, port_utilization,
    qp_throughput, uplink_imbalance, uplink_loads)
from .metrics import (  # noqa: F401
    DERIVED_METRICS, SUMMARY_METRICS, goodput_utilization, known_metric,
    metric_value, run_metrics)
from .queues import (  # noqa: F401
    _grid_size, pause_frame_count, pause_intervals, percentile_with_zeros,
    pfc_totals, port_queue, port_queue_stats, port_sums, queue_distribution,
    queue_sample_period_ns, queue_samples, queue_series, top_ports)
from .runs import (  # noqa: F401
    CC_COLUMNS, CC_FILE, COLLECTIVES_COLUMNS, COLLECTIVES_FILE, CONFIG_FILE,
    DEFAULT_BUCKET_EDGES, FCT_COLUMNS, FCT_FILE, INTERVAL_COLUMNS,
    LINKS_COLUMNS, LINKS_FILE, NS_PER_S, NS_PER_US, PFC_COLUMNS, PFC_FILE,
    PFC_KEY, PORT_KEY, PORTS_COLUMNS, PORTS_FILE, PROBE_KIND, QUEUE_COLUMNS,
    QUEUE_FILE, STAT_NAMES, STAT_TITLES, STATS, SUMMARY_FILE, TABLE_COLUMNS,
    Run, RunDataError, _number, _read_csv, _read_json, _size_label,
    bdp_bytes, config_value, fct_table, fct_window, load_run, measured_flows,
    parse_size, percentile, size_buckets, slowdown_cdf, slowdown_stats,
    value_cdf)
