"""Parameter sweeps: a base scenario x a grid and/or random sample x seeds.

Usage::

    python3 -m rdma_analysis sweep SPEC.json [--jobs N] [--out DIR]
        [--dry-run | --collect | --emit [--ranks N]] [--runner PATH]

(``./rdma sweep ...``).  The spec (JSON; paths relative to the spec file)::

    {
      "base": "../../scenarios/demo.json",
      "out": "../../out/sweep-demo-ecn",
      "set": {"traffic.probe.interval_us": 10},
      "grid": {"switch.ecn.kmin_kb": [50, 100, 400],
               "switch.ecn.kmax_kb": [400, 1600]},
      "random": {"samples": 4, "seed": 7,
                 "params": {"switch.ecn.pmax": {"min": 0.01, "max": 1,
                                                "log": true},
                            "cc.dcqcn.RateAi": {"min": 5, "max": 80,
                                                "unit": "Mbps"}}},
      "seeds": [1, 2],
      "metrics": ["slowdown_p99", "probe_slowdown_p99", "goodput_gbps"],
      "jobs": 2,
      "slurm": {"partition": "short", "time": "00:10:00"}
    }

Points = every grid combination x every random sample x every seed (each
part optional, at least one needed).  Each point runs ``rdma-run BASE --out
OUT/runs/ID --set KEY=VALUE ... --quiet`` in a local process pool (default:
one process per core).  ID is a hash of the base scenario's content and the
point's overrides, and a point is finished iff ``OUT/runs/ID/summary.json``
exists, so an interrupted sweep resumes where it stopped (run the same
command again) and adding values to a grid only runs the new points.

Outputs: ``OUT/sweep.csv`` (one row per point: id, status, parameters,
metrics, run folder) and ``OUT/plots/<metric>.png`` (metric against each
parameter; plus ``heatmap_<metric>.png`` for a two-parameter numeric grid).

``--emit`` writes ``OUT/commands.txt`` (one idempotent shell command per
point), ``OUT/slurm.sh`` (a Slurm job array over those lines) and
``OUT/parallel.sh`` (the GNU parallel command line); after either engine
ran the points, ``--collect`` builds sweep.csv and the plots.  With
``--ranks N`` each point is an MPI job of N ranks (``srun -n N`` in
slurm.sh, ``mpirun -np N`` in commands.txt; :mod:`rdma_analysis.sweep_emit`).

Exit codes: 0 all points done, 1 some failed, 2 bad spec or options
(nothing written), 130 interrupted (finished points are kept).
"""

import argparse
import itertools
import os
import random
import re
import signal
import sys
import time
from concurrent.futures import (FIRST_COMPLETED, ProcessPoolExecutor,
                                as_completed, wait)

import pandas as pd

from . import spec as rs
from .data import metric_value
from .sweep_emit import (  # noqa: F401  (re-exported)
    COMMANDS_FILE, PARALLEL_FILE, SLURM_FILE, emit)
from .sweep_plots import (  # noqa: F401  (re-exported)
    aggregate, metric_label, numeric_view, param_label, plot_heatmap,
    plot_metric, summary_markdown)

SPEC_KEYS = {"description", "base", "out", "set", "grid", "random", "seeds",
             "metrics", "jobs", "slurm"}
RANDOM_KEYS = {"samples", "seed", "params"}
SLURM_KEYS = {"partition", "account", "time", "cpus_per_task", "mem",
              "max_parallel", "points_per_task", "extra"}

DEFAULT_METRICS = ["slowdown_p99", "small_slowdown_p99",
                   "large_slowdown_p99", "probe_slowdown_p99",
                   "window_goodput_gbps", "max_queue_bytes",
                   "pfc_pause_frames"]

SWEEP_CSV = "sweep.csv"
SUMMARY_CSV = "sweep_summary.csv"
SUMMARY_MD = "sweep_summary.md"
PLOTS_DIR = "plots"

EXIT_INTERRUPTED = 130


class Point:
    """One run of a sweep."""

    def __init__(self, pid, params, overrides, run_dir):
        self.id = pid
        self.params = params        # swept values (grid, random, seed)
        self.overrides = overrides  # every --set (fixed + swept)
        self.run_dir = run_dir

    def label(self):
        """``kmin_kb=100 kmax_kb=400 seed=1`` (last part of each key)."""
        return " ".join(f"{k.split('.')[-1]}={rs.format_value(v)}"
                        for k, v in self.params.items())


class Sweep(rs.Experiment):
    """A checked sweep spec (see the module documentation)."""

    def __init__(self, path, out=None, runner=None, check_runner=True):
        super().__init__(path, SPEC_KEYS, out)
        spec = self.spec
        self.grid = self._grid()
        self.random_params, self.samples, self.random_seed = self._random()
        self.seeds = spec.seeds()
        self.metrics = spec.metrics(default=DEFAULT_METRICS)
        self.jobs = spec.get_int("jobs", minimum=1)
        self.slurm = self._slurm()
        if not (self.grid or self.random_params or self.seeds):
            raise rs.SpecError(f"{spec.name}: nothing to sweep: give at "
                               "least one of 'grid', 'random', 'seeds'")
        self.finish(runner, check_runner)

    # Parsing -----------------------------------------------------------------

    def _grid(self):
        spec = self.spec
        grid = spec.data.get("grid", {})
        if not isinstance(grid, dict):
            raise spec.error("grid", grid, 'expected an object {"scenario.'
                             'key": [values]}')
        for key, values in grid.items():
            if not isinstance(values, list) or not values:
                raise spec.error(f"grid.{key}", values,
                                 "expected a non-empty list of values")
            for v in values:
                rs.check_scenario_value(spec, f"grid.{key}", v)
            if len({rs.format_value(v) for v in values}) != len(values):
                raise spec.error(f"grid.{key}", values,
                                 "values must differ")
        return dict(grid)

    def _random(self):
        spec = self.spec
        if "random" not in spec.data:
            return [], 1, 0
        obj = spec.data["random"]
        if not isinstance(obj, dict):
            raise spec.error("random", obj, 'expected an object {"samples": '
                             'N, "seed": S, "params": {...}}')
        spec.check_known(obj, RANDOM_KEYS, prefix="random.")
        if "samples" not in obj:
            raise spec.missing("random.samples")
        samples = spec.get_int("samples", minimum=1, obj=obj,
                               where="random.samples")
        seed = spec.get_int("seed", default=0, minimum=0, obj=obj,
                            where="random.seed")
        params = obj.get("params")
        if not isinstance(params, dict) or not params:
            raise spec.error("random.params", params,
                             'expected a non-empty object {"scenario.key": '
                             '{"min": .., "max": ..}}')
        parsed = [rs.parse_param(spec, f"random.params.{key}", key, value)
                  for key, value in params.items()]
        return parsed, samples, seed

    def _slurm(self):
        spec = self.spec
        obj = spec.data.get("slurm", {})
        if not isinstance(obj, dict):
            raise spec.error("slurm", obj, "expected an object")
        spec.check_known(obj, SLURM_KEYS, prefix="slurm.")
        for key in ("partition", "account", "time", "mem"):
            if key in obj and (not isinstance(obj[key], str)
                               or not obj[key].strip()
                               or re.search(r"\s", obj[key])):
                raise spec.error(f"slurm.{key}", obj[key],
                                 "expected a string without spaces")
        for key in ("cpus_per_task", "max_parallel", "points_per_task"):
            spec.get_int(key, minimum=1, obj=obj, where=f"slurm.{key}")
        extra = obj.get("extra", [])
        if not isinstance(extra, list) or not all(
                isinstance(e, str) and e.startswith("--") for e in extra):
            raise spec.error("slurm.extra", extra, 'expected a list of sbatch '
                             'options like ["--qos=low"]')
        return dict(obj)

    def resolve_paths(self, keys):
        """File values in ``set``, ``grid`` and ``random`` choices are
        relative to the spec file (see
        :meth:`rdma_analysis.spec.Experiment.resolve_paths`)."""
        super().resolve_paths(keys)
        self.grid = {k: [self.spec_path(keys, k, v) for v in values]
                     for k, values in self.grid.items()}
        for p in self.random_params:
            if p.kind == "choice":
                p.values = [self.spec_path(keys, p.key, v) for v in p.values]

    def swept(self):
        """The grid's keys and the random parameters (see
        :meth:`rdma_analysis.spec.Experiment.swept`)."""
        return [("grid", k, v, v) for k, v in self.grid.items()] + \
               [("random.params", p.key, p.key, p.candidates())
                for p in self.random_params]

    # Points ------------------------------------------------------------------

    def random_samples(self):
        """The random part: a list of ``{key: value}`` (``[{}]`` if none);
        the same spec always gives the same samples."""
        if not self.random_params:
            return [{}]
        rng = random.Random(self.random_seed)
        return [{p.key: p.sample(rng) for p in self.random_params}
                for _ in range(self.samples)]

    def points(self):
        """Every point, grid-major, then random sample, then seed."""
        keys = list(self.grid)
        combos = [dict(zip(keys, values)) for values in
                  itertools.product(*(self.grid[k] for k in keys))]
        seeds = [{"seed": s} for s in self.seeds] or [{}]
        points, ids = [], set()
        for combo in combos:
            for sample in self.random_samples():
                for seed in seeds:
                    params = {**combo, **sample, **seed}
                    overrides = {**self.fixed, **params}
                    pid = rs.point_id(self.base_text, overrides)
                    if pid in ids:  # a repeated random draw
                        continue
                    ids.add(pid)
                    points.append(Point(pid, params, overrides,
                                        self.run_dir(pid)))
        return points

    def param_keys(self):
        keys = list(self.grid) + [p.key for p in self.random_params]
        return keys + (["seed"] if self.seeds else [])

    def command(self, point):
        return rs.run_command(self.runner, self.base, point.run_dir,
                              point.overrides)


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def _interrupt(signum, frame):  # pragma: no cover  (signal handler)
    raise KeyboardInterrupt


def bounded_map(pool, calls, jobs, on_result):
    """Run *calls* ``(key, fn, args)`` in *pool* with at most *jobs* in
    flight, calling ``on_result(key, result)`` as each one finishes.
    Nothing is queued beyond what runs, so after an interrupt only the calls
    already running finish (shutting the pool down waits for them)."""
    pending = {}
    calls = iter(calls)

    def submit(count):
        for key, fn, args in itertools.islice(calls, count):
            pending[pool.submit(fn, *args)] = key

    submit(jobs)
    while pending:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            key = pending.pop(future)
            on_result(key, future.result())
            submit(1)


def execute(sweep, jobs, stream=None):
    """Run the points not yet done in a pool of *jobs* processes, then
    compute every point's metrics.  Returns ``({id: result}, interrupted)``
    (see :func:`rdma_analysis.spec.run_point`)."""
    stream = stream or sys.stderr
    points = sweep.points()
    os.makedirs(os.path.join(sweep.out, rs.RUNS_DIR), exist_ok=True)
    rs.clean_partials(os.path.join(sweep.out, rs.RUNS_DIR))
    todo = [p for p in points if not rs.is_done(p.run_dir)]
    done_before = len(points) - len(todo)
    print(f"sweep: {len(points)} points, {done_before} already done, "
          f"{len(todo)} to run on {jobs} process(es); output in "
          f"{sweep.out}", file=stream, flush=True)
    results = {}
    interrupted = False
    start = time.monotonic()
    width = len(str(len(todo)))

    def progress(p, res):
        results[p.id] = res
        finished = len(results)
        elapsed = time.monotonic() - start
        eta = elapsed / finished * (len(todo) - finished)
        what = "ok" if res["status"] == "ok" else f"FAILED ({res['error']})"
        print(f"[{finished:>{width}}/{len(todo)}] {p.id} {p.label()}: "
              f"{what}, {res['seconds']:.2f}s | elapsed "
              f"{rs.fmt_duration(elapsed)}, ETA {rs.fmt_duration(eta)}",
              file=stream, flush=True)

    def store(p, res):
        results[p.id] = res

    old = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            try:
                bounded_map(pool, ((p, rs.run_point, (
                    sweep.command(p), p.run_dir, sweep.log_path(p.id)))
                    for p in todo), jobs, progress)
                rest = [p for p in points if p.id not in results
                        and rs.is_done(p.run_dir)]
                bounded_map(pool, ((p, rs.run_point, (
                    None, p.run_dir, sweep.log_path(p.id))) for p in rest),
                    jobs, store)
            except KeyboardInterrupt:
                interrupted = True
                print("\nsweep: interrupted; waiting for the running points "
                      "to finish. Finished points are kept: run the same "
                      "command again to resume.", file=stream, flush=True)
    finally:
        signal.signal(signal.SIGTERM, old)
    return results, interrupted


def collect_results(sweep, jobs):
    """Metrics of the finished points (no running)."""
    points = [p for p in sweep.points() if rs.is_done(p.run_dir)]
    results = {}
    if not points:
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(rs.run_point, None, p.run_dir,
                               sweep.log_path(p.id)): p for p in points}
        for future in as_completed(futures):
            results[futures[future].id] = future.result()
    return results


# ---------------------------------------------------------------------------
# Table and plots
# ---------------------------------------------------------------------------

def sweep_table(sweep, results):
    """One row per point: ``point, status, <parameters>, <metrics>,
    run_dir``; the spec's metrics first, then every other metric.  Points
    not run yet have status ``missing``."""
    rows = []
    metric_names = []
    for res in results.values():
        for name in (res.get("metrics") or {}):
            if name not in metric_names:
                metric_names.append(name)
    chosen = [m.replace("summary.", "", 1) for m in sweep.metrics]
    ordered = chosen + [m for m in metric_names if m not in chosen]
    for p in sweep.points():
        res = results.get(p.id)
        row = {"point": p.id,
               "status": res["status"] if res else "missing"}
        for key in sweep.param_keys():
            value = p.params.get(key)
            row[key] = value if not isinstance(value, (list, dict)) else \
                rs.format_value(value)
        metrics = (res or {}).get("metrics") or {}
        for name in ordered:
            row[name] = metric_value(metrics, name)
        row["run_dir"] = os.path.relpath(p.run_dir, sweep.out)
        row["error"] = (res or {}).get("error", "")
        rows.append(row)
    return pd.DataFrame(rows, columns=["point", "status"]
                        + sweep.param_keys() + ordered
                        + ["run_dir", "error"])


def write_outputs(sweep, results, plots=True):
    """Write sweep.csv, the seed-aggregated sweep_summary.csv/.md and the
    plots; return the written paths (sweep.csv first)."""
    table = sweep_table(sweep, results)
    os.makedirs(sweep.out, exist_ok=True)
    csv_path = os.path.join(sweep.out, SWEEP_CSV)
    table.to_csv(csv_path, index=False)
    written = [csv_path]
    metrics = [m.replace("summary.", "", 1) for m in sweep.metrics]
    settings = [k for k in sweep.param_keys() if k != "seed"]
    summary = aggregate(table, settings, metrics)
    if len(summary):
        path = os.path.join(sweep.out, SUMMARY_CSV)
        summary.to_csv(path, index=False)
        written.append(path)
        path = os.path.join(sweep.out, SUMMARY_MD)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(f"# Sweep {sweep.spec.stem}: mean over seeds "
                         f"{sweep.seeds or '(base seed)'} with 95% "
                         "confidence interval (n = runs)\n\n"
                         + summary_markdown(summary, settings, metrics)
                         + "\n")
        written.append(path)
    if not plots or not (table["status"] == "ok").any():
        return written
    plot_dir = os.path.join(sweep.out, PLOTS_DIR)
    os.makedirs(plot_dir, exist_ok=True)
    params = [k for k in sweep.param_keys() if k != "seed" and
              len(sweep.grid.get(k, [0, 1])) > 1] or ["seed"]
    log_params = {p.key for p in sweep.random_params if p.log}
    units = rs.scenario_keys(sweep.runner) or {}
    algorithm = sweep.algorithm()
    numeric_grid = [k for k in sweep.grid if k != "cc.algorithm" and
                    numeric_view(sweep.grid[k])[0] is not None
                    and len(sweep.grid[k]) > 1]
    for metric in [m.replace("summary.", "", 1) for m in sweep.metrics]:
        path = os.path.join(plot_dir, f"{_safe(metric)}.png")
        plot_metric(table, metric, params, path, log_params, units,
                    algorithm)
        written.append(path)
        if len(numeric_grid) >= 2 and not sweep.random_params:
            path = os.path.join(plot_dir, f"heatmap_{_safe(metric)}.png")
            plot_heatmap(summary, metric, numeric_grid[0], numeric_grid[1],
                         path, units)
            written.append(path)
    return written


def _safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        prog="rdma sweep",
        description="Run a parameter sweep (grid / random sample x seeds) in "
                    "parallel, resumable; write sweep.csv and plots. See "
                    "docs/analysis.md.")
    rs.add_spec_arguments(parser, "processes")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true",
                      help="list the points and exit (writes nothing)")
    mode.add_argument("--collect", action="store_true",
                      help="run nothing: build sweep.csv and plots from "
                           "the finished points")
    mode.add_argument("--emit", action="store_true",
                      help="write commands.txt, slurm.sh and parallel.sh "
                           "for running the points elsewhere")
    parser.add_argument("--no-plots", action="store_true",
                        help="write sweep.csv only")
    parser.add_argument("--ranks", type=lambda t: rs.int_at_least(t, 1),
                        metavar="N",
                        help="with --emit: each point an MPI job of N ranks "
                             "(mpirun -np N in commands.txt, srun -n N in "
                             "slurm.sh) on the MPI build (./rdma setup "
                             "--mpi)")
    args = parser.parse_args(argv)
    if args.ranks and not args.emit:
        print("rdma sweep: error: --ranks goes with --emit (an MPI job per "
              "point for Slurm or mpirun); a local sweep runs each point "
              "in one process", file=sys.stderr)
        return 2
    runner = rs.runner_path(args.runner)
    needs_runner = not (args.collect or args.dry_run or args.emit)
    if needs_runner and rs.missing_runner("rdma sweep", runner):
        return 2
    try:
        sweep = Sweep(args.spec, out=args.out, runner=runner,
                      check_runner=not args.collect)
    except rs.SpecError as exc:
        print(f"rdma sweep: error: {exc}", file=sys.stderr)
        return 2
    jobs = args.jobs or sweep.jobs or rs.default_jobs()
    if args.dry_run:
        points = sweep.points()
        for p in points:
            state = "done" if rs.is_done(p.run_dir) else "todo"
            print(f"{p.id} {state} {p.label()}")
        print(f"{len(points)} points -> {sweep.out}")
        return 0
    if args.emit:
        emit(sweep, ranks=args.ranks)
        return 0
    if args.collect:
        results = collect_results(sweep, jobs)
        interrupted = False
    else:
        results, interrupted = execute(sweep, jobs)
    if interrupted:
        return EXIT_INTERRUPTED
    paths = write_outputs(sweep, results, plots=not args.no_plots)
    table = pd.read_csv(paths[0])
    counts = table["status"].value_counts().to_dict()
    print(f"sweep: {counts.get('ok', 0)} ok, {counts.get('failed', 0)} "
          f"failed, {counts.get('missing', 0)} missing -> {paths[0]}",
          file=sys.stderr)
    for p in paths:
        print(p)
    return 1 if counts.get("failed", 0) or (
        not args.collect and counts.get("missing", 0)) else 0
