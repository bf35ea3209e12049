"""rdma-memprobe, which ./rdma bench runs first: each working set is one chain through
every one of its 64-byte lines (so the figure is what its name says), one JSON object
per size, and bad arguments get one error naming the option and the value, exit 2."""
import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROBE = os.environ.get("RDMA_MEMPROBE", str(ROOT / "build" / "bin" / "rdma-memprobe"))


def probe(*args):
    return subprocess.run([PROBE, *args], capture_output=True, text=True, timeout=120)


def test_every_size_is_one_chain_through_all_its_lines():
    # --check walks each chain from its first line: it must come back after exactly
    # one visit to every line, else the probe exits 1.
    p = probe("--check", "--json", "--sizes-kb", "4,64,1000,3000", "--loads", "1000")
    assert p.returncode == 0, p.stderr
    points = [json.loads(line) for line in p.stdout.splitlines()]
    assert [q["working_set_kb"] for q in points] == [4, 64, 1000, 3000]
    assert [q["lines"] for q in points] == [kb * 1024 // 64 for kb in (4, 64, 1000, 3000)]
    assert all(q["ns_per_load"] > 0 for q in points)


def test_table_by_default():
    p = probe("--sizes-kb", "4,1024", "--loads", "1000")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].split() == ["working", "set", "ns", "per", "load"]
    assert [ln.split()[:2] for ln in lines[1:]] == [["4", "KB"], ["1024", "KB"]]


def test_bad_arguments_exit_2_naming_option_and_value():
    for args, named in [
        (["--sizes-kb", "2"], ["--sizes-kb", "'2'"]),
        (["--sizes-kb", "64,x"], ["--sizes-kb", "'x'"]),
        (["--sizes-kb", "64,"], ["--sizes-kb", "''"]),
        (["--loads", "0"], ["--loads", "'0'"]),
        (["--loads", "-5"], ["--loads", "'-5'"]),
        (["--loads"], ["--loads", "needs a value"]),
        (["--fast"], ["'--fast'"]),
    ]:
        p = probe(*args)
        assert p.returncode == 2, args
        assert p.stdout == "", args
        first = p.stderr.splitlines()[0]
        assert first.startswith("rdma-memprobe: "), first
        for word in named:
            assert word in first, (args, first)
