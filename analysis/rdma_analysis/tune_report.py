"""The outputs of a tuning study (``./rdma tune``): ``trials.csv``, the
figures, ``best.json`` and ``tune.md``.

``best.json`` is the base scenario with the best trial's values written in
and every file key (``rdma-run --list-keys --json`` unit ``path``) made
absolute, so it runs from any folder; ``rdma-run --check`` checks it before
the command ends.  ``tune.md`` puts the best trial beside the base scenario
(the spec's ``set`` without the tuned values) on the same seeds, each as the
mean with its 95% confidence interval over the seeds, so a gain smaller than
the seed noise shows as such.  ``tune.md`` is written even when a later step
fails (the failure is its last section).
"""

import copy
import json
import math
import os

import numpy as np
import pandas as pd

from . import runner_check as rc
from . import spec as rs
from . import stats as st
from . import style

import matplotlib.pyplot as plt  # noqa: E402  (style sets the backend)

BEST_FILE = "best.json"
REPORT_FILE = "tune.md"
TRIALS_CSV = "trials.csv"
HISTORY_PLOT = "optimization_history.png"
IMPORTANCE_PLOT = "param_importance.png"

set_dotted = rc.set_dotted   # re-exported (older name)


def trials_frame(tune, study):
    """One row per trial: number, state, value, feasible, parameters,
    metrics, runs, error."""
    rows = []
    for t in study.get_trials(deepcopy=False):
        cons = t.user_attrs.get("constraints")
        row = {"trial": t.number, "state": t.state.name,
               "value": t.value if t.value is not None else math.nan,
               "feasible": bool(cons is not None and
                                all(v <= 0 for v in cons))
               if t.state.name == "COMPLETE" else False}
        values = t.user_attrs.get("values", {})
        for p in tune.params:
            row[p.key] = values.get(p.key, t.params.get(p.key))
        for name, value in t.user_attrs.get("metrics", {}).items():
            if name != tune.metric:
                row[name] = value
        row["runs"] = " ".join(t.user_attrs.get("runs", []))
        row["error"] = t.user_attrs.get("error", "")
        rows.append(row)
    columns = ["trial", "state", "value", "feasible"] + \
        [p.key for p in tune.params] + \
        list(dict.fromkeys(c.metric for c in tune.constraints
                           if c.metric != tune.metric)) + ["runs", "error"]
    return pd.DataFrame(rows, columns=columns)


def best_row(tune, frame):
    """The best feasible completed trial's row, or None."""
    ok = frame[(frame["state"] == "COMPLETE") & frame["feasible"]]
    if ok.empty:
        return None
    ascending = tune.direction == "minimize"
    return ok.sort_values(["value", "trial"],
                          ascending=[ascending, True]).iloc[0]


def best_scenario(tune, values):
    """The base scenario with the fixed overrides and *values* applied, as
    it should be written into the output folder: every relative file key of
    the base is made absolute (against the base scenario's folder; the
    spec's own path values already are, see
    :meth:`rdma_analysis.spec.Experiment.resolve_paths`)."""
    scenario = copy.deepcopy(json.loads(tune.base_text))
    rc.absolute_paths(scenario, os.path.dirname(tune.base),
                      rc.path_keys(tune.runner))
    for key, value in {**tune.fixed, **values}.items():
        set_dotted(scenario, key, value)
    base_name = scenario.get("name") or \
        os.path.splitext(os.path.basename(tune.base))[0]
    scenario["name"] = f"{base_name}-tuned"
    return scenario


def param_importance(frame, keys):
    """Share of the objective's variance each parameter explains on its
    own (correlation ratio eta^2, normalized to sum to 1).

    Completed trials only.  A numeric parameter's trials are split by rank
    into min(5, distinct values) groups (one group per distinct value when
    there are at most 5); eta^2 = sum over groups of n_g (mean_g - mean)^2
    / sum over trials of (y - mean)^2.  Returns ``{key: share}`` (all 0
    when the objective does not vary or there are < 2 trials).
    """
    done = frame[frame["state"] == "COMPLETE"]
    y = done["value"].to_numpy(dtype=float)
    if len(y) < 2 or np.var(y) == 0:
        return {k: 0.0 for k in keys}
    total = float(((y - y.mean()) ** 2).sum())
    raw = {}
    for key in keys:
        col = done[key].to_list()
        groups = _groups(col)
        between = sum(len(g) * (y[g].mean() - y.mean()) ** 2 for g in groups)
        raw[key] = between / total
    s = sum(raw.values())
    return {k: (v / s if s > 0 else 0.0) for k, v in raw.items()}


def _groups(values, max_groups=5):
    """Index groups of *values*: by distinct value (at most *max_groups*),
    else by rank into *max_groups* nearly equal groups."""
    from .sweep import numeric_view
    x, _ = numeric_view(values)
    keys = [rs.format_value(v) for v in values]
    distinct = list(dict.fromkeys(keys))
    if x is None or len(distinct) <= max_groups:
        return [np.asarray([i for i, k in enumerate(keys) if k == d])
                for d in distinct]
    order = np.argsort(x, kind="stable")
    return [g for g in np.array_split(order, max_groups) if len(g)]


def plot_history(tune, frame, path):
    """Objective of every completed trial and the best feasible so far."""
    done = frame[frame["state"] == "COMPLETE"]
    fig, ax = plt.subplots(figsize=(7, 4))
    color = style.algorithm_color(tune.algorithm())
    feas = done[done["feasible"]]
    infeas = done[~done["feasible"]]
    ax.scatter(feas["trial"], feas["value"], s=22, color=color,
               label="trial (constraints met)")
    if len(infeas):
        ax.scatter(infeas["trial"], infeas["value"], s=22, marker="x",
                   color="0.5", label="trial (constraints not met)")
    if len(feas):
        ordered = feas.sort_values("trial")
        best = ordered["value"].cummin() if tune.direction == "minimize" \
            else ordered["value"].cummax()
        ax.step(ordered["trial"], best, where="post", color="0.15",
                label="best so far")
    if len(done) == 0:
        style.no_data(ax, "no completed trial")
    else:
        ax.legend(fontsize="small")
        v = done["value"].to_numpy(dtype=float)
        v = v[np.isfinite(v)]
        if len(v) and v.min() > 0 and v.max() / v.min() >= 20:
            ax.set_yscale("log")
    ax.set_xlabel("Trial number")
    ax.set_ylabel(f"{tune.metric} ({tune.direction})")
    ax.set_title(f"Optimization history: {tune.study_name}")
    ax.grid(True, alpha=0.3)
    style.save(fig, path)


def plot_importance(tune, importance, path):
    """Horizontal bars of :func:`param_importance`."""
    keys = sorted(importance, key=lambda k: importance[k])
    fig, ax = plt.subplots(figsize=(7, 1.5 + 0.45 * len(keys)))
    ax.barh(range(len(keys)), [importance[k] for k in keys],
            color=style.algorithm_color(tune.algorithm()))
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels(keys, fontsize="small")
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"Share of {tune.metric} variance explained (eta^2, "
                  "normalized)")
    ax.set_title("Parameter importance")
    ax.grid(True, axis="x", alpha=0.3)
    style.save(fig, path)


def _typed(value):
    """A value read back from the trials frame, as a JSON scalar."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _cell(values):
    return st.format_mean_ci(*_ci(values), style.format_number)


def _ci(values):
    mean, _, half, n = st.mean_ci(values)
    return mean, half, n


def comparison_md(tune, base_seeds, best_seeds):
    """Markdown table: each objective/constraint metric for the base
    scenario and the best trial, mean +/- 95% CI over the seeds, and
    whether the intervals separate."""
    names = list(dict.fromkeys([tune.metric] + [c.metric for c in
                                                 tune.constraints]))
    rows = []
    for n in names:
        a, b = base_seeds.get(n, []), best_seeds.get(n, [])
        sep = st.differs(st.mean_ci(a), st.mean_ci(b))
        verdict = "yes" if sep else (
            "no (within seed noise)" if len(a) > 1 and len(b) > 1 else
            "unknown (one seed)")
        rows.append([f"`{n}`", _cell(a), _cell(b), verdict])
    return style.markdown_table(
        ["metric", "base scenario", "best trial", "95% CIs separate"], rows)


def _best_per_seed(study, trial_number):
    for t in study.get_trials(deepcopy=False):
        if t.number == trial_number:
            return t.user_attrs.get("per_seed", {})
    return {}


def write_outputs(tune, study, evaluate=None):
    """trials.csv, plots, and (when a trial met the constraints) best.json
    and the base-vs-best comparison (*evaluate*: ``evaluate(tune, values,
    per_seed)`` of :mod:`rdma_analysis.tune`); tune.md always, even when a
    step fails (then its last section says which and the error is raised
    again).  Returns ``(paths, best row or None)``."""
    os.makedirs(tune.out, exist_ok=True)
    frame = trials_frame(tune, study)
    paths = []
    csv_path = os.path.join(tune.out, TRIALS_CSV)
    frame.to_csv(csv_path, index=False)
    paths.append(csv_path)
    best = best_row(tune, frame)
    md = [f"# Tuning: {tune.study_name}", "",
          f"Spec `{tune.spec.path}`, base scenario `{tune.base}`, storage "
          f"`{tune.storage}`.", "",
          f"Objective: {tune.direction} the mean of `{tune.metric}` over "
          f"seeds {tune.seeds or '(the base scenario seed)'}"
          + (f", subject to {', '.join(c.text() for c in tune.constraints)}"
             if tune.constraints else "") + ".", "",
          f"Trials: {len(frame)} ({(frame['state'] == 'COMPLETE').sum()} "
          f"complete, {int(frame['feasible'].sum())} meeting the "
          f"constraints, {(frame['state'] == 'FAIL').sum()} failed).", ""]
    report = os.path.join(tune.out, REPORT_FILE)
    step = "figures"
    try:
        keys = [p.key for p in tune.params]
        importance = param_importance(frame, keys)
        plot_history(tune, frame, os.path.join(tune.out, HISTORY_PLOT))
        paths.append(os.path.join(tune.out, HISTORY_PLOT))
        plot_importance(tune, importance,
                        os.path.join(tune.out, IMPORTANCE_PLOT))
        paths.append(os.path.join(tune.out, IMPORTANCE_PLOT))
        if best is not None:
            step = "best.json"
            md += _best_section(tune, best)
            best_path = _write_best(tune, best)
            paths.insert(0, best_path)
            step = "checking best.json"
            problem = rs.check_run(tune.runner, best_path)
            if problem:
                raise rs.SpecError(f"{best_path}: rdma-run rejects the "
                                   f"written scenario: {problem}")
            if evaluate is not None:
                step = "running the base scenario on the same seeds"
                base_seeds = {}
                evaluate(tune, {}, base_seeds)
                md += ["## Best trial against the base scenario", "",
                       "Same seeds; mean \u00b1 95% confidence interval "
                       "over the seeds (n = seeds). When the intervals "
                       "overlap, the difference is within the seed noise: "
                       "add seeds before trusting it.", "",
                       comparison_md(tune, base_seeds, _best_per_seed(
                           study, int(best["trial"]))), ""]
        else:
            md += ["**No completed trial meets the constraints**; no "
                   f"{BEST_FILE} written.", ""]
        md += ["## Parameter importance", "",
               style.markdown_table(["parameter", "share"],
                                    [[k, f"{v:.2f}"] for k, v in
                                     sorted(importance.items(),
                                            key=lambda kv: -kv[1])]), "",
               f"![Optimization history]({HISTORY_PLOT})",
               f"![Parameter importance]({IMPORTANCE_PLOT})", ""]
    except Exception as exc:
        md += ["## Error", "", f"Step '{step}' failed: "
               f"{type(exc).__name__}: {exc}", ""]
        raise
    finally:
        md += [f"All trials: [{TRIALS_CSV}]({TRIALS_CSV}).", ""]
        with open(report, "w", encoding="utf-8") as handle:
            handle.write("\n".join(md))
        paths.append(report)
    return paths, best


def _best_section(tune, best):
    values = {p.key: _typed(best[p.key]) for p in tune.params}
    rows = [[k, rs.format_value(v)] for k, v in values.items()]
    rows += [[c.text(), style.format_number(best[c.metric]
                                             if c.metric != tune.metric
                                             else best["value"])]
             for c in tune.constraints]
    best_path = os.path.join(tune.out, BEST_FILE)
    return ["## Best trial", "",
            f"Trial {int(best['trial'])}: `{tune.metric}` = "
            f"{style.format_number(best['value'])} (mean over the seeds).",
            "", style.markdown_table(["parameter / constraint", "value"],
                                     rows), "",
            f"Scenario: [{BEST_FILE}]({BEST_FILE}); run it with "
            f"`./rdma run {best_path} --out out/tuned`.", ""]


def _write_best(tune, best):
    values = {p.key: _typed(best[p.key]) for p in tune.params}
    scenario = best_scenario(tune, values)
    best_path = os.path.join(tune.out, BEST_FILE)
    tmp = best_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(scenario, handle, indent=2)
        handle.write("\n")
    os.replace(tmp, best_path)
    return best_path
