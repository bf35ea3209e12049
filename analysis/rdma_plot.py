#!/usr/bin/python3
"""Plot the output of one RDMA congestion-control simulation run.

A run writes into its output folder ``DIR``:

``summary.json``
    Run totals; this module uses ``sim_time_s`` (run length) and
    ``scenario`` (name shown in figure titles), plus ``pfc_pause_frames``
    when present.
``fct.csv``
    One row per completed message, with its ``kind`` and ``slowdown``.
``queue.csv``
    Periodic switch egress queue samples ``time_ns,node,port,prio,bytes``.
    A (node, port, prio) row is written only while the queue is non-zero or
    was non-zero at the previous sample, so an absent row means 0 bytes.
``pfc.csv``
    PFC frames ``time_ns,node,port,prio,event`` with event ``pause``,
    ``refresh`` or ``resume``.

Usage::

    /usr/bin/python3 analysis/rdma_plot.py DIR [--top N]

writes ``queue_top_ports.png``, ``fct_slowdown_cdf.png`` and
``pfc_timeline.png`` into ``DIR/plots/``.

The data preparation (:func:`load_run`, :func:`queue_series`,
:func:`top_ports`, :func:`pause_intervals`, :func:`slowdown_cdf`) is kept
separate from the drawing functions so that it can be unit-tested.
"""

import argparse
import json
import os
import sys
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (backend must be set first)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

NS_PER_US = 1_000.0
NS_PER_S = 1_000_000_000
BYTES_PER_KB = 1_000.0
DPI = 150

SUMMARY_FILE = "summary.json"
FCT_FILE = "fct.csv"
QUEUE_FILE = "queue.csv"
PFC_FILE = "pfc.csv"
PLOTS_SUBDIR = "plots"

QUEUE_PLOT = "queue_top_ports.png"
CDF_PLOT = "fct_slowdown_cdf.png"
PFC_PLOT = "pfc_timeline.png"

# Columns this module needs from each CSV file, with the dtype they are
# converted to.  Other columns are kept as read.
QUEUE_COLUMNS = {"time_ns": "int64", "node": "int64", "port": "int64",
                 "prio": "int64", "bytes": "int64"}
PFC_COLUMNS = {"time_ns": "int64", "node": "int64", "port": "int64",
               "prio": "int64", "event": "str"}
FCT_COLUMNS = {"kind": "str", "slowdown": "float64"}

PORT_KEY = ["node", "port"]
PFC_KEY = ["node", "port", "prio"]
INTERVAL_COLUMNS = PFC_KEY + ["start_ns", "end_ns", "duration_ns",
                              "terminated"]


class RunDataError(Exception):
    """A run folder or one of its files is missing or unreadable.

    The message always names the offending path.
    """


@dataclass
class Run:
    """All data of one simulation run, as loaded by :func:`load_run`."""

    directory: str
    summary: dict
    fct: pd.DataFrame
    queue: pd.DataFrame
    pfc: pd.DataFrame

    @property
    def scenario(self):
        """Scenario name for titles (falls back to the folder name)."""
        name = self.summary.get("scenario")
        if name:
            return str(name)
        return os.path.basename(os.path.normpath(self.directory))

    @property
    def end_ns(self):
        """Simulated run length in nanoseconds."""
        return int(round(float(self.summary["sim_time_s"]) * NS_PER_S))


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------

def _require_file(path):
    if not os.path.isfile(path):
        raise RunDataError(f"required file not found: {path}")


def _read_summary(path):
    _require_file(path)
    try:
        with open(path, encoding="utf-8") as handle:
            summary = json.load(handle)
    except (OSError, ValueError) as exc:
        raise RunDataError(f"cannot read {path}: {exc}") from None
    if not isinstance(summary, dict):
        raise RunDataError(f"{path}: expected a JSON object")
    try:
        float(summary["sim_time_s"])
    except KeyError:
        raise RunDataError(f"{path}: missing key 'sim_time_s'") from None
    except (TypeError, ValueError):
        raise RunDataError(f"{path}: 'sim_time_s' is not a number") from None
    return summary


def _read_csv(path, columns):
    """Read a CSV file, check and convert the columns listed in *columns*.

    A file with only a header gives an empty frame with the right dtypes.
    """
    _require_file(path)
    try:
        frame = pd.read_csv(path, skipinitialspace=True)
    except pd.errors.EmptyDataError:
        raise RunDataError(f"{path}: file is empty (no header line)") from None
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise RunDataError(f"cannot read {path}: {exc}") from None
    frame.columns = [str(name).strip() for name in frame.columns]
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        raise RunDataError(f"{path}: missing column(s) {', '.join(missing)}")
    try:
        for name, dtype in columns.items():
            if dtype == "str":
                frame[name] = frame[name].astype(str).str.strip()
            else:
                frame[name] = pd.to_numeric(frame[name]).astype(dtype)
    except (TypeError, ValueError) as exc:
        raise RunDataError(f"{path}: bad value in column {name!r}: {exc}") \
            from None
    return frame


def load_run(run_dir):
    """Load all files of the run folder *run_dir* into a :class:`Run`.

    Raises :class:`RunDataError` (message naming the path) if the folder or
    a required file is missing, or a file cannot be parsed.
    """
    if not os.path.isdir(run_dir):
        raise RunDataError(f"run directory not found: {run_dir}")
    return Run(
        directory=run_dir,
        summary=_read_summary(os.path.join(run_dir, SUMMARY_FILE)),
        fct=_read_csv(os.path.join(run_dir, FCT_FILE), FCT_COLUMNS),
        queue=_read_csv(os.path.join(run_dir, QUEUE_FILE), QUEUE_COLUMNS),
        pfc=_read_csv(os.path.join(run_dir, PFC_FILE), PFC_COLUMNS),
    )


# ---------------------------------------------------------------------------
# Data preparation (no drawing)
# ---------------------------------------------------------------------------

def queue_series(queue_df):
    """Full per-port queue time series from sparse ``queue.csv`` samples.

    Bytes are summed over priorities.  Returns a frame indexed by every
    sample time present in *queue_df* (``time_ns``, ascending) with one
    column per ``(node, port)`` (a column MultiIndex); a port without a row
    at a sample time gets 0 bytes there.
    """
    if queue_df.empty:
        columns = pd.MultiIndex.from_tuples([], names=PORT_KEY)
        index = pd.Index([], name="time_ns", dtype="int64")
        return pd.DataFrame(index=index, columns=columns, dtype="int64")
    per_port = queue_df.groupby(["time_ns"] + PORT_KEY)["bytes"].sum()
    series = per_port.unstack(PORT_KEY, fill_value=0).sort_index()
    return series.sort_index(axis=1).astype("int64")


def top_ports(queue_df, n):
    """The *n* most loaded switch ports as a list of ``(node, port)``.

    Ports are ranked by the maximum, over sample times, of their queue
    bytes summed over priorities; ties are ordered by (node, port).
    """
    series = queue_series(queue_df)
    if series.empty or n <= 0:
        return []
    peaks = series.max(axis=0)
    ranked = sorted(peaks.items(), key=lambda item: (-item[1], item[0]))
    return [(int(node), int(port)) for (node, port), _ in ranked[:n]]


def pause_intervals(pfc_df, end_ns):
    """PFC pause intervals per ``(node, port, prio)``.

    Frames of each (node, port, prio) are taken in time order (file order
    for equal times).  A ``pause`` opens an interval, which the next
    ``resume`` closes; ``pause``/``refresh`` frames inside an open interval
    only re-send the pause and are ignored.  A ``refresh`` while not paused
    still pauses the class, so it opens an interval too; a ``resume`` while
    not paused is ignored.  An interval still open at the end is extended to
    *end_ns* (the run end) and marked ``terminated=False``.

    Returns a frame with columns ``node, port, prio, start_ns, end_ns,
    duration_ns, terminated`` sorted by (node, port, prio, start_ns).
    """
    rows = []
    if not pfc_df.empty:
        ordered = pfc_df.sort_values("time_ns", kind="stable")
        for key, frames in ordered.groupby(PFC_KEY, sort=True):
            start = None
            for time_ns, event in zip(frames["time_ns"], frames["event"]):
                event = str(event).strip().lower()
                if event in ("pause", "refresh") and start is None:
                    start = int(time_ns)
                elif event == "resume" and start is not None:
                    rows.append((*key, start, int(time_ns), True))
                    start = None
            if start is not None:
                rows.append((*key, start, max(start, int(end_ns)), False))
    intervals = pd.DataFrame(
        rows, columns=PFC_KEY + ["start_ns", "end_ns", "terminated"])
    intervals = intervals.astype(
        {name: "int64" for name in PFC_KEY + ["start_ns", "end_ns"]})
    intervals["terminated"] = intervals["terminated"].astype(bool)
    intervals["duration_ns"] = intervals["end_ns"] - intervals["start_ns"]
    intervals = intervals[INTERVAL_COLUMNS]
    return intervals.sort_values(PFC_KEY + ["start_ns"]).reset_index(
        drop=True)


def slowdown_cdf(fct_df):
    """Empirical CDF of FCT slowdown for each message ``kind``.

    Returns a dict ``{kind: (x, y)}`` (kinds in sorted order) where ``x`` is
    the sorted slowdowns and ``y[i] = (i + 1) / len(x)`` is the fraction of
    messages with slowdown <= ``x[i]``.  Missing slowdowns are skipped.
    """
    cdfs = {}
    if fct_df.empty:
        return cdfs
    valid = fct_df[np.isfinite(fct_df["slowdown"])]
    for kind, group in valid.groupby("kind", sort=True):
        x = np.sort(group["slowdown"].to_numpy(dtype=float))
        y = np.arange(1, len(x) + 1, dtype=float) / len(x)
        cdfs[str(kind)] = (x, y)
    return cdfs


def pause_frame_count(run):
    """Total PFC pause frames: ``pfc_pause_frames`` from the summary if
    present, else the number of ``pause``/``refresh`` rows in pfc.csv."""
    count = run.summary.get("pfc_pause_frames")
    if count is not None:
        return int(count)
    events = run.pfc["event"].str.lower()
    return int(events.isin(["pause", "refresh"]).sum())


# ---------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------

def _no_data(ax, text="no data"):
    """Mark an empty axes so an empty figure is clearly intentional."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center",
            va="center", fontsize=12, color="0.4")


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)


def plot_queue_top_ports(run, path, top=4):
    """Draw queue length over time of the *top* most loaded ports.

    Samples are drawn as steps: each sampled value holds until the next
    sample.  Returns the list of plotted ``(node, port)``.
    """
    series = queue_series(run.queue)
    ports = top_ports(run.queue, top)
    fig, ax = plt.subplots(figsize=(7, 4))
    try:
        time_us = series.index.to_numpy(dtype=float) / NS_PER_US
        # Queues are empty when the run starts; samples before the first
        # row in the file were all zero, so anchor each line at (0, 0).
        lead = len(time_us) > 0 and time_us[0] > 0
        if lead:
            time_us = np.concatenate(([0.0], time_us))
        for node, port in ports:
            kbytes = series[(node, port)].to_numpy(dtype=float) / BYTES_PER_KB
            if lead:
                kbytes = np.concatenate(([0.0], kbytes))
            ax.plot(time_us, kbytes, drawstyle="steps-post",
                    label=f"node {node} port {port}")
        if ports:
            ax.legend(loc="best", fontsize="small")
        else:
            _no_data(ax)
        ax.set_xlim(0, max(run.end_ns / NS_PER_US,
                           time_us.max() if len(time_us) else 0) or 1)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("Time (us)")
        ax.set_ylabel("Queue length (KB)")
        ax.set_title(f"{run.scenario}: egress queue of top {top} ports")
        ax.grid(True, alpha=0.3)
        _save(fig, path)
    finally:
        plt.close(fig)
    return ports


def plot_fct_slowdown_cdf(run, path):
    """Draw the CDF of FCT slowdown, one curve per message kind."""
    cdfs = slowdown_cdf(run.fct)
    fig, ax = plt.subplots(figsize=(6, 4))
    try:
        ax.set_xscale("log")
        drawn = False
        for kind, (x, y) in cdfs.items():
            positive = x > 0  # a log axis cannot show slowdown <= 0
            x, y = x[positive], y[positive]
            if len(x) == 0:
                continue
            # Start each curve at 0 so the first step is visible.
            ax.step(np.concatenate(([x[0]], x)), np.concatenate(([0.0], y)),
                    where="post", label=f"{kind} (n={len(x)})")
            drawn = True
        if drawn:
            ax.legend(loc="lower right", fontsize="small")
        else:
            ax.set_xlim(1, 10)
            _no_data(ax)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("FCT slowdown (FCT / ideal FCT, log scale)")
        ax.set_ylabel("CDF (fraction of messages)")
        ax.set_title(f"{run.scenario}: FCT slowdown CDF")
        ax.grid(True, which="both", alpha=0.3)
        _save(fig, path)
    finally:
        plt.close(fig)


def plot_pfc_timeline(run, path):
    """Draw PFC pause intervals as horizontal bars per (node, port, prio)."""
    intervals = pause_intervals(run.pfc, run.end_ns)
    keys = sorted({tuple(int(v) for v in key) for key in
                   intervals[PFC_KEY].itertuples(index=False)})
    height = min(20.0, max(3.0, 1.5 + 0.3 * len(keys)))
    fig, ax = plt.subplots(figsize=(7, height))
    try:
        for row, key in enumerate(keys):
            node, port, prio = key
            mine = intervals[(intervals["node"] == node)
                             & (intervals["port"] == port)
                             & (intervals["prio"] == prio)]
            bars = [(start / NS_PER_US, duration / NS_PER_US)
                    for start, duration in zip(mine["start_ns"],
                                               mine["duration_ns"])]
            ax.broken_barh(bars, (row - 0.4, 0.8), color="tab:red")
        if keys:
            ax.set_yticks(range(len(keys)))
            ax.set_yticklabels([f"n{n} p{p} c{c}" for n, p, c in keys],
                               fontsize="small" if len(keys) > 20 else None)
            ax.set_ylim(-0.6, len(keys) - 0.4)
            ax.invert_yaxis()
        else:
            ax.set_yticks([])
            _no_data(ax)
        last_us = intervals["end_ns"].max() / NS_PER_US if keys else 0
        ax.set_xlim(0, max(run.end_ns / NS_PER_US, last_us) or 1)
        ax.set_xlabel("Time (us)")
        ax.set_ylabel("Switch port / priority")
        ax.set_title(f"{run.scenario}: PFC pauses "
                     f"({pause_frame_count(run)} pause frames)")
        ax.grid(True, axis="x", alpha=0.3)
        ax.set_axisbelow(True)
        _save(fig, path)
    finally:
        plt.close(fig)


def make_plots(run, out_dir, top=4):
    """Write all figures of *run* into *out_dir*; return the paths."""
    os.makedirs(out_dir, exist_ok=True)
    paths = [os.path.join(out_dir, name)
             for name in (QUEUE_PLOT, CDF_PLOT, PFC_PLOT)]
    plot_queue_top_ports(run, paths[0], top=top)
    plot_fct_slowdown_cdf(run, paths[1])
    plot_pfc_timeline(run, paths[2])
    return paths


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1: {text}")
    return value


def main(argv=None):
    """Command-line entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(
        description="Plot queue, FCT slowdown and PFC figures of a run "
                    "into DIR/plots/.")
    parser.add_argument("run_dir", metavar="DIR",
                        help="simulation output folder")
    parser.add_argument("--top", type=_positive_int, default=4, metavar="N",
                        help="number of most loaded ports to plot "
                             "(default: 4)")
    args = parser.parse_args(argv)
    try:
        run = load_run(args.run_dir)
    except RunDataError as exc:
        print(f"rdma_plot: error: {exc}", file=sys.stderr)
        return 2
    for path in make_plots(run, os.path.join(args.run_dir, PLOTS_SUBDIR),
                           top=args.top):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
