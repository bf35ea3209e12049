"""Parameter ranges of a sweep's ``random.params`` and a tune's ``params``:
numeric (optionally log-scaled, integer, with a unit) or a list of values,
checked strictly against the spec."""

import math
import re

from .values import check_scenario_value, describe, format_value

PARAM_KEYS = {"min", "max", "log", "int", "unit", "values"}


class Param:
    """A parameter range: numeric ``[min, max]`` (optionally log-scaled,
    integer, with a unit appended to the value) or a list of ``values``."""

    def __init__(self, key, kind, low=None, high=None, log=False,
                 unit="", values=None):
        self.key = key
        self.kind = kind            # "float", "int" or "choice"
        self.low = low
        self.high = high
        self.log = log
        self.unit = unit
        self.values = values

    def __repr__(self):  # pragma: no cover
        return f"Param({self.key!r}, {self.kind})"

    def value(self, x):
        """The value passed to rdma-run for a raw draw *x*."""
        if self.kind == "choice":
            return x
        if self.kind == "int":
            x = int(round(x))
        else:
            x = float(f"{x:.6g}")
        return f"{format_value(x)}{self.unit}" if self.unit else x

    def candidates(self):
        """Values that exercise the range (to check with rdma-run)."""
        if self.kind == "choice":
            return list(self.values)
        return [self.value(self.low), self.value(self.high)]

    def sample(self, rng):
        """One random value drawn with the ``random.Random`` *rng*."""
        if self.kind == "choice":
            return self.values[rng.randrange(len(self.values))]
        if self.log:
            x = math.exp(rng.uniform(math.log(self.low),
                                     math.log(self.high)))
        else:
            x = rng.uniform(self.low, self.high)
        return self.value(min(max(x, self.low), self.high))


def parse_param(spec, where, key, obj):
    """A :class:`Param` from its spec object (checked strictly)."""
    if not isinstance(obj, dict):
        raise spec.error(where, obj, 'expected an object like {"min": 1, '
                         '"max": 10} or {"values": [...]}')
    spec.check_known(obj, PARAM_KEYS, prefix=f"{where}.")
    if "values" in obj:
        extra = sorted(set(obj) - {"values"})
        if extra:
            raise spec.error(f"{where}.{extra[0]}", obj[extra[0]],
                             "not allowed together with 'values'")
        values = obj["values"]
        if not isinstance(values, list) or not values:
            raise spec.error(f"{where}.values", values,
                             "expected a non-empty list")
        for v in values:
            check_scenario_value(spec, f"{where}.values", v)
        return Param(key, "choice", values=values)
    for bound in ("min", "max"):
        if bound not in obj:
            raise spec.missing(f"{where}.{bound}")
        v = obj[bound]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise spec.error(f"{where}.{bound}", v, "expected a number")
    low, high = float(obj["min"]), float(obj["max"])
    if not low < high:
        raise spec.error(f"{where}.max", obj["max"],
                         "must be greater than min "
                         f"{describe(obj['min'])}")
    log = obj.get("log", False)
    as_int = obj.get("int", False)
    for flag, v in (("log", log), ("int", as_int)):
        if not isinstance(v, bool):
            raise spec.error(f"{where}.{flag}", v, "expected true or false")
    if log and low <= 0:
        raise spec.error(f"{where}.min", obj["min"],
                         "must be > 0 for a log range")
    unit = obj.get("unit", "")
    if not isinstance(unit, str) or (unit and not re.fullmatch(
            r"[A-Za-z/%]+", unit)):
        raise spec.error(f"{where}.unit", unit, 'expected letters, e.g. '
                         '"Mbps", "us"')
    if as_int and (low != int(low) or high != int(high)):
        raise spec.error(where, obj, "min and max must be integers when "
                         "int is true")
    return Param(key, "int" if as_int else "float", low, high, log, unit)
