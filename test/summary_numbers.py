"""The summary figures a run over MPI ranks is compared by, and the MoE variant of the
scenario these runs share, for the tests of such runs (mpi_run_test.py,
ranks_one_test.py)."""

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


# A small MoE layer pair on all 32 hosts (8 GPUs per node, one node per leaf), waiting on
# deliveries, which runs over ranks; without the last key it is refused.
MOE = ["--set", "traffic.incast.enabled=false"] + [
    a for kv in ("traffic.moe.enabled=true", "traffic.moe.ranks=32", "traffic.moe.gpus_per_node=8",
                 "traffic.moe.tokens_per_rank=64", "traffic.moe.hidden_size=1024",
                 "traffic.moe.experts=64", "traffic.moe.top_k=4", "traffic.moe.max_nodes=0",
                 "traffic.moe.exchange=flat", "traffic.moe.layers=2",
                 "traffic.moe.expert_compute_us=2", "traffic.collective_wait=delivered")
    for a in ("--set", kv)]
