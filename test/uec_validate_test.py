"""The uec case of ./rdma validate (htsim's Ultra Ethernet suites), without a simulator:
the settings it derives are htsim's formulas (a queue of one BDP of the network RTT in
whole packets, ECN thresholds inside it, an ACK per packet, failed links on aggregation
switch 0's uplinks), every case of the six suites is either run or listed
with the reason it is not, and --quick runs the single connection and the 16-node
incast."""

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation"))
from rdma_validate.cases import ALL, uec  # noqa: E402


class FakeSim:
    """Writes, for each run, an fct.csv in which every connection of the matrix
    completed after ``fct_us``."""

    def __init__(self, out, fct_us):
        self.out, self.fct_us, self.runs = Path(out), fct_us, []

    def run(self, name, scenario):
        self.runs.append((name, scenario))
        cm = Path(scenario["traffic"]["htsim_cm"])
        conns = [l.split() for l in cm.read_text().splitlines() if "->" in l]
        rows = ["flow_id,kind,src,dst,qp,prio,size_bytes,start_ns,end_ns,fct_ns,ideal_fct_ns,"
                "slowdown"]
        for i, c in enumerate(conns):
            src, dst = c[0].split("->")
            rows.append(f"{i},flow,{src},{dst},0,3,1,0,{self.fct_us * 1e3},"
                        f"{self.fct_us * 1e3},1,1")
        (self.out / name).mkdir(parents=True)
        (self.out / name / "fct.csv").write_text("\n".join(rows) + "\n")


def test_registered():
    assert uec.CASE in ALL and uec.CASE.quick


def test_queue_ecn_and_sack_follow_htsims_formulas():
    s, _ = uec.settings("incast.cm", ["-sender_cc_only", "-end", "3000"], 16)
    rtt_s = 14.02272e-6  # 2 x 6 links x 1 us + a 4150 B packet and a 64 B ACK on each
    assert s["cc"]["nscc"]["NetworkRtt"] == f"{round(rtt_s * 1e12)}ps"
    queue = s["switch"]["buffer"]["static_kb"] * 1024
    bdp = rtt_s * 100e9 / 8
    assert queue % uec.PKT == 0 and bdp <= queue < bdp + uec.PKT
    low, high = (s["switch"]["ecn"][k] * 1000 for k in ("kmin_kb", "kmax_kb"))
    assert 0 < low < high <= queue
    assert low == math.ceil(0.2 * queue / uec.PKT) * uec.PKT
    # htsim ACKs window-limited and ECN-marked packets at once; without that flag here,
    # any interval above 1 would leave a window of fewer packets waiting for a timeout.
    assert s["nic"]["ack_interval"] == 1
    # 2,000,000 B in packets of 4,086 B of payload: 490 packets, as htsim counts.
    assert math.ceil(2_000_000 / s["nic"]["mtu_bytes"]) == 490
    assert s["stop_time_ms"] == 3
    one, _ = uec.settings("incast.cm", ["-sack_threshold", "4000", "-q", "500",
                                        "-end", "1000"], 16)
    assert one["switch"]["buffer"]["static_kb"] * 1024 == 500 * uec.PKT


def test_failed_links_are_uplinks_of_aggregation_switch_zero():
    s, notes = uec.settings("perm_1024n_1024c_0u_2000000b.cm",
                            ["-failed", "8", "-end", "3000", "-paths", "128"], 1024)
    ev = s["topology"]["link_events"]
    hosts, tors, aggs = 1024, 128, 128  # k = 16
    assert len(ev) == 8 and notes
    assert {e["a"] for e in ev} == {hosts + tors}
    assert all(hosts + tors + aggs <= e["b"] < hosts + tors + aggs + 64 for e in ev)
    assert all(e["rate_gbps"] == 25 for e in ev)


def test_every_case_is_run_or_listed_with_a_reason(tmp_path):
    sim = FakeSim(tmp_path, fct_us=1.0)
    r = uec.run(sim, quick=False)
    table = r.notes[0].splitlines()[2:]
    total = sum(len(uec.DATA["suites"][s]) for s in uec.SUITES)
    assert len(table) == total
    not_run = [row for row in table if "not run:" in row]
    assert len(not_run) + len(sim.runs) == total
    assert len(r.checks) == len(sim.runs) and r.passed
    for row in not_run:
        assert row.split("not run:")[1].split("|")[0].strip()
    # Every RCCC case is listed, not run.
    rcv = [row for row in table if row.startswith("| validate_uec_rcv ")]
    assert len(rcv) == len(uec.DATA["suites"]["validate_uec_rcv"])
    assert all("RCCC" in row for row in rcv)


def test_a_tail_above_the_target_fails(tmp_path):
    r = uec.run(FakeSim(tmp_path, fct_us=1e6), quick=True)
    assert r.checks and not any(c.passed for c in r.checks)


def test_quick_runs_the_single_connection_and_the_16_node_incast(tmp_path):
    sim = FakeSim(tmp_path, fct_us=1.0)
    uec.run(sim, quick=True)
    cms = sorted(Path(s["traffic"]["htsim_cm"]).name for _, s in sim.runs)
    assert cms == ["incast.cm", "one.cm"]
