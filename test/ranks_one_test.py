"""rdma-run --ranks without MPI: one rank runs the whole path of a run over ranks (the
split, the end every rank agrees on, rank 0's merge of the outputs) and must write the
serial run's files byte for byte and the same summary figures; what cannot run over
ranks, or not without MPI, is refused with one line naming the key or the build (exit 2,
nothing written); --check --ranks N checks the split; captures are the serial run's."""
import json
import os
import subprocess
from pathlib import Path

import pytest
from summary_numbers import MOE, numbers

ROOT = Path(__file__).resolve().parents[1]
RUN = os.environ.get("RDMA_RUN") or str(ROOT / "build" / "bin" / "rdma-run")
SCENARIO = str(ROOT / "scenarios" / "leaf-spine-incast.json")


def run(*args):
    return subprocess.run([RUN, *args], capture_output=True, text=True, timeout=300)


def mpi_build():
    """Whether this rdma-run is built with MPI (it then starts more ranks under mpirun)."""
    return "without ns-3's MPI" not in run(SCENARIO, "--out", "/dev/null/x", "--ranks", "2").stderr


# The scenario's probe runs in each (until the foreground is done, as serially).
@pytest.mark.parametrize("extra", [[], ["--set", "switch.pfc.enabled=false",
                                        "--set", "switch.buffer_mb=0.3"], MOE],
                         ids=["pfc", "lossy", "moe"])
def test_one_rank_writes_the_serial_runs_files(tmp_path, extra):
    serial, ranked = tmp_path / "serial", tmp_path / "ranked"
    assert run(SCENARIO, "--out", str(serial), "--quiet", *extra).returncode == 0
    p = run(SCENARIO, "--out", str(ranked), "--quiet", "--ranks", "1", *extra)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in ranked.iterdir()) == sorted(f.name for f in serial.iterdir())
    for f in serial.glob("*.csv"):
        assert (ranked / f.name).read_bytes() == f.read_bytes(), f.name
    a = json.loads((serial / "summary.json").read_text())
    b = json.loads((ranked / "summary.json").read_text())
    assert dict(numbers(a)) == dict(numbers(b))
    assert b["ranks"]["count"] == 1 and b["ranks"]["links_between_ranks"] == 0
    assert b["ranks"]["per_rank"][0]["flows"] == a["flows_total"]
    assert b["conservation"]["balanced"] and b["bytes_delivered"] == b["bytes_sent"]
    assert b["probes_completed"] > 0 and b["ranks"]["per_rank"][0]["late_probes"] == 0
    assert not list(tmp_path.glob("*.partial-*"))


def refused(tmp_path, *args):
    out = tmp_path / "out"
    p = run(SCENARIO, "--out", str(out), *args)
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert not out.exists() and not list(tmp_path.glob("out.partial-*"))
    return lines[0]


# Host 0 (the incast's receiver), host 31 (the probe's sender), leaf 0 and spine 0.
PCAP = ["--set", "output.pcap.enabled=true", "--set", "output.pcap.nodes=[0,31,32,36]",
        "--set", "output.pcap.max_packets=3000"]


def test_one_rank_captures_the_serial_runs_frames(tmp_path):
    serial, ranked = tmp_path / "serial", tmp_path / "ranked"
    assert run(SCENARIO, "--out", str(serial), "--quiet", *PCAP).returncode == 0
    p = run(SCENARIO, "--out", str(ranked), "--quiet", "--ranks", "1", *PCAP)
    assert p.returncode == 0, p.stderr
    want = sorted(f.name for f in (serial / "pcap").iterdir())
    assert len(want) == 1 + 1 + 12 + 4, want  # every port of the four nodes
    assert sorted(f.name for f in (ranked / "pcap").iterdir()) == want
    for name in want:
        assert (ranked / "pcap" / name).read_bytes() == (serial / "pcap" / name).read_bytes()


def test_a_given_split_is_checked_and_a_bad_one_refused(tmp_path):
    # 32 hosts, 4 leaves (32-35), 4 spines (36-39): 40 nodes.
    ones = "topology.partition=" + json.dumps([0] * 40)
    serial, ranked = tmp_path / "serial", tmp_path / "ranked"
    assert run(SCENARIO, "--out", str(serial), "--quiet").returncode == 0
    p = run(SCENARIO, "--out", str(ranked), "--quiet", "--ranks", "1", "--set", ones)
    assert p.returncode == 0, p.stderr
    for f in serial.glob("*.csv"):
        assert (ranked / f.name).read_bytes() == f.read_bytes(), f.name
    host_apart = [0] * 40
    host_apart[3] = 1  # host 3 away from its ToR, leaf 32
    for args, words in (
            (["--ranks", "1", "--set", "topology.partition=[0,0]"], "2 ranks given for 40 nodes"),
            (["--ranks", "1", "--set", "topology.partition=" + json.dumps(host_apart)],
             "node 3 has rank 1, and the ranks are 0 to 0"),
            # Serially, checked as a split over 2 ranks (its largest is 1).
            (["--set", "topology.partition=" + json.dumps(host_apart)],
             "node 3 (a host) has rank 1 and its ToR, node 32, rank 0")):
        line = refused(tmp_path, *args)
        assert "key 'topology.partition'" in line and words in line, line


def test_collectives_over_ranks_must_wait_on_deliveries(tmp_path):
    line = refused(tmp_path, "--ranks", "1", *MOE[:-2])
    assert "traffic.collective_wait" in line and "'acknowledged'" in line and "delivered" in line


def test_more_ranks_than_racks_or_no_mpi_is_one_line(tmp_path):
    line = refused(tmp_path, "--ranks", "5", "--check")
    assert "5 ranks for 4 racks" in line
    assert run(SCENARIO, "--check", "--ranks", "4").returncode == 0
    if mpi_build():
        pytest.skip("this rdma-run is an MPI build")
    assert "./rdma setup --mpi" in refused(tmp_path, "--ranks", "2")
    line = refused(tmp_path, "--ranks", "1", "--set",
                   "simulator.engine=granted_time")
    assert "simulator.engine" in line and "granted_time" in line


def test_tie_order_by_node_needs_the_rdma_core(tmp_path):
    # ns-3's schedulers (serially, or under ns-3's engines over ranks) order an instant's
    # events as they were scheduled: they cannot take it.
    line = refused(tmp_path, "--set", "simulator.tie_order=by_node",
                   "--set", "simulator.scheduler=heap")
    assert "simulator.tie_order" in line and "by_node" in line and "heap" in line
    line = refused(tmp_path, "--ranks", "1", "--set", "simulator.tie_order=by_node",
                   "--set", "simulator.engine=null_message")
    assert "simulator.tie_order" in line and "null_message" in line
