"""ns3-datacenter's PowerTCP fairness experiment, side by side: four long flows into one
25G host port, joining 100 ms apart, every setting matched; each flow's rate and Jain's
index in each phase against the figures the peer's own code gives."""

import numpy as np

from ..case import Case, Result
from ..sim import jain
from .ns3dc_burst import MATCHED

SCENARIO = "scenarios/ns3dc-powertcp-fairness.json"
# (start s, end s, flows running): the last 50 ms before each join, and before the end.
PHASES = [(0.05, 0.10, 1), (0.15, 0.20, 2), (0.25, 0.30, 3), (0.35, 0.40, 4)]
LINE_GBPS = 25.0
# This module's flow rates are payload; the peer's are the bytes its NIC sends, on links
# that serialise packet bytes at 25 Gb/s. Each is compared as a share of its link: ours
# over 25 Gb/s x 1000 / 1082 (a 1000-byte payload is 1082 bytes on the wire).
OUR_LINK_GBPS = LINE_GBPS * 1000 / 1082
# The peer's figures: inet-tub/ns3-datacenter (ns-3.39, the repository's head when this
# case was written), examples/PowerTCP/powertcp-evaluation-fairness with
# config-fairness.txt, run on this project's machine; its "Src i" lines (each sender's
# throughput every 1.5 min-RTT) averaged over each phase, Gb/s. (The peer's flows also
# leave 400 ms after they join; the run here stops at 400 ms.)
PEER = {
    "powertcp": [[23.9], [12.02, 12.03], [7.47, 7.5, 9.23], [6.09, 6.09, 6.09, 6.09]],
    "theta-powertcp": [[25.06], [12.48, 12.49], [8.25, 8.17, 8.6], [6.3, 6.19, 6.35, 6.18]],
    "timely": [[25.07], [11.28, 11.17], [7.39, 7.36, 7.37], [5.53, 5.19, 5.72, 5.3]],
    "dctcp": [[25.03], [12.6, 12.43], [8.45, 8.85, 7.72], [6.13, 6.59, 6.4, 5.9]],
}
JAIN_TOLERANCE = 0.05
QUICK = []


def phase_rates(run):
    """Per phase, each flow's payload Gb/s (acked bytes over the phase, cc.csv)."""
    out = []
    for t0, t1, n in PHASES:
        rates = []
        for node in range(n):
            g = run.cc[run.cc.node == node].sort_values("time_ns")
            g = g[(g.time_ns >= t0 * 1e9) & (g.time_ns <= t1 * 1e9)]
            dt = (g.time_ns.iloc[-1] - g.time_ns.iloc[0]) if len(g) > 1 else 0
            rates.append((g.acked_bytes.iloc[-1] - g.acked_bytes.iloc[0]) * 8 / dt if dt else 0.0)
        out.append(rates)
    return out


def run(sim, quick):
    r = Result()
    for cc, peer in PEER.items():
        s = sim.run(f"ns3dc-fairness-{cc}", SCENARIO, {"cc.algorithm": cc, **MATCHED.get(cc, {})})
        ours = phase_rates(s)
        for (t0, t1, n), mine, theirs in zip(PHASES, ours, peer):
            jm, jp = jain(mine), jain(theirs)
            use_m = sum(mine) / OUR_LINK_GBPS
            use_p = sum(theirs) / LINE_GBPS
            r.add(f"{cc}, {n} flow{'s' if n > 1 else ''} [{t0:g}, {t1:g}] s",
                  f"Jain within {JAIN_TOLERANCE} of the peer's {jp:.3f}",
                  f"rates {' '.join(f'{x:.2f}' for x in mine)} Gb/s of payload, Jain {jm:.3f}; "
                  f"link use {use_m:.0%} (peer {use_p:.0%})",
                  len(mine) == n and abs(jm - jp) <= JAIN_TOLERANCE)
    r.notes.append("Link use: each simulator's flows over its own link capacity (this module "
                   "counts payload against 25 Gb/s x 1000 / 1082 of wire; the peer counts "
                   "packet bytes against 25 Gb/s). Matched settings: docs/workloads.md.")
    return r


CASE = Case(
    name="ns3dc-fairness",
    title="ns3-datacenter PowerTCP fairness",
    claim="On ns3-datacenter's fairness run, flows that join one by one share the port as "
          "they do under ns3-datacenter's own implementation of each controller.",
    source="Addanki et al., PowerTCP, NSDI 2022, Fig. 8 setup; inet-tub/ns3-datacenter "
           "examples/PowerTCP (powertcp-evaluation-fairness)",
    run=run,
    quick=False,
)
