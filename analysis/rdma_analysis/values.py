"""Scenario values as the simulator's command line takes them: their text
for ``--set KEY=VALUE``, the ``--set`` arguments of a set of overrides, the
id of a point, and the compact text of a value in an error message.

A leaf module (it imports nothing of the package), so that ``spec`` and the
modules it is built from (``params``, ``points``, ``runner_check``) can all
use it without importing one another.
"""

import hashlib
import json


def describe(value, limit=80):
    """Compact JSON text of *value* for error messages."""
    try:
        text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_scenario_value(spec, where, value):
    """A value a scenario key can take on the command line (else *spec*'s
    error naming *where* and the value)."""
    if value is None or isinstance(value, dict):
        raise spec.error(where, value, "expected a number, string, boolean "
                         "or list")


def format_value(v):
    """Text of a scenario value for ``--set KEY=VALUE``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        return format(v, ".12g")
    if isinstance(v, str):
        return v
    return json.dumps(v, separators=(",", ":"))


def set_args(overrides):
    """``['--set', 'k=v', ...]`` for a ``{key: value}`` mapping."""
    args = []
    for key, value in overrides.items():
        args += ["--set", f"{key}={format_value(value)}"]
    return args


def point_id(base_text, overrides):
    """Stable 10-hex-digit id of a run: the base scenario's content and the
    overrides (order-free).  Same inputs, same id, same folder."""
    canon = json.dumps([base_text, sorted((k, format_value(v))
                                          for k, v in overrides.items())],
                       separators=(",", ":"))
    return hashlib.sha1(canon.encode("utf-8")).hexdigest()[:10]
