"""A scenario run over MPI ranks (`./rdma run SCENARIO --out DIR --ranks N`) against the
same scenario run serially, by the MPI build of `./rdma setup --mpi`, under both of
ns-3's engines (granted-time windows, null messages), lossless, lossy, with a link
failing, and as a small MoE layer pair waiting on deliveries. The merged folder holds
the serial run's files; on one rank they are byte for byte the serial run's; on 2 and 4
ranks the same flows complete (lossless: each within 1% of its serial completion time,
every summary figure within 2%; MoE: each flow within 5%, every group's start and end
within 0.5%), and the latency probe runs until the whole foreground is done, as
serially. Every run balances its byte ledger (bytes sent = delivered + dropped + in
flight); with PFC it drops nothing, lossy it retransmits, and what a failing link loses
is sent again. With simulator.tie_order by_node (events of an instant by the node they
are for), on the rdma engine, a run over 2 or 4 ranks writes the serial run's
files byte for byte. Skipped (exit code 77) without the MPI build."""
import csv
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from summary_numbers import MOE, numbers

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("RDMA_NS3_CACHE") or
             Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ns3-rdma")
RECORD = CACHE / "mpi" / "RUNNER"
SCENARIO = str(ROOT / "scenarios" / "leaf-spine-incast.json")
# The incast is 96 flows into host 0; the probe, from host 31 to host 1, crosses ranks.
BASE = ["--quiet"]
LOSSY = ["--set", "switch.pfc.enabled=false", "--set", "switch.buffer_mb=0.3"]
# A link from leaf 0 (node 32) to spine 0 (node 36) down from 200 us to 900 us.
LINK_DOWN = ["--set", 'topology.link_events=[{"at_us": 200, "a": 32, "b": 36, "action": "down"},'
             ' {"at_us": 900, "a": 32, "b": 36, "action": "up"}]']
EXTRA = {"pfc": [], "lossy": LOSSY, "link_down": LINK_DOWN, "moe": MOE}


def record():
    """The MPI build's record; without a usable one the whole file is skipped (exit code
    77, which ctest reports as skipped)."""
    why = ""
    keys = {}
    if not RECORD.is_file():
        why = "no MPI build (./rdma setup --mpi)"
    else:
        keys = dict(l.split("=", 1) for l in RECORD.read_text().splitlines() if "=" in l)
        if keys.get("source") != str(ROOT / "src" / "rdma"):
            why = "the MPI build is another checkout's (./rdma setup --mpi here)"
        elif not shutil.which("mpirun"):
            why = "no mpirun"
    if why:
        pytest.exit(f"mpi-run: SKIPPED: {why}", returncode=77)
    return keys


@pytest.fixture(scope="session", autouse=True)
def mpi_build():
    return record()


def run(out, *args, ranks=0):
    runner = record()["runner"]
    cmd = [runner, SCENARIO, "--out", str(out), *BASE, *args]
    if ranks:
        mpi = ["mpirun", "--oversubscribe", "-np", str(ranks)]
        if os.geteuid() == 0:
            mpi.append("--allow-run-as-root")
        cmd = [*mpi, *cmd, "--ranks", str(ranks)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads((out / "summary.json").read_text())


def fcts(folder, kind="foreground"):
    """flow id -> FCT of the foreground flows, or of the probe messages (kind "probe")."""
    rows = list(csv.DictReader(open(folder / "fct.csv")))
    out = {r["flow_id"]: int(r["fct_ns"]) for r in rows}
    assert len(out) == len(rows), "a flow completed twice"
    return {r["flow_id"]: out[r["flow_id"]] for r in rows
            if (r["kind"] == "probe") == (kind == "probe")}


def late_probes(summary):
    """Probe messages the ranks posted after the foreground's end (a serial run stops
    before), and their bytes: on the wire in the tail, not reported."""
    per_rank = summary["ranks"]["per_rank"]
    return (sum(r["late_probes"] for r in per_rank),
            sum(r["late_probe_bytes"] for r in per_rank))


@pytest.fixture(scope="module", params=sorted(EXTRA))
def serial(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial") / request.param
    extra = EXTRA[request.param]
    return request.param, extra, out, run(out, *extra)


def check_physics(kind, s):
    """What holds of any run of the scenario, serial or not."""
    assert s["all_flows_completed"], "every flow completes"
    assert s["conservation"]["balanced"], s["conservation"]
    assert s["bytes_delivered"] == s["bytes_sent"]
    if kind == "lossy":
        assert s["drops"] > 0 and s["retransmitted_packets"] > 0, "lossy: drops are recovered"
    else:
        assert s["drops"] == 0, "PFC loses nothing"
    if kind == "moe":
        assert s["collective_completed"], "every group completes"
    if kind == "link_down":
        assert s["link_down_drops"] > 0 and s["retransmitted_packets"] > 0, \
            "what a failed link loses is sent again"


def run_ranks(serial, engine, ranks, tmp_path):
    kind, extra, ref_dir, ref = serial
    out = tmp_path / "out"
    got = run(out, *extra, "--set", f"simulator.engine={engine}", ranks=ranks)
    # The folder: the serial run's files, and nothing left of the ranks' staging.
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in ref_dir.iterdir())
    assert not list(tmp_path.glob("out.partial-*"))
    assert got["ranks"]["count"] == ranks
    assert sum(r["flows"] for r in got["ranks"]["per_rank"]) == ref["flows_total"]
    check_physics(kind, ref)
    check_physics(kind, got)
    assert set(fcts(ref_dir)) == set(fcts(out)), "the same flows complete"
    # The probe runs until the whole foreground is done, as serially: its records follow
    # the foreground's ids without a gap, and none was posted after the last completion.
    probes = fcts(out, "probe")
    assert sorted(int(k) for k in probes) == \
        list(range(ref["flows_total"], ref["flows_total"] + len(probes)))
    ends = [int(r["end_ns"]) for r in csv.DictReader(open(out / "fct.csv"))
            if r["kind"] != "probe"]
    assert all(int(r["start_ns"]) < max(ends) for r in csv.DictReader(open(out / "fct.csv"))
               if r["kind"] == "probe")
    assert len(probes) > 0 and got["probes_completed"] == len(probes)
    return out, got


def sent_ledger(folder, summary, late_bytes=0):
    """Without losses, the payload bytes sent are those of every message reported, and
    of the probes posted over ranks after the foreground's end (late: not reported)."""
    rows = list(csv.DictReader(open(folder / "fct.csv")))
    assert summary["bytes_sent"] == sum(int(r["size_bytes"]) for r in rows) + late_bytes


def off_by_more(want, have, tolerance):
    return {k: (want[k], have[k]) for k in want
            if abs(have[k] - want[k]) > tolerance * max(abs(want[k]), 1)}


@pytest.mark.parametrize("engine", ["rdma", "granted_time", "null_message"])
def test_one_rank_is_the_serial_run(serial, engine, tmp_path):
    """On one rank nothing crosses: every file and figure is the serial run's."""
    out, got = run_ranks(serial, engine, 1, tmp_path)
    ref_dir, ref = serial[2], serial[3]
    for f in ref_dir.glob("*.csv"):
        assert (out / f.name).read_bytes() == f.read_bytes(), f.name
    want, have = dict(numbers(ref)), dict(numbers(got))
    assert set(want) == set(have)
    assert not off_by_more(want, have, 0)


@pytest.mark.parametrize("engine", ["rdma", "granted_time", "null_message"])
@pytest.mark.parametrize("ranks", [2, 4])
def test_ranks_split_the_serial_run(serial, engine, ranks, tmp_path):
    """Over ranks, simultaneous events on different ranks may run in another order than
    serially. Lossless, that moves completions by little: each flow within 1%, the bytes
    and packets exactly, the counts of PFC frames, CNPs and marks within 2%. Lossy or
    with a link failing, one such tie can change which frame a full buffer (or the
    failing link) drops, and a drop costs a timeout: the same flows complete, and nothing
    is lost for good."""
    kind = serial[0]
    out, got = run_ranks(serial, engine, ranks, tmp_path)
    if kind == "moe":
        # A tie moves a delivery, and with it every flow the host releases on it: each
        # flow within 5%, and what a collective is measured by, its groups' first post
        # and last completion, within 0.5% (measured: 2.2% and 0.05% at most).
        a, b = fcts(serial[2]), fcts(out)
        assert max(abs(b[f] - a[f]) / a[f] for f in a) <= 5e-2
        want = list(csv.DictReader(open(serial[2] / "collectives.csv")))
        have = list(csv.DictReader(open(out / "collectives.csv")))
        assert [(r["phase"], r["layer"], r["flows"], r["bytes"]) for r in want] == \
            [(r["phase"], r["layer"], r["flows"], r["bytes"]) for r in have]
        for w, h in zip(want, have):
            for key in ("start_ns", "end_ns"):
                assert abs(int(h[key]) - int(w[key])) <= 5e-3 * int(want[-1]["end_ns"]), (w, h)
        assert got["collective_completed"]
        return
    if kind != "pfc":
        return
    a, b = fcts(serial[2]), fcts(out)
    worst = max(abs(b[f] - a[f]) / a[f] for f in a)
    assert worst <= 1e-2, f"an FCT {worst:.3%} off the serial run's"
    # The foreground's end moves by a tie, and with it the last probe: one more or less.
    pa, pb = fcts(serial[2], "probe"), fcts(out, "probe")
    assert abs(len(pb) - len(pa)) <= 1, (len(pa), len(pb))
    _, late_bytes = late_probes(got)
    sent_ledger(serial[2], serial[3])
    sent_ledger(out, got, late_bytes)
    assert got["bytes_delivered"] == got["bytes_sent"]
    want, have = dict(numbers(serial[3])), dict(numbers(got))
    assert set(want) <= set(have), set(want) - set(have)
    # What the workload fixes is exact; counts of events a tie can add or save (PFC
    # frames, CNPs, marks, queue figures, the probes) within 2%.
    assert have["flows_completed"] == want["flows_completed"]
    assert not off_by_more(want, have, 2e-2)


BY_NODE = ["--set", "simulator.tie_order=by_node"]
# What the probe's messages posted after the foreground's end add over ranks (a serial
# run stops before): their bytes, frames and packets, and the figures made of them.
LATE_PROBE_KEYS = {"bytes_sent", "bytes_delivered", "data_packets", "packets_forwarded",
                   "goodput_gbps", "last_delivery_ns", "uplink_imbalance_mean"}


@pytest.fixture(scope="module", params=sorted(EXTRA))
def serial_by_node(request, tmp_path_factory):
    out = tmp_path_factory.mktemp("serial_by_node") / request.param
    extra = [*EXTRA[request.param], *BY_NODE]
    return request.param, extra, out, run(out, *extra)


# Host 0 (the incast's receiver, rank 0), host 31 (the probe's sender, the last rank),
# leaf 0 and spine 0: each rank captures its own nodes' ports, rank 0 gathers the files.
PCAP = ["--set", "output.pcap.enabled=true", "--set", "output.pcap.nodes=[0,31,32,36]",
        "--set", "output.pcap.max_packets=3000"]


def test_a_given_split_writes_the_serial_runs_files(tmp_path):
    """topology.partition places the racks alternately (leaves 0 and 2 with their hosts
    on rank 0, leaves 1 and 3 on rank 1) and the spines two by two: every link from a
    leaf to half the spines crosses ranks. Ordered by node, the files are still the
    serial run's, and each rank holds the nodes it was given."""
    split = [(h // 8) % 2 for h in range(32)] + [0, 1, 0, 1] + [0, 1, 1, 0]
    given = ["--set", "topology.partition=" + json.dumps(split)]
    serial, ranked = tmp_path / "serial", tmp_path / "ranked"
    run(serial, *BY_NODE)
    got = run(ranked, *BY_NODE, *given, ranks=2)
    for f in serial.glob("*.csv"):
        assert (ranked / f.name).read_bytes() == f.read_bytes(), f.name
    assert [r["nodes"] for r in got["ranks"]["per_rank"]] == [20, 20]
    assert got["ranks"]["links_between_ranks"] == 4 * 2


@pytest.mark.parametrize("ranks", [2, 4])
def test_captures_over_ranks_are_the_serial_runs_frames(ranks, tmp_path):
    """Ordered by node, every port sends and receives the serial run's frames at the
    serial run's times: each capture file is the serial one byte for byte, whichever
    rank wrote it (host 31 is not rank 0's)."""
    serial, ranked = tmp_path / "serial", tmp_path / "ranked"
    run(serial, *PCAP, *BY_NODE)
    got = run(ranked, *PCAP, *BY_NODE, ranks=ranks)
    assert got["ranks"]["count"] == ranks
    want = sorted(f.name for f in (serial / "pcap").iterdir())
    assert len(want) == 1 + 1 + 12 + 4, want  # every port of the four nodes
    assert sorted(f.name for f in (ranked / "pcap").iterdir()) == want
    for name in want:
        assert (ranked / "pcap" / name).read_bytes() == (serial / "pcap" / name).read_bytes(), name
    assert not list(tmp_path.glob("ranked.partial-*"))


@pytest.mark.parametrize("ranks", [2, 4])
def test_ordered_by_node_ranks_write_the_serial_runs_files(serial_by_node, ranks, tmp_path):
    """Each node's events are scheduled on its own rank, in the serial order; ordered by
    the node that scheduled them, an instant's events then run in the serial run's order
    on every rank, and a frame from another rank takes the place its uid, reserved by
    the sender, gives it. Nothing is left to ties: every file is the serial run's."""
    kind, extra, ref_dir, ref = serial_by_node
    out, got = run_ranks(serial_by_node, "rdma", ranks, tmp_path)
    for f in ref_dir.glob("*.csv"):
        assert (out / f.name).read_bytes() == f.read_bytes(), f.name
    late, late_bytes = late_probes(got)
    want, have = dict(numbers(ref)), dict(numbers(got))
    assert set(want) == set(have)
    # The summary's figures are the serial run's, but for the late probes' traffic in
    # the tail after the run's end (none, or one message here).
    for key in want:
        if late and (key in LATE_PROBE_KEYS or key.startswith("conservation.")):
            continue
        assert have[key] == want[key], key
    for key in ("bytes_sent", "bytes_delivered"):
        assert have[key] - want[key] == late_bytes, key
