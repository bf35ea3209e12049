"""The RTT-probe controller at its design scale: 7 x 1,000 QPs into one 100G port with
no PFC: no loss and a low queue, against DCQCN with PFC on the same traffic."""

from ..case import Case, Result


def run(sim, quick):
    r = Result()
    short = {"stop_time_ms": 8, "traffic.incast.until_ms": 8} if quick else {}
    probe = sim.run("rttprobe-7000", "scenarios/rtt-probe-incast-7x1000.json", short)
    dcqcn = sim.run("rttprobe-dcqcn-7000", "scenarios/dcqcn-pfc-incast-7x1000.json",
                    short)
    p, d = probe.summary, dcqcn.summary
    r.add("RTT-probe, PFC and ECN off: drops", "0", str(p["drops"]), p["drops"] == 0)
    r.add("RTT-probe: PFC pauses", "0 (PFC off)", str(p["pfc_pause_frames"]),
          p["pfc_pause_frames"] == 0)
    r.add("RTT-probe: largest queue", "below DCQCN+PFC's",
          f"{p['max_queue_bytes'] / 1e3:.0f} KB (DCQCN+PFC {d['max_queue_bytes'] / 1e3:.0f} KB)",
          p["max_queue_bytes"] < d["max_queue_bytes"])
    r.add("DCQCN on the same traffic needs PFC", "pauses > 0",
          f"{d['pfc_pause_frames']} pauses", d["pfc_pause_frames"] > 0)
    return r


CASE = Case(
    name="rtt-probe",
    title="RTT-probe at 7,000 QPs",
    claim="An RTT-probing NIC controller with AIMD against a target RTT keeps a 7 x 1,000 QP "
          "incast into one 100G port lossless without PFC, with a low queue.",
    source="China Telecom's PFC-free RoCE design (the product's defining case)",
    run=run,
    quick=True,
)
