"""Load balancing: spraying needs a receiver that tolerates reordering, adaptive routing
avoids a degraded link, and flowlets do not move paced RDMA flows."""

from ..case import Case, Result
from .. import figures


def mean_fct_us(run_):
    f = run_.fct
    return float(f[f.kind != "probe"].fct_ns.mean() / 1e3)


def run(sim, quick):
    r = Result()
    perm = "scenarios/leaf-spine-128-permutation.json"
    ecmp = sim.run("lb-ecmp", perm, {"routing.load_balancer": "ecmp",
                                     "nic.loss_recovery": "go_back_n"})
    spray_gbn = sim.run("lb-spray-gbn", perm, {"routing.load_balancer": "spray",
                                               "nic.loss_recovery": "go_back_n"})
    spray_dp = sim.run("lb-spray-dp", perm, {"routing.load_balancer": "spray",
                                             "nic.loss_recovery": "direct_placement"})
    flowlet = sim.run("lb-flowlet", perm, {"routing.load_balancer": "flowlet",
                                           "nic.loss_recovery": "go_back_n"})
    m = {k: mean_fct_us(v) for k, v in
         [("ECMP", ecmp), ("spray + go-back-N", spray_gbn),
          ("spray + direct placement", spray_dp), ("flowlet", flowlet)]}
    r.add("128-host permutation: spray + go-back-N vs ECMP (mean FCT)",
          f"worse than ECMP ({m['ECMP']:.0f} us)", f"{m['spray + go-back-N']:.0f} us",
          m["spray + go-back-N"] > m["ECMP"])
    r.add("spray + direct placement vs ECMP (mean FCT)", f"better than ECMP ({m['ECMP']:.0f} us)",
          f"{m['spray + direct placement']:.0f} us", m["spray + direct placement"] < m["ECMP"])
    s = flowlet.summary
    r.add("flowlet (10 us gap): paced flows never change path",
          "0 out-of-order packets, 0 retransmissions",
          f"{s['out_of_order_packets']} out of order, {s['retransmitted_packets']} retransmitted",
          s["out_of_order_packets"] == 0 and s["retransmitted_packets"] == 0)
    deg = "scenarios/leaf-spine-128-degraded.json"
    ada = sim.run("lb-degraded-adaptive", deg, {})
    dec = sim.run("lb-degraded-ecmp", deg, {"routing.load_balancer": "ecmp",
                                            "nic.loss_recovery": "go_back_n"})
    a99 = float(ada.fct.fct_ns.quantile(0.99) / 1e3)
    e99 = float(dec.fct.fct_ns.quantile(0.99) / 1e3)
    r.add("degraded fabric (one 25G link): adaptive vs ECMP (p99 FCT)",
          f"better than ECMP ({e99:.0f} us)", f"{a99:.0f} us", a99 < e99)
    m["adaptive, degraded"] = float(ada.fct.fct_ns.mean() / 1e3)
    m["ECMP, degraded"] = float(dec.fct.fct_ns.mean() / 1e3)
    r.figure = figures.bars(sim.out / "lb.png", list(m), {"mean FCT": list(m.values())},
                            "mean FCT (us)", "2 MB permutation, 8 x 8 x 16 leaf-spine")
    return r


CASE = Case(
    name="lb",
    title="Load balancing",
    claim="Per-packet spraying helps only with a receiver that accepts reordering; "
          "adaptive routing beats ECMP when a link is degraded; flowlet switching does not "
          "move RDMA flows, which are paced and never pause long enough.",
    source="Kabbani et al., FlowBender, CoNEXT 2014; Alizadeh et al., CONGA, SIGCOMM 2014; "
           "ConWeave (Song et al., SIGCOMM 2023), Sec. 2",
    run=run,
)
