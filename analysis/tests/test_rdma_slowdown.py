"""The HPCC / ConWeave slowdown definition (rdma_analysis.slowdown), against
hand computations, and its use by ``plot`` and ``compare``.

Their ideal FCT: base RTT + (size + 48 B per packet) x 8 / bottleneck rate,
base RTT = 2 x propagation + one MTU payload's serialization per link, all in
whole nanoseconds rounded down; slowdown = max(1, FCT / ideal).
"""

import os

import pytest

import crafted
from rdma_analysis import compare as rdma_compare
from rdma_analysis import plot as rdma_plot
from rdma_analysis.data import RunDataError, load_run
from rdma_analysis.slowdown import (host_paths, peer_ideal_fct_ns,
                                    peer_slowdown, with_slowdown)

G100 = 100_000_000_000

# Hosts 0 and 1 under switch 2, host 3 under switch 4, switches 2 and 4 joined
# through switch 5 (a two-tier path of 4 links); every link 100 Gb/s, 1 us,
# except host 3's, 25 Gb/s.
LINKS = "\n".join([
    f"0,0,host,2,0,leaf,{G100},1000",
    f"1,0,host,2,1,leaf,{G100},1000",
    f"2,2,leaf,5,0,spine,{G100},1000",
    f"4,1,leaf,5,1,spine,{G100},1000",
    f"3,0,host,4,0,leaf,{G100 // 4},1000",
]) + "\n"


def test_ideal_one_switch_by_hand():
    # 2 links of 100G, 1 us: base RTT = 2 x 2000 + 2 x (1000 B x 8 / 100G =
    # 80 ns) = 4160 ns. 4000 B = 4 packets: (4000 + 4 x 48) x 8 / 100G =
    # 335.36 -> 335 ns. Ideal 4495 ns.
    path = [(G100, 1000), (G100, 1000)]
    assert peer_ideal_fct_ns(4000, 1000, path) == 4495
    # 4001 B is 5 packets: (4001 + 240) x 8 / 100 = 339.28 -> 339.
    assert peer_ideal_fct_ns(4001, 1000, path) == 4160 + 339
    # 1 B: one packet of 49 B: 3.92 -> 3 ns.
    assert peer_ideal_fct_ns(1, 1000, path) == 4163


def test_two_tier_base_rtt_is_conweaves_bdp():
    # 4 links of 100G, 1 us: 2 x 4000 + 4 x 80 = 8320 ns, the base RTT behind
    # the 104,000-byte BDP ConWeave's run.py states for its leaf-spine
    # (8.32 us x 100 Gb/s / 8). A 0-byte tail: size 1000 = 1 packet,
    # 1048 x 8 / 100 = 83.84 -> 83.
    path = [(G100, 1000)] * 4
    assert peer_ideal_fct_ns(1000, 1000, path) - 83 == 8320
    assert 8320 * G100 // 8 // 10**9 == 104000


def test_bottleneck_and_clamp():
    # Path 0 -> 3: 0-2, 2-5, 5-4, 4-3 (25G). Base RTT = 2 x 4000 + 3 x 80 +
    # 1000 x 8 / 25 = 320 -> 8560 ns; 2000 B = 2 packets: 2096 x 8 / 25 =
    # 670.72 -> 670; ideal 9230 ns.
    import pandas as pd
    links = pd.read_csv(
        __import__("io").StringIO("node,port,node_kind,peer_node,peer_port,"
                                  "peer_kind,rate_bps,delay_ns\n" + LINKS))
    paths = host_paths(links)
    assert len(paths[(0, 3)]) == 4
    assert len(paths[(0, 1)]) == 2
    assert peer_ideal_fct_ns(2000, 1000, paths[(0, 3)]) == 9230
    assert peer_slowdown(18460, 9230) == 2.0
    assert peer_slowdown(9000, 9230) == 1.0  # faster than ideal: clamped


def _run(tmp_path):
    # Flow 0: 0 -> 1, 4000 B, FCT 8990 = 2 x 4495. Flow 1: 0 -> 3, 2000 B,
    # FCT 27690 = 3 x 9230. Flow 2 never completed.
    fct = (crafted.FCT_HEADER + "\n"
           "0,cdf,0,1,0,3,4000,1000,9990,8990,4400,2.04\n"
           "1,cdf,0,3,1,3,2000,2000,29690,27690,9100,3.04\n"
           "2,cdf,1,0,2,3,500,3000,,,1000,\n")
    return crafted.write_run(tmp_path / "run", fct=fct, links=LINKS,
                             config={"nic": {"mtu_bytes": 1000}})


def test_with_slowdown_replaces_and_keeps_ours(tmp_path):
    run = with_slowdown(load_run(_run(tmp_path)), "conweave")
    f = run.fct
    assert f["slowdown"].tolist()[:2] == [2.0, 3.0]
    assert f["ideal_fct_ns"].tolist()[:2] == [4495, 9230]
    assert f["slowdown_module"].tolist()[:2] == [2.04, 3.04]
    assert f["slowdown"].isna().tolist()[2]
    same = with_slowdown(load_run(_run(tmp_path)), "module")
    assert same.fct["slowdown"].tolist()[:2] == [2.04, 3.04]


def test_needs_links(tmp_path):
    run_dir = crafted.write_run(tmp_path / "nolinks")
    with pytest.raises(RunDataError, match="links.csv"):
        with_slowdown(load_run(run_dir), "hpcc")


def test_plot_and_compare_option(tmp_path, capsys):
    run_dir = _run(tmp_path)
    code, _, _ = crafted.run_cli(rdma_plot.main, capsys, run_dir,
                                 "--slowdown", "hpcc")
    assert code == 0
    with open(os.path.join(run_dir, "plots", "fct_buckets.csv")) as handle:
        rows = [line.split(",") for line in handle.read().splitlines()]
    header = rows[0]
    fg = [r for r in rows if r[0] == "all foreground"][0]
    # avg of 2 and 3
    assert float(fg[header.index("avg")]) == pytest.approx(2.5)
    with open(os.path.join(run_dir, "plots", "report.md")) as handle:
        assert "HPCC/ConWeave" in handle.read()
    out = tmp_path / "cmp"
    code, _, _ = crafted.run_cli(rdma_compare.main, capsys,
                                 f"a={run_dir}", "--out", str(out),
                                 "--slowdown", "conweave")
    assert code == 0
    code, _, err = crafted.run_cli(rdma_plot.main, capsys, run_dir,
                                   "--slowdown", "ns3")
    assert code == 2
