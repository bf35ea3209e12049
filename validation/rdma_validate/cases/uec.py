"""htsim's Ultra Ethernet validation suites, side by side: every case of
validate_uec_sender.txt, validate_load_balancing_snd.txt, validate_load_balancing_failed_snd.txt
and validate_uec_connreuse.txt that the module can express, run as htsim's main_uec runs it
(its default fabric or its topology file, its queue sizes, ECN thresholds, trimming, NSCC
constants, load balancer and path count; an ACK per packet), each against the suite's
``!tailFCT`` target and the tail FCT htsim's own run published (validate_outputs/*.out,
stored in htsim_uec.json with the commit they come from). Cases that need what the module
lacks are listed with the reason, never dropped."""

import csv
import json
import math
from pathlib import Path

from ..case import Case, Result
from ..sim import ROOT

DATA = json.loads((Path(__file__).with_name("htsim_uec.json")).read_text())
HTSIM = ROOT / "scenarios" / "htsim"
SUITES = ["validate_uec_sender", "validate_load_balancing_snd",
          "validate_load_balancing_failed_snd", "validate_uec_connreuse",
          "validate_uec_rcv", "validate_uec_both"]
QUICK = {("validate_uec_sender", "Single Connection"),
         ("validate_uec_sender", "Small 16 node incast")}

# htsim's main_uec defaults (uet-htsim htsim/sim/datacenter/main_uec.cpp, uec.cpp,
# fat_tree_topology.cpp); docs/workloads.md maps each to this module's setting.
PKT = 4150            # -mtu: bytes of a data packet (Packet::data_packet_size)
HDR = 64              # UecSrc::_hdr_size: the payload is PKT - HDR
ACK = 64              # UecBasePacket::ACKSIZE
GBPS = 100            # HOST_NIC (-linkspeed)
HOP_NS = 1000         # -hop_latency 1 us, switch latency 0
PATHS = 64            # -paths
SACK_BYTES = 16384    # UecSink::_bytes_unacked_threshold (-sack_threshold)
ECN_LOW, ECN_HIGH = 0.2, 0.8  # of the BDP in packets, rounded up (-ecn overrides)
FAILED_RATIO = 0.25   # FatTreeTopologyCfg::_failed_link_ratio (-failed N)
TRIM_BYTES = 64       # -trimsize


def topo_tiers(path):
    """(tiers, per-tier Downlink_Latency_ns) of an htsim .topo file."""
    tiers, lat, cur = 0, {}, None
    for line in Path(path).read_text().splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        k = f[0].lower()
        if k == "tiers":
            tiers = int(f[1])
        elif k == "tier":
            cur = int(f[1])
        elif k == "downlink_latency_ns":
            lat[cur] = int(f[1])
    return tiers, [lat[t] for t in range(tiers)]


def network_rtt_ns(tiers, latencies_ns):
    """main_uec's calculate_rtt: twice the diameter latency plus a data packet and an ACK
    serialised on every link of the diameter (2 x tiers links), at the host rate."""
    diameter = 2 * tiers
    return (2 * 2 * sum(latencies_ns) + PKT * 8 / GBPS * diameter
            + ACK * 8 / GBPS * diameter)


def settings(cm, params, nodes):
    """The scenario htsim's main_uec runs for matrix ``cm`` with ``params``, as this
    module's keys: (scenario dict, notes on what differs). Raises NotRun(reason) for a
    case the module cannot express."""
    p = {}
    it = iter(params)
    for a in it:
        if a in ("-sender_cc_only", "-conn_reuse", "-receiver_cc_only", "-sender_cc",
                 "-receiver_cc"):
            p[a] = True
        else:
            p[a] = next(it)
    if p.get("-receiver_cc_only") or p.get("-receiver_cc"):
        raise NotRun("RCCC (receiver credit CC, -receiver_cc*) is not in the module")
    if p.get("-conn_reuse"):
        raise NotRun("connection reuse (-conn_reuse) is not in the module")
    lb = p.get("-load_balancing_algo")
    if lb == "mixed":
        raise NotRun("the mixed load balancer (REPS, else bitmap) is not in the module")
    notes = []
    if lb is None:
        lb = "bitmap"
        notes.append("htsim's default load balancer is mixed (REPS recycling, else bitmap): "
                     "bitmap here")
    if "-topo" in p:
        topo_file = HTSIM / "topologies" / Path(p["-topo"]).name
        tiers, lat = topo_tiers(topo_file)
        topology = {"type": "htsim_topo", "htsim_topo": {"file": str(topo_file)}}
    else:
        tiers, lat = 3, [HOP_NS] * 3
        topology = {"type": "htsim_default"}
    rtt = network_rtt_ns(tiers, lat)
    bdp = math.ceil(rtt * 1e-9 * GBPS * 1e9 / 8 / PKT)
    queue = (int(p["-q"]) if "-q" in p else bdp) * PKT
    low, high = math.ceil(bdp * ECN_LOW) * PKT, math.ceil(bdp * ECN_HIGH) * PKT
    rto_ns = round((15 + queue * 6 * 8 / (GBPS * 1e9) * 1e6) * 1000)
    if int(p.get("-sack_threshold", SACK_BYTES)) != SACK_BYTES:
        notes.append("-sack_threshold: every packet is ACKed here in any case")
    nscc = {"NetworkRtt": f"{round(rtt * 1000)}ps", "TargetDelay": f"{round(0.75 * rtt * 1000)}ps"}
    if "-cwnd" in p:
        nscc["InitialWindow"] = int(p["-cwnd"]) * (PKT - HDR)
    s = {
        "topology": topology,
        "cc": {"algorithm": "nscc", "nscc": nscc},
        # htsim's sender retransmits on a trimmed packet's NACK or a timeout only (its
        # out-of-order loss detection, SLEEK, is off by default): direct placement, whose
        # receiver takes any order and NACKs trimmed packets only. Selective repeat
        # (IRN) NACKs every out-of-order arrival, which spraying makes spurious.
        "nic": {"loss_recovery": "direct_placement", "mtu_bytes": PKT - HDR,
                # htsim's receiver ACKs every `sack` bytes, and at once every ECN-marked
                # packet and every packet its sender flags (window full, last, resent);
                # the module's has no such flag: with an interval of 4, a window below
                # 4 packets waits for the timeout. Every packet is ACKed.
                "ack_interval": 1, "load_balancer": lb,
                "paths": int(p.get("-paths", PATHS)),
                "direct_placement": {"RetransmissionTimeout": f"{rto_ns}ns"}},
        "switch": {"pfc": {"enabled": False},
                   "ecn": {"unit": "kB", "kmin_kb": low / 1000, "kmax_kb": high / 1000,
                           "pmax": 1},
                   "buffer_mb": max(32, 64 * queue / 2**20),
                   "buffer": {"policy": "static", "static_kb": queue / 1024},
                   "trim": {"enabled": True, "bytes": TRIM_BYTES}},
        "stop_time_ms": int(p["-end"]) / 1000,
        "traffic": {"htsim_cm": str(HTSIM / "connection_matrices" / cm)},
        "output": {"progress": False, "port_sample_us": 0, "cc_sample_us": 0,
                   "queue_sample_us": 1000},
    }
    if "-failed" in p:
        s["topology"]["link_events"] = failed_links(int(p["-failed"]), nodes, tiers)
        notes.append(f"-failed {p['-failed']}: the first {p['-failed']} core links of "
                     f"aggregation switch 0 at {FAILED_RATIO:.0%} of 100G in both directions "
                     "(htsim: the core-to-aggregation direction only, its queue and ECN "
                     "thresholds scaled alike)")
    return s, notes


def failed_links(n, nodes, tiers):
    """htsim's -failed n on its default 3-tier fabric: the links (l + agg x aggs per pod)
    < n run at the failed ratio, i.e. the first n uplinks of aggregation switch 0. The
    module's node ids: hosts, then ToRs, aggregation switches, cores (FatTreeHelper)."""
    if tiers != 3:
        raise NotRun("-failed on a 2-tier fabric")
    k = round((4 * nodes) ** (1 / 3))
    tors = aggs = k * k // 2
    agg0 = nodes + tors
    core0 = nodes + tors + aggs
    if n > k // 2:
        raise NotRun(f"-failed {n} beyond aggregation switch 0's {k // 2} uplinks")
    return [{"at_us": 0, "a": agg0, "b": core0 + i, "action": "rate",
             "rate_gbps": GBPS * FAILED_RATIO} for i in range(n)]


class NotRun(Exception):
    """A case the module cannot express; its message is the reason."""


def cm_nodes(cm):
    for line in (HTSIM / "connection_matrices" / cm).read_text().splitlines():
        f = line.split()
        if f and f[0] == "Nodes":
            return int(f[1])
    raise ValueError(cm)


def tail(folder):
    """(tail FCT in us of the completed flows, completed flows, {(src, dst): FCT us})."""
    rows = list(csv.DictReader(open(Path(folder) / "fct.csv")))
    rows = [r for r in rows if r["kind"] == "flow"]
    fct = {(int(r["src"]), int(r["dst"])): float(r["fct_ns"]) / 1e3 for r in rows}
    return (max(fct.values()) if fct else float("nan")), len(rows), fct


def run(sim, quick):
    r = Result()
    table = ["| suite | case | ours tail FCT (us) | htsim's (us) | ratio | target (us) | "
             "connections | result |", "|---|---|---|---|---|---|---|---|"]
    for suite in SUITES:
        for i, c in enumerate(DATA["suites"][suite]):
            if quick and (suite, c["experiment"]) not in QUICK:
                continue
            htsim = c["htsim_tail_us"]
            label = f"{suite.replace('validate_', '')}: {c['experiment']}"
            try:
                s, notes = settings(c["cm"], c["params"], cm_nodes(c["cm"]))
            except NotRun as e:
                table.append(f"| {suite} | {c['experiment']} | not run: {e} | {htsim} | | "
                             f"{c['target_us']} | | not run |")
                continue
            name = f"uec-{suite.replace('validate_', '')}-{i}"
            sim.run(name, s)
            ours, done, fct = tail(sim.out / name)
            want = c["htsim_connections"]
            ok = done == want and ours <= c["target_us"]
            extra = ""
            for flow, target in c.get("fct", {}).items():
                src, dst = (int(x) for x in flow.split("_")[1:])
                got = fct.get((src, dst), float("inf"))
                ok = ok and got <= target
                extra += f"; flow {src}->{dst} {got:.1f} us (target {target})"
            ratio = ours / htsim if htsim else float("nan")
            table.append(f"| {suite} | {c['experiment']} | {ours:.1f} | {htsim} | {ratio:.3f} | "
                         f"{c['target_us']} | {done}/{want} | {'pass' if ok else 'FAIL'} |")
            r.add(label,
                  f"tail FCT <= {c['target_us']} us, {want} connections (htsim: {htsim} us)",
                  f"{ours:.1f} us ({ratio:.3f} x htsim), {done} connections{extra}"
                  + ("" if not notes else " [" + "; ".join(notes) + "]"), ok)
    r.notes.append("\n".join(table))
    if quick:
        total = sum(len(DATA["suites"][s]) for s in SUITES)
        r.notes.append(f"--quick: {len(table) - 2} of the suites' {total} cases; the full "
                       "case lists every one, run or not run with its reason.")
    r.notes.append(
        f"htsim's figures: {DATA['source']} commit {DATA['commit']}, {DATA['files']}. "
        "Settings: docs/workloads.md, \"Matching a peer simulator: htsim's Ultra Ethernet "
        "suite\". A case passes as in htsim's validate.py: every connection completes before "
        "-end and the tail FCT is at most the suite's !tailFCT target (and a !FCT flow at "
        "most its own).")
    return r


CASE = Case(
    name="uec",
    title="htsim Ultra Ethernet suites (NSCC sender)",
    claim="Run as htsim's main_uec runs them, the NSCC-sender cases of htsim's Ultra "
          "Ethernet validation suites meet the suites' tail-FCT targets, close to htsim's "
          "own published figures.",
    source="ultraethernet/uet-htsim, htsim/sim/datacenter/validate_uec_sender.txt, "
           "validate_load_balancing_snd.txt, validate_load_balancing_failed_snd.txt, "
           "validate_uec_connreuse.txt and validate_outputs/",
    run=run,
    quick=True,
)
