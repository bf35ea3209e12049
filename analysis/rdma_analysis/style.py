"""Shared figure style: the rules every figure of ``plot``, ``compare``,
``sweep`` and ``tune`` follows, written once.

* **Colour** per congestion-control algorithm (:func:`algorithm_color`), the
  same in every figure of every report; several runs of one algorithm differ
  by line style (:func:`run_styles`).
* **Time** is always in milliseconds (:data:`TIME_UNIT`), in every figure
  and every run, so figures of different runs line up.
* **Measurement window**: time axes shade the warm-up and cool-down
  (:func:`shade_window`) and end at the last activity (:func:`time_axis`).
* **Bytes** on an axis are KB or MB (1 KB = 1000 bytes), chosen from the
  largest value (:func:`bytes_unit`), never a bare count with an offset.
* **Ticks** stay readable: log axes get 1-2-5 labels only over a narrow
  range (:func:`readable_log`), long category labels are rotated
  (:func:`category_ticks`).
* **Categories** (e.g. ``cc.algorithm``) are drawn as strips of points with
  a mean and 95% interval, never joined by lines (see
  :mod:`rdma_analysis.sweep_plots`).
"""

import math
import zlib

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as mticker  # noqa: E402

DPI = 150

# Fixed colours of the known algorithms (Matplotlib's colour-blind friendly
# "tab10" palette).  The baseline without congestion control is neutral grey.
ALGORITHM_COLORS = {
    "none": "#7f7f7f",       # grey
    "dcqcn": "#1f77b4",      # blue
    "timely": "#ff7f0e",     # orange
    "swift": "#2ca02c",      # green
    "hpcc": "#d62728",       # red
    "rtt-probe": "#9467bd",  # purple
}

# Colours for algorithms not listed above, picked by a stable hash of the
# name (never by order of appearance), so they too are the same everywhere.
EXTRA_COLORS = ["#8c564b", "#e377c2", "#bcbd22", "#17becf", "#393b79",
                "#637939", "#8c6d31", "#843c39"]

# Line styles that tell apart several runs sharing one algorithm (colour).
LINE_STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]

# Colours for series that are not algorithms (ports, QPs, parameters).
SERIES_COLORS = plt.rcParams["axes.prop_cycle"].by_key()["color"]


def algorithm_color(name):
    """Colour of congestion-control algorithm *name* (case-insensitive)."""
    key = str(name or "").strip().lower()
    if key in ALGORITHM_COLORS:
        return ALGORITHM_COLORS[key]
    return EXTRA_COLORS[zlib.crc32(key.encode("utf-8")) % len(EXTRA_COLORS)]


def run_styles(algorithms):
    """Colour and line style for each run of a comparison.

    *algorithms* is the list of the runs' algorithm names.  Colour comes from
    the algorithm; the k-th run of the same algorithm gets the k-th line style
    and marker, so runs stay distinguishable.  Returns a list of dicts with
    ``color``, ``linestyle`` and ``marker``.
    """
    seen = {}
    styles = []
    for name in algorithms:
        key = str(name or "").strip().lower()
        k = seen.get(key, 0)
        seen[key] = k + 1
        styles.append({"color": algorithm_color(key),
                       "linestyle": LINE_STYLES[k % len(LINE_STYLES)],
                       "marker": MARKERS[k % len(MARKERS)]})
    return styles


def series_color(i):
    """Colour of the i-th non-algorithm series (port, QP, ...)."""
    return SERIES_COLORS[i % len(SERIES_COLORS)]


def readable_log(axis, lo=None, hi=None):
    """Plain-number labels on a log axis: at 1, 2, 5 x 10^k when the range
    [lo, hi] (default: the data limits) spans at most two decades (else a
    narrow range shows one label or none), at 10^k only when it spans more
    (else the labels overlap)."""
    if lo is None or hi is None:
        lo, hi = axis.get_data_interval()
    span = math.log10(hi / lo) if lo and hi and lo > 0 and hi > lo else 0
    subs = (1.0, 2.0, 5.0) if span <= 2 else (1.0,)
    axis.set_major_locator(mticker.LogLocator(base=10, subs=subs))
    axis.set_major_formatter(mticker.FuncFormatter(
        lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(mticker.NullFormatter())


# --- time axes -----------------------------------------------------------

TIME_UNIT = "ms"
NS_PER_TIME_UNIT = 1e6
TIME_LABEL = f"Time ({TIME_UNIT})"
WINDOW_SHADE = {"color": "0.5", "alpha": 0.15, "linewidth": 0}


def time_axis(ax, end_ns):
    """Label the x axis in :data:`TIME_UNIT` and show [0, end_ns]; returns
    the divisor from ns."""
    ax.set_xlim(0, end_ns / NS_PER_TIME_UNIT if end_ns > 0 else 1)
    ax.set_xlabel(TIME_LABEL)
    return NS_PER_TIME_UNIT


def shade_window(ax, warmup_ns, cooldown_ns, end_ns, label=True):
    """Shade [0, warm-up end] and [cool-down start, end_ns] (outside the
    measurement window) on a time axis in :data:`TIME_UNIT`."""
    div = NS_PER_TIME_UNIT
    spans = []
    if warmup_ns:
        spans.append((0.0, warmup_ns))
    if cooldown_ns is not None and cooldown_ns < end_ns:
        spans.append((cooldown_ns, end_ns))
    for i, (a, b) in enumerate(spans):
        ax.axvspan(a / div, b / div, **WINDOW_SHADE,
                   label="outside measurement window" if label and i == 0
                   else None)
    return bool(spans)


# --- byte axes -----------------------------------------------------------

def bytes_unit(max_bytes):
    """``(divisor, unit)`` for a byte axis: KB up to 1 MB, else MB
    (decimal: 1 KB = 1000 bytes)."""
    return (1e6, "MB") if max_bytes >= 1e6 else (1e3, "KB")


def plain_axis(axis):
    """No offset or scientific notation on a linear axis."""
    formatter = mticker.ScalarFormatter(useOffset=False)
    formatter.set_scientific(False)
    axis.set_major_formatter(formatter)


def category_ticks(ax, labels, axis="x"):
    """Category tick labels, rotated when they would overlap."""
    rotate = max((len(str(t)) for t in labels), default=0) * len(labels) > 40
    setter = ax.set_xticks if axis == "x" else ax.set_yticks
    setter(range(len(labels)))
    if axis == "x":
        ax.set_xticklabels(labels, rotation=30 if rotate else 0,
                           ha="right" if rotate else "center",
                           fontsize="small")
    else:
        ax.set_yticklabels(labels, fontsize="small")


def no_data(ax, text="no data"):
    """Mark an empty axes so an empty figure is clearly intentional."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center",
            va="center", fontsize=12, color="0.4")


def legend_or_empty(ax, drawn, text="no data"):
    """A legend when something was drawn, else the no-data mark."""
    if drawn:
        ax.legend(fontsize="small")
    else:
        no_data(ax, text)


def save(fig, path):
    """Lay out, write a PNG and close *fig*."""
    try:
        fig.tight_layout()
        fig.savefig(path, dpi=DPI)
    finally:
        plt.close(fig)


def format_bytes(n, binary=True):
    """``65536`` -> ``'64K'`` (binary=True: K = 1024), for labels."""
    if n is None:
        return "n/a"
    base = 1024.0 if binary else 1000.0
    value = float(n)
    for unit in ("", "K", "M", "G", "T"):
        if abs(value) < base or unit == "T":
            if value == int(value):
                return f"{int(value)}{unit}"
            return f"{value:.3g}{unit}"
        value /= base
    return str(n)  # pragma: no cover


def format_number(x):
    """Compact text for a table cell (``n/a`` for missing/NaN)."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    try:
        value = float(x)
    except (TypeError, ValueError):
        return str(x)
    if value != value:  # NaN
        return "n/a"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 1:
        return f"{value:.3g}" if abs(value) < 100 else f"{value:.1f}"
    return f"{value:.3g}"


def markdown_table(header, rows):
    """A GitHub-flavoured Markdown table from a header and rows of cells."""
    def cell(v):
        return str(v).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(h) for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)
