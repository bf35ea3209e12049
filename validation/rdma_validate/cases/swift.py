"""Swift: the fabric queue settles at the target delay, flows share fairly, and the
endpoint window holds a slow receiving host's queue at the endpoint target."""

from ..case import Case, Result
from ..sim import flow_goodput_gbps, jain, payload_rate_gbps
from .. import figures

STOP_MS = 6.0
BASE_EXTRA_US = 5.0
PER_HOP_US = 1.0
HOPS = 2  # host -> switch -> host


def incast():
    return {
        "name": "swift-incast",
        "stop_time_ms": STOP_MS,
        "topology": {"type": "star", "hosts": 9},
        # Flow scaling off: the target is then base RTT + 5 us + 1 us per hop, a number
        # to compare against (with it, the target grows as windows shrink).
        "cc": {"algorithm": "swift", "swift": {"FlowScaling": False}},
        "traffic": {"incast": {"enabled": True, "receiver": 0, "qps_per_sender": 1,
                               "until_ms": STOP_MS}},
        "output": {"cc_sample_us": 20, "cc_sample_qps": 8, "queue_sample_us": 1,
                   "progress": False},
    }


HOST_GBPS = 10.0
ENDPOINT_BYTES = 2_000_000


def endpoint(target_us, algorithm="swift"):
    """2:1 incast into a host that takes payload at only 10 Gb/s (HostRxModel): the
    bottleneck is the receiving host, not the fabric."""
    return {
        "name": f"swift-endpoint-{algorithm}-{target_us}",
        "stop_time_ms": 20,
        "topology": {"type": "star", "hosts": 3},
        "cc": {"algorithm": algorithm, "swift": {"EndpointTarget": f"{target_us}us"}},
        "nic": {"host_rx": {"rate_gbps": HOST_GBPS, "nodes": [0]}},
        "traffic": {"incast": {"enabled": True, "receiver": 0, "senders": [1, 2],
                               "qps_per_sender": 1, "message_bytes": ENDPOINT_BYTES}},
        "output": {"progress": False},
    }


def endpoint_rows(sim, r):
    """The endpoint window: the host's hold time settles at EndpointTarget, the host
    stays busy, and without Swift the host's queue grows without bound."""
    ideal_ms = 2 * ENDPOINT_BYTES * 8 / (HOST_GBPS * 1e9) * 1e3
    for target in (10, 40):
        run_ = sim.run(f"swift-endpoint-{target}", endpoint(target))
        hold = run_.summary["host_rx"]["mean_delay_us"]
        end_ms = run_.fct.end_ns.max() / 1e6
        r.add(f"slow receiving host (10 Gb/s), EndpointTarget {target} us: host hold time",
              f"mean at the target (x0.8 .. x1.5)", f"{hold:.1f} us",
              0.8 * target <= hold <= 1.5 * target)
        r.add(f"  ... and the host kept busy (EndpointTarget {target} us)",
              f"last flow done within 5% of {ideal_ms:.2f} ms (4 MB at 10 Gb/s)",
              f"{end_ms:.2f} ms", end_ms <= 1.05 * ideal_ms)
    blind = sim.run("swift-endpoint-none", endpoint(10, "none"))
    hold = blind.summary["host_rx"]["mean_delay_us"]
    r.add("the same host without congestion control: host hold time",
          "far above any target (the host's queue grows)", f"{hold:.0f} us", hold > 400)


def run(sim, quick):
    r = Result()
    run_ = sim.run("swift-incast", incast())
    c = payload_rate_gbps(100, 1024)
    t0, t1 = 2e6, STOP_MS * 1e6
    g = flow_goodput_gbps(run_, t0, t1)
    shares = list(g.values())
    r.add("8:1 long-flow incast: fairness over [2, 6] ms", "Jain >= 0.95",
          ", ".join(f"{v:.1f}" for v in shares) + f" Gb/s, Jain {jain(shares):.3f}",
          len(shares) == 8 and jain(shares) >= 0.95)
    r.add("link use over [2, 6] ms", f">= 90% of {c:.1f} Gb/s",
          f"{sum(shares):.1f} Gb/s", sum(shares) >= 0.9 * c)
    q = run_.queue
    # The receiver's port on the switch (node 9, port 0: host 0's link).
    q = q[(q.node == 9) & (q.port == 0) & (q.time_ns >= t0)]
    # queue.csv leaves out samples of an empty queue: average over every 1 us slot.
    mean_bytes = float(q.bytes.sum()) / ((t1 - t0) / 1000)
    queue_us = mean_bytes * 8 / 100e3  # bytes at 100 Gb/s, in us
    target_us = BASE_EXTRA_US + PER_HOP_US * HOPS
    r.add("queueing delay at the bottleneck (mean over [2, 6] ms)",
          f"target - base RTT = {target_us:.0f} us (x0.5 .. x1.5)",
          f"{queue_us:.1f} us ({mean_bytes / 1e3:.0f} KB)",
          0.5 * target_us <= queue_us <= 1.5 * target_us)
    qq = run_.queue
    qq = qq[(qq.node == 9) & (qq.port == 0)]
    r.figure = figures.lines(sim.out / "swift.png",
                             {"bottleneck queue": (qq.time_ns / 1e6, qq.bytes / 1e3)},
                             "time (ms)", "queue (KB)", "Swift 8:1, flow scaling off",
                             shade=[(2.0, STOP_MS, "measured")])
    endpoint_rows(sim, r)
    r.notes.append("Flow scaling is off so that the target is a fixed number (base RTT + "
                   "5 us + 1 us per hop, the module's defaults).")
    r.notes.append("Endpoint window: the receiving host is modelled (nic.host_rx: it takes "
                   "payload at 10 Gb/s, and every ACK carries how long the host held its "
                   "packet, Swift's NIC timestamps). The fabric sees no queue there, so only "
                   "the endpoint window can hold the host's queue; its hold time follows the "
                   "endpoint target (10 and 40 us) while the host stays busy.")
    return r


CASE = Case(
    name="swift",
    title="Swift target delay and fairness",
    claim="Swift holds the fabric delay at its target (base plus per-hop allowance), "
          "shares the bottleneck fairly, and its endpoint window holds the delay in a slow "
          "receiving host at the endpoint target.",
    source="Kumar et al., Swift: Delay is Simple and Effective for Congestion Control in "
           "the Datacenter, SIGCOMM 2020, Sec. 3 and 5",
    run=run,
)
