"""Fabric physics: line rate, base RTT and ideal FCT against their analytic values, and
PFC headroom that never drops."""

from ..case import Case, Result
from ..sim import (ACK_WIRE_BYTES, DATA_OVERHEAD_BYTES, flow_goodput_gbps,
                   payload_rate_gbps)
from .. import figures


def wire_ns(nbytes, gbps):
    return nbytes * 8 / gbps


def analytic_ideal_ns(nbytes, mtu, gbps, delay_ns, links=2):
    """A message alone on ``links`` equal links: all its wire bytes at the rate, the
    last packet once more per extra link, propagation both ways, the ACK back."""
    full, rest = divmod(nbytes, mtu)
    last = (rest or mtu) + DATA_OVERHEAD_BYTES
    total = full * (mtu + DATA_OVERHEAD_BYTES) + (rest + DATA_OVERHEAD_BYTES if rest else 0)
    return (wire_ns(total, gbps) + (links - 1) * wire_ns(last, gbps)
            + links * (2 * delay_ns + wire_ns(ACK_WIRE_BYTES, gbps)))


def one_flow(gbps, mtu, nbytes):
    return {
        "name": f"line-{gbps}g-{mtu}",
        "stop_time_ms": 50,
        "topology": {"type": "star", "hosts": 2, "host_rate_gbps": gbps, "host_delay_us": 1},
        "nic": {"mtu_bytes": mtu},
        "cc": {"algorithm": "none"},
        "traffic": {"incast": {"enabled": True, "receiver": 0,
                                                 "senders": [1], "qps_per_sender": 1,
                                                 "message_bytes": nbytes}},
        "output": {"cc_sample_us": 20, "cc_sample_qps": 1, "progress": False},
    }


def incast(delay_us):
    return {
        "name": f"headroom-{delay_us}us",
        "stop_time_ms": 50,
        "topology": {"type": "star", "hosts": 8, "host_delay_us": delay_us},
        "cc": {"algorithm": "none"},
        "traffic": {"incast": {"enabled": True, "receiver": 0, "qps_per_sender": 2,
                               "message_bytes": 2000000}},
        "output": {"progress": False},
    }


def run(sim, quick):
    r = Result()
    rows = []
    rates = [25, 100, 400]
    for gbps in rates:
        for mtu in ([1024] if quick else [1024, 4096]):
            nbytes = int(gbps * 125000 * (1 if quick else 2))  # 1-2 ms at line rate
            run_ = sim.run(f"line-{gbps}g-{mtu}", one_flow(gbps, mtu, nbytes))
            fct = run_.fct
            f = fct[fct.kind == "incast"].iloc[0]
            expect = payload_rate_gbps(gbps, mtu)
            # Goodput in the middle of the transfer (cc.csv acked bytes), away from its ends.
            dur = int(f.fct_ns)
            got = list(flow_goodput_gbps(run_, dur * 0.2, dur * 0.8).values())[0]
            err = got / expect - 1
            r.add(f"payload rate, {gbps}G, MTU {mtu}", f"{expect:.3f} Gb/s (+-0.5%)",
                  f"{got:.3f} Gb/s ({100 * err:+.3f}%)", abs(err) <= 0.005)
            ideal = analytic_ideal_ns(nbytes, mtu, gbps, 1000)
            # (The simulator counts whole nanoseconds per serialization: +-0.01%.)
            r.add(f"ideal FCT, {gbps}G, MTU {mtu}", f"{ideal:.0f} ns (analytic, +-0.01%)",
                  f"{int(f.ideal_fct_ns)} ns; actual FCT {int(f.fct_ns)} ns",
                  abs(int(f.ideal_fct_ns) / ideal - 1) <= 1e-4
                  and 1.0 <= f.fct_ns / ideal <= 1.005)
            rtt = 2 * (wire_ns(mtu + DATA_OVERHEAD_BYTES, gbps) + wire_ns(ACK_WIRE_BYTES, gbps)
                       + 2000)
            got_rtt = run_.summary["base_rtt_us"] * 1000
            r.add(f"base RTT, {gbps}G, MTU {mtu}", f"{rtt:.1f} ns (analytic, +-0.1%)",
                  f"{got_rtt:.1f} ns", abs(got_rtt / rtt - 1) <= 1e-3)
            rows.append((gbps, mtu, expect, got))
    for delay in ([1, 100] if quick else [1, 10, 30, 100]):
        s = sim.run(f"headroom-{delay}us", incast(delay)).summary
        r.add(f"7:1 incast, PFC, no CC, link delay {delay} us",
              "0 drops (headroom covers the round trip)",
              f"{s['drops']} drops, {s['pfc_pause_frames']} pause frames, "
              f"{s['bytes_delivered']} of {s['bytes_sent']} B",
              s["drops"] == 0 and s["pfc_pause_frames"] > 0
              and s["bytes_delivered"] == s["bytes_sent"] and s["all_flows_completed"])
    r.figure = figures.bars(sim.out / "fabric.png",
                            [f"{g}G/{m}" for g, m, _, _ in rows],
                            {"analytic": [e for _, _, e, _ in rows],
                             "simulated": [g for _, _, _, g in rows]},
                            "payload rate (Gb/s)", "One long flow at line rate")
    return r


CASE = Case(
    name="fabric",
    title="Fabric physics",
    claim="A lone flow runs at line rate minus header overhead (to 0.5%), base RTT and "
          "ideal FCT equal their analytic values, and PFC headroom sized from link rate "
          "and delay keeps a lossless fabric drop-free at any link delay from 1 to 100 us.",
    source="IEEE 802.1Qbb (PFC headroom); RoCEv2 framing (InfiniBand Annex A17)",
    run=run,
    quick=True,
)
