"""Uncertainty: means over seeds with a 95% confidence interval, and the rule
for when a percentile has too few samples to mean anything.

No SciPy: the Student t quantiles are tabulated.

**Confidence interval.**  For n values (one per seed) with mean m and sample
standard deviation s (n - 1 in the denominator), the 95% interval is
m +/- t(0.975, n - 1) x s / sqrt(n).  With n = 1 there is no interval (NaN):
one seed says nothing about seed noise.

**Percentile sample rule.**  A nearest-rank p-th percentile of n values is
*reliable* only when at least one value lies above it, i.e. n x (1 - p/100)
>= 1: p50 needs n >= 2, p95 n >= 20, p99 n >= 100, p99.9 n >= 1000.  Below
that the "percentile" is simply the maximum (or close to it); reports mark
such a value with :data:`LOW_N_MARK`.
"""

import math

import numpy as np

# Two-sided 95% Student t quantiles t(0.975, df) for df = 1..30, then a few
# larger df; beyond the table the normal quantile 1.96.
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
         2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
         2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
         2.048, 2.045, 2.042]
_T975_LARGE = [(40, 2.021), (60, 2.000), (120, 1.980)]
Z975 = 1.960

LOW_N_MARK = "\u2020"   # dagger: percentile from too few samples
LOW_N_NOTE = (f"{LOW_N_MARK} = percentile from too few samples: a p-th "
              "percentile needs n >= 1 / (1 - p/100) values (p50: 2, p95: "
              "20, p99: 100, p99.9: 1000), else it is the maximum or next "
              "to it.")


def t975(df):
    """Two-sided 95% Student t quantile for *df* degrees of freedom (NaN
    for df < 1); between tabulated df the next smaller df's (larger,
    conservative) value."""
    if df < 1:
        return math.nan
    if df <= len(_T975):
        return _T975[int(df) - 1]
    value = _T975[-1]
    for limit, t in _T975_LARGE:
        if df >= limit:
            value = t
    return value if df < 1000 else Z975


def finite(values):
    """*values* as a float array without NaN/inf."""
    v = np.asarray(list(values), dtype=float)
    return v[np.isfinite(v)]


def mean_ci(values):
    """``(mean, sd, half_width, n)`` of the finite *values*: sample sd and
    the 95% t interval half-width (NaN for n < 2; everything NaN for n =
    0)."""
    v = finite(values)
    n = len(v)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = float(v.mean())
    if n < 2:
        return mean, math.nan, math.nan, 1
    sd = float(v.std(ddof=1))
    return mean, sd, t975(n - 1) * sd / math.sqrt(n), n


def min_samples(p):
    """Smallest n for which the p-th percentile is reliable (see the module
    documentation); 1 for a mean (``p`` None)."""
    if p is None:
        return 1
    if p >= 100:
        return math.inf
    return int(math.ceil(1.0 / (1.0 - p / 100.0) - 1e-9))


def enough(p, n):
    """True if *n* samples are enough for the p-th percentile."""
    return n >= min_samples(p)


def format_mean_ci(mean, half, n, fmt):
    """``'12.3 +/- 1.2 (n=3)'``; without an interval ``'12.3 (n=1)'``;
    ``'n/a'`` without values.  *fmt* formats one number."""
    if n == 0 or mean != mean:
        return "n/a"
    if half != half:
        return f"{fmt(mean)} (n={n})"
    return f"{fmt(mean)} \u00b1 {fmt(half)} (n={n})"


def differs(a, b):
    """True if two ``(mean, sd, half, n)`` tuples' 95% intervals do not
    overlap (a conservative sign that the difference is not seed noise);
    False when either has no interval."""
    ma, _, ha, _ = a
    mb, _, hb, _ = b
    if any(x != x for x in (ma, ha, mb, hb)):
        return False
    return abs(ma - mb) > ha + hb
