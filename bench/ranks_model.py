#!/usr/bin/python3
"""Project runs over many MPI ranks from measured 1- and 2-rank runs.

Usage: /usr/bin/python3 bench/ranks_model.py [--out DIR] [--plot PNG] [--net-us US]
       (./rdma bench --ranks 2 runs it after its runs when moe-1024-deepseek was one)

Reads what `./rdma bench --ranks 2` left in bench/out/ranks/: per scenario the serial
run (NAME-serial) and the 2-rank run (NAME-ranks2), each with its summary.json, and the
process wall times of bench/out/ranks.csv. Fits, per scenario, the model

    wall(R) = fixed + spread / R + events x t_event x imbalance / R + windows x window(R)

- fixed + spread: setup and output (process wall minus the simulation's wall time); the
  part every rank repeats (reading the traffic, its flows) and the part split with the
  fabric (QPs, nodes), solved from the 1- and 2-rank runs;
- t_event: simulation seconds per event, serially and on a rank outside its window
  waits (measured at 2 ranks, assumed for every R: a rank's working set only shrinks
  with R); imbalance: the busiest rank's share of the events times R (measured at 2
  ranks, assumed for every R);
- windows: granted-time windows, measured at 2 ranks (a window is at least one
  lookahead of simulated time, so their number does not grow with R);
- window(R): what a window costs beyond its events: measured at 2 ranks on one
  machine, growing as log2 R (an allgather), plus --net-us x log2 R between machines.

Larger layers scale by --scale k (GPUs x k): events, and the spread setup, x k; the
fixed setup (every rank reads every flow) x k^2, since a DeepSeek-style hierarchical
exchange has a flow per pair of nodes. Writes DIR/ranks-projection.csv and .md and the
plot, DIR/ranks-scaling.png unless --plot names another (measured points, projected
curves). It rests on the assumptions named above,
which the .md repeats; racks must be at least R (the partition is by rack).
"""

import argparse
import csv
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from bench import OUT_DIR, atomic_write  # noqa: E402

RANKS = [1, 2, 4, 8, 16, 32, 64]
# (scenario measured, label, GPU scale) projected.
PROJECTIONS = [("moe-1024-deepseek", "1,024 GPUs", 1), ("moe-1024-deepseek", "4,096 GPUs", 4)]


def load(name, out_dir):
    """The fitted model of one scenario, or None if its runs are not there."""
    rows = {}
    table = out_dir / "ranks.csv"
    if table.is_file():
        rows = {r["scenario"]: r for r in csv.DictReader(open(table)) if r["ranks"] == "2"}
    serial = out_dir / "ranks" / f"{name}-serial" / "summary.json"
    ranked = out_dir / "ranks" / f"{name}-ranks2" / "summary.json"
    if name not in rows or not serial.is_file() or not ranked.is_file():
        return None
    row = rows[name]
    s = json.loads(serial.read_text())
    r = json.loads(ranked.read_text())
    per = r["ranks"]["per_rank"]
    wall1, wall2 = float(row["serial_wall_s"]), float(row["ranks_wall_s"])
    # Seconds of simulation per event: serially, and on a rank outside its window waits
    # (the fastest rank's: a smaller working set runs faster).
    t_event1 = s["wall_s"] / s["events"]
    t_event = min((p["wall_s"] - p.get("window_wait_s", 0)) / p["events"] for p in per)
    busiest = max(p["events"] for p in per)
    imbalance = busiest * len(per) / sum(p["events"] for p in per)
    windows = max(p["windows"] for p in per)
    sim2 = max(p["wall_s"] for p in per)
    # Beyond the busiest rank's events, what the 2-rank simulation cost per window.
    window = max(0.0, sim2 - busiest * t_event) / max(windows, 1)
    # setup(R) = fixed + spread / R through both runs (spread < 0: the ranks' own start
    # and merge cost more than the split saves).
    setup1, setup2 = wall1 - s["wall_s"], wall2 - sim2
    fixed = 2 * setup2 - setup1
    spread = setup1 - fixed
    return {"scenario": name, "wall1": wall1, "wall2": wall2, "events": s["events"],
            "t_event1": t_event1, "t_event": t_event, "imbalance": imbalance, "windows": windows,
            "window": window, "fixed": fixed, "spread": spread,
            "rss1": s["peak_rss_mb"], "rss2": max(p["peak_rss_mb"] for p in per)}


def project(m, ranks, scale, net_us):
    events = m["events"] * scale
    if ranks == 1:
        compute = events * m["t_event1"]
    else:
        compute = events * m["t_event"] * m["imbalance"] / ranks
    log = math.log2(ranks)
    windows = m["windows"] * (log * (m["window"] + net_us * 1e-6)) if ranks > 1 else 0.0
    return m["fixed"] * scale * scale + m["spread"] * scale / ranks + compute + windows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=OUT_DIR)
    p.add_argument("--plot", type=Path, default=None,
                   help="the plot (default: OUT/ranks-scaling.png; the README's is "
                        "docs/img/ranks-scaling.png)")
    p.add_argument("--net-us", type=float, default=20.0,
                   help="allgather latency between machines per log2(R) step (default 20 us)")
    args = p.parse_args(argv)
    args.plot = args.plot or args.out / "ranks-scaling.png"
    models = {}
    for name in {n for n, _, _ in PROJECTIONS} | {"moe-256-deepseek"}:
        m = load(name, args.out)
        if m:
            models[name] = m
    if "moe-1024-deepseek" not in models:
        print("ranks_model: no 1- and 2-rank runs of moe-1024-deepseek in "
              f"{args.out}/ranks (./rdma bench --ranks 2)", file=sys.stderr)
        return 2
    rows = []
    for name, label, scale in PROJECTIONS:
        for ranks in RANKS:
            rows.append({"layer": label, "ranks": ranks,
                         "projected_wall_s": round(project(models[name], ranks, scale,
                                                           args.net_us), 1)})
    text = "layer,ranks,projected_wall_s\n" + "".join(
        f"{r['layer']},{r['ranks']},{r['projected_wall_s']}\n" for r in rows)
    atomic_write(args.out / "ranks-projection.csv", text)
    m = models["moe-1024-deepseek"]
    md = ["Projected wall time of a DeepSeek-V3 MoE layer over MPI ranks", "",
          f"Fitted to moe-1024-deepseek: serial {m['wall1']:.1f} s, 2 ranks {m['wall2']:.1f} s;"
          f" {m['events']:,} events at {m['t_event1'] * 1e9:.0f} ns serially, "
          f"{m['t_event'] * 1e9:.0f} ns on a rank; imbalance "
          f"{m['imbalance']:.3f}; {m['windows']:,} windows at {m['window'] * 1e6:.1f} us; "
          f"setup {m['fixed']:.1f} s on every rank + {m['spread']:.1f} s / R.",
          "", "Assumptions: a rank's cost per event is the one measured at 2 ranks (its "
          "working set only shrinks with more ranks, so this is pessimistic); the racks, at least as many as the ranks, "
          "carry equal traffic and none crosses between them (rail placement, "
          "hierarchical exchange); a window costs the measured 2-rank overhead plus "
          f"{args.net_us:g} us per doubling of the ranks between machines; the 4,096-GPU "
          "layer has 4x the events and 16x the flows.", "",
          "| layer | " + " | ".join(f"{r} ranks" for r in RANKS) + " |",
          "|---|" + "---|" * len(RANKS)]
    for _, label, scale in PROJECTIONS:
        md.append(f"| {label} | " + " | ".join(
            f"{project(m, r, scale, args.net_us):.0f} s" for r in RANKS) + " |")
    atomic_write(args.out / "ranks-projection.md", "\n".join(md) + "\n")
    plot(models, args)
    print("\n".join(md))
    return 0


def plot(models, args):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for (name, label, scale), color in zip(PROJECTIONS, ["tab:blue", "tab:red"]):
        m = models[name]
        ax.plot(RANKS, [project(m, r, scale, args.net_us) for r in RANKS], "--", color=color,
                label=f"{label}, projected")
        if scale == 1:
            ax.plot([1, 2], [m["wall1"], m["wall2"]], "o", color=color,
                    label=f"{label}, measured")
    if "moe-256-deepseek" in models:
        m = models["moe-256-deepseek"]
        ax.plot([1, 2], [m["wall1"], m["wall2"]], "s", color="tab:green",
                label="256 GPUs, measured")
    ax.axhline(600, color="gray", lw=0.8)
    ax.text(40, 630, "10 min", color="gray")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(RANKS)
    ax.set_xticklabels([str(r) for r in RANKS])
    ax.set_xlabel("MPI ranks")
    ax.set_ylabel("wall time of one MoE layer (s)")
    ax.set_title("DeepSeek-V3 MoE layer over MPI ranks")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", lw=0.3)
    args.plot.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(args.plot, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
