"""``./rdma validate``: published results reproduced, one command, one report.

Each case (one module in ``cases/``) runs scenarios with ``rdma-run``, checks a published
claim against the simulated result with a stated tolerance, and draws a figure. The
report, ``out/validate/report.md``, holds one section per case: the claim quoted with
its source, the simulated result beside the published one, pass or fail, the figure.
"""
