"""HPCC-PINT's web-search result, side by side with the PINT authors' own simulator
(ProbabilisticINT/HPCC-PINT, the HPCC simulator on ns-3.17 with PINT): the 320-host fat
tree at 50% WebSearch load, its flow file cut to the flows starting in the first 8 ms,
every setting matched; FCT slowdown p50 and p99 per flow-size bucket, bucketed as the
PINT paper's analysis script does it (Fig. 7 and 8), for HPCC-PINT (p = 1) and HPCC,
against the figures the peer's own build gives on the same flows."""

import csv
import math
import sys
from pathlib import Path

from ..case import Case, Result
from ..sim import ROOT
from .. import figures
from rdma_analysis.slowdown import with_slowdown

SCENARIO = "scenarios/pint-websearch.json"
PEER_CSV = Path(__file__).resolve().parents[1] / "data" / "pint-websearch-peer.csv"
# The peer's analysis (analysis/fct_analysis.py) counts the flows of destination port
# 100 (all of a web-search flow file) that finish before -T 2200000000 ns (2.2 s: after
# the 2 s start of the flow file); flows that have not finished are not counted, on
# either side. Buckets: 5% of the flows each, by size.
TIME_LIMIT_NS = 2_200_000_000
STEP = 5
CCS = ["hpcc-pint", "hpcc"]
# The scenario holds HPCC-PINT's settings (the peer's run_hpcc_pint1_wb.sh); its HPCC
# (run_hpcc_wb.sh: CC_MODE 3) takes the same U_TARGET 0.95, MI_THRESH 0, RATE_AI 50 Mb/s
# and MIN_RATE 1 Gb/s, set here for cc.hpcc (they are also its defaults).
MATCHED = {
    "hpcc-pint": {},
    "hpcc": {"cc.hpcc.Eta": 0.95, "cc.hpcc.MaxStage": 0, "cc.hpcc.RateAi": "50Mbps",
             "cc.hpcc.MinRate": "1000Mbps"},
}
TOLERANCE = 0.15
# The buckets held to the tolerance: all of them (the smallest flows' p50 is 1.0 on both
# sides when the fabric is idle enough; the ratio is then exact).
STATS = ("p50", "p99")


def nth(sorted_values, p):
    """The peer's percentile: element int(n x p) of the sorted values (no interpolation;
    p99 of 100 values is the largest)."""
    return sorted_values[int(len(sorted_values) * p)]


def buckets(flows, step=STEP):
    """PINT's web-search buckets from ``flows``, a list of (size bytes, slowdown) of the
    counted flows: sorted by size (ties by the slowdown's text, as the peer's ``sort -n``
    on "size slowdown" lines), the last flow dropped (the peer's script drops it with
    the file's trailing newline), then consecutive slices of step% of the flows (bounds
    i x n / 100, rounded down). Returns one dict per slice: ``size`` (the slice's largest
    flow, the bucket's label), ``n``, ``p50``, ``p95``, ``p99``."""
    rows = sorted(((int(s), float(f"{float(x):.6g}")) for s, x in flows),
                  key=lambda r: (r[0], f"{r[0]} {r[1]:.6g}"))
    rows = rows[:-1]
    n = len(rows)
    out = []
    for i in range(0, 100, step):
        lo, hi = i * n // 100, (i + step) * n // 100
        part = rows[lo:hi]
        if not part:
            continue
        slow = sorted(x for _, x in part)
        out.append({"size": part[-1][0], "n": len(part), "p50": nth(slow, 0.5),
                    "p95": nth(slow, 0.95), "p99": nth(slow, 0.99)})
    return out


def peer_flows(path, time_limit_ns=TIME_LIMIT_NS):
    """(size, slowdown) of the counted flows of one of the peer's FCT files
    (``mix/fct_*.txt``: sip dip sport dport size start_ns fct_ns standalone_fct_ns)."""
    out = []
    for line in Path(path).read_text().splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "100":
            continue
        size, start, fct, ideal = int(f[4]), int(f[5]), int(f[6]), int(f[7])
        if start + fct < time_limit_ns:
            out.append((size, max(1.0, fct / ideal)))
    return out


def our_flows(run_, time_limit_ns=TIME_LIMIT_NS):
    """(size, slowdown) of this module's finished flows, slowdown by the HPCC
    simulator's definition (rdma_analysis.slowdown: base RTT + (size + 48 B per packet)
    x 8 / bandwidth, at least 1)."""
    fct = with_slowdown(run_, "hpcc").fct
    f = fct[(fct.kind != "probe") & fct.fct_ns.notna()]
    f = f[f.start_ns + f.fct_ns < time_limit_ns]
    return list(zip(f.size_bytes.astype(int), f.slowdown.astype(float)))


def read_peer(path=PEER_CSV):
    """{cc: [bucket dicts]} from the stored peer figures (lines starting with # are
    notes: the peer's commit, its command, the truncation)."""
    out = {}
    with open(path) as fh:
        rows = csv.DictReader(line for line in fh if not line.startswith("#"))
        for r in rows:
            out.setdefault(r["cc"], []).append(
                {"size": int(r["size"]), "n": int(r["n"]),
                 **{k: float(r[k]) for k in ("p50", "p95", "p99")}})
    return out


def compare(ours, peer, tolerance=TOLERANCE):
    """Per bucket and statistic: (bucket index, stat, ours, peer, ratio, within)."""
    out = []
    for i, (o, p) in enumerate(zip(ours, peer)):
        for k in STATS:
            ratio = o[k] / p[k] if p[k] else math.nan
            out.append((i, k, o[k], p[k], ratio, abs(ratio - 1) <= tolerance + 1e-9))
    return out


def _size(b):
    return f"{b / 1e6:.1f} MB" if b >= 1e6 else f"{b / 1e3:.1f} KB"


def run(sim, quick):
    r = Result()
    peer = read_peer()
    series = {}
    for cc in CCS:
        run_ = sim.run(f"pint-websearch-{cc}", SCENARIO, {"cc.algorithm": cc, **MATCHED[cc]})
        flows = our_flows(run_)
        ours = buckets(flows)
        rows = compare(ours, peer[cc])
        misses = [x for x in rows if not x[5]]
        worst = max(rows, key=lambda x: abs(x[4] - 1))
        r.add(f"{cc}: FCT slowdown p50 and p99 in each of the 20 size buckets "
              f"({len(flows)} flows finished)",
              f"the peer's, within {TOLERANCE:.0%} (40 figures)",
              f"{len(rows) - len(misses)}/{len(rows)} within; worst: bucket to "
              f"{_size(ours[worst[0]]['size'])} {worst[1]} {worst[2]:.2f} vs {worst[3]:.2f} "
              f"({100 * (worst[4] - 1):+.0f}%)",
              not misses)
        table = ["| bucket: flows up to | n ours / peer | p50 ours / peer | ratio | "
                 "p99 ours / peer | ratio |", "|---|---|---|---|---|---|"]
        for o, p in zip(ours, peer[cc]):
            label = _size(p["size"]) if o["size"] == p["size"] else \
                f"{_size(p['size'])} (ours {_size(o['size'])})"
            table.append(f"| {label} | {o['n']} / {p['n']} | "
                         f"{o['p50']:.2f} / {p['p50']:.2f} | {o['p50'] / p['p50']:.2f} | "
                         f"{o['p99']:.2f} / {p['p99']:.2f} | {o['p99'] / p['p99']:.2f} |")
        r.notes.append(f"{cc}:\n\n" + "\n".join(table))
        series[f"{cc} (ours)"] = (list(range(len(ours))), [b["p99"] for b in ours])
        series[f"{cc} (peer)"] = (list(range(len(peer[cc]))), [b["p99"] for b in peer[cc]])
    r.notes.insert(0, (
        f"Setup: `{SCENARIO}` (settings mapped to the peer's in docs/workloads.md, "
        "\"Matching a peer simulator: HPCC-PINT's web search\"), run with cc.algorithm "
        "hpcc-pint and hpcc. Peer figures: `validation/rdma_validate/data/"
        "pint-websearch-peer.csv` (its commit, command and truncation in the file). "
        "Slowdown by the HPCC simulator's definition; buckets as PINT's fct_analysis.py "
        "(5% of the flows each, by size; label = the bucket's largest flow); "
        "percentiles as its get_pctl (element int(n p) of the sorted values)."))
    r.figure = figures.lines(sim.out / "pint-websearch.png", series,
                             "size bucket (5% of the flows each, smallest first)",
                             "p99 FCT slowdown",
                             "HPCC-PINT web search 50%, first 8 ms of flows")
    return r


CASE = Case(
    name="pint-websearch",
    title="HPCC-PINT web search (PINT's simulator)",
    claim="On the 320-host fat tree at 50% WebSearch load, HPCC-PINT (8-bit PINT, every ACK "
          "used) and HPCC give per-size-bucket FCT slowdowns (p50 and p99) within 15% of "
          "those the PINT authors' simulator gives on the same flows.",
    source="Ben Basat et al., PINT: Probabilistic In-band Network Telemetry, SIGCOMM 2020, "
           "Fig. 7 setup; ProbabilisticINT/HPCC-PINT (run_hpcc_pint1_wb.sh, run_hpcc_wb.sh, "
           "analysis/fct_analysis.py)",
    run=run,
)


def main(argv):
    """``python3 -m rdma_validate.cases.pint_websearch CC FCT_FILE ...``: the bucket rows
    (CSV, as stored in data/pint-websearch-peer.csv) of the peer's FCT files."""
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["cc", "bucket", "size", "n", "p50", "p95", "p99"])
    for cc, path in zip(argv[0::2], argv[1::2]):
        for i, b in enumerate(buckets(peer_flows(path))):
            w.writerow([cc, i, b["size"], b["n"], f"{b['p50']:.4f}", f"{b['p95']:.4f}",
                        f"{b['p99']:.4f}"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
