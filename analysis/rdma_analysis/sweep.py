"""Parameter sweeps: a base scenario x a grid and/or random sample x seeds.

Usage::

    python3 -m rdma_analysis sweep SPEC.json [--jobs N] [--out DIR]
        [--dry-run | --collect | --emit] [--runner PATH]

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
ran the points, ``--collect`` builds sweep.csv and the plots.

Exit codes: 0 all points done, 1 some failed, 2 bad spec or options
(nothing written), 130 interrupted (finished points are kept).
"""

import argparse
import itertools
import math
import os
import random
import re
import shlex
import signal
import sys
import time
from concurrent.futures import (FIRST_COMPLETED, ProcessPoolExecutor,
                                as_completed, wait)

import numpy as np
import pandas as pd

from . import spec as rs
from . import style
from .data import metric_value

import matplotlib.pyplot as plt  # noqa: E402  (style sets the backend)
import matplotlib.ticker as mticker  # noqa: E402

SPEC_KEYS = {"description", "base", "out", "set", "grid", "random", "seeds",
             "metrics", "jobs", "slurm"}
RANDOM_KEYS = {"samples", "seed", "params"}
SLURM_KEYS = {"partition", "account", "time", "cpus_per_task", "mem",
              "max_parallel", "points_per_task", "extra"}

DEFAULT_METRICS = ["slowdown_p99", "small_slowdown_p99",
                   "large_slowdown_p99", "probe_slowdown_p99",
                   "goodput_gbps", "max_queue_bytes", "pfc_pause_frames"]

SWEEP_CSV = "sweep.csv"
PLOTS_DIR = "plots"
COMMANDS_FILE = "commands.txt"
SLURM_FILE = "slurm.sh"
PARALLEL_FILE = "parallel.sh"

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


_NUM_UNIT = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                       r"\s*([A-Za-z/%]*)\s*$")


def numeric_view(values):
    """``(floats, unit)`` if every value is a number, or a number with the
    same unit suffix ("40Mbps"); else ``(None, None)``."""
    vals = list(values)
    if vals and all(isinstance(v, (int, float, np.integer, np.floating))
                    and not isinstance(v, (bool, np.bool_)) for v in vals):
        return np.asarray(vals, dtype=float), ""
    if vals and all(isinstance(v, str) for v in vals):
        parts = [_NUM_UNIT.match(v) for v in vals]
        if all(parts) and len({m.group(2) for m in parts}) == 1:
            return (np.asarray([float(m.group(1)) for m in parts]),
                    parts[0].group(2))
    return None, None


def metric_label(name):
    """Axis label with the unit read from the metric's name."""
    for suffix, unit in (("_gbps", "Gb/s"), ("_us", "us"), ("_ns", "ns"),
                         ("_bytes", "bytes"), ("_s", "s"), ("_mb", "MB")):
        if name.endswith(suffix):
            return f"{name} ({unit})"
    return name


def param_label(key, unit, units):
    unit = unit or (units or {}).get(key, "")
    return f"{key} ({unit})" if unit else key


def _log_scale(x):
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    return len(x) > 1 and x.min() > 0 and x.max() / x.min() >= 100


def _log_axis(axis, set_scale, values):
    """Log scale without cluttered minor labels; ticks at the values when
    they span less than a decade."""
    set_scale("log")
    axis.set_minor_formatter(mticker.NullFormatter())
    v = np.unique(np.asarray(values, dtype=float))
    v = v[np.isfinite(v) & (v > 0)]
    if len(v) and v.max() / v.min() < 10:
        ticks = v if len(v) <= 6 else np.geomspace(v.min(), v.max(), 5)
        axis.set_ticks(ticks)
        axis.set_ticklabels([style.format_number(t) for t in ticks])


def plot_metric(table, metric, params, path, log_params=(), units=None,
                algorithm="?"):
    """*metric* against each parameter: every point (dots) and the mean of
    the points sharing a value (line)."""
    ok = table[table["status"] == "ok"]
    fig, axes = plt.subplots(1, len(params), squeeze=False,
                             figsize=(max(5.0, 4.2 * len(params)), 3.8))
    color = style.algorithm_color(algorithm)
    for ax, key in zip(axes[0], params):
        y = ok[metric].to_numpy(dtype=float) if metric in ok else \
            np.zeros(0)
        x, unit = numeric_view(ok[key]) if len(ok) else (None, None)
        colors = [color] * len(ok)
        if "cc.algorithm" in ok and key != "cc.algorithm":
            colors = [style.algorithm_color(a) for a in ok["cc.algorithm"]]
        if x is None:  # categories
            cats = list(dict.fromkeys(rs.format_value(v) for v in ok[key]))
            x = np.asarray([cats.index(rs.format_value(v))
                            for v in ok[key]], dtype=float)
            ax.set_xticks(range(len(cats)))
            ax.set_xticklabels(cats, fontsize="small")
            ax.set_xlim(-0.5, len(cats) - 0.5)
            if key == "cc.algorithm":
                colors = [style.algorithm_color(c) for c in ok[key]]
        ax.scatter(x, y, s=18, alpha=0.6, c=colors, edgecolors="none")
        finite = np.isfinite(y)
        if finite.any():
            # One mean line per algorithm when the algorithm is swept (in its
            # colour), else one overall; only where values repeat.
            if "cc.algorithm" in ok and key != "cc.algorithm":
                algos = ok["cc.algorithm"].astype(str).to_numpy()
                groups = [(a, algos == a, style.algorithm_color(a))
                          for a in dict.fromkeys(algos)]
            else:
                groups = [("mean", np.ones(len(x), dtype=bool), "0.2")]
            for name, mask, line_color in groups:
                sel = finite & mask
                ux = np.unique(x[sel])
                if len(ux) and len(ux) < sel.sum():
                    means = [np.mean(y[sel & (x == v)]) for v in ux]
                    ax.plot(ux, means, color=line_color, linewidth=1.2,
                            label=f"{name} (mean)" if name != "mean"
                            else "mean")
                elif name != "mean":
                    ax.scatter([], [], s=18, color=line_color, label=name)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize="small")
        else:
            style.no_data(ax)
        if key in log_params or _log_scale(x):
            _log_axis(ax.xaxis, ax.set_xscale, x)
        if finite.any() and _log_scale(y[finite]) and y[finite].min() > 0:
            _log_axis(ax.yaxis, ax.set_yscale, y[finite])
        ax.set_xlabel(param_label(key, unit, units))
        ax.set_ylabel(metric_label(metric))
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"{metric_label(metric)} vs parameters "
                 f"({len(ok)} points)")
    style.save(fig, path)


def plot_heatmap(table, metric, kx, ky, path, units=None):
    """Mean of *metric* over the other parameters for each (kx, ky)."""
    ok = table[table["status"] == "ok"]
    xs = list(dict.fromkeys(ok[kx]))
    ys = list(dict.fromkeys(ok[ky]))
    xv, xunit = numeric_view(xs)
    yv, yunit = numeric_view(ys)
    if xv is not None:
        xs = [xs[i] for i in np.argsort(xv)]
    if yv is not None:
        ys = [ys[i] for i in np.argsort(yv)]
    grid = np.full((len(ys), len(xs)), np.nan)
    for i, yvalue in enumerate(ys):
        for j, xvalue in enumerate(xs):
            mask = (ok[kx] == xvalue) & (ok[ky] == yvalue)
            vals = ok.loc[mask, metric].to_numpy(dtype=float)
            vals = vals[np.isfinite(vals)]
            if len(vals):
                grid[i, j] = vals.mean()
    fig, ax = plt.subplots(figsize=(1.1 * len(xs) + 3, 0.6 * len(ys) + 2.5))
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                r, g, b, _ = image.cmap(image.norm(grid[i, j]))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                ax.text(j, i, style.format_number(grid[i, j]), ha="center",
                        va="center", fontsize="small",
                        color="white" if dark else "black")
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([rs.format_value(v) for v in xs], fontsize="small")
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([rs.format_value(v) for v in ys], fontsize="small")
    ax.set_xlabel(param_label(kx, xunit, units))
    ax.set_ylabel(param_label(ky, yunit, units))
    fig.colorbar(image, ax=ax, label=metric_label(metric))
    ax.set_title(f"{metric} (mean over the other parameters)")
    style.save(fig, path)


def write_outputs(sweep, results, plots=True):
    """Write sweep.csv and the plots; return the written paths."""
    table = sweep_table(sweep, results)
    os.makedirs(sweep.out, exist_ok=True)
    csv_path = os.path.join(sweep.out, SWEEP_CSV)
    table.to_csv(csv_path, index=False)
    written = [csv_path]
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
            plot_heatmap(table, metric, numeric_grid[0], numeric_grid[1],
                         path, units)
            written.append(path)
    return written


def _safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


# ---------------------------------------------------------------------------
# Slurm and GNU parallel
# ---------------------------------------------------------------------------

def emit(sweep, stream=None):
    """Write commands.txt, slurm.sh and parallel.sh into the output folder;
    return their paths."""
    stream = stream or sys.stdout
    points = sweep.points()
    os.makedirs(os.path.join(sweep.out, rs.RUNS_DIR), exist_ok=True)
    os.makedirs(os.path.join(sweep.out, rs.LOGS_DIR), exist_ok=True)
    commands = os.path.join(sweep.out, COMMANDS_FILE)
    with open(commands, "w", encoding="utf-8") as handle:
        for p in points:
            # Idempotent: a finished point is skipped.
            done = shlex.quote(os.path.join(p.run_dir, "summary.json"))
            handle.write(f"test -f {done} || "
                         f"{shlex.join(sweep.command(p))}\n")
    n = len(points)
    s = sweep.slurm
    per_task = s.get("points_per_task", 1)
    tasks = math.ceil(n / per_task)
    array = f"1-{tasks}" + (f"%{s['max_parallel']}"
                            if "max_parallel" in s else "")
    q = shlex.quote
    lines = ["#!/bin/bash",
             f"# Slurm job array for the sweep {sweep.spec.path}",
             f"# {n} points, {per_task} per array task. Submit with:",
             f"#   sbatch {q(os.path.join(sweep.out, SLURM_FILE))}",
             "# then build sweep.csv and the plots with:",
             f"#   ./rdma sweep {q(sweep.spec.path)} --out {q(sweep.out)} "
             "--collect",
             f"#SBATCH --job-name=rdma-sweep-{_safe(sweep.spec.stem)}",
             f"#SBATCH --array={array}",
             f"#SBATCH --cpus-per-task={s.get('cpus_per_task', 1)}",
             f"#SBATCH --output={os.path.join(sweep.out, rs.LOGS_DIR)}"
             "/slurm-%A_%a.log"]
    for key, opt in (("partition", "partition"), ("account", "account"),
                     ("time", "time"), ("mem", "mem")):
        if key in s:
            lines.append(f"#SBATCH --{opt}={s[key]}")
    lines += [f"#SBATCH {e}" for e in s.get("extra", [])]
    lines += ["set -euo pipefail",
              f"COMMANDS={q(commands)}",
              f"PER_TASK={per_task}",
              "first=$(( (SLURM_ARRAY_TASK_ID - 1) * PER_TASK + 1 ))",
              "last=$(( first + PER_TASK - 1 ))",
              "status=0",
              "while IFS= read -r cmd; do",
              "  bash -c \"$cmd\" || status=1",
              "done < <(sed -n \"${first},${last}p\" \"$COMMANDS\")",
              "exit $status", ""]
    slurm = os.path.join(sweep.out, SLURM_FILE)
    with open(slurm, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    os.chmod(slurm, 0o755)
    joblog = os.path.join(sweep.out, rs.LOGS_DIR, "parallel.joblog")
    parallel_cmd = (f"parallel --jobs {sweep.jobs or rs.default_jobs()} "
                    f"--joblog {q(joblog)} --bar < {q(commands)}")
    par = os.path.join(sweep.out, PARALLEL_FILE)
    with open(par, "w", encoding="utf-8") as handle:
        handle.write("\n".join([
            "#!/bin/bash",
            f"# GNU parallel over the {n} points of {sweep.spec.path}.",
            "# Several machines sharing this folder: add",
            "#   --sshloginfile nodes.txt --workdir $PWD",
            "# Afterwards build sweep.csv and the plots with:",
            f"#   ./rdma sweep {q(sweep.spec.path)} --out {q(sweep.out)} "
            "--collect",
            "set -euo pipefail", parallel_cmd, ""]))
    os.chmod(par, 0o755)
    print(f"{n} point commands: {commands}\n"
          f"Slurm:        sbatch {slurm}\n"
          f"GNU parallel: {parallel_cmd}\n"
          f"Afterwards:   ./rdma sweep {sweep.spec.path} --out {sweep.out} "
          "--collect", file=stream)
    return [commands, slurm, par]


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
    args = parser.parse_args(argv)
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
        emit(sweep)
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
