"""analysis/examples/roce_vs_uet.py, as the README runs it: every message of both
workloads arrives under both transports, RoCE's PFC loses nothing, UET's trimming holds
the incast's queue to its static share, and spraying ends the permutation sooner than
one ECMP path per QP (1,024 flows on a k = 16 fat-tree collide on some links)."""

import json
import os
import subprocess
import sys

import pandas as pd

import crafted

SCRIPT = os.path.join(crafted.REPO_ROOT, "analysis", "examples", "roce_vs_uet.py")
# scenarios/uec-incast-16.json: switch.buffer.static_kb (KiB), the most a queue holds.
STATIC_QUEUE_BYTES = 174.267578125 * 1024


def summary(run_dir):
    with open(os.path.join(run_dir, "summary.json")) as f:
        return json.load(f)


def test_roce_against_uet_on_the_incast_and_the_permutation(tmp_path):
    out = tmp_path / "roce-vs-uet"
    subprocess.run([sys.executable, SCRIPT, "--out", str(out)], check=True,
                   cwd=crafted.REPO_ROOT, capture_output=True)
    assert (out / "roce-vs-uet.png").stat().st_size > 0
    for workload in ("incast", "permutation"):
        assert (out / workload / "compare" / "compare.md").exists()
        for label in ("roce", "uet"):
            s = summary(out / workload / label)
            assert s["flows_completed"] == s["flows_total"] > 0, (workload, label)
            assert s["bytes_delivered"] == s["bytes_sent"], (workload, label)
            assert s["conservation"]["balanced"], (workload, label)
    # RoCE: lossless under PFC. UET: PFC off, nothing dropped either (a full queue trims).
    assert summary(out / "incast" / "roce")["drops"] == 0
    assert summary(out / "incast" / "roce")["pfc_pause_frames"] > 0
    assert summary(out / "incast" / "uet")["drops"] == 0
    assert summary(out / "incast" / "uet")["pfc_pause_frames"] == 0
    assert summary(out / "incast" / "uet")["trimmed_packets"] > 0
    # Trimming bounds the queue at its static share; PFC lets DCQCN's grow past it.
    uet_q = summary(out / "incast" / "uet")["max_queue_bytes"]
    roce_q = summary(out / "incast" / "roce")["max_queue_bytes"]
    assert uet_q <= STATIC_QUEUE_BYTES
    assert roce_q > STATIC_QUEUE_BYTES
    # The permutation's last message: spraying against per-QP ECMP.
    last = {label: pd.read_csv(out / "permutation" / label / "fct.csv").end_ns.max()
            for label in ("roce", "uet")}
    assert last["uet"] < last["roce"]
