"""The summary figures a run over MPI ranks is compared by, for the tests of such runs
(mpi_run_test.py, ranks_one_test.py)."""

# Figures of a run's cost, and the ranks' own block: not compared with a serial run.
COST = {"wall_s", "cpu_s", "events", "events_per_s", "peak_rss_mb", "ranks"}


def numbers(tree, prefix=""):
    """Every number of a summary (nested objects by dotted key), the cost left out."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k not in COST:
                yield from numbers(v, f"{prefix}{k}.")
    elif isinstance(tree, (int, float)) and not isinstance(tree, bool):
        yield prefix[:-1], tree
