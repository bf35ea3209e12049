#!/usr/bin/python3
"""A scenario run over MPI ranks against the same scenario run serially, alternately.

Usage: ./rdma bench --ranks N [NAME ...] [--repeat K]
       (/usr/bin/python3 bench/bench_ranks.py --ranks N ...)

Both runs use the MPI build of ./rdma setup --mpi (its rdma-run), so that the program
is the same: serially on the module's own event core, then under mpirun -np N with
--ranks N (the engine is the scenario's simulator.engine, rdma by default). The pair runs
K times in a row, serial and ranks alternately, and each side keeps its least wall time
(the machine's noise only adds time). For each scenario: the wall time of both, their
ratio, per rank the CPU time, events, windows, time spent waiting in them and peak
memory, against the serial run's events and memory. Both must complete the same flows
(unless the scenario ends at its stop time with flows unfinished: then a flow finishing
just before it may differ, and the status says so). Collectives wait on deliveries
(traffic.collective_wait delivered) on both sides, since only that runs over ranks.
Writes bench/out/ranks.csv and bench/out/ranks.md; with 2 ranks and moe-1024-deepseek
among the runs, also the projection of bench/ranks_model.py. Exit status: 0 if every
pair ran and completed the same flows, 1 if not, 2 on bad usage or without the MPI
build.
"""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from bench import OUT_DIR, atomic_write, git_revision, runner_env, select_scenarios  # noqa: E402

CACHE = Path(os.environ.get("RDMA_NS3_CACHE") or
             Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ns3-rdma")
# Scenarios that split: fabrics of many racks (no captures). The three:
# the 256- and 1,024-GPU MoE layers and the 1,024-host permutation.
DEFAULT = ["moe-256-deepseek", "moe-1024-deepseek", "permutation-1024-fat-tree"]
# Collectives over ranks wait on deliveries; the serial run then does too, so that both
# run the same model.
COLLECTIVE = ["--set", "traffic.collective_wait=delivered"]
COLUMNS = ["scenario", "ranks", "serial_wall_s", "ranks_wall_s", "ratio", "serial_events",
           "rank_events", "rank_cpu_s", "rank_windows", "rank_window_wait_s",
           "serial_rss_mb", "rank_rss_mb", "links_between_ranks", "flows",
           "files_identical", "status"]


def mpi_runner():
    record = CACHE / "mpi" / "RUNNER"
    keys = {}
    if record.is_file():
        keys = dict(l.split("=", 1) for l in record.read_text().splitlines() if "=" in l)
    runner = keys.get("runner", "")
    if not runner or not os.access(runner, os.X_OK):
        print("bench: --ranks needs the MPI build: ./rdma setup --mpi", file=sys.stderr)
        raise SystemExit(2)
    if keys.get("source") != str(ROOT / "src" / "rdma"):
        print(f"bench: --ranks: the MPI build is of {keys.get('source')}, not of this "
              "checkout: ./rdma setup --mpi", file=sys.stderr)
        raise SystemExit(2)
    if not shutil.which("mpirun"):
        print("bench: --ranks needs mpirun: ./rdma setup --mpi", file=sys.stderr)
        raise SystemExit(2)
    return runner


def run(cmd, out):
    """Run cmd writing into out; return (wall seconds, summary, completed flow ids)."""
    if out.exists():
        shutil.rmtree(out)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=runner_env())
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: exit code {proc.returncode}\n"
                           + proc.stderr.decode("utf-8", "replace")[-2000:])
    summary = json.loads((out / "summary.json").read_text())
    with open(out / "fct.csv") as f:
        flows = {row["flow_id"] for row in csv.DictReader(f)}
    return wall, summary, flows


def files_identical(a, b):
    """Whether every CSV file of folder a is in folder b, byte for byte."""
    return all((b / f.name).is_file() and (b / f.name).read_bytes() == f.read_bytes()
               for f in a.glob("*.csv"))


def bench_one(runner, scenario, ranks, repeat, tie_order="fifo"):
    mpirun = ["mpirun", "--oversubscribe", "-np", str(ranks)]
    if os.geteuid() == 0:
        mpirun.append("--allow-run-as-root")
    serial_out = OUT_DIR / "ranks" / f"{scenario.stem}-serial"
    ranks_out = OUT_DIR / "ranks" / f"{scenario.stem}-ranks{ranks}"
    traffic = json.loads(scenario.read_text()).get("traffic", {})
    keys = COLLECTIVE if traffic.get("moe", {}).get("enabled") or "trace" in traffic else []
    keys = [*keys, "--set", f"simulator.tie_order={tie_order}"]
    best_serial = best_ranks = None
    for _ in range(repeat):
        s = run([runner, str(scenario), "--out", str(serial_out), "--quiet", *keys],
                serial_out)
        r = run([*mpirun, runner, str(scenario), "--out", str(ranks_out), "--quiet", *keys,
                 "--ranks", str(ranks)], ranks_out)
        best_serial = s if best_serial is None or s[0] < best_serial[0] else best_serial
        best_ranks = r if best_ranks is None or r[0] < best_ranks[0] else best_ranks
    (sw, ss, sflows), (rw, rs, rflows) = best_serial, best_ranks
    per = rs["ranks"]["per_rank"]
    # A run that ended at its stop time with flows unfinished may finish a few flows more
    # or fewer over ranks (simultaneous events run in another order); one that completed
    # every flow must complete the same ones.
    stopped = not (ss["all_flows_completed"] and rs["all_flows_completed"])
    status = "ok" if sflows == rflows else ("ended at the stop time" if stopped
                                             else "FLOWS DIFFER")
    return {
        "scenario": scenario.stem, "ranks": ranks,
        "serial_wall_s": sw, "ranks_wall_s": rw, "ratio": rw / sw,
        "serial_events": ss["events"],
        "rank_events": [p["events"] for p in per],
        "rank_cpu_s": [round(p["cpu_s"], 2) for p in per],
        "rank_windows": [p.get("windows") for p in per],
        "rank_window_wait_s": [round(p.get("window_wait_s", 0), 2) for p in per],
        "serial_rss_mb": round(ss["peak_rss_mb"]),
        "rank_rss_mb": [round(p["peak_rss_mb"]) for p in per],
        "links_between_ranks": rs["ranks"]["links_between_ranks"],
        "flows": f"{len(rflows)}/{len(sflows)}",
        # (Ordered by node, a run over ranks writes the serial run's files.)
        "files_identical": files_identical(serial_out, ranks_out),
        "status": status,
    }


def render(rows, fmt):
    def cell(v):
        if isinstance(v, float):
            return f"{v:.2f}"
        if isinstance(v, list):
            return " / ".join(str(x) for x in v)
        return str(v)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([cell(r.get(c)) for c in COLUMNS])
        return buf.getvalue()
    lines = [f"Runs over MPI ranks against serial runs, alternately ({git_revision()})", "",
             "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(r.get(c)) for c in COLUMNS) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ranks", type=int, required=True, metavar="N")
    p.add_argument("--repeat", type=int, default=3, metavar="K")
    p.add_argument("--tie-order", choices=["fifo", "by_node"], default="fifo",
                   help="simulator.tie_order of both runs (by_node: the files of the run "
                        "over ranks are the serial run's)")
    p.add_argument("names", nargs="*", metavar="NAME")
    args = p.parse_args(argv)
    if args.ranks < 1 or args.repeat < 1:
        p.error("--ranks and --repeat take a positive number")
    runner = mpi_runner()
    scenarios = select_scenarios(args.names or DEFAULT)
    rows, failed = [], 0
    for sc in scenarios:
        try:
            row = bench_one(runner, sc, args.ranks, args.repeat, args.tie_order)
        except RuntimeError as e:
            print(f"bench: {sc.stem}: {e}", file=sys.stderr)
            row = {"scenario": sc.stem, "ranks": args.ranks, "status": "FAIL"}
        failed += row["status"] not in ("ok", "ended at the stop time")
        rows.append(row)
        print(render([row], "md").splitlines()[-1], flush=True)
    atomic_write(OUT_DIR / "ranks.csv", render(rows, "csv"))
    atomic_write(OUT_DIR / "ranks.md", render(rows, "md"))
    print(f"Wrote {OUT_DIR.relative_to(ROOT)}/ranks.csv and ranks.md")
    if args.ranks == 2 and any(r["scenario"] == "moe-1024-deepseek" and r["status"] == "ok"
                               for r in rows):
        import ranks_model  # the projection to more ranks, fitted to these runs
        ranks_model.main([])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
