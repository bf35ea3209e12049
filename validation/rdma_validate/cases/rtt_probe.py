"""The RTT-probe controller at its design scale: 7 x 1,000 QPs into one 100G port with
no PFC, each QP its own rate: no loss, a low queue and small flows at fabric latency
(the CTCC field test: max queue 1.22 MB, small flows 20.31 us on average), against DCQCN
with PFC on the same traffic."""

from ..case import Case, Result


def run(sim, quick):
    r = Result()
    short = {"stop_time_ms": 8, "traffic.incast.until_ms": 8} if quick else {}
    probe = sim.run("rttprobe-7000", "scenarios/rtt-probe-incast-7x1000.json", short)
    dcqcn = sim.run("rttprobe-dcqcn-7000", "scenarios/dcqcn-pfc-incast-7x1000.json",
                    short)
    p, d = probe.summary, dcqcn.summary
    # The reference measured in the steady state: the small flows that start after 5 ms.
    f = probe.fct
    small = f[(f.kind == "flow") & (f.size_bytes <= 4096) & (f.start_ns >= 5e6)].fct_ns / 1e3
    r.add("RTT-probe, PFC and ECN off: drops", "0", str(p["drops"]), p["drops"] == 0)
    r.add("RTT-probe: PFC pauses", "0 (PFC off)", str(p["pfc_pause_frames"]),
          p["pfc_pause_frames"] == 0)
    r.add("RTT-probe: largest queue, against DCQCN+PFC", "below DCQCN+PFC's",
          f"{p['max_queue_bytes'] / 1e3:.0f} KB (DCQCN+PFC {d['max_queue_bytes'] / 1e3:.0f} KB)",
          p["max_queue_bytes"] < d["max_queue_bytes"])
    r.add("RTT-probe: largest queue", "1.22 MB (at most 1.5 MB)",
          f"{p['max_queue_bytes'] / 1e6:.2f} MB", p["max_queue_bytes"] <= 1.5e6)
    r.add("RTT-probe: 1 KB flows under the controller, mean FCT after 5 ms",
          "20.31 us (at most 25 us)", f"{small.mean():.1f} us ({len(small)} flows)",
          len(small) > 0 and small.mean() <= 25)
    r.add("DCQCN on the same traffic needs PFC", "pauses > 0",
          f"{d['pfc_pause_frames']} pauses", d["pfc_pause_frames"] > 0)
    return r


CASE = Case(
    name="rtt-probe",
    title="RTT-probe at 7,000 QPs",
    claim="An RTT-probing NIC controller with AIMD against a target RTT, a rate per QP, keeps "
          "a 7 x 1,000 QP incast into one 100G port lossless without PFC, with a low queue "
          "and small flows near fabric latency.",
    source="China Telecom's PFC-free RoCE design (the product's defining case)",
    run=run,
    quick=True,
)
