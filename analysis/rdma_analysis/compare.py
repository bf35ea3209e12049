"""Compare groups of runs: one label = one or more runs (e.g. one run per
seed), every statistic a mean over the label's runs with its 95% interval.

Usage::

    python3 -m rdma_analysis compare ITEM... [--labels A B ...]
        [--out OUTDIR] [--buckets 1K,8K,...]

(``./rdma compare ...``).  Each ITEM is one label's runs:

* ``LABEL=DIR[,DIR...]``, where each DIR may be a glob
  (``dcqcn='out/q1/dcqcn-s*'``);
* or ``DIR`` / a quoted glob, labelled by ``--labels`` (one label per ITEM)
  or by the folder name.

Writes into OUTDIR (default ``out/compare``):

* ``compare.md``: the report, linking every figure;
* ``summary.csv``: one row per run (label, run folder, algorithm, every
  metric);
* ``summary_groups.csv``: per label and metric the mean, sd, 95% CI
  half-width and n (runs);
* ``summary.md``: the key metrics per label, ``mean +/- 95% CI (n=runs)``;
* ``slowdown_by_bucket.csv``: slowdown statistics per run and size bucket,
  with n (messages);
* figures (see :mod:`rdma_analysis.compare_plots`).

Bad input (an ITEM matching no run folder, an unreadable run): one line on
stderr, exit code 2, nothing written.
"""

import argparse
import glob
import math
import os
import sys

import pandas as pd

from . import compare_plots as cp
from . import stats as st
from . import style
from .data import (RunDataError, bdp_bytes, fct_table, load_run,
                   measured_flows, run_metrics)
from .plot import parse_buckets
from .slowdown import FORMULAS, with_slowdown

DEFAULT_OUT = os.path.join("out", "compare")
REPORT_FILE = "compare.md"
SUMMARY_CSV = "summary.csv"
SUMMARY_MD = "summary.md"
BUCKETS_CSV = "slowdown_by_bucket.csv"
BUCKET_PLOT = "slowdown_by_bucket.png"
CDF_PLOT = "fct_slowdown_cdf.png"
QUEUE_PLOT = "queue_over_time.png"
TPUT_PLOT = "throughput_over_time.png"

QUEUE_CDF_PLOT = "queue_cdf.png"
GROUPS_CSV = "summary_groups.csv"

# Markdown summary: (title, metric, scale) - value shown is metric * scale;
# the percentile a metric is (for the sample rule), else None.
SUMMARY_COLUMNS = [
    ("window goodput (Gb/s)", "window_goodput_gbps", 1),
    ("offered (Gb/s)", "window_offered_gbps", 1),
    ("long-flow rate (Gb/s)", "long_flow_rate_gbps", 1),
    ("slowdown p50", "slowdown_p50", 1),
    ("slowdown p99", "slowdown_p99", 1),
    ("<=BDP p99", "small_slowdown_p99", 1),
    (">BDP p99", "large_slowdown_p99", 1),
    ("probe p99", "probe_slowdown_p99", 1),
    ("max queue (KB)", "max_queue_bytes", 1e-3),
    ("PFC pauses", "pfc_pause_frames", 1),
    ("drops", "drops", 1),
]
# Percentile metrics and the count metric that is their n.
PERCENTILE_N = {"slowdown_p50": (50.0, "flows_measured"),
                "slowdown_p99": (99.0, "flows_measured"),
                "small_slowdown_p99": (99.0, "small_flows"),
                "large_slowdown_p99": (99.0, "large_flows"),
                "probe_slowdown_p99": (99.0, "probe_flows")}


class CompareError(Exception):
    """Bad command-line input (message names the item)."""


def default_labels(dirs):
    """Folder names; the full given paths when two names are the same."""
    names = [os.path.basename(os.path.normpath(d)) for d in dirs]
    if len(set(names)) == len(names):
        return names
    return [os.path.normpath(d) for d in dirs]


def split_labels(items):
    """``['a,b', 'c']`` -> ``['a', 'b', 'c']`` (commas or spaces)."""
    labels = []
    for item in items or []:
        labels.extend(part.strip() for part in item.split(","))
    return [label for label in labels if label]


def expand(pattern):
    """Run folders of one DIR or glob, sorted; [] if none."""
    if glob.has_magic(pattern):
        return sorted(p for p in glob.glob(pattern) if os.path.isdir(p))
    return [pattern]


def parse_groups(items, labels=None):
    """``[(label, [dirs])]`` from the command line's ITEMs (see the module
    documentation).  Raises :class:`CompareError`."""
    labels = split_labels(labels) if labels else None
    plain = [i for i in items if not _has_label(i)]
    if labels is not None and len(labels) != len(items):
        raise CompareError(f"{len(labels)} label(s) for {len(items)} run "
                           "folder(s) or groups")
    defaults = iter(default_labels(plain)) if plain else iter(())
    groups = []
    for k, item in enumerate(items):
        if _has_label(item):
            label, spec = item.split("=", 1)
            parts = [p for p in spec.split(",") if p]
        else:
            label, parts = None, [item]
        dirs = []
        for part in parts:
            found = expand(part)
            if not found:
                raise CompareError(f"'{item}': '{part}' matches no run "
                                   "folder")
            dirs += found
        if labels is not None:
            label = labels[k]
        elif label is None:
            label = next(defaults)
            if glob.has_magic(item):
                label = item
        groups.append((label, dirs))
    names = [g[0] for g in groups]
    if len(set(names)) != len(names):
        raise CompareError(f"labels must differ: {', '.join(names)}")
    return groups


def _has_label(item):
    head = item.split("=", 1)[0]
    return "=" in item and head and "/" not in head and not \
        os.path.exists(item)


def summary_frame(groups):
    """One row per run: ``label, run, dir, algorithm`` and every
    metric."""
    rows = []
    for label, runs in groups:
        for run in runs:
            row = {"label": label,
                   "run": os.path.basename(os.path.normpath(run.directory)),
                   "dir": os.path.abspath(run.directory),
                   "algorithm": run.algorithm}
            row.update(run_metrics(run))
            rows.append(row)
    frame = pd.DataFrame(rows)
    first = ["label", "run", "dir", "algorithm"]
    return frame[first + [c for c in frame.columns if c not in first]]


def group_frame(summary):
    """Per label and numeric metric: ``label, metric, n, mean, sd,
    ci95``."""
    rows = []
    numeric = [c for c in summary.columns if c not in
               ("label", "run", "dir", "algorithm")
               and pd.api.types.is_numeric_dtype(summary[c])]
    for label in dict.fromkeys(summary["label"]):
        part = summary[summary["label"] == label]
        for metric in numeric:
            mean, sd, half, n = st.mean_ci(part[metric])
            rows.append((label, metric, n, mean, sd, half))
    return pd.DataFrame(rows, columns=["label", "metric", "n", "mean", "sd",
                                       "ci95"])


def bucket_frame(groups, edges=None):
    """Long table: ``label, run, group, lo_bytes, hi_bytes, flows, avg
    ...`` for the size buckets and BDP split of every run."""
    parts = []
    for label, runs in groups:
        for run in runs:
            flows, _ = measured_flows(run)
            table = fct_table(flows, edges, bdp_bytes(run))
            table = table[~table["group"].str.startswith("kind=")]
            table.insert(0, "run", os.path.basename(
                os.path.normpath(run.directory)))
            table.insert(0, "label", label)
            parts.append(table)
    return pd.concat(parts, ignore_index=True)


def _cell(part, metric, scale):
    if metric not in part:
        return "n/a"
    mean, _, half, n = st.mean_ci(part[metric] * scale)
    text = st.format_mean_ci(mean, half, n, style.format_number)
    if metric in PERCENTILE_N and text != "n/a":
        p, count = PERCENTILE_N[metric]
        n_msgs = part[count].min() if count in part else math.nan
        if n_msgs == n_msgs:
            text += f" [n≥{int(n_msgs)}"
            text += f"{st.LOW_N_MARK}]" if not st.enough(p, n_msgs) \
                else "]"
    return text


def summary_markdown(summary):
    """Key metrics per label: ``mean +/- 95% CI (n=runs)``; percentiles
    add ``[n>=messages per run]``, marked when too few."""
    header = ["label", "algorithm", "runs"] + \
        [t for t, _, _ in SUMMARY_COLUMNS]
    rows = []
    for label in dict.fromkeys(summary["label"]):
        part = summary[summary["label"] == label]
        rows.append([label, ", ".join(dict.fromkeys(part["algorithm"])),
                     len(part)] + [_cell(part, m, k) for _, m, k in
                                   SUMMARY_COLUMNS])
    return style.markdown_table(header, rows)


def ecn_blind_note(groups):
    """A sentence for the algorithms of *groups* (``[(label, runs)]``) whose
    runs say they ignore ECN marks (:attr:`Run.ignores_ecn`)."""
    blind = sorted({run.algorithm for _, runs in groups for run in runs
                    if run.ignores_ecn})
    if not blind:
        return ""
    return (f"{', '.join(blind)} ignore ECN: switches still mark packets "
            "(and receivers still send CNPs) when ECN is on, so their "
            "`ecn_marked_packets` and `cnps` in summary.csv count marks "
            "nobody acts on.")


def compare(items, out_dir, edges=None, labels=None, slowdown="module"):
    """Load the runs of *items* (``[(label, [dirs])]``), write every output
    into *out_dir*; return the paths.  *slowdown* picks the definition
    (:func:`rdma_analysis.slowdown.with_slowdown`).  Raises
    :class:`RunDataError` before writing anything if a run cannot be
    loaded."""
    groups = [(label, [with_slowdown(load_run(d), slowdown) for d in dirs])
              for label, dirs in items]
    styles = style.run_styles([runs[0].algorithm for _, runs in groups])
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def path(name):
        p = os.path.join(out_dir, name)
        written.append(p)
        return p

    summary = summary_frame(groups)
    summary.to_csv(path(SUMMARY_CSV), index=False)
    group_frame(summary).to_csv(path(GROUPS_CSV), index=False)
    table_md = summary_markdown(summary)
    with open(path(SUMMARY_MD), "w", encoding="utf-8") as handle:
        handle.write(table_md + "\n")
    buckets = bucket_frame(groups, edges)
    buckets.to_csv(path(BUCKETS_CSV), index=False)
    label_list = [label for label, _ in groups]
    cp.plot_buckets(buckets, label_list, styles, edges, path(BUCKET_PLOT))
    cp.plot_cdfs(groups, styles, path(CDF_PLOT))
    cp.plot_queue_cdfs(groups, styles, path(QUEUE_CDF_PLOT))
    cp.plot_queues(groups, styles, path(QUEUE_PLOT))
    cp.plot_throughput(groups, styles, path(TPUT_PLOT))

    md = ["# Comparison", "", "| label | algorithm | runs |", "|---|---|---|"]
    md += [f"| {label} | {runs[0].algorithm} | "
           + ", ".join(f"`{os.path.abspath(r.directory)}`" for r in runs)
           + " |" for label, runs in groups]
    md += ["", "## Summary", "",
           "Each cell: mean over the label's runs \u00b1 the half-width of "
           "the 95% confidence interval (Student t; none with one run), "
           "n = runs. Percentiles add [n\u2265k]: the fewest messages a run "
           "had for it. " + st.LOW_N_NOTE + " Two labels whose intervals "
           "overlap are not shown different by these runs.", "",
           table_md, "",
           "`window_goodput_gbps` (payload delivered between warm-up end "
           "and cool-down start / that time) answers \"did I lose "
           "throughput\" for open-loop traffic; compare it with "
           "`window_offered_gbps`. " + ecn_blind_note(groups), "",
           f"Every run and metric: [{SUMMARY_CSV}]({SUMMARY_CSV}); mean, "
           f"sd, CI, n per label: [{GROUPS_CSV}]({GROUPS_CSV}).", "",
           "## FCT slowdown by flow size", "",
           f"![FCT slowdown by flow size]({BUCKET_PLOT})", "",
           f"Per run and bucket: [{BUCKETS_CSV}]({BUCKETS_CSV}).", "",
           f"![FCT slowdown CDF]({CDF_PLOT})", "",
           "## Queues and throughput", "",
           f"![Queue distribution per run]({QUEUE_CDF_PLOT})",
           f"![Queue over time]({QUEUE_PLOT})",
           f"![Throughput over time]({TPUT_PLOT})", ""]
    report = os.path.join(out_dir, REPORT_FILE)
    with open(report, "w", encoding="utf-8") as handle:
        handle.write("\n".join(md))
    return [report] + written


def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        prog="rdma compare",
        description="Compare labels, each one or more runs (e.g. seeds): "
                    "mean and 95% CI per label, slowdown by size bucket, "
                    "CDFs, queues, throughput.")
    parser.add_argument("items", nargs="+", metavar="ITEM",
                        help="LABEL=DIR[,DIR...] (DIR may be a quoted glob),"
                             " or DIR / glob")
    parser.add_argument("--labels", nargs="+", metavar="LABEL",
                        help="one label per ITEM (space- or comma-"
                             "separated; default: LABEL= or folder names)")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="OUTDIR",
                        help=f"output folder (default: {DEFAULT_OUT})")
    parser.add_argument("--buckets", type=parse_buckets, metavar="SIZES",
                        help="flow-size bucket upper bounds, e.g. "
                             "1K,8K,64K,512K,4M (the default; K = 1024)")
    parser.add_argument("--slowdown", choices=FORMULAS, default="module",
                        help="slowdown definition: module (fct.csv's, the "
                             "default) or hpcc / conweave (those "
                             "simulators' ideal FCT; docs/analysis.md)")
    args = parser.parse_args(argv)
    try:
        items = parse_groups(args.items, args.labels)
        paths = compare(items, args.out, args.buckets,
                        slowdown=args.slowdown)
    except (CompareError, RunDataError) as exc:
        print(f"rdma compare: error: {exc}", file=sys.stderr)
        return 2
    for p in paths:
        print(p)
    return 0
