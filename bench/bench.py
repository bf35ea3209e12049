#!/usr/bin/python3
"""Run the benchmark scenarios and tabulate speed and memory.

Usage: /usr/bin/python3 bench/bench.py [NAME ...]   (or: ./rdma bench [NAME ...])

Runs each bench/scenarios/*.json (or only those whose file stem, or path, is given) as
  build/bin/rdma-run FILE --out bench/out/STEM --quiet
in a fresh subprocess, measures wall time, CPU time and peak memory of that child, reads
bench/out/STEM/summary.json, prints one row per scenario, and writes
bench/out/results.csv and bench/out/results.md. With --repeat N each scenario runs N
times in a row and its row is the run with the least CPU time (the machine's noise only
ever adds time), with the median beside it; the runs must write the same fct.csv (the
simulator is deterministic), else the scenario fails. Before the scenarios, the machine's
memory latency by working-set size is measured with build/bin/rdma-memprobe (unless
--no-memprobe) and written beside the table (bench/out/memprobe.json and results.md), since
at scale it sets the cost per event. Exit status: 0 if every run
succeeded, 1 if any failed (the others still run), 2 on bad usage. Standard library only.
"""

import argparse
import csv
import datetime
import hashlib
import io
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_DIR = ROOT / "bench" / "scenarios"
OUT_DIR = ROOT / "bench" / "out"
RUNNER = ROOT / "build" / "bin" / "rdma-run"
MEMPROBE = ROOT / "build" / "bin" / "rdma-memprobe"
STDERR_TAIL_LINES = 200  # of a failed run's stderr

# (key, header) in output order; the same keys are the CSV columns.
COLUMNS = [
    ("name", "scenario"),
    ("wall_s", "wall s"),
    ("cpu_s", "CPU s"),
    ("sim_ms", "sim ms"),
    ("events_per_s", "events/s"),
    ("pkts_per_s", "pkts fwd/s"),
    ("hops_per_cpu_s", "hops/CPU s"),
    ("events_per_hop", "events/hop"),
    ("setup_cpu_s", "setup CPU s"),
    ("peak_rss_mb", "peak RSS MB"),
    ("flows", "flows done"),
    ("status", "status"),
]
# Extra raw values written to the CSV only.
CSV_EXTRA = [
    "events",
    "packets_forwarded",
    "sim_time_s",
    "flows_completed",
    "flows_total",
    "rusage_maxrss_mb",
    "summary_peak_rss_mb",
    "run_cpu_s",
    "exit_code",
    "repeats",
    "cpu_s_median",
]


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Run the benchmark scenarios in bench/scenarios/ and tabulate the results.")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="scenario file stems (or paths to scenario files); default: all")
    p.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                   help="stop a run that takes longer than this (counts as failed)")
    p.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="run each scenario N times: its row is the run with the least CPU "
                        "time, with the median in the CSV; the runs must write the same "
                        "fct.csv (default: 1)")
    p.add_argument("--no-memprobe", action="store_true",
                   help="do not measure the machine's memory latency first (rdma-memprobe)")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error(f"--repeat: {args.repeat} is not a number of runs (1 or more)")
    return args


def select_scenarios(names):
    """Return a list of scenario Paths, or raise SystemExit(2) on an unknown name."""
    available = sorted(SCENARIO_DIR.glob("*.json"))
    if not names:
        return available
    by_stem = {p.stem: p for p in available}
    chosen, unknown = [], []
    for n in names:
        path = Path(n)
        if n in by_stem:
            chosen.append(by_stem[n])
        elif n.endswith(".json") and path.is_file():
            chosen.append(path.resolve())
        elif n.endswith(".json") and path.stem in by_stem and os.sep not in n:
            chosen.append(by_stem[path.stem])
        else:
            unknown.append(n)
    if unknown:
        print(f"bench: unknown scenario(s): {', '.join(unknown)}", file=sys.stderr)
        print(f"bench: available: {', '.join(by_stem) or '(none in bench/scenarios/)'}",
              file=sys.stderr)
        raise SystemExit(2)
    return chosen


def _num(x):
    """x as a float if it is a finite number (bools excluded), else None."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x) if math.isfinite(x) else None


def runner_env():
    """The environment for the runner: glibc's malloc on transparent huge pages, as
    ./rdma sets it (see the comment there), unless GLIBC_TUNABLES already names it."""
    env = dict(os.environ)
    tunables = env.get("GLIBC_TUNABLES", "")
    if "glibc.malloc.hugetlb" not in tunables:
        env["GLIBC_TUNABLES"] = (tunables + ":" if tunables else "") + "glibc.malloc.hugetlb=1"
    return env


def run_one(scenario, timeout=None):
    """Run one scenario; return (row dict, error text or None)."""
    stem = scenario.stem
    out = OUT_DIR / stem
    if out.exists():
        shutil.rmtree(out)  # never read a stale summary.json
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(RUNNER), str(scenario), "--out", str(out), "--quiet"]

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    error = None
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout, env=runner_env())
        code, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        code, stderr = None, e.stderr or b""
        error = f"timed out after {timeout:g} s"
    except OSError as e:
        code, stderr = None, b""
        error = f"could not start {RUNNER}: {e}"
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)

    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # RUSAGE_CHILDREN's ru_maxrss (KB on Linux) is the largest of all children reaped so
    # far: it tells this child's peak only if it grew during the run. Otherwise the
    # child's peak is at most the earlier value, which is not worth reporting.
    rusage_rss = after.ru_maxrss / 1024.0 if after.ru_maxrss > before.ru_maxrss else None

    row = {"name": stem, "wall_s": wall, "cpu_s": cpu, "exit_code": code,
           "rusage_maxrss_mb": rusage_rss}
    if error is None and code != 0:
        error = f"exit code {code}" if code is not None and code >= 0 else f"killed by signal {-code}"

    summary = {}
    if error is None:
        try:
            with open(out / "summary.json") as f:
                summary = json.load(f)
            if not isinstance(summary, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as e:
            error = f"bad or missing {out / 'summary.json'}: {e}"
            summary = {}

    sim_s = _num(summary.get("sim_time_s"))
    events = _num(summary.get("events"))
    fwd = _num(summary.get("packets_forwarded"))
    done, total = summary.get("flows_completed"), summary.get("flows_total")
    summary_rss = _num(summary.get("peak_rss_mb"))
    run_cpu = _num(summary.get("cpu_s"))  # the simulation alone (Simulator::Run)
    row.update({
        # A packet-hop is a frame forwarded by a switch; per CPU second of the process.
        "hops_per_cpu_s": fwd / cpu if fwd is not None and cpu > 0 else None,
        "events_per_hop": events / fwd if events is not None and fwd else None,
        "run_cpu_s": run_cpu,
        # Before and after the simulation: building the fabric and traffic, writing out.
        "setup_cpu_s": cpu - run_cpu if run_cpu is not None else None,
        "sim_time_s": sim_s,
        "sim_ms": sim_s * 1e3 if sim_s is not None else None,
        "events": events,
        "events_per_s": events / wall if events is not None and wall > 0 else None,
        "packets_forwarded": fwd,
        "pkts_per_s": fwd / wall if fwd is not None and wall > 0 else None,
        "flows_completed": done,
        "flows_total": total,
        "flows": f"{done}/{total}" if done is not None and total is not None else None,
        "summary_peak_rss_mb": summary_rss,
        # The simulator's own figure is exact; fall back to the rusage measurement.
        "peak_rss_mb": summary_rss if summary_rss is not None else rusage_rss,
        "status": "ok" if error is None else "FAIL",
    })

    if error is not None:
        text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else str(stderr)
        lines = text.rstrip("\n").splitlines()
        if len(lines) > STDERR_TAIL_LINES:
            lines = [f"... ({len(lines) - STDERR_TAIL_LINES} earlier lines not shown)"] + \
                lines[-STDERR_TAIL_LINES:]
        detail = "\n".join("    " + ln for ln in lines) if lines else "    (no stderr output)"
        error = f"{stem}: {error}\n  command: {' '.join(cmd)}\n  stderr:\n{detail}"
    return row, error


def output_digest(out):
    """SHA-256 of OUT/fct.csv, or None if the run wrote none."""
    try:
        return hashlib.sha256((out / "fct.csv").read_bytes()).hexdigest()
    except OSError:
        return None


def run_repeated(scenario, repeat, timeout=None):
    """Run the scenario `repeat` times; return (best row, error text or None).

    The best row is the successful run with the least CPU time; "cpu_s_median" is the
    median CPU time of the successful runs. Every run must write the same fct.csv."""
    rows, first_digest = [], None
    for k in range(repeat):
        row, err = run_one(scenario, timeout)
        if err is not None:
            return row, err
        digest = output_digest(OUT_DIR / scenario.stem)
        if k == 0:
            first_digest = digest
        elif digest != first_digest:
            row["status"] = "FAIL"
            return row, (f"{scenario.stem}: run {k + 1} of {repeat} wrote a different "
                         f"fct.csv than run 1 (the simulator should be deterministic)")
        rows.append(row)
    best = min(rows, key=lambda r: r["cpu_s"])
    best["repeats"] = repeat
    best["cpu_s_median"] = statistics.median(r["cpu_s"] for r in rows)
    return best, None


def fmt(key, v):
    """A value as shown in the console and Markdown tables."""
    if v is None:
        return "-"
    if key in ("wall_s", "cpu_s", "setup_cpu_s", "events_per_hop"):
        return f"{v:.2f}"
    if key == "hops_per_cpu_s":
        return f"{v:,.0f}"
    if key == "sim_ms":
        return f"{v:.3f}"
    if key in ("events_per_s", "pkts_per_s"):
        return f"{v:,.0f}"
    if key == "peak_rss_mb":
        return f"{v:.1f}"
    return str(v)


def csv_value(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.6g}" if not v.is_integer() else str(int(v))
    return str(v)


class ConsoleTable:
    """Prints the header once and each row as soon as it is known."""

    def __init__(self):
        self.widths = [max(len(h), 12 if k == "name" else 10) for k, h in COLUMNS]

    def _line(self, cells):
        out = []
        for i, (c, w) in enumerate(zip(cells, self.widths)):
            out.append(c.ljust(w) if i == 0 else c.rjust(w))
        return "  ".join(out).rstrip()

    def header(self):
        print(self._line([h for _, h in COLUMNS]))
        print(self._line(["-" * w for w in self.widths]))
        sys.stdout.flush()

    def row(self, row):
        cells = [fmt(k, row.get(k)) for k, _ in COLUMNS]
        self.widths[0] = max(self.widths[0], len(cells[0]))
        print(self._line(cells))
        sys.stdout.flush()


def atomic_write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp creates 0600; give it a normal file's mode
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def render_csv(rows):
    buf = io.StringIO()
    keys = [k for k, _ in COLUMNS] + CSV_EXTRA
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(keys)
    for r in rows:
        w.writerow([csv_value(r.get(k)) for k in keys])
    return buf.getvalue()


def git_revision():
    try:
        p = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True, timeout=10)
        return p.stdout.strip() if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def probe_memory():
    """Run rdma-memprobe; return ([{working_set_kb, lines, ns_per_load}, ...], None), or
    (None, why not)."""
    if not MEMPROBE.is_file() or not os.access(MEMPROBE, os.X_OK):
        return None, f"{MEMPROBE} not found (./rdma build makes it)"
    try:
        p = subprocess.run([str(MEMPROBE), "--json"], capture_output=True, text=True,
                           timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        return None, f"could not run {MEMPROBE}: {e}"
    if p.returncode != 0:
        return None, f"{MEMPROBE} exited with {p.returncode}: {p.stderr.strip()[-500:]}"
    try:
        probe = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
        for point in probe:
            if _num(point.get("working_set_kb")) is None or _num(point.get("ns_per_load")) is None:
                raise ValueError(f"no working_set_kb or ns_per_load in {point}")
    except ValueError as e:
        return None, f"{MEMPROBE} wrote what is not its JSON lines: {e}"
    return probe, None


def fmt_kb(kb):
    kb = int(kb)
    return f"{kb // 1024} MB" if kb >= 1024 and kb % 1024 == 0 else f"{kb} KB"


def memory_line(probe):
    """One line naming the probe's figures: '256 KB 4.1 ns, 1 MB 11.8 ns, ...'."""
    return ", ".join(f"{fmt_kb(p['working_set_kb'])} {p['ns_per_load']:.1f} ns" for p in probe)


def render_markdown(rows, probe=None):
    def esc(s):
        return s.replace("|", "\\|")

    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    rev = git_revision()
    lines = [
        "# Benchmark results",
        "",
        f"Generated {now} on {platform.node() or 'unknown host'} "
        f"({os.cpu_count()} CPUs, {platform.machine()})"
        + (f", commit {rev}" if rev else "") + " by `./rdma bench`.",
        "Columns are explained in bench/README.md.",
        "",
    ]
    if probe:
        lines += [
            "Memory latency (`rdma-memprobe`, one dependent load, by working set): "
            + memory_line(probe) + ".",
            "",
        ]
    lines += [
        "| " + " | ".join(h for _, h in COLUMNS) + " |",
        "|" + "|".join(":---" if k == "name" else "---:" for k, _ in COLUMNS) + "|",
    ]
    for r in rows:
        lines.append("| " + " | ".join(esc(fmt(k, r.get(k))) for k, _ in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not RUNNER.is_file() or not os.access(RUNNER, os.X_OK):
        print(f"bench: {RUNNER} not found; build first (./rdma build)", file=sys.stderr)
        return 2
    scenarios = select_scenarios(args.names)
    if not scenarios:
        print(f"bench: no scenarios in {SCENARIO_DIR}", file=sys.stderr)
        return 2

    probe = None
    # No figures from an earlier run stay beside this run's table.
    (OUT_DIR / "memprobe.json").unlink(missing_ok=True)
    if not args.no_memprobe:
        probe, why = probe_memory()
        if probe is None:
            print(f"bench: memory latency not measured: {why}", file=sys.stderr)
        else:
            print("Memory latency (one dependent load, by working set): " + memory_line(probe))
            atomic_write(OUT_DIR / "memprobe.json", json.dumps(probe, indent=1) + "\n")
        sys.stdout.flush()

    table = ConsoleTable()
    table.header()
    rows, errors = [], []
    for sc in scenarios:
        row, err = run_repeated(sc, args.repeat, args.timeout)
        rows.append(row)
        table.row(row)
        if err:
            errors.append(err)
            print(f"\nFAILED {err}\n", file=sys.stderr)
            sys.stderr.flush()

    atomic_write(OUT_DIR / "results.csv", render_csv(rows))
    atomic_write(OUT_DIR / "results.md", render_markdown(rows, probe))
    rel = OUT_DIR.relative_to(ROOT)
    print(f"\nWrote {rel}/results.csv and {rel}/results.md; "
          f"per-scenario output in {rel}/<name>/.")
    if errors:
        names = ", ".join(e.split(":", 1)[0] for e in errors)
        print(f"bench: {len(errors)} of {len(rows)} run(s) failed: {names}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
