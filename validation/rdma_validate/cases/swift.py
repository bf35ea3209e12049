"""Swift: the fabric queue settles at the target delay, and flows share fairly."""

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
    r.notes.append("Flow scaling is off so that the target is a fixed number (base RTT + "
                   "5 us + 1 us per hop, the module's defaults); the endpoint window is "
                   "not covered: no host delay is modelled yet.")
    return r


CASE = Case(
    name="swift",
    title="Swift target delay and fairness",
    claim="Swift holds the fabric delay at its target (base plus per-hop allowance) and "
          "shares the bottleneck fairly.",
    source="Kumar et al., Swift: Delay is Simple and Effective for Congestion Control in "
           "the Datacenter, SIGCOMM 2020, Sec. 3 and 5",
    run=run,
)
