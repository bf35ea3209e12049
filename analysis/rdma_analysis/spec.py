"""What sweeps and tuning share: strict spec checking, the spec setup both
start from (:class:`Experiment`), parameters, running one point with
``rdma-run``.

A *spec* is a JSON file; paths inside it are relative to the spec file.  Any
problem with a spec raises :class:`SpecError`, whose message names the spec
file, the key and the value; the commands print it as one line and exit with
code 2 before writing anything.
"""

import argparse
import json
import os
import sys

from .metrics import known_metric
from .params import PARAM_KEYS, Param, parse_param  # noqa: F401
from .points import (  # noqa: F401  (re-exported)
    clean_partials, is_done, point_metrics, run_command, run_point)
from .runner_check import (  # noqa: F401  (re-exported)
    check_run, parse_keys_json, path_keys, scenario_keys,
    strip_runner_prefix)
from .values import (  # noqa: F401  (re-exported)
    check_scenario_value, describe, format_value, point_id, set_args)

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(PACKAGE_DIR))  # above analysis/
DEFAULT_RUNNER = os.path.join(REPO_ROOT, "build", "bin", "rdma-run")

# Inside the output folder of a sweep or a tune: one folder per run (named
# by its point id), the simulator's output of each run.
RUNS_DIR = "runs"
LOGS_DIR = "logs"


class SpecError(Exception):
    """A spec is wrong; the message names the spec file, key and value."""




def runner_path(override=None):
    """The simulator binary: *override*, else $RDMA_RUNNER, else
    build/bin/rdma-run of this checkout (absolute)."""
    path = override or os.environ.get("RDMA_RUNNER") or DEFAULT_RUNNER
    return os.path.abspath(path)


def missing_runner(prog, runner):
    """True, after printing *prog*'s one-line error, if the simulator
    binary *runner* does not exist."""
    if os.path.isfile(runner):
        return False
    print(f"{prog}: error: simulator not found: {runner} (run ./rdma "
          "build)", file=sys.stderr)
    return True


def add_spec_arguments(parser, jobs_what):
    """The command-line arguments of sweep and tune alike: ``SPEC.json``,
    ``--jobs`` (*jobs_what* in parallel), ``--out``, ``--runner``."""
    parser.add_argument("spec", metavar="SPEC.json")
    parser.add_argument("--jobs", "-j", type=lambda t: int_at_least(t, 1),
                        metavar="N", help=f"{jobs_what} in parallel "
                        "(default: the spec's 'jobs', else the number of "
                        "cores)")
    parser.add_argument("--out", metavar="DIR",
                        help="output folder (default: the spec's 'out')")
    parser.add_argument("--runner", metavar="PATH",
                        help="simulator binary (default: $RDMA_RUNNER, "
                             "else build/bin/rdma-run)")


def default_jobs():
    """Number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover  (not Linux)
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------
# Reading and checking a spec
# ---------------------------------------------------------------------------

class Spec:
    """A parsed spec file: ``path`` (absolute), ``data`` (dict)."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.name = path
        if not os.path.isfile(self.path):
            raise SpecError(f"{path}: spec file not found")
        try:
            with open(self.path, encoding="utf-8") as handle:
                self.data = json.load(handle)
        except json.JSONDecodeError as exc:
            raise SpecError(f"{path}: not valid JSON: {exc.msg} at line "
                            f"{exc.lineno} column {exc.colno}") from None
        except OSError as exc:
            raise SpecError(f"{path}: cannot read: {exc}") from None
        if not isinstance(self.data, dict):
            raise SpecError(f"{path}: expected a JSON object, got "
                            f"{describe(self.data)}")

    @property
    def stem(self):
        return os.path.splitext(os.path.basename(self.path))[0]

    def error(self, key, value, why):
        """A :class:`SpecError` for *key* (dotted path in the spec)."""
        return SpecError(f"{self.name}: key '{key}' has invalid value "
                         f"{describe(value)} ({why})")

    def missing(self, key):
        """A :class:`SpecError` for the required *key* (dotted path)."""
        return SpecError(f"{self.name}: missing key '{key}'")

    def check_known(self, obj, allowed, prefix=""):
        """Raise on the first key of *obj* not in *allowed*."""
        for key, value in obj.items():
            if key not in allowed:
                where = f"{prefix}{key}"
                raise SpecError(
                    f"{self.name}: unknown key '{where}' (value "
                    f"{describe(value)}); expected one of: "
                    f"{', '.join(sorted(allowed))}")

    def resolve(self, relpath):
        """A path from the spec, relative to the spec file's folder."""
        return os.path.normpath(os.path.join(os.path.dirname(self.path),
                                             relpath))

    # Typed getters ---------------------------------------------------------

    def get_string(self, key, default=None, required=False):
        if key not in self.data:
            if required:
                raise self.missing(key)
            return default
        value = self.data[key]
        if not isinstance(value, str) or not value.strip():
            raise self.error(key, value, "expected a non-empty string")
        return value

    def get_int(self, key, default=None, minimum=None, obj=None,
                where=None):
        obj = self.data if obj is None else obj
        if key not in obj:
            return default
        value = obj[key]
        if isinstance(value, bool) or not isinstance(value, int) or \
                (minimum is not None and value < minimum):
            raise self.error(where or key, value, "expected an integer" + (
                f" >= {minimum}" if minimum is not None else ""))
        return value

    def base_scenario(self, key="base"):
        """``(absolute path, canonical text)`` of the base scenario."""
        rel = self.get_string(key, required=True)
        path = self.resolve(rel)
        if not os.path.isfile(path):
            raise self.error(key, rel, f"scenario file not found: {path}")
        try:
            with open(path, encoding="utf-8") as handle:
                scenario = json.load(handle)
        except (OSError, ValueError) as exc:
            raise self.error(key, rel, f"cannot read {path}: {exc}") \
                from None
        if not isinstance(scenario, dict):
            raise self.error(key, rel, f"{path} is not a JSON object")
        return path, json.dumps(scenario, sort_keys=True)

    def out_dir(self, override=None, key="out"):
        """The output folder: *override* (relative to the current folder),
        else the spec's ``out`` (relative to the spec file), else
        ``out/<spec name>`` in the current folder."""
        if override:
            return os.path.abspath(override)
        rel = self.get_string(key)
        if rel is not None:
            return self.resolve(rel)
        return os.path.abspath(os.path.join("out", self.stem))

    def metric(self, where, name):
        """*name* (at *where*) if it is a known metric name."""
        if not isinstance(name, str) or not known_metric(name):
            raise self.error(where, name, "unknown metric; see "
                             "docs/analysis.md for the list, or use "
                             "summary.KEY")
        return name

    def metrics(self, key="metrics", default=None):
        """Checked list of metric names."""
        if key not in self.data:
            return list(default or [])
        value = self.data[key]
        if not isinstance(value, list) or not value or \
                not all(isinstance(m, str) for m in value):
            raise self.error(key, value, "expected a non-empty list of "
                             "metric names")
        for name in value:
            if not known_metric(name):
                raise self.error(key, value, f"unknown metric '{name}'; see "
                                 "docs/analysis.md for the list, or use "
                                 "summary.KEY for any summary.json key")
        return list(dict.fromkeys(value))

    def seeds(self, key="seeds"):
        """Checked list of seeds ([] if absent)."""
        if key not in self.data:
            return []
        value = self.data[key]
        if not isinstance(value, list) or not value or not all(
                isinstance(s, int) and not isinstance(s, bool) and
                0 <= s <= 4294967295 for s in value):
            raise self.error(key, value, "expected a non-empty list of "
                             "integers in [0, 4294967295]")
        if len(set(value)) != len(value):
            raise self.error(key, value, "seeds must differ")
        return list(value)

    def overrides(self, key="set"):
        """Checked fixed overrides ``{scenario key: value}``."""
        if key not in self.data:
            return {}
        value = self.data[key]
        if not isinstance(value, dict):
            raise self.error(key, value, "expected an object "
                             "{\"scenario.key\": value}")
        for k, v in value.items():
            check_scenario_value(self, f"{key}.{k}", v)
        return dict(value)










# ---------------------------------------------------------------------------
# Checking scenario keys and values with the simulator itself
# ---------------------------------------------------------------------------

def check_keys_exist(spec, runner, keys_with_where):
    """Raise on a scenario key the simulator does not know.

    *keys_with_where* is a list of ``(key, where, value)``.  Skipped (no
    check) when the runner cannot list its keys.
    """
    known = scenario_keys(runner)
    if known is None:
        return
    for key, where, value in keys_with_where:
        if key not in known:
            raise SpecError(f"{spec.name}: unknown scenario key '{key}' in "
                            f"'{where}' (value {describe(value)}); see "
                            "docs/scenario-keys.md")


def check_values_with_runner(spec, runner, base, fixed, candidates):
    """Let rdma-run check the base scenario and every candidate value.

    *candidates* is ``{key: [values]}``.  Runs ``max(len(values))`` checks
    (``rdma-run BASE --check``: nothing runs, nothing is written, whatever
    the traffic type); the i-th sets every key to its i-th value (cycling).
    A rejection raises :class:`SpecError` with the simulator's message.
    Skipped when the runner does not exist.
    """
    if not os.path.isfile(runner):
        return
    rounds = max([len(v) for v in candidates.values()] + [1])
    for i in range(rounds):
        overrides = dict(fixed)
        for key, values in candidates.items():
            overrides[key] = values[i % len(values)]
        msg = check_run(runner, base, overrides)
        if msg is not None:
            msg = strip_runner_prefix(msg)
            raise SpecError(f"{spec.name}: rdma-run rejects this spec: "
                            f"{msg}")


# ---------------------------------------------------------------------------
# The setup a sweep and a tune share
# ---------------------------------------------------------------------------

class Experiment:
    """What a sweep spec and a tune spec share.

    The constructor reads, in this order, the spec's top-level keys (each
    must be in *keys*), ``description``, the ``base`` scenario, the output
    folder (*out*, else the spec's ``out``) and the fixed overrides
    ``set``.  A subclass then reads its own keys (``seeds`` with
    :meth:`Spec.seeds`, in its own order) and ends with :meth:`finish`.

    Attributes: ``spec`` (:class:`Spec`), ``base`` and ``base_text`` (see
    :meth:`Spec.base_scenario`), ``out``, ``fixed`` (``{key: value}``),
    ``seeds`` (list), ``runner`` (set by :meth:`finish`).
    """

    def __init__(self, path, keys, out=None):
        spec = Spec(path)
        self.spec = spec
        spec.check_known(spec.data, keys)
        if "description" in spec.data and \
                not isinstance(spec.data["description"], str):
            raise spec.error("description", spec.data["description"],
                             "expected a string")
        self.base, self.base_text = spec.base_scenario()
        self.out = spec.out_dir(out)
        self.fixed = spec.overrides()
        self.seeds = []
        self.runner = None

    def swept(self):
        """The scenario keys the spec varies, besides the seed: a list of
        ``(where, key, value, candidates)``: where in the spec, the value a
        message shows, the values that exercise its range."""
        raise NotImplementedError

    def finish(self, runner=None, check_runner=True):
        """Raise on a scenario key given twice, find the simulator
        (:func:`runner_path`) and, with *check_runner*, let it check the
        spec (:meth:`check_with_runner`)."""
        seen = {}
        sources = [("set", key) for key in self.fixed] + \
                  [(where, key) for where, key, _, _ in self.swept()]
        if self.seeds:
            sources.append(("seeds", "seed"))
        for where, key in sources:
            if key in seen:
                raise SpecError(
                    f"{self.spec.name}: scenario key '{key}' is given in "
                    f"both '{seen[key]}' and '{where}'")
            seen[key] = where
        self.runner = runner_path(runner)
        self.resolve_paths(path_keys(self.runner))
        if check_runner:
            self.check_with_runner()

    def spec_path(self, keys, key, value):
        """*value* of scenario key *key*, made absolute (relative to the spec
        file) when *key* is in *keys* (keys whose value is a file) and the
        value a relative path; else unchanged."""
        if key in keys and isinstance(value, str) and value and \
                not os.path.isabs(value):
            return self.spec.resolve(value)
        return value

    def resolve_paths(self, keys):
        """Paths in the spec are relative to the spec file: make the values
        of the file keys *keys* absolute (``set`` here; a subclass adds its
        swept values), so every run, emitted command and written scenario
        finds them from anywhere."""
        self.fixed = {k: self.spec_path(keys, k, v)
                      for k, v in self.fixed.items()}

    def check_with_runner(self):
        """Unknown scenario keys and rejected values are spec errors (see
        :func:`check_keys_exist` and :func:`check_values_with_runner`; the
        seeds are checked at their smallest and largest)."""
        swept = self.swept()
        check_keys_exist(self.spec, self.runner,
                         [(k, "set", v) for k, v in self.fixed.items()] +
                         [(key, where, value)
                          for where, key, value, _ in swept])
        candidates = {key: list(values) for _, key, _, values in swept}
        if self.seeds:
            candidates["seed"] = sorted({min(self.seeds), max(self.seeds)})
        check_values_with_runner(self.spec, self.runner, self.base,
                                 self.fixed, candidates)

    def run_dir(self, pid):
        """The run folder of the point *pid* (see :func:`point_id`)."""
        return os.path.join(self.out, RUNS_DIR, pid)

    def log_path(self, pid):
        """Where the simulator's output of the point *pid* goes."""
        return os.path.join(self.out, LOGS_DIR, f"{pid}.log")

    def algorithm(self):
        """The congestion control the runs use unless a parameter says
        otherwise (figure colours): ``set``'s, else the base scenario's,
        else the simulator's default ``dcqcn``."""
        try:
            scenario = json.loads(self.base_text)
            return self.fixed.get("cc.algorithm") or \
                scenario.get("cc", {}).get("algorithm") or "dcqcn"
        except (ValueError, AttributeError):
            return "?"


def fmt_duration(seconds):
    """``75.3`` -> ``'1m15s'``; ``4.2`` -> ``'4.2s'``."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, sec = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes}m{sec:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def int_at_least(text, minimum):
    """argparse type: an integer >= minimum (a clear message otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be >= {minimum}: {text}")
    return value
