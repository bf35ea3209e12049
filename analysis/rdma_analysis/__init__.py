"""Analysis of RDMA congestion-control simulation runs: reports, comparisons,
parameter sweeps and tuning.

One entry point runs the commands (``./rdma plot|compare|sweep|tune`` calls
it; see docs/analysis.md)::

    PYTHONPATH=analysis python3 -m rdma_analysis plot DIR
    PYTHONPATH=analysis python3 -m rdma_analysis compare DIR DIR...
    PYTHONPATH=analysis python3 -m rdma_analysis sweep SPEC.json
    PYTHONPATH=analysis python3 -m rdma_analysis tune SPEC.json

The modules, usable on their own (e.g. in a notebook:
``from rdma_analysis import data``):

``data``
    Load one run and turn it into numbers (no drawing): gathers the names
    of ``runs`` (loading, FCT statistics), ``queues`` (queues, PFC),
    ``links`` (throughput counters, CC state, port map), ``metrics`` (one
    dict of metrics per run) and ``throughput`` (delivered throughput in
    the measurement window).
``stats``
    Uncertainty: mean and 95% CI over seeds, the percentile sample rule.
``names``
    Readable node and port names (``leaf1->spine0``).
``style``
    The figure rules, written once: colours, time in ms, window shading,
    KB/MB axes, readable ticks.
``plot``, ``run_figures``
    Report of one run (Markdown; the figures).
``compare``, ``compare_plots``
    Labels of one or more runs each, with their intervals.
``spec``, ``params``, ``points``, ``runner_check``
    What sweeps and tuning share: spec checking and setup, parameters,
    running one point; asking ``rdma-run`` (``--check``, key list, file
    keys).
``values``
    Scenario values on the command line (``--set`` text, point ids); a
    leaf the modules above share without importing one another.
``sweep``, ``sweep_plots``, ``sweep_emit``
    Grid / random parameter sweeps x seeds; seed-aggregated tables and
    figures; Slurm / GNU parallel scripts.
``tune``, ``tune_report``
    Optuna (TPE) tuning; its outputs.

Importing the package imports none of them (``data`` needs no matplotlib).
"""
