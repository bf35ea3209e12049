"""TIMELY: the original gradient rule has no unique fixed point, the CoNEXT 2016 patch
converges to the fair share; the default keeps a long-flow incast's link busy."""

from ..case import Case, Result
from ..sim import flow_goodput_gbps, jain, payload_rate_gbps
from .. import figures

JOIN_MS = 2.0
INCAST_MS = 10.0
WHOLE_RUN_GBPS = 85.0


def two_flows(variant, stop_ms):
    return {
        "name": f"timely-{variant}",
        "stop_time_ms": stop_ms,
        "topology": {"type": "star", "hosts": 3},
        "cc": {"algorithm": "timely", "timely": {"Variant": variant}},
        "traffic": {"flows_csv": "timely-flows.csv"},
        "output": {"cc_sample_us": 20, "cc_sample_qps": 2, "progress": False},
    }


def incast(stop_ms):
    return {
        "name": "timely-incast",
        "stop_time_ms": stop_ms,
        "topology": {"type": "star", "hosts": 8},
        "cc": {"algorithm": "timely"},
        "traffic": {"incast": {"enabled": True, "receiver": 0, "qps_per_sender": 1,
                               "until_ms": stop_ms}},
        "output": {"cc_sample_us": 20, "cc_sample_qps": 8, "progress": False},
    }


def run(sim, quick):
    r = Result()
    c = payload_rate_gbps(100, 1024)
    stop = 8.0 if quick else 14.0
    sim.write("timely-flows.csv", "src,dst,bytes,start_ns\n1,0,10000000000,0\n"
              f"2,0,10000000000,{int(JOIN_MS * 1e6)}\n")
    series = {}
    jains = {}
    for variant in ["Original", "Patched"]:
        run_ = sim.run(f"timely-{variant.lower()}", two_flows(variant, stop))
        g = flow_goodput_gbps(run_, (stop - 4) * 1e6, stop * 1e6)
        shares = [v for _, v in sorted(g.items())]
        jains[variant] = jain(shares)
        text = ", ".join(f"{v:.1f}" for v in shares) + f" Gb/s, Jain {jains[variant]:.3f}"
        if variant == "Patched":
            r.add("patched: 2 flows, the second joining at 2 ms, last 4 ms",
                  "fair: Jain >= 0.95", text, len(shares) == 2 and jains[variant] >= 0.95)
        else:
            r.notes.append(f"Original rule, same run: {text} (the claim is that its split "
                           "is not determined; it is reported, not asserted).")
        cc = run_.cc
        for (node, _), grp in cc.groupby(["node", "qp"]):
            series[f"{variant.lower()} host {node}"] = (grp.time_ns / 1e6, grp.rate_bps / 1e9)
    s = sim.run("timely-incast", incast(INCAST_MS))
    g = flow_goodput_gbps(s, 0, INCAST_MS * 1e6)
    total = sum(g.values())
    r.add(f"default: 7 long flows into one port with PFC, the whole run [0, {INCAST_MS:g}] ms "
          "from start-up (all at line rate)",
          f">= {WHOLE_RUN_GBPS:g} Gb/s of payload (the link carries {c:.1f})",
          f"{total:.1f} Gb/s ({100 * total / c:.0f}%), {s.summary['pfc_pause_frames']} pauses, "
          f"max queue {s.summary['max_queue_bytes'] / 1e6:.1f} MB",
          len(g) == 7 and total >= WHOLE_RUN_GBPS)
    r.figure = figures.lines(sim.out / "timely.png", series, "time (ms)", "rate (Gb/s)",
                             "TIMELY, a second flow joins at 2 ms")
    r.notes.append("Default: the original rule with one update per RTT, its sample taken from "
                   "any ACK (OncePerRtt, Segment 0 = one MTU: as the HPCC simulator and "
                   "ns3-datacenter run TIMELY). Updating per 16 KB segment (the 2015 text) "
                   "cuts the rate once per segment on a whole RTT of stale rising samples and "
                   "starves this incast (~19 Gb/s); `cc.timely.OncePerRtt=false` keeps it. "
                   "With one sample per RTT but 16 KB segments (`cc.timely.Segment=16384`), "
                   "a QP cut low by the start-up queue climbs back one segment per step: "
                   "about 83 Gb/s over this run.")
    return r


CASE = Case(
    name="timely",
    title="TIMELY fairness",
    claim="TIMELY's RTT-gradient rule has infinitely many fixed points, so flows can settle "
          "at an unfair split; the patched rule has a unique, fair fixed point.",
    source="Zhu et al., ECN or Delay: Lessons Learnt from Analysis of DCQCN and TIMELY, "
           "CoNEXT 2016, Sec. 4",
    run=run,
    quick=True,
)
