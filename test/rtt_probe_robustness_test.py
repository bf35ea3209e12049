"""The rtt-probe-robustness case of ./rdma validate, on synthetic tables (no simulator):
its cell checks pass and fail where the issue's targets say (fan-in: no drops, queue at
most 1.5 MB, 2.5 MB from 127 senders, at least 88 Gb/s of payload from 5 to 10 ms;
messages: mean FCT at most the mean ideal + 25 us, p99 at most the ideal's + 150 us),
its scenarios are the ones the issue names, and --quick runs its four cells."""

import sys
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "validation"))
from rdma_validate.cases import ALL, rtt_probe_robustness as rpr  # noqa: E402

MS = 1_000_000


def ports(switch, wire_gbps, node_noise=True):
    """ports.csv of a run whose port 0 of ``switch`` sends ``wire_gbps`` of wire bytes
    from 0 to 12 ms, sampled every 10 us (and another port at 100G, to be ignored)."""
    rows = []
    for t in range(10_000, 12 * MS + 1, 10_000):
        rows.append((t, switch, 0, wire_gbps * t / 8))
        if node_noise:
            rows.append((t, switch, 1, 100 * t / 8))
            rows.append((t, 1, 0, 100 * t / 8))
    return pd.DataFrame(rows, columns=["time_ns", "node", "port", "tx_bytes"])


def summary(drops=0, queue=1.0e6):
    return {"drops": drops, "max_queue_bytes": queue}


def wire_for(payload_gbps, mtu=1024):
    return payload_gbps * (mtu + 82) / mtu


def test_payload_is_wire_times_mtu_over_mtu_plus_82():
    # 110.6 Gb/s of wire at a 1024 B MTU: 110.6 x 1024 / 1106 = 102.4 Gb/s payload.
    g = rpr.bottleneck_payload_gbps(ports(8, 110.6), 8, 1024)
    assert g == pytest.approx(102.4)
    g = rpr.bottleneck_payload_gbps(ports(8, 100.0), 8, 4096)
    assert g == pytest.approx(100 * 4096 / 4178)


def test_payload_window_is_5_to_10_ms_only():
    # 50G before 5 ms, 95G (payload) from 5 to 10 ms, nothing after 10 ms.
    p = ports(8, wire_for(95.0), node_noise=False)
    early = p.time_ns < 5 * MS
    p.loc[early, "tx_bytes"] = 50 * p.time_ns[early] / 8
    shift = wire_for(95.0) * 5 * MS / 8 - 50 * 5 * MS / 8
    p.loc[~early, "tx_bytes"] -= shift
    p.loc[p.time_ns > 10 * MS, "tx_bytes"] = p.tx_bytes[p.time_ns == 10 * MS].iloc[0]
    assert rpr.bottleneck_payload_gbps(p, 8, 1024) == pytest.approx(95.0)


def test_payload_without_samples_in_the_window_is_none():
    p = ports(8, 100.0)
    assert rpr.bottleneck_payload_gbps(p[p.time_ns < 5 * MS], 8, 1024) is None
    _, got, ok = rpr.check_fanin(summary(), p[p.time_ns < 5 * MS], 7, 1024)
    assert not ok and "n/a" in got


@pytest.mark.parametrize("n, drops, queue, payload, ok", [
    (7, 0, 1.2e6, 95.0, True),
    (7, 0, 1.5e6, 88.0, True),       # both limits inclusive
    (7, 1, 1.2e6, 95.0, False),      # a drop
    (7, 0, 1.6e6, 95.0, False),      # queue above 1.5 MB
    (7, 0, 1.2e6, 87.5, False),      # payload below 88 Gb/s
    (63, 0, 2.0e6, 95.0, False),     # 1.5 MB up to 63 senders
    (127, 0, 2.0e6, 95.0, True),     # 2.5 MB from 127
    (255, 0, 2.6e6, 95.0, False),
])
def test_fanin_cell(n, drops, queue, payload, ok):
    target, got, passed = rpr.check_fanin(summary(drops, queue),
                                          ports(n + 1, wire_for(payload)), n, 1024)
    assert passed is ok
    assert f"{rpr.queue_limit_bytes(n) / 1e6:.1f} MB" in target
    assert f"{payload:.1f} Gb/s" in got


def test_fanin_cell_reads_the_switch_node_n_plus_1():
    # Node 8 is at 95G but the switch of N=15 is node 16, at 50G.
    p = pd.concat([ports(8, wire_for(95.0)), ports(16, wire_for(50.0), False)])
    assert rpr.check_fanin(summary(), p, 7, 1024)[2]
    assert not rpr.check_fanin(summary(), p, 15, 1024)[2]


def fct(fcts_us, ideal_us=5.0, start_ns=6 * MS, extra=()):
    """fct.csv rows of kind flow (strings where the loader leaves them strings)."""
    rows = [("flow", start_ns + i * 50_000, f * 1e3, str(ideal_us * 1e3))
            for i, f in enumerate(fcts_us)]
    rows += list(extra)
    return pd.DataFrame(rows, columns=["kind", "start_ns", "fct_ns", "ideal_fct_ns"])


def test_messages_pass_within_the_slack():
    # 100 flows of ideal 5 us: mean 29 us <= 5 + 25, p99 about 40 us <= 5 + 150.
    f = fct([29.0] * 98 + [29.0, 29.0])
    _, got, ok = rpr.check_messages(summary(), f)
    assert ok and "100 flows" in got


def test_messages_fail_when_the_mean_exceeds_ideal_plus_25_us():
    f = fct([31.0] * 100)
    assert not rpr.check_messages(summary(), f)[2]


def test_messages_fail_when_p99_exceeds_ideal_p99_plus_150_us():
    # Mean (98 x 6 + 2 x 400) / 100 = 13.9 us passes; p99 400 us > 155 us fails.
    f = fct([6.0] * 98 + [400.0, 400.0])
    assert f.fct_ns.mean() / 1e3 == pytest.approx(13.88)
    assert not rpr.check_messages(summary(), f)[2]
    f = fct([6.0] * 98 + [150.0, 150.0])   # p99 150 us <= 155 us
    assert rpr.check_messages(summary(), f)[2]


def test_messages_ignore_early_flows_and_probes_but_not_drops():
    slow = [("flow", 4_999_999, 9e6, "5000"), ("probe", 6 * MS, 9e6, "5000")]
    f = fct([10.0] * 50, extra=slow)
    assert rpr.check_messages(summary(), f)[2]
    assert not rpr.check_messages(summary(drops=3), f)[2]


def test_messages_with_no_flow_after_5_ms_fail():
    f = fct([10.0] * 10, start_ns=1 * MS)
    _, got, ok = rpr.check_messages(summary(), f)
    assert not ok and "no flow" in got


def test_scenarios_are_the_issues():
    s = rpr.fanin_scenario(255)
    assert s["topology"]["hosts"] == 256
    assert s["traffic"]["incast"]["senders"] == []
    assert s["traffic"]["incast"]["qps_per_sender"] == 27
    assert s["traffic"]["incast"]["until_ms"] == 10 and s["stop_time_ms"] == 12
    assert s["output"]["port_sample_us"] == 10 and s["output"]["progress"] is False
    assert Path(s["traffic"]["flows_csv"]).is_absolute()
    assert Path(s["traffic"]["flows_csv"]).exists()
    assert s["cc"]["algorithm"] == "rtt-probe"
    assert s["switch"]["pfc"]["enabled"] is False and s["switch"]["ecn"]["enabled"] is False
    assert "mtu_bytes" not in s["nic"] and rpr.fanin_scenario(7, 4096)["nic"]["mtu_bytes"] == 4096
    m = rpr.message_scenario("x.csv", 4096)
    assert m["topology"]["hosts"] == 8 and m["traffic"]["flows_csv"] == "x.csv"
    lines = rpr.messages_csv(2048).splitlines()
    assert lines[0] == "src,dst,bytes,start_ns"
    assert lines[1] == "1,0,2048,25000" and lines[2] == "1,0,2048,75000"
    assert lines[-1] == "1,0,2048,9975000" and len(lines) == 201


class FakeSim:
    """Records the runs and answers each with a passing run, except the N=31 fan-in
    (a drop) and the 64 KB messages (mean 100 us over ideal)."""

    def __init__(self, out):
        self.out = out
        self.calls = []

    def write(self, name, text):
        (self.out / name).write_text(text)
        return name

    def run(self, name, scenario, overrides=None):
        self.calls.append((name, scenario))
        n = scenario["topology"]["hosts"] - 1
        mtu = scenario["nic"].get("mtu_bytes", 1024)
        slow = name.startswith("rttrobust-msg64k")
        return SimpleNamespace(
            summary=summary(drops=1 if name == "rttrobust-fan31" else 0),
            ports=ports(n + 1, wire_for(95.0, mtu)),
            fct=fct([105.0 if slow else 10.0] * 100),
            config={"nic": {"mtu_bytes": mtu}})


def test_quick_runs_four_cells_and_reports_each(tmp_path):
    case = [c for c in ALL if c.name == "rtt-probe-robustness"][0]
    # Not in validate --quick: its failing cells are open work, not a CI gate.
    assert not case.quick and case.source == "issue 59: RTT-probe outside its benchmark"
    sim = FakeSim(tmp_path)
    res = rpr.run(sim, True)
    assert sorted(n for n, _ in sim.calls) == ["rttrobust-fan31", "rttrobust-fan7",
                                               "rttrobust-msg1k", "rttrobust-msg64k"]
    assert [c.passed for c in res.checks] == [True, False, True, False]
    assert not res.passed
    assert "2 of 4 cells pass" in res.notes[0]
    # The message runs read the side file Sim.write put next to their scenario.
    msg = dict(sim.calls)["rttrobust-msg64k"]
    assert (tmp_path / msg["traffic"]["flows_csv"]).read_text().startswith(
        "src,dst,bytes,start_ns\n1,0,65536,25000\n")


def test_full_grid(tmp_path):
    sim = FakeSim(tmp_path)
    res = rpr.run(sim, False)
    assert len(res.checks) == 6 + 7 + 2
    names = dict(sim.calls)
    assert names["rttrobust-fan7-mtu4k"]["nic"]["mtu_bytes"] == 4096
    assert names["rttrobust-msg4k-mtu4k"]["traffic"]["flows_csv"] == "rttrobust-msgs-4k.csv"
    assert "13 of 15 cells pass" in res.notes[0]
