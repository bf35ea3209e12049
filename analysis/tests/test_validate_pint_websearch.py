"""The ``pint-websearch`` case of ./rdma validate (the real case runs two simulations of
the 320-host fat tree, about a minute and a half of CPU each): PINT's web-search
bucketing (its analysis/fct_analysis.py, reimplemented), the reading of the peer's FCT
files and of the stored figures, the 15% rule, and that the case is registered outside
``--quick``.

Every expected number is worked out by hand in the comments.
"""

import math
import os
import sys

import pytest

import crafted

sys.path.insert(0, os.path.join(crafted.REPO_ROOT, "validation"))
from rdma_validate.cases import ALL, pint_websearch as pw  # noqa: E402


def test_buckets_are_slices_of_5_percent_of_the_flows_by_size():
    # 101 flows of sizes 1..101 B; the last (101 B) is dropped as the peer's script
    # drops it, leaving 100: 20 slices of 5 flows, bounds i x 100 / 100.
    # Slowdown of the flow of size s: 1 + (s mod 5) / 10, so each slice holds
    # 1.1, 1.2, 1.3, 1.4, 1.0 in some order: sorted 1.0 .. 1.4.
    flows = [(s, 1 + (s % 5) / 10) for s in range(1, 102)]
    b = pw.buckets(flows)
    assert len(b) == 20
    assert [x["size"] for x in b] == list(range(5, 101, 5))
    assert all(x["n"] == 5 for x in b)
    # get_pctl: element int(5 x p): p50 -> index 2 (1.2), p95 -> int(4.75) = 4 (1.4),
    # p99 -> int(4.95) = 4 (1.4).
    assert {x["p50"] for x in b} == {1.2}
    assert {x["p95"] for x in b} == {1.4}
    assert {x["p99"] for x in b} == {1.4}


def test_uneven_slices_round_down_and_ties_sort_by_slowdown_text():
    # 43 flows, the last dropped: n = 42. Slice i is [i x 42 // 100, (i + 5) x 42 // 100):
    # the first [0, 2), the second [2, 4), the third [4, 6), the fourth [6, 8) ...
    # Sizes all 7 B except the largest 8 B: the tie order is by the slowdown's text,
    # "10" before "2" (as sort -n falls back to the whole line).
    flows = [(7, 2.0), (7, 10.0)] + [(7, 1.0)] * 40 + [(8, 1.0)]
    b = pw.buckets(flows)
    assert [x["n"] for x in b][:4] == [2, 2, 2, 2]
    assert sum(x["n"] for x in b) == 42
    # Sorted rows: (7, 1.0) x 40 ("7 1"), then "7 10", then "7 2" (text order); the
    # 8 B flow is dropped. The last slice [39, 42) holds 1.0, 10.0, 2.0.
    last = b[-1]
    assert last["n"] == 3 and last["size"] == 7
    assert last["p50"] == 2.0 and last["p99"] == 10.0


def test_peer_fct_files_count_port_100_flows_finished_before_2_2_s(tmp_path):
    # sip dip sport dport size start_ns fct_ns standalone_fct_ns
    f = tmp_path / "fct.txt"
    f.write_text(
        "0b000001 0b000101 10000 100 1000 2000000000 30000 15000\n"   # slowdown 2
        "0b000001 0b000101 10001 100 2000 2000000000 10000 20000\n"   # 0.5 -> 1
        "0b000001 0b000101 10002 200 1000 2000000000 30000 15000\n"   # incast port
        "0b000001 0b000101 10003 100 1000 2199999000 1000 500\n"      # ends at 2.2 s
        "0b000001 0b000101 10004 100 1000 2199998000 1000 500\n")     # ends before
    got = pw.peer_flows(f)
    assert got == [(1000, 2.0), (2000, 1.0), (1000, 2.0)]


def test_stored_peer_figures_hold_both_controllers():
    peer = pw.read_peer()
    assert set(peer) == set(pw.CCS)
    for rows in peer.values():
        assert len(rows) == 20
        sizes = [r["size"] for r in rows]
        assert sizes == sorted(sizes)
        assert all(1 <= r["p50"] <= r["p95"] <= r["p99"] for r in rows)


@pytest.mark.parametrize("ours, expect", [
    (1.15, True),    # +15%: inside
    (1.16, False),   # +16%
    (0.85, True),    # -15%
    (0.84, False),   # -16%
])
def test_fifteen_percent_rule(ours, expect):
    peer = [{"p50": 1.0, "p99": 2.0}]
    got = pw.compare([{"p50": ours, "p99": 2.0 * ours}], peer)
    assert [x[5] for x in got] == [expect, expect]
    assert math.isclose(got[1][4], ours)


def test_registered_outside_quick():
    case = [c for c in ALL if c.name == "pint-websearch"][0]
    assert not case.quick
    assert case.run is pw.run
