"""Readable names of nodes and ports (``leaf1->spine0``) from a run's
``links.csv``, instead of ``node 16 port 9``.

The simulator numbers nodes hosts first, then each switch tier (leaves then
spines; ToRs, aggregation, core); ``links.csv`` gives each port's node kind
and the peer it connects to.  A node is named by its kind and its rank
among the nodes of that kind (``host3``, ``leaf1``, ``spine0``); a port by
its node and its peer (``leaf1->spine0``; ``#k`` when several parallel
links join the same pair).  Without ``links.csv``: ``switch16 p9``.
"""


def node_names(run):
    """``{node id: name}`` from links.csv (``{}`` without it)."""
    links = run.links
    if links is None or links.empty:
        return {}
    kinds = {}
    for node, kind in zip(links["node"], links["node_kind"]):
        kinds[int(node)] = str(kind).lower()
    for node, kind in zip(links["peer_node"], links["peer_kind"]):
        kinds.setdefault(int(node), str(kind).lower())
    names, counts = {}, {}
    for node in sorted(kinds):
        kind = kinds[node]
        names[node] = f"{kind}{counts.get(kind, 0)}"
        counts[kind] = counts.get(kind, 0) + 1
    return names


def port_names(run):
    """``{(node, port): 'leaf1->spine0'}`` for every port of links.csv."""
    links = run.links
    if links is None or links.empty:
        return {}
    nodes = node_names(run)
    names, seen = {}, {}
    for node, port, peer in zip(links["node"], links["port"],
                                links["peer_node"]):
        node, port, peer = int(node), int(port), int(peer)
        base = f"{nodes[node]}->{nodes.get(peer, peer)}"
        k = seen.get(base, 0)
        seen[base] = k + 1
        names[(node, port)] = base if k == 0 else f"{base}#{k}"
    # A name with parallel links: the first one gets #0 too.
    for key, name in list(names.items()):
        if "#" not in name and seen.get(name, 0) > 1:
            names[key] = f"{name}#0"
    return names


def port_label(run, node, port, names=None):
    """The name of one port (see :func:`port_names`)."""
    names = port_names(run) if names is None else names
    return names.get((int(node), int(port)), f"switch{node} p{port}")


def qp_label(run, node, qp, names=None):
    """``host3 QP 12`` (``node 3 QP 12`` without links.csv)."""
    names = node_names(run) if names is None else names
    return f"{names.get(int(node), f'node {node}')} QP {qp}"
