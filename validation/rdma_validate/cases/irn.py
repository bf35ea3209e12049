"""IRN: selective repeat with a BDP cap on a lossy fabric does as well as RoCE
go-back-N with PFC, with DCQCN and with no congestion control."""

from ..case import Case, Result
from .. import figures

SCENARIO = "scenarios/cdf-websearch-leaf-spine.json"


def run(sim, quick):
    r = Result()
    series = {}
    for cc in ["dcqcn", "none"]:
        stats = {}
        for kind, o in [("RoCE", {"switch.pfc.enabled": "true",
                                  "nic.loss_recovery": "go_back_n"}),
                        ("IRN", {"switch.pfc.enabled": "false",
                                 "nic.loss_recovery": "selective_repeat"})]:
            run_ = sim.run(f"irn-{kind.lower()}-{cc}", SCENARIO, dict(o, **{"cc.algorithm": cc}))
            fct = run_.fct
            fct = fct[fct.kind != "probe"]
            stats[kind] = (float(fct.slowdown.quantile(0.5)), float(fct.slowdown.quantile(0.99)),
                           run_.summary)
            v = fct.slowdown.sort_values().reset_index(drop=True)
            series[f"{kind}, {cc}"] = (v, [i / max(len(v) - 1, 1) for i in range(len(v))])
        roce, irn = stats["RoCE"], stats["IRN"]
        for i, q in [(0, "p50"), (1, "p99")]:
            r.add(f"CC {cc}: FCT slowdown {q}",
                  f"IRN <= 1.1 x RoCE+PFC ({roce[i]:.2f})", f"IRN {irn[i]:.2f}",
                  irn[i] <= 1.1 * roce[i])
        s = irn[2]
        r.add(f"CC {cc}: the IRN run has no PFC", "0 pauses; drops recovered",
              f"{s['pfc_pause_frames']} pauses, {s['drops']} drops, "
              f"{s['retransmitted_packets']} retransmitted",
              s["pfc_pause_frames"] == 0)
    r.figure = figures.lines(sim.out / "irn.png", series, "FCT slowdown", "CDF",
                             "WebSearch 30% on the leaf-spine: IRN (no PFC) vs RoCE (PFC)")
    r.notes.append("Setup: `scenarios/cdf-websearch-leaf-spine.json` (WebSearch at 30% load, "
                   "4 x 4 x 8 leaf-spine at 100G); RoCE = go-back-N with PFC, IRN = selective "
                   "repeat with the BDP cap (nic.inflight_cap_packets -1) and PFC off.")
    return r


CASE = Case(
    name="irn",
    title="IRN without PFC",
    claim="With selective retransmission and a BDP-sized cap on packets in flight, RDMA on "
          "a lossy network performs as well as or better than RoCE with PFC.",
    source="Mittal et al., Revisiting Network Support for RDMA, SIGCOMM 2018, Sec. 4 "
           "(Fig. 1-3)",
    run=run,
)
