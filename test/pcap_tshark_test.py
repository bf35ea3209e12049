"""Packet captures decoded by Wireshark's tshark agree with the run's own records.

`rdma-run scenarios/demo.json` (7 senders x 16 QPs into host 0, PFC, ECN marking, a
latency probe from host 1) without congestion control, so that the switch marks and
pauses, with `output.pcap.enabled` on hosts 0 and 1; tshark (Debian package `tshark`) decodes the
captures with its standard dissectors (Ethernet, IPv4, UDP 4791 as RoCEv2, InfiniBand
BTH/AETH, MAC control PFC), and the test checks what they say against fct.csv, pfc.csv,
links.csv and summary.json:

- PSNs: per QP of host 1, the data PSNs sent are consecutive from 0, except when they go
  back (a retransmission), and each QP's packets are its messages' sizes in fct.csv;
- ECN: the CE-marked data frames host 0 received are the switch's ECN marks
  (summary.json ecn_marked_packets: every flow goes to host 0 through one switch);
- PFC: the PFC frames host 1 received, per class, are the pause, refresh and resume rows
  of pfc.csv for the switch port facing host 1, each arriving after the row's time;
- the frames are RoCEv2 (UDP 4791, host addresses 10.0.0.N) and the cap holds;
- capturing changes nothing: fct.csv, queue.csv and pfc.csv are byte-identical to those
  of the same run without captures (with and without a cap reached).

Skipped (exit 77 under ctest) when tshark is not installed.
Run: RDMA_RUN=build/bin/rdma-run /usr/bin/python3 -m pytest test/pcap_tshark_test.py
"""

import csv
import json
import math
import os
import shutil
import subprocess
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RUNNER = os.environ.get("RDMA_RUN", str(ROOT / "build" / "bin" / "rdma-run"))
TSHARK = shutil.which("tshark")
pytestmark = pytest.mark.skipif(TSHARK is None, reason="tshark is not installed (apt install tshark)")

FIELDS = [
    "frame.time_epoch", "eth.src", "eth.dst", "eth.type", "ip.src", "ip.dst", "ip.dsfield.ecn",
    "udp.dstport", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
    "infiniband.aeth.syndrome", "macc.opcode", "macc.cbfc.enbv",
] + [f"macc.cbfc.pause_time.c{c}" for c in range(8)]


def run(out, *sets):
    args = [RUNNER, str(ROOT / "scenarios" / "demo.json"), "--quiet", "--out", str(out)]
    for s in ("cc.algorithm=none",) + sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


def decode(pcap):
    """Every frame of a capture as a dict of FIELDS (strings; '' when absent)."""
    cmd = [TSHARK, "-r", str(pcap), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    return [dict(zip(FIELDS, line.split("\t"))) for line in res.stdout.splitlines()]


def num(text):
    return int(text, 0) if text else None


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def capture():
    tmp = Path(tempfile.mkdtemp(prefix="rdma-pcap-"))
    out = tmp / "run"
    res = run(out, "output.pcap.enabled=true", "output.pcap.nodes=[0,1]",
              "output.pcap.max_packets=0")
    assert res.returncode == 0, res.stderr
    files = sorted((out / "pcap").glob("*.pcap"))
    assert [f.name for f in files] == ["rdma-0-0.pcap", "rdma-1-0.pcap"], files
    yield {
        "out": out,
        "host0": decode(out / "pcap" / "rdma-0-0.pcap"),
        "host1": decode(out / "pcap" / "rdma-1-0.pcap"),
        "fct": read_csv(out / "fct.csv"),
        "pfc": read_csv(out / "pfc.csv"),
        "links": read_csv(out / "links.csv"),
        "summary": json.loads((out / "summary.json").read_text()),
        "config": json.loads((out / "config.json").read_text()),
    }
    shutil.rmtree(tmp, ignore_errors=True)


def test_frames_are_rocev2_between_the_hosts_addresses(capture):
    ip_frames = [f for f in capture["host1"] if f["eth.type"] == "0x0800"]
    assert ip_frames, "no IPv4 frame captured"
    assert all(f["udp.dstport"] == "4791" for f in ip_frames)
    assert all(f["infiniband.bth.opcode"] != "" for f in ip_frames), "BTH not decoded"
    assert {f["ip.src"] for f in ip_frames} == {"10.0.0.1", "10.0.0.0"}
    acks = [f for f in capture["host0"] if f["ip.src"] == "10.0.0.0" and num(f["infiniband.bth.opcode"]) == 0x11]
    assert acks and all(f["infiniband.aeth.syndrome"] != "" for f in acks), "ACKs carry an AETH"


def test_psns_are_consecutive_per_qp_except_retransmissions(capture):
    mtu = capture["config"]["nic"]["mtu_bytes"]
    psns = defaultdict(list)
    for f in capture["host1"]:
        if f["ip.src"] == "10.0.0.1" and num(f["infiniband.bth.opcode"]) in (0x01, 0x02):
            psns[num(f["infiniband.bth.destqp"])].append(num(f["infiniband.bth.psn"]))
    assert psns, "no data frame sent by host 1"
    for qp, seq in psns.items():
        assert seq[0] == 0, f"QP {qp} starts at PSN {seq[0]}"
        for prev, nxt in zip(seq, seq[1:]):
            assert nxt == prev + 1 or nxt <= prev, f"QP {qp}: PSN {prev} then {nxt} (a gap)"
        assert sorted(set(seq)) == list(range(max(seq) + 1)), f"QP {qp}: PSNs missing"
    # fct.csv: one row per message; a QP's messages (the latency probe's) share its PSNs.
    packets = Counter()
    for r in capture["fct"]:
        if r["src"] == "1":
            packets[r["qp"]] += math.ceil(int(r["size_bytes"]) / mtu)
    assert len(psns) == len(packets), "one QP in the capture per QP of host 1 in fct.csv"
    assert Counter(max(s) + 1 for s in psns.values()) == Counter(packets.values()), \
        "packets per QP = its messages' sizes / MTU"


def test_ce_marks_received_equal_the_switch_marks(capture):
    s = capture["summary"]
    assert s["drops"] == 0
    assert all(r["dst"] == "0" for r in capture["fct"]), "every flow ends at host 0"
    ce = sum(1 for f in capture["host0"]
             if f["ip.dst"] == "10.0.0.0" and num(f["infiniband.bth.opcode"]) in (0x01, 0x02)
             and f["ip.dsfield.ecn"] == "3")
    assert ce > 0, "the demo's incast marks packets"
    assert ce == s["ecn_marked_packets"]


def test_pfc_frames_received_equal_pfc_csv_rows_of_the_facing_port(capture):
    link = next(r for r in capture["links"] if r["node"] == "1")
    switch, port = link["peer_node"], link["peer_port"]
    rows = [r for r in capture["pfc"] if r["node"] == switch and r["port"] == port
            and r["event"] in ("pause", "refresh", "resume")]
    host1_mac = next(f["eth.src"] for f in capture["host1"] if f["ip.src"] == "10.0.0.1")
    frames = [f for f in capture["host1"] if f["eth.type"] == "0x8808"]
    assert all(f["eth.src"] != host1_mac for f in frames), "host 1 sends no PFC frame"
    assert all(num(f["macc.opcode"]) == 0x0101 for f in frames)
    got = []
    for f in frames:
        enbv = num(f["macc.cbfc.enbv"])
        assert enbv and enbv & (enbv - 1) == 0, "one class per frame"
        c = enbv.bit_length() - 1
        quanta = num(f[f"macc.cbfc.pause_time.c{c}"])
        got.append((float(f["frame.time_epoch"]), c, "resume" if quanta == 0 else "pause"))
    want = [(int(r["time_ns"]) * 1e-9, int(r["prio"]), "resume" if r["event"] == "resume" else "pause")
            for r in rows]
    assert len(want) > 0, "the demo pauses host 1"
    assert [(c, e) for _, c, e in got] == [(c, e) for _, c, e in want]
    for (t_got, _, _), (t_want, _, _) in zip(got, want):
        assert 0 <= t_got - t_want <= 5e-6, "a PFC frame arrives within 5 us of being sent"


def test_capturing_changes_no_result(capture):
    tmp = Path(tempfile.mkdtemp(prefix="rdma-pcap-off-"))
    try:
        res = run(tmp / "off")
        assert res.returncode == 0, res.stderr
        for name in ("fct.csv", "queue.csv", "pfc.csv"):
            assert (capture["out"] / name).read_bytes() == (tmp / "off" / name).read_bytes(), name
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_max_packets_caps_each_file_and_no_capture_writes_none():
    tmp = Path(tempfile.mkdtemp(prefix="rdma-pcap-cap-"))
    try:
        res = run(tmp / "cap", "output.pcap.enabled=true", "output.pcap.nodes=[0,8]",
                  "output.pcap.max_packets=50")
        assert res.returncode == 0, res.stderr
        files = sorted((tmp / "cap" / "pcap").glob("*.pcap"))
        assert len(files) == 1 + 8, "host 0's port and the switch's 8 ports"
        for f in files:
            assert len(decode(f)) == 50, f.name
        res = run(tmp / "off")
        assert res.returncode == 0, res.stderr
        assert not (tmp / "off" / "pcap").exists()
        for name in ("fct.csv", "queue.csv", "pfc.csv"):
            assert (tmp / "cap" / name).read_bytes() == (tmp / "off" / name).read_bytes(), name
        res = run(tmp / "bad", "output.pcap.enabled=true", "output.pcap.nodes=[0,99]")
        assert res.returncode == 2
        errors = [line for line in res.stderr.splitlines() if line.startswith("rdma-run: error:")]
        assert len(errors) == 1, res.stderr
        assert "demo.json: key 'output.pcap.nodes' has invalid value [0,99]" in errors[0]
        assert not (tmp / "bad").exists()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
