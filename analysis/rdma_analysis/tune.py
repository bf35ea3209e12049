"""Tune scenario parameters with Optuna (TPE) against run metrics.

Usage::

    python3 -m rdma_analysis tune SPEC.json [--trials N] [--jobs N]
        [--out DIR] [--storage URL] [--study NAME] [--runner PATH]

(``./rdma tune ...``).  The spec (JSON; paths relative to the spec file)::

    {
      "base": "../../scenarios/demo.json",
      "out": "../../out/tune-demo",
      "set": {"traffic.probe.interval_us": 10},
      "params": {
        "switch.ecn.kmin_kb": {"min": 10, "max": 800, "log": true},
        "switch.ecn.kmax_kb": {"min": 100, "max": 3200, "log": true},
        "switch.ecn.pmax": {"min": 0.01, "max": 1.0},
        "cc.dcqcn.RateAi": {"min": 5, "max": 200, "log": true,
                            "unit": "Mbps"}
      },
      "objective": {"metric": "probe_slowdown_p99", "direction": "minimize",
                    "constraints": [{"metric": "goodput_utilization",
                                     "min": 0.9}]},
      "seeds": [1, 2],
      "trials": 40,
      "jobs": 2,
      "storage": "sqlite:///study.db",
      "study": "demo-ecn",
      "sampler": {"seed": 0, "startup_trials": 10}
    }

Each trial runs the base scenario with the sampled values once per seed
(``OUT/runs/ID``, reused when the same values come again) and takes the
mean of the objective metric over the seeds; a constraint is met when the
mean of its metric is >= ``min`` / <= ``max``.  TPE models the constraints
(Optuna's ``constraints_func``) and the best trial is the best one meeting
all of them.  The study lives in an Optuna storage: by default the SQLite
file ``OUT/study.db``, so running the same command again resumes it until
it holds ``trials`` finished trials; any database URL Optuna accepts
(``--storage postgresql://...``) lets workers on several machines share one
study.

Outputs in OUT: ``best.json`` (the base scenario with the best values, ready
for ``./rdma run``), ``tune.md`` (best trial, constraints, how to re-run),
``trials.csv`` (every trial), ``optimization_history.png`` and
``param_importance.png``.

Exit codes: 0 ok, 1 no trial met the constraints (or all failed), 2 bad
spec or options (nothing written), 130 interrupted.
"""

import argparse
import math
import os
import sys
import threading
import time
import warnings

import numpy as np

from . import spec as rs
from . import style
from .data import metric_value
from .tune_report import (  # noqa: F401  (re-exported)
    BEST_FILE, HISTORY_PLOT, IMPORTANCE_PLOT, REPORT_FILE, TRIALS_CSV,
    best_row, best_scenario, param_importance, plot_history, plot_importance,
    set_dotted, trials_frame, write_outputs)

SPEC_KEYS = {"description", "base", "out", "set", "params", "objective",
             "seeds", "trials", "jobs", "storage", "study", "sampler"}
OBJECTIVE_KEYS = {"metric", "direction", "constraints"}
CONSTRAINT_KEYS = {"metric", "min", "max"}
SAMPLER_KEYS = {"seed", "startup_trials"}

STUDY_DB = "study.db"

EXIT_INTERRUPTED = 130


class TrialFailed(Exception):
    """A trial's run failed or its metric is not available."""


class Constraint:
    def __init__(self, metric, low=None, high=None):
        self.metric = metric
        self.low = low
        self.high = high

    def violation(self, value):
        """<= 0 when met (Optuna's convention), else how far off."""
        if self.low is not None:
            return self.low - value
        return value - self.high

    def text(self):
        if self.low is not None:
            return f"{self.metric} >= {rs.format_value(self.low)}"
        return f"{self.metric} <= {rs.format_value(self.high)}"


class Tune(rs.Experiment):
    """A checked tune spec (see the module documentation)."""

    def __init__(self, path, out=None, runner=None, storage=None,
                 study=None, check_runner=True):
        super().__init__(path, SPEC_KEYS, out)
        spec = self.spec
        params = spec.data.get("params")
        if "params" not in spec.data:
            raise spec.missing("params")
        if not isinstance(params, dict) or not params:
            raise spec.error("params", params, 'expected a non-empty object '
                             '{"scenario.key": {"min": .., "max": ..}}')
        self.params = [rs.parse_param(spec, f"params.{k}", k, v)
                       for k, v in params.items()]
        self.metric, self.direction, self.constraints = self._objective()
        self.seeds = spec.seeds()
        self.trials = spec.get_int("trials", default=20, minimum=0)
        self.jobs = spec.get_int("jobs", minimum=1)
        self.storage = storage or spec.get_string("storage") or \
            "sqlite:///" + os.path.join(self.out, STUDY_DB)
        if "storage" in spec.data and not storage:
            self.storage = _resolve_sqlite(spec, self.storage)
        self.study_name = study or spec.get_string("study") or spec.stem
        sampler = spec.data.get("sampler", {})
        if not isinstance(sampler, dict):
            raise spec.error("sampler", sampler, "expected an object")
        spec.check_known(sampler, SAMPLER_KEYS, prefix="sampler.")
        self.sampler_seed = spec.get_int("seed", obj=sampler, minimum=0,
                                         where="sampler.seed")
        self.startup_trials = spec.get_int(
            "startup_trials", default=10, minimum=0, obj=sampler,
            where="sampler.startup_trials")
        self.finish(runner, check_runner)

    def resolve_paths(self, keys):
        """File values in ``set`` and in ``params`` choices are relative to
        the spec file (see
        :meth:`rdma_analysis.spec.Experiment.resolve_paths`)."""
        super().resolve_paths(keys)
        for p in self.params:
            if p.kind == "choice":
                p.values = [self.spec_path(keys, p.key, v) for v in p.values]

    def swept(self):
        """The tuned parameters (see
        :meth:`rdma_analysis.spec.Experiment.swept`)."""
        return [("params", p.key, p.key, p.candidates())
                for p in self.params]

    def _objective(self):
        spec = self.spec
        obj = spec.data.get("objective")
        if "objective" not in spec.data:
            raise spec.missing("objective")
        if not isinstance(obj, dict):
            raise spec.error("objective", obj, 'expected an object {"metric":'
                             ' .., "direction": "minimize"}')
        spec.check_known(obj, OBJECTIVE_KEYS, prefix="objective.")
        if "metric" not in obj:
            raise spec.missing("objective.metric")
        metric = spec.metric("objective.metric", obj["metric"])
        direction = obj.get("direction", "minimize")
        if direction not in ("minimize", "maximize"):
            raise spec.error("objective.direction", direction,
                             'expected "minimize" or "maximize"')
        constraints = []
        raw = obj.get("constraints", [])
        if not isinstance(raw, list):
            raise spec.error("objective.constraints", raw,
                             "expected a list of {\"metric\", \"min\" or "
                             "\"max\"}")
        for i, c in enumerate(raw):
            where = f"objective.constraints[{i}]"
            if not isinstance(c, dict):
                raise spec.error(where, c, "expected an object")
            spec.check_known(c, CONSTRAINT_KEYS, prefix=f"{where}.")
            if "metric" not in c:
                raise spec.missing(f"{where}.metric")
            name = spec.metric(f"{where}.metric", c["metric"])
            bounds = [b for b in ("min", "max") if b in c]
            if len(bounds) != 1:
                raise spec.error(where, c, "give exactly one of 'min' and "
                                 "'max'")
            bound = c[bounds[0]]
            if isinstance(bound, bool) or not isinstance(bound, (int,
                                                                 float)):
                raise spec.error(f"{where}.{bounds[0]}", bound,
                                 "expected a number")
            constraints.append(Constraint(name, low=bound) if bounds[0] ==
                               "min" else Constraint(name, high=bound))
        return metric, direction, constraints


def _resolve_sqlite(spec, url):
    """A relative SQLite file in the spec is relative to the spec file."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and not url.startswith(prefix + "/") and \
            url[len(prefix):] not in ("", ":memory:"):
        return prefix + spec.resolve(url[len(prefix):])
    return url


# ---------------------------------------------------------------------------
# Optuna
# ---------------------------------------------------------------------------

def _import_optuna():
    try:
        import optuna
    except ImportError:
        return None
    # Failed trials are reported on our own progress line (Optuna would
    # add a warning with a traceback for each).
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    warnings.filterwarnings("ignore", category=optuna.exceptions
                            .ExperimentalWarning)
    return optuna


def suggest(trial, param):
    """Draw a value of *param* for an Optuna trial (the value passed to
    rdma-run, with its unit)."""
    if param.kind == "choice":
        labels = [rs.format_value(v) if isinstance(v, (list, dict)) else v
                  for v in param.values]
        chosen = trial.suggest_categorical(param.key, labels)
        return param.values[labels.index(chosen)]
    if param.kind == "int":
        x = trial.suggest_int(param.key, int(param.low), int(param.high),
                              log=param.log)
    else:
        x = trial.suggest_float(param.key, param.low, param.high,
                                log=param.log)
    return param.value(x)


_RUN_LOCKS = {}
_RUN_LOCKS_GUARD = threading.Lock()


def _run_lock(run_dir):
    """One lock per run folder: two parallel trials that drew the same
    values run the simulator once; the second reuses the result."""
    with _RUN_LOCKS_GUARD:
        return _RUN_LOCKS.setdefault(run_dir, threading.Lock())


def evaluate(tune, values, per_seed_out=None):
    """Run (or reuse) the runs of one set of parameter *values* (``{}``:
    the base scenario with the spec's ``set``) and return ``(objective,
    {metric: mean over seeds}, [run dirs])``; with *per_seed_out* (a dict)
    also fill it with ``{metric: [value per seed]}``.  Raises
    :class:`TrialFailed`."""
    names = [tune.metric] + [c.metric for c in tune.constraints]
    per_seed = []
    dirs = []
    for seed in tune.seeds or [None]:
        overrides = {**tune.fixed, **values}
        if seed is not None:
            overrides["seed"] = seed
        pid = rs.point_id(tune.base_text, overrides)
        run_dir = tune.run_dir(pid)
        dirs.append(run_dir)
        cmd = rs.run_command(tune.runner, tune.base, run_dir, overrides)
        with _run_lock(run_dir):
            res = rs.run_point(cmd, run_dir, tune.log_path(pid))
        if res["status"] != "ok":
            raise TrialFailed(f"run {run_dir} failed: {res['error']}")
        per_seed.append({n: float(metric_value(res["metrics"], n))
                         for n in names})
    means = {}
    for n in names:
        vals = [m[n] for m in per_seed]
        if any(math.isnan(v) for v in vals):
            raise TrialFailed(f"metric {n} is not available for these runs "
                              f"({', '.join(dirs)})")
        means[n] = float(np.mean(vals))
        if per_seed_out is not None:
            per_seed_out[n] = vals
    return means[tune.metric], means, dirs


def _open_study(tune, optuna):
    """Create the study, or load it from the tune's storage; its direction
    must be the spec's."""
    sampler = optuna.samplers.TPESampler(
        seed=tune.sampler_seed, n_startup_trials=tune.startup_trials,
        constraints_func=_constraints if tune.constraints else None)
    try:
        storage = tune.storage
        if storage.startswith(("sqlite", "postgresql", "mysql")):
            # Heartbeats let a resumed study fail the trials an interrupted
            # worker left RUNNING.
            storage = optuna.storages.RDBStorage(
                storage, heartbeat_interval=10, grace_period=30)
        study = optuna.create_study(
            study_name=tune.study_name, storage=storage, sampler=sampler,
            direction=tune.direction, load_if_exists=True)
    except Exception as exc:  # any storage problem: one clear line
        raise rs.SpecError(f"storage {tune.storage}: "
                           f"{type(exc).__name__}: {exc}") from None
    if study.direction.name.lower() != tune.direction:
        raise rs.SpecError(f"study '{tune.study_name}' in {tune.storage} "
                           f"was created to {study.direction.name.lower()}, "
                           f"the spec says {tune.direction}")
    return study


def _trial_objective(tune):
    """The study's objective: one trial's values evaluated, its metrics,
    runs and constraint violations kept as user attributes."""
    def objective(trial):
        values = {p.key: suggest(trial, p) for p in tune.params}
        trial.set_user_attr("values", values)
        per_seed = {}
        try:
            value, means, dirs = evaluate(tune, values, per_seed)
        except TrialFailed as exc:
            trial.set_user_attr("error", str(exc))
            raise
        trial.set_user_attr("metrics", means)
        trial.set_user_attr("per_seed", per_seed)
        trial.set_user_attr("runs", [os.path.relpath(d, tune.out)
                                     for d in dirs])
        trial.set_user_attr("constraints", [
            c.violation(means[c.metric]) for c in tune.constraints])
        return value
    return objective


def _progress_callback(tune, todo, stream):
    """A study callback printing one line per finished trial, with the
    count of this session's *todo* trials and the ETA."""
    from optuna.trial import TrialState
    lock = threading.Lock()
    start = time.monotonic()
    count = [0]

    def progress(study, frozen):
        with lock:
            count[0] += 1
            elapsed = time.monotonic() - start
            eta = elapsed / count[0] * max(0, todo - count[0])
            if frozen.state == TrialState.COMPLETE:
                feasible = all(v <= 0 for v in
                               frozen.user_attrs.get("constraints", []))
                what = (f"{tune.metric}={style.format_number(frozen.value)}"
                        + ("" if feasible else " (constraints not met)"))
            else:
                what = f"{frozen.state.name}: " \
                       f"{frozen.user_attrs.get('error', '')}"
            label = " ".join(f"{k.split('.')[-1]}={rs.format_value(v)}"
                             for k, v in
                             frozen.user_attrs.get("values", {}).items())
            print(f"[trial {frozen.number}] {label} {what} | "
                  f"{count[0]}/{todo} this session, elapsed "
                  f"{rs.fmt_duration(elapsed)}, ETA {rs.fmt_duration(eta)}",
                  file=stream, flush=True)
    return progress


def run_study(tune, optuna, trials, jobs, stream=None):
    """Create or load the study and run trials until it holds *trials*
    finished ones.  Returns ``(study, interrupted)``."""
    stream = stream or sys.stderr
    from optuna.trial import TrialState
    study = _open_study(tune, optuna)
    finished_states = (TrialState.COMPLETE, TrialState.FAIL,
                       TrialState.PRUNED)
    done = len(study.get_trials(deepcopy=False, states=finished_states))
    todo = max(0, trials - done)
    print(f"tune: study '{tune.study_name}' in {tune.storage}: {done} "
          f"finished trial(s), {todo} to run on {jobs} thread(s); output in "
          f"{tune.out}", file=stream, flush=True)
    if todo == 0:
        return study, False
    progress = _progress_callback(tune, todo, stream)
    interrupted = False
    try:
        study.optimize(_trial_objective(tune), n_trials=todo, n_jobs=jobs,
                       catch=(TrialFailed,),
                       callbacks=[optuna.study.MaxTrialsCallback(
                           trials, states=finished_states), progress])
    except KeyboardInterrupt:
        interrupted = True
        print("\ntune: interrupted; the study is kept, run the same command "
              "again to resume", file=stream, flush=True)
    return study, interrupted


def _constraints(frozen):
    return frozen.user_attrs.get("constraints", [])


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        prog="rdma tune",
        description="Tune scenario parameters with Optuna (TPE); resumable "
                    "study in SQLite or any Optuna storage URL. See "
                    "docs/analysis.md.")
    rs.add_spec_arguments(parser, "trials")
    parser.add_argument("--trials", type=lambda t: rs.int_at_least(t, 0),
                        metavar="N",
                        help="finished trials the study should hold "
                             "(default: the spec's 'trials', else 20)")
    parser.add_argument("--storage", metavar="URL",
                        help="Optuna storage URL (default: the spec's "
                             "'storage', else sqlite:///OUT/study.db)")
    parser.add_argument("--study", metavar="NAME",
                        help="study name (default: the spec's 'study', else "
                             "the spec file name)")
    args = parser.parse_args(argv)
    runner = rs.runner_path(args.runner)
    try:
        tune = Tune(args.spec, out=args.out, runner=runner,
                    storage=args.storage, study=args.study,
                    check_runner=False)
    except rs.SpecError as exc:
        print(f"rdma tune: error: {exc}", file=sys.stderr)
        return 2
    optuna = _import_optuna()
    if optuna is None:
        print("rdma tune: error: Optuna is not installed (Debian: apt-get "
              "install python3-optuna, or ./rdma setup)", file=sys.stderr)
        return 2
    if rs.missing_runner("rdma tune", runner):
        return 2
    try:
        tune.check_with_runner()
    except rs.SpecError as exc:
        print(f"rdma tune: error: {exc}", file=sys.stderr)
        return 2
    trials = tune.trials if args.trials is None else args.trials
    jobs = args.jobs or tune.jobs or rs.default_jobs()
    os.makedirs(tune.out, exist_ok=True)
    try:
        study, interrupted = run_study(tune, optuna, trials, jobs)
    except rs.SpecError as exc:
        print(f"rdma tune: error: {exc}", file=sys.stderr)
        return 2
    if interrupted:
        return EXIT_INTERRUPTED
    try:
        paths, best = write_outputs(tune, study, evaluate)
    except (rs.SpecError, TrialFailed) as exc:
        print(f"rdma tune: error: {exc} (see "
              f"{os.path.join(tune.out, REPORT_FILE)})", file=sys.stderr)
        return 1
    if best is None:
        print("tune: no completed trial meets the constraints (failed "
              "trials: see the error column of trials.csv); see "
              f"{os.path.join(tune.out, REPORT_FILE)}", file=sys.stderr)
    else:
        print(f"tune: best trial {int(best['trial'])}: {tune.metric} = "
              f"{style.format_number(best['value'])} -> "
              f"{os.path.join(tune.out, BEST_FILE)}", file=sys.stderr)
    for p in paths:
        print(p)
    return 0 if best is not None else 1
