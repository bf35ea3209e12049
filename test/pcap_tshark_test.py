"""Packet captures decoded by Wireshark's tshark agree with the run's own records.

`rdma-run scenarios/demo.json` (7 senders x 16 QPs into host 0, PFC, ECN marking, a
latency probe from host 1) without congestion control, so that the switch marks and
pauses, with `output.pcap.enabled` on hosts 0 and 1; tshark (Debian package `tshark`) decodes the
captures with its standard dissectors (Ethernet, IPv4, UDP 4791 as RoCEv2, InfiniBand
BTH/AETH, MAC control PFC), and the test checks what they say against fct.csv, pfc.csv,
links.csv and summary.json:

- PSNs: per QP of host 1, the data PSNs sent are consecutive from 0, except when they go
  back (a retransmission), and each QP's packets are its messages' sizes in fct.csv;
- opcodes: per QP, a message of several packets is RC SEND First, Middle..., Last and one
  of a single packet is SEND Only; a retransmission has its original's opcode; the
  messages the opcodes delimit are fct.csv's, QP by QP;
- in a lossy run (PFC off, so the switch drops): every NAK's AETH says NAK, PSN
  sequence error, and the sender then resends the PSN it names; ACKs say ACK; CNPs are
  opcode 0x81 with the BECN bit, which no data frame has;
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
import struct
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
    "udp.srcport", "udp.dstport", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
    "infiniband.aeth.syndrome", "infiniband.aeth.syndrome.opcode",
    "infiniband.aeth.syndrome.error_code", "macc.opcode", "macc.cbfc.enbv",
] + [f"macc.cbfc.pause_time.c{c}" for c in range(8)]


def run(out, *sets):
    args = [RUNNER, str(ROOT / "scenarios" / "demo.json"), "--quiet", "--out", str(out)]
    for s in ("cc.algorithm=none",) + sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True, timeout=600)


# IBTA RC opcodes (InfiniBand Architecture Specification, table 38) and the RoCEv2 CNP.
SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY = 0x00, 0x01, 0x02, 0x04
SENDS = (SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY)
ACKNOWLEDGE, CNP = 0x11, 0x81
BTH_OFFSET = 14 + 20 + 8  # Ethernet II, IPv4 without options, UDP
BECN = 0x40               # BTH byte 4: FECN 0x80, BECN 0x40


def raw_frames(pcap):
    """The bytes of every frame of a pcap file (tshark 4.0 has no field for the BTH's
    FECN/BECN byte, so it is read here: the classic pcap format, either byte order)."""
    data = Path(pcap).read_bytes()
    order = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    frames, at = [], 24
    while at < len(data):
        incl = struct.unpack_from(order + "I", data, at + 8)[0]
        frames.append(data[at + 16:at + 16 + incl])
        at += 16 + incl
    return frames


def decode(pcap):
    """Every frame of a capture as a dict of FIELDS (strings; '' when absent), with its
    BTH's BECN bit as "becn" (True/False; None for a frame without BTH)."""
    cmd = [TSHARK, "-r", str(pcap), "-T", "fields", "-E", "separator=\t", "-E", "occurrence=f"]
    for f in FIELDS:
        cmd += ["-e", f]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    frames = [dict(zip(FIELDS, line.split("\t"))) for line in res.stdout.splitlines()]
    raw = raw_frames(pcap)
    assert len(raw) == len(frames)
    for f, b in zip(frames, raw):
        f["becn"] = bool(b[BTH_OFFSET + 4] & BECN) if f["infiniband.bth.opcode"] else None
    return frames


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
        if f["ip.src"] == "10.0.0.1" and num(f["infiniband.bth.opcode"]) in SENDS:
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


@pytest.fixture(scope="module")
def lossy():
    """The demo with PFC off: the switch drops at host 0's port, receivers send NAKs and
    CNPs, senders go back. Host 1's capture: what it sends, and the answers it gets."""
    tmp = Path(tempfile.mkdtemp(prefix="rdma-pcap-lossy-"))
    out = tmp / "run"
    res = run(out, "switch.pfc.enabled=false", "output.pcap.enabled=true",
              "output.pcap.nodes=[1]", "output.pcap.max_packets=0")
    assert res.returncode == 0, res.stderr
    yield {"host1": decode(out / "pcap" / "rdma-1-0.pcap"),
           "summary": json.loads((out / "summary.json").read_text())}
    shutil.rmtree(tmp, ignore_errors=True)


def sent_messages(frames):
    """Per QP of host 1 (its UDP source port: the demo keeps one per QP), the messages
    its SEND opcodes delimit, as packet counts in PSN order. Asserts on the way that a
    message starts with First (or is Only), goes on with Middle and ends with Last, and
    that a retransmitted PSN has the opcode it was first sent with."""
    opcodes = defaultdict(dict)  # qp -> psn -> opcode of its first transmission
    for f in frames:
        op = num(f["infiniband.bth.opcode"])
        if f["ip.src"] != "10.0.0.1" or op not in SENDS:
            continue
        qp, psn = f["udp.srcport"], num(f["infiniband.bth.psn"])
        first = opcodes[qp].setdefault(psn, op)
        assert op == first, f"QP {qp} PSN {psn}: resent as {op:#x}, first sent as {first:#x}"
    messages = {}
    for qp, by_psn in opcodes.items():
        assert sorted(by_psn) == list(range(len(by_psn))), f"QP {qp}: PSNs missing"
        sizes, open_packets = [], 0
        for psn in range(len(by_psn)):
            op = by_psn[psn]
            if open_packets == 0:
                assert op in (SEND_FIRST, SEND_ONLY), f"QP {qp} PSN {psn} starts a message: {op:#x}"
            else:
                assert op in (SEND_MIDDLE, SEND_LAST), f"QP {qp} PSN {psn} inside a message: {op:#x}"
            open_packets += 1
            if op in (SEND_LAST, SEND_ONLY):
                sizes.append(open_packets)
                open_packets = 0
        assert open_packets == 0, f"QP {qp}: its last message has no Last packet"
        messages[qp] = tuple(sizes)
    return messages


def test_send_opcodes_are_each_packets_place_in_its_message(capture):
    mtu = capture["config"]["nic"]["mtu_bytes"]
    got = sent_messages(capture["host1"])
    assert any(len(m) > 1 for m in got.values()), "a QP with several messages (the probe's)"
    assert any(n > 1 for m in got.values() for n in m), "multi-packet messages (the incast's)"
    want = defaultdict(list)
    for r in sorted(capture["fct"], key=lambda r: int(r["start_ns"])):
        if r["src"] == "1":
            want[r["qp"]].append(math.ceil(int(r["size_bytes"]) / mtu))
    assert Counter(got.values()) == Counter(tuple(m) for m in want.values()), \
        "each QP's messages, as the opcodes delimit them, are its messages in fct.csv"


def test_retransmissions_keep_their_opcode_and_naks_name_the_psn_resent(lossy):
    frames = lossy["host1"]
    assert lossy["summary"]["drops"] > 0, "PFC off: the incast drops"
    sent_messages(frames)  # retransmissions included: each with its original opcode
    answers = [f for f in frames
               if f["ip.dst"] == "10.0.0.1" and num(f["infiniband.bth.opcode"]) == ACKNOWLEDGE]
    assert answers and all(f["infiniband.aeth.syndrome"] != "" for f in answers)
    # AETH syndrome: bits 6-5 say ACK (0) or NAK (3); a NAK's low bits its code (0: PSN
    # sequence error, the only one the responder sends: a packet arrived past a hole).
    kinds = Counter(num(f["infiniband.aeth.syndrome.opcode"]) for f in answers)
    assert set(kinds) == {0, 3} and kinds[0] > kinds[3], kinds
    naks = [(i, f) for i, f in enumerate(frames)
            if f["ip.dst"] == "10.0.0.1" and num(f["infiniband.bth.opcode"]) == ACKNOWLEDGE
            and num(f["infiniband.aeth.syndrome.opcode"]) == 3]
    assert naks, "the receiver asks for the lost packets"
    assert all(num(f["infiniband.aeth.syndrome.error_code"]) == 0 for _, f in naks)
    # Capture order, not time stamps: the sender answers a NAK in the same nanosecond.
    data = [(i, f["udp.srcport"], num(f["infiniband.bth.psn"])) for i, f in enumerate(frames)
            if f["ip.src"] == "10.0.0.1" and num(f["infiniband.bth.opcode"]) in SENDS]
    for at, nak in naks:
        qp, psn = nak["udp.srcport"], num(nak["infiniband.bth.psn"])
        assert any(q == qp and p == psn and i < at for i, q, p in data), \
            f"QP {qp}: NAK (frame {at + 1}) for PSN {psn}, which was never sent before"
        assert any(q == qp and p == psn and i > at for i, q, p in data), \
            f"QP {qp}: NAK (frame {at + 1}) for PSN {psn} and no retransmission of it follows"


def test_cnps_are_opcode_0x81_with_becn(lossy):
    frames = [f for f in lossy["host1"] if f["becn"] is not None]
    cnps = [f for f in frames if num(f["infiniband.bth.opcode"]) == CNP]
    assert cnps, "host 0 notifies host 1's QPs of the marks"
    assert all(f["ip.dst"] == "10.0.0.1" and f["becn"] for f in cnps)
    assert not any(f["becn"] for f in frames if num(f["infiniband.bth.opcode"]) in SENDS), \
        "no data frame carries BECN"


def test_ce_marks_received_equal_the_switch_marks(capture):
    s = capture["summary"]
    assert s["drops"] == 0
    assert all(r["dst"] == "0" for r in capture["fct"]), "every flow ends at host 0"
    ce = sum(1 for f in capture["host0"]
             if f["ip.dst"] == "10.0.0.0" and num(f["infiniband.bth.opcode"]) in SENDS
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
