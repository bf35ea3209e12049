#!/usr/bin/python3
"""RoCE against Ultra Ethernet on the same fabric and traffic.

Runs htsim's 16-node incast (scenarios/uec-incast-16.json) and its 1,024-node permutation
(scenarios/uec-permutation-1024.json) twice each: as the scenarios give them (UET: NSCC,
trimming, reorder-tolerant delivery, PFC off; sprayed over 128 entropies on the
permutation) and as RoCE (DCQCN, PFC, go-back-N, one ECMP path per QP, the module's
default ECN thresholds). Then `./rdma compare` per workload and one figure:

    /usr/bin/python3 analysis/examples/roce_vs_uet.py [--out DIR]

writes DIR/{incast,permutation}/compare.md and DIR/roce-vs-uet.png (default
out/roce-vs-uet). About a minute on 2 cores.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "analysis"))
from rdma_analysis import queues  # noqa: E402
WORKLOADS = {
    "incast": "scenarios/uec-incast-16.json",
    "permutation": "scenarios/uec-permutation-1024.json",
}
# RoCEv2 as deployed: DCQCN over lossless classes, go-back-N, the QP's own ECMP path, and
# the module's ECN defaults (the HPCC paper's 400 / 1,600 KiB at 100G, pmax 0.2). The
# static queue share of the UET scenarios applies to lossy classes only, so PFC's
# dynamic thresholds hold the lossless traffic here.
ROCE = {
    "cc.algorithm": "dcqcn",
    "switch.pfc.enabled": "true",
    "switch.trim.enabled": "false",
    "nic.loss_recovery": "go_back_n",
    "nic.load_balancer": "per_qp",
    "nic.inflight_cap_packets": "-1",
    "switch.ecn.unit": "KiB",
    "switch.ecn.kmin_kb": "400",
    "switch.ecn.kmax_kb": "1600",
    "switch.ecn.pmax": "0.2",
}
# Long enough for RoCE's slowest flow on either workload (the scenarios' own stop times
# fit UET).
STOP_MS = {"incast": 10, "permutation": 5}
COLOURS = {"RoCE": "tab:blue", "UET": "tab:green"}


def run(scenario, out, overrides):
    cmd = [str(ROOT / "rdma"), "run", scenario, "--out", str(out), "--quiet"]
    for k, v in overrides.items():
        cmd += ["--set", f"{k}={v}"]
    subprocess.run(cmd, cwd=ROOT, check=True)


def bottleneck_queue(run_dir):
    """(time in us, KB) of the port whose queue peaks highest."""
    q = pd.read_csv(run_dir / "queue.csv")
    (node, port), = queues.top_ports(q, 1)
    t, b = queues.port_queue(q, node, port)
    return t / 1e3, b / 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="out/roce-vs-uet")
    args = ap.parse_args()
    out = (ROOT / args.out).resolve()
    dirs = {}
    for workload, scenario in WORKLOADS.items():
        for label, overrides in (("UET", {}), ("RoCE", ROCE)):
            d = out / workload / label.lower()
            run(scenario, d, {**overrides, "stop_time_ms": str(STOP_MS[workload])})
            dirs[workload, label] = d
        subprocess.run([str(ROOT / "rdma"), "compare", str(dirs[workload, "RoCE"]),
                        str(dirs[workload, "UET"]), "--labels", "RoCE", "UET",
                        "--out", str(out / workload / "compare")], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    for label in ("RoCE", "UET"):
        fct = pd.read_csv(dirs["permutation", label] / "fct.csv")
        us = fct[fct.kind == "flow"].fct_ns.sort_values() / 1e3
        left.plot(us.values, (pd.RangeIndex(1, len(us) + 1) / len(us)), color=COLOURS[label],
                  label=f"{label}: last {us.max():.0f} us")
        t, b = bottleneck_queue(dirs["incast", label])
        right.plot(t, b, color=COLOURS[label], lw=0.8, label=label)
    left.set(xlabel="FCT of a 2 MB message (us)", ylabel="fraction of messages",
             title="1,024-node permutation (k = 16 fat-tree)")
    left.legend(loc="lower right")
    right.set(xlabel="time (us)", ylabel="queue (KB)",
              title="16-node incast: the receiver's ToR port")
    right.legend()
    fig.tight_layout()
    png = out / "roce-vs-uet.png"
    fig.savefig(png, dpi=110)
    print(f"wrote {png} and {out}/{{incast,permutation}}/compare/compare.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
