"""Running rdma-run for a case and reading what it wrote."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# A run's files are read by the analysis package's loader (analysis/rdma_analysis).
sys.path.insert(0, str(ROOT / "analysis"))
from rdma_analysis.runs import load_run  # noqa: E402


class SimError(RuntimeError):
    """rdma-run failed: its exit code and the tail of its output."""


class Sim:
    """Runs scenarios into ``out`` (one folder per run, reused when its config is
    unchanged, so a second ``validate`` of the same case only redraws)."""

    def __init__(self, runner, out):
        self.runner = str(runner)
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)

    def write(self, name, text):
        """Write a side file (a flows CSV) next to the scenarios; returns its name."""
        (self.out / name).write_text(text)
        return name

    def run(self, name, scenario, overrides=None):
        """Run ``scenario`` (a path relative to the repository, e.g. a shipped
        "scenarios/demo.json", or a dict) with the KEY=VALUE ``overrides``; returns the
        rdma_analysis Run (load_run) of folder ``out/name``."""
        overrides = dict(overrides or {})
        if isinstance(scenario, dict):
            path = self.out / f"{name}.json"
            path.write_text(json.dumps(scenario, indent=1))
        else:
            path = ROOT / scenario
        folder = self.out / name
        sides = sorted(p.read_text() for p in self.out.glob("*.csv"))
        st = os.stat(self.runner)
        stamp = json.dumps([str(path), path.read_text(), overrides, sides,
                            st.st_mtime_ns, st.st_size], sort_keys=True)
        marker = self.out / f"{name}.stamp"
        if not (folder / "summary.json").exists() or not marker.exists() or \
                marker.read_text() != stamp:
            args = [self.runner, str(path), "--quiet", "--out", str(folder)]
            for k, v in overrides.items():
                args += ["--set", f"{k}={json.dumps(v) if not isinstance(v, str) else v}"]
            p = subprocess.run(args, capture_output=True, text=True,
                               env=dict(os.environ, MPLBACKEND="Agg"))
            if p.returncode != 0:
                raise SimError(f"{name}: rdma-run exit {p.returncode}: "
                               f"{(p.stdout + p.stderr)[-400:]}")
            marker.write_text(stamp)
        return load_run(str(folder))


def flow_goodput_gbps(run, t0_ns, t1_ns):
    """Per sampled flow of ``run`` (cc.csv), payload goodput over [t0, t1] from its acked
    bytes: {(node, qp): Gb/s}."""
    out = {}
    for key, g in run.cc.groupby(["node", "qp"]):
        g = g.sort_values("time_ns")
        a = g[g.time_ns <= t0_ns].tail(1)
        b = g[g.time_ns <= t1_ns].tail(1)
        if a.empty or b.empty or int(b.time_ns.iloc[0]) <= int(a.time_ns.iloc[0]):
            continue
        dt = (int(b.time_ns.iloc[0]) - int(a.time_ns.iloc[0])) * 1e-9
        out[key] = (int(b.acked_bytes.iloc[0]) - int(a.acked_bytes.iloc[0])) * 8 / dt / 1e9
    return out


def jain(values):
    values = list(values)
    s = sum(values)
    q = sum(v * v for v in values)
    return s * s / (len(values) * q) if q > 0 else 0.0


# The wire overhead of one RoCEv2 data packet: Ethernet 14 + FCS 4 + preamble and
# inter-frame gap 20 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 bytes.
DATA_OVERHEAD_BYTES = 82
ACK_WIRE_BYTES = 14 + 4 + 20 + 20 + 8 + 12 + 4 + 4  # ... + AETH 4


def payload_rate_gbps(line_gbps, mtu):
    """The payload rate a line carries with full packets of ``mtu`` payload bytes."""
    return line_gbps * mtu / (mtu + DATA_OVERHEAD_BYTES)
