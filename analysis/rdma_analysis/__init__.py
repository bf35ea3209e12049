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
    Load one run and turn it into numbers (no drawing).
``style``
    Figure style shared by every figure: colours per algorithm, units.
``plot``
    Report of one run (figures and Markdown).
``compare``
    Several runs overlaid.
``spec``
    What sweeps and tuning share: spec checking and setup, parameters,
    running one point with ``rdma-run``.
``sweep``
    Grid / random parameter sweeps x seeds.
``tune``
    Optuna (TPE) tuning.

Importing the package imports none of them (``data`` needs no matplotlib).
"""
