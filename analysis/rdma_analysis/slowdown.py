"""FCT slowdown by another simulator's definition, for comparing with its
published figures.

``fct.csv``'s ``slowdown`` is this module's: FCT over the ideal FCT of the
message alone on its path, counting every wire byte (headers, preamble and
inter-frame gap of every packet), the store-and-forward of the last packet at
each hop and the ACK's way back (docs/analysis.md).

The HPCC simulator and ConWeave's simulator (which inherits HPCC's code)
define the ideal FCT differently, per source-destination pair:

    ideal = base_rtt + (size + ceil(size / mtu) x 48 B) x 8 / bandwidth
    base_rtt = 2 x (sum of the path's propagation delays)
               + sum over its links of (mtu x 8 / link rate)

``mtu`` is the payload per packet (``nic.mtu_bytes``), 48 B the headers they
count per packet, ``bandwidth`` the slowest link of the path; times are whole
nanoseconds, rounded down at each step as their integer arithmetic does.
Their analysis scripts then take ``max(1, fct / ideal)``.

:func:`with_slowdown` puts that definition into a loaded run's ``fct``
(``slowdown`` and ``ideal_fct_ns``; ours are kept in ``slowdown_module`` and
``ideal_fct_ns_module``), so that every statistic, report and comparison uses
it (``./rdma plot DIR --slowdown hpcc``, ``./rdma compare ... --slowdown
hpcc``).
"""

import math
from collections import deque

import numpy as np

from .runs import RunDataError, config_value

# Header bytes per packet in the HPCC and ConWeave simulators' ideal FCT (their
# whole custom header without the INT field).
PEER_HEADER_BYTES = 48
DEFAULT_MTU = 1024

# --slowdown values: this module's definition, or the HPCC / ConWeave one.
FORMULAS = ("module", "hpcc", "conweave")


def _adjacency(links):
    """``{node: [(peer, rate_bps, delay_ns)]}`` from links.csv rows (each
    link in both directions, whether the file lists one or both)."""
    adj = {}
    for row in links.itertuples(index=False):
        a, b = int(row.node), int(row.peer_node)
        rate, delay = float(row.rate_bps), float(row.delay_ns)
        for x, y in ((a, b), (b, a)):
            edges = adj.setdefault(x, [])
            if not any(p == y and r == rate and d == delay for p, r, d in edges):
                edges.append((y, rate, delay))
    return adj


def host_paths(links):
    """``{(src, dst): [(rate_bps, delay_ns), ...]}``: for every pair of
    hosts, the links of a shortest path (fewest hops; breadth-first from
    the source through switches only, the first path found), as the peers'
    route computation takes it.  Hosts are the nodes of kind ``host`` (in
    links.csv, host index = node id)."""
    adj = _adjacency(links)
    kinds = {}
    for row in links.itertuples(index=False):
        kinds[int(row.node)] = str(row.node_kind)
        kinds[int(row.peer_node)] = str(row.peer_kind)
    hosts = sorted(n for n, k in kinds.items() if k == "host")
    paths = {}
    for src in hosts:
        via = {src: None}  # node -> (previous node, rate, delay)
        queue = deque([src])
        while queue:
            now = queue.popleft()
            for peer, rate, delay in sorted(adj.get(now, [])):
                if peer in via:
                    continue
                via[peer] = (now, rate, delay)
                if kinds.get(peer) != "host":
                    queue.append(peer)
        for dst in hosts:
            if dst == src or dst not in via:
                continue
            hops, node = [], dst
            while via[node] is not None:
                prev, rate, delay = via[node]
                hops.append((rate, delay))
                node = prev
            paths[(src, dst)] = hops[::-1]
    return paths


def peer_ideal_fct_ns(size_bytes, mtu, path):
    """The HPCC / ConWeave simulators' ideal FCT (ns, whole) of a message of
    *size_bytes* with payload *mtu* per packet on *path* (``[(rate_bps,
    delay_ns)]``): base RTT + (size + 48 B per packet) x 8 / bottleneck."""
    size = max(int(size_bytes), 1)
    delay = sum(int(d) for _, d in path)
    tx = sum(int(mtu) * 8 * 10**9 // int(r) for r, _ in path)
    base_rtt = 2 * delay + tx
    bandwidth = min(int(r) for r, _ in path)
    packets = (size - 1) // int(mtu) + 1
    wire = size + packets * PEER_HEADER_BYTES
    return base_rtt + wire * 8 * 10**9 // bandwidth


def peer_slowdown(fct_ns, ideal_ns):
    """max(1, FCT / ideal), as the peers' analysis scripts compute it."""
    return max(1.0, float(fct_ns) / float(ideal_ns))


def hpcc_ideal_fct(run):
    """The HPCC / ConWeave ideal FCT (ns) of every row of ``run.fct`` as a
    numpy array (NaN where the pair has no path).  Needs links.csv."""
    if run.links is None or run.links.empty:
        raise RunDataError(f"{run.directory}: links.csv is needed for the "
                           "HPCC/ConWeave slowdown (the path of each flow)")
    mtu = config_value(run.config, "nic.mtu_bytes", DEFAULT_MTU)
    paths = host_paths(run.links)
    cache = {}
    out = np.full(len(run.fct), math.nan)
    for i, (src, dst, size) in enumerate(zip(run.fct["src"], run.fct["dst"],
                                             run.fct["size_bytes"])):
        path = paths.get((int(src), int(dst)))
        if path is None:
            continue
        key = (int(src), int(dst), int(size))
        if key not in cache:
            cache[key] = peer_ideal_fct_ns(size, mtu, path)
        out[i] = cache[key]
    return out


def with_slowdown(run, formula="module"):
    """*run* with ``fct.slowdown`` by *formula*: ``module`` (fct.csv's, the
    run unchanged) or ``hpcc`` / ``conweave`` (the same definition: see the
    module docstring).  Unfinished messages keep a NaN slowdown."""
    if formula not in FORMULAS:
        raise ValueError(f"unknown slowdown formula {formula!r} "
                         f"(one of {', '.join(FORMULAS)})")
    if formula == "module":
        return run
    fct = run.fct.copy()
    ideal = hpcc_ideal_fct(run)
    fct["ideal_fct_ns_module"] = fct.get("ideal_fct_ns")
    fct["slowdown_module"] = fct["slowdown"]
    fct["ideal_fct_ns"] = ideal
    ratio = fct["fct_ns"].to_numpy(dtype=float) / ideal
    fct["slowdown"] = np.where(np.isfinite(ratio), np.maximum(ratio, 1.0),
                               math.nan)
    run.fct = fct
    return run
