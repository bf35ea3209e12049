"""What the analysis asks the simulator about scenarios: its keys (``rdma-run
--list-keys --json``), which of them name files, and whether a scenario with
``--set`` overrides is valid (``rdma-run SCENARIO --check``, which runs
nothing and writes nothing, whatever the traffic type).

A rejection becomes one line naming the file, the key and the value (the
simulator's own message); a runner that crashes instead of rejecting is
reported with the overrides it was given, so the user still learns which
key and value it choked on.
"""

import json
import os
import re
import subprocess

from .runs import config_value
from .values import format_value, set_args

# The unit ``rdma-run --list-keys --json`` gives keys whose value is a file
# (relative to the scenario file).
PATH_UNIT = "path"

# Used when the runner cannot list its keys (an old binary): the file keys
# of docs/scenario-keys.md.
FALLBACK_PATH_KEYS = ("topology.file", "traffic.flows_csv",
                      "traffic.cdf.file", "traffic.trace.csv",
                      "traffic.hpcc_flow_file", "traffic.incast_groups_csv")

_KEYS_CACHE = {}


def _key_entries(runner):
    """The entries of ``rdma-run --list-keys --json`` (None if the runner
    is missing, fails or prints no such list); cached per runner."""
    if runner in _KEYS_CACHE:
        return _KEYS_CACHE[runner]
    entries = None
    if os.path.isfile(runner) and os.access(runner, os.X_OK):
        try:
            proc = subprocess.run([runner, "--list-keys", "--json"],
                                  capture_output=True, text=True,
                                  timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            proc = None
        if proc is not None and proc.returncode == 0:
            entries = parse_key_entries(proc.stdout)
    _KEYS_CACHE[runner] = entries
    return entries


def parse_keys_json(text):
    """``{path: unit}`` of the entries of a ``--list-keys --json`` document
    (unit ``""`` where it has none), or None if *text* is not one."""
    entries = parse_key_entries(text)
    if entries is None:
        return None
    return {e["path"]: e.get("unit") or "" for e in entries}


def parse_key_entries(text):
    """The list of key entries of a ``--list-keys --json`` document (see
    ScenarioSchema::KeysJson), or None if *text* is not one."""
    try:
        entries = json.loads(text)["keys"]
        for e in entries:
            e["path"]  # noqa: B018  (each entry must have one)
        return entries
    except (ValueError, TypeError, KeyError):
        return None


def scenario_keys(runner):
    """``{key: unit}`` of every scenario key and congestion-control
    parameter (unit ``""`` where it has none), or None (see
    :func:`_key_entries`)."""
    entries = _key_entries(runner)
    if entries is None:
        return None
    return {e["path"]: e.get("unit") or "" for e in entries}


def path_keys(runner):
    """The scenario keys whose value is a file (unit ``path`` in the
    runner's key list), or :data:`FALLBACK_PATH_KEYS`."""
    keys = scenario_keys(runner)
    if keys is None:
        return set(FALLBACK_PATH_KEYS)
    return {k for k, unit in keys.items() if unit == PATH_UNIT}


def check_command(runner, scenario, overrides=None):
    """``rdma-run SCENARIO --check --set ...``."""
    return [runner, scenario, "--check"] + set_args(overrides or {})


def check_run(runner, scenario, overrides=None):
    """None if rdma-run accepts the scenario file *scenario* with the
    ``--set`` *overrides* (``rdma-run --check``: runs nothing, writes
    nothing), else one line: the runner's last error line, or for a crash
    the signal and the overrides it was given."""
    try:
        proc = subprocess.run(check_command(runner, scenario, overrides),
                              capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run {runner}: {exc}"
    if proc.returncode == 0:
        return None
    lines = [line for line in (proc.stderr or proc.stdout).splitlines()
             if line.strip()]
    errors = [line for line in lines if line.startswith("rdma-run: error")]
    if proc.returncode in (1, 2) and errors:
        return errors[-1]
    given = ", ".join(f"{k}={format_value(v)}"
                      for k, v in (overrides or {}).items()) or "no --set"
    why = next((line for line in lines if "msg=" in line), None) or \
        (lines[-1] if lines else "")
    return (f"rdma-run crashed checking {scenario} (exit code "
            f"{proc.returncode}) with {given}: {why.strip()}")


def strip_runner_prefix(msg):
    """The runner's message without ``rdma-run: error: [--set: ]``."""
    return re.sub(r"^rdma-run: error: (--set: )?", "", msg)


def get_dotted(scenario, key):
    """``scenario['a']['b']`` for ``'a.b'`` (None if absent)."""
    return config_value(scenario, key)


def set_dotted(scenario, key, value):
    """``set_dotted(s, 'a.b.c', v)``: s['a']['b']['c'] = v."""
    node = scenario
    parts = key.split(".")
    for part in parts[:-1]:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    node[parts[-1]] = value


def absolute_paths(scenario, base_dir, keys):
    """*scenario* (a dict, changed in place and returned) with the value of
    every file key in *keys* that is a relative path made absolute against
    *base_dir* (the folder of the scenario file it came from), so the
    scenario can be written and run from any folder."""
    for key in keys:
        value = get_dotted(scenario, key)
        if isinstance(value, str) and value and not os.path.isabs(value):
            set_dotted(scenario, key, os.path.normpath(
                os.path.join(base_dir, value)))
    return scenario
