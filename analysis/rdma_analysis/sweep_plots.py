"""Sweep results with their seed noise: the table aggregated over seeds
(mean, sd, 95% interval, n) and the figures drawn from it.

Each *setting* is one combination of the swept values other than the seed;
its runs differ only by seed.  ``sweep_summary.csv`` has one row per setting
and, for every metric, ``METRIC_mean``, ``_sd``, ``_ci95`` (half-width of the
95% t interval, see :mod:`rdma_analysis.stats`) and ``_n``.

Figures (``plots/<metric>.png``): the metric against each swept key.  Each
setting is a point at its mean with a 95% error bar, every seed's run a faint
dot behind it.  A numeric key joins the settings that share the other keys'
values by a line (one line per combination of the other keys, at most
:data:`MAX_SERIES`; beyond that the other keys are averaged and the title
says so).  A categorical key (e.g. ``cc.algorithm``) is a strip plot: no
lines, the seeds jittered around each category.
"""

import re

import numpy as np
import pandas as pd

from . import spec as rs
from . import stats as st
from . import style

import matplotlib.pyplot as plt  # noqa: E402  (style sets the backend)
import matplotlib.ticker as mticker  # noqa: E402

MAX_SERIES = 6

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


def _text(v):
    return rs.format_value(v) if not isinstance(v, str) else v


# ---------------------------------------------------------------------------
# Aggregation over seeds
# ---------------------------------------------------------------------------

def aggregate(table, params, metrics):
    """One row per setting of *params* (the swept keys without ``seed``):
    the settings' values, ``runs`` (ok runs) and for each metric
    ``_mean``, ``_sd``, ``_ci95``, ``_n`` over its ok runs.  Settings keep
    the order of the table."""
    ok = table[table["status"] == "ok"]
    keys = [k for k in params if k in table.columns]
    rows = []
    if keys:
        labels = ok[keys].apply(lambda r: tuple(_text(v) for v in r), axis=1)
        order = list(dict.fromkeys(labels)) if len(ok) else []
    else:
        labels = pd.Series([()] * len(ok), index=ok.index)
        order = [()] if len(ok) else []
    for setting in order:
        part = ok[labels == setting]
        row = {k: part[k].iloc[0] for k in keys}
        row["runs"] = len(part)
        for m in metrics:
            values = part[m] if m in part else []
            mean, sd, half, n = st.mean_ci(values)
            row.update({f"{m}_mean": mean, f"{m}_sd": sd,
                        f"{m}_ci95": half, f"{m}_n": n})
        rows.append(row)
    return pd.DataFrame(rows)


def summary_markdown(summary, params, metrics):
    """The settings with ``mean +/- 95% (n=..)`` of each metric."""
    header = list(params) + [f"{m} (mean \u00b1 95% CI)" for m in metrics]
    rows = []
    for _, r in summary.iterrows():
        cells = [_text(r[k]) for k in params]
        cells += [st.format_mean_ci(r[f"{m}_mean"], r[f"{m}_ci95"],
                                    int(r[f"{m}_n"]), style.format_number)
                  for m in metrics]
        rows.append(cells)
    return style.markdown_table(header, rows)


# ---------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------

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


def _series(ok, key, others):
    """``[(label, mask)]``: one series per combination of the *others*'
    values (at most MAX_SERIES), else one over everything."""
    if not others:
        return [("mean \u00b1 95% CI", np.ones(len(ok), dtype=bool))], False
    combos = ok[others].apply(lambda r: tuple(_text(v) for v in r), axis=1)
    distinct = list(dict.fromkeys(combos))
    if len(distinct) > MAX_SERIES:
        return [("mean \u00b1 95% CI (other keys averaged)",
                 np.ones(len(ok), dtype=bool))], True
    return [(" ".join(f"{k.split('.')[-1]}={v}" for k, v in zip(others, c)),
             (combos == c).to_numpy()) for c in distinct], False


def _series_color(label, i, algorithm):
    m = re.search(r"algorithm=(\S+)", label)
    if m:
        return style.algorithm_color(m.group(1))
    return style.algorithm_color(algorithm) if i == 0 else \
        style.series_color(i)


def plot_metric(table, metric, params, path, log_params=(), units=None,
                algorithm="?"):
    """*metric* against each swept key: per setting the mean over seeds
    with its 95% interval, seeds as faint dots (see the module docs)."""
    ok = table[table["status"] == "ok"].reset_index(drop=True)
    fig, axes = plt.subplots(1, len(params), squeeze=False,
                             figsize=(max(5.5, 4.6 * len(params)), 4.0))
    averaged = False
    for ax, key in zip(axes[0], params):
        y = ok[metric].to_numpy(dtype=float) if metric in ok else \
            np.zeros(len(ok))
        x, unit = numeric_view(ok[key]) if len(ok) else (None, None)
        categorical = x is None
        if categorical:
            cats = list(dict.fromkeys(_text(v) for v in ok[key]))
            x = np.asarray([cats.index(_text(v)) for v in ok[key]],
                           dtype=float)
            style.category_ticks(ax, cats)
            ax.set_xlim(-0.5, len(cats) - 0.5)
        others = [k for k in params if k != key and k in ok.columns]
        series, avg = _series(ok, key, others)
        averaged |= avg
        finite = np.isfinite(y)
        rng = np.random.default_rng(0)
        for i, (label, mask) in enumerate(series):
            color = _series_color(label, i, algorithm)
            if categorical and key == "cc.algorithm":
                color = None
            off = (i - (len(series) - 1) / 2) * 0.12 if categorical else 0
            xs, means, halves = [], [], []
            for v in np.unique(x[mask & finite]):
                sel = mask & finite & (x == v)
                mean, _, half, _ = st.mean_ci(y[sel])
                xs.append(v)
                means.append(mean)
                halves.append(0.0 if half != half else half)
                c = color or style.algorithm_color(cats[int(v)])
                jitter = rng.uniform(-0.04, 0.04, sel.sum()) \
                    if categorical else 0
                ax.scatter(x[sel] + off + jitter, y[sel], s=12, alpha=0.35,
                           color=c, edgecolors="none")
                ax.errorbar([v + off], [mean], yerr=[halves[-1]], fmt="o",
                            color=c, capsize=3, markersize=5)
            if xs and not categorical:
                ax.plot(np.asarray(xs), means, color=color, linewidth=1.2,
                        label=label)
            elif xs and len(series) > 1:
                ax.errorbar([], [], fmt="o", color=color, label=label)
        if not finite.any():
            style.no_data(ax)
        if not categorical and (key in log_params or _log_scale(x)):
            _log_axis(ax.xaxis, ax.set_xscale, x)
        if finite.any() and _log_scale(y[finite]) and y[finite].min() > 0:
            _log_axis(ax.yaxis, ax.set_yscale, y[finite])
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize="x-small")
        ax.set_xlabel(param_label(key, unit, units))
        ax.set_ylabel(metric_label(metric))
        ax.grid(True, which="both", alpha=0.3)
    seeds = ok["seed"].nunique() if "seed" in ok else 1
    fig.suptitle(f"{metric_label(metric)}: mean \u00b1 95% CI over "
                 f"{seeds} seed(s), dots = runs ({len(ok)})"
                 + ("; other keys averaged" if averaged else ""),
                 fontsize="medium")
    style.save(fig, path)


def plot_heatmap(summary, metric, kx, ky, path, units=None):
    """Mean of *metric* for each (kx, ky) from the seed-aggregated
    *summary* (averaged over any other key), the 95% half-width below."""
    xs = list(dict.fromkeys(summary[kx]))
    ys = list(dict.fromkeys(summary[ky]))
    xv, xunit = numeric_view(xs)
    yv, yunit = numeric_view(ys)
    if xv is not None:
        xs = [xs[i] for i in np.argsort(xv)]
    if yv is not None:
        ys = [ys[i] for i in np.argsort(yv)]
    grid = np.full((len(ys), len(xs)), np.nan)
    half = np.full_like(grid, np.nan)
    for i, yvalue in enumerate(ys):
        for j, xvalue in enumerate(xs):
            mask = (summary[kx] == xvalue) & (summary[ky] == yvalue)
            part = summary[mask]
            vals = st.finite(part[f"{metric}_mean"])
            if len(vals):
                grid[i, j] = vals.mean()
                h = st.finite(part[f"{metric}_ci95"])
                half[i, j] = h.mean() if len(h) else np.nan
    fig, ax = plt.subplots(figsize=(1.3 * len(xs) + 3, 0.7 * len(ys) + 2.5))
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    for i in range(len(ys)):
        for j in range(len(xs)):
            if np.isfinite(grid[i, j]):
                r, g, b, _ = image.cmap(image.norm(grid[i, j]))
                dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
                text = style.format_number(grid[i, j])
                if np.isfinite(half[i, j]):
                    text += f"\n\u00b1{style.format_number(half[i, j])}"
                ax.text(j, i, text, ha="center", va="center",
                        fontsize="x-small",
                        color="white" if dark else "black")
    style.category_ticks(ax, [_text(v) for v in xs])
    style.category_ticks(ax, [_text(v) for v in ys], axis="y")
    ax.set_xlabel(param_label(kx, xunit, units))
    ax.set_ylabel(param_label(ky, yunit, units))
    fig.colorbar(image, ax=ax, label=metric_label(metric))
    ax.set_title(f"{metric}: mean over seeds \u00b1 95% CI")
    style.save(fig, path)
