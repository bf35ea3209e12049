"""./rdma and bench/bench.py start the runner with glibc's malloc on transparent huge
pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), keeping any tunables the user set and
never overriding the user's own hugetlb choice."""
import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tunables_seen_by_runner(tmp_path, user_value):
    """GLIBC_TUNABLES as the runner started by `./rdma run` sees it."""
    seen = tmp_path / "seen.txt"
    fake = tmp_path / "fake-runner"
    fake.write_text('#!/bin/sh\nprintf "%s" "${GLIBC_TUNABLES-UNSET}" > "$SEEN"\n')
    fake.chmod(0o755)
    env = dict(os.environ, RDMA_RUNNER=str(fake), SEEN=str(seen))
    env.pop("GLIBC_TUNABLES", None)
    if user_value is not None:
        env["GLIBC_TUNABLES"] = user_value
    subprocess.run([str(ROOT / "rdma"), "run", "any.json", "--out", str(tmp_path / "o")],
                   env=env, check=True, cwd=tmp_path)
    return seen.read_text()


def load_bench():
    spec = importlib.util.spec_from_file_location("bench", ROOT / "bench" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES = [
    (None, "glibc.malloc.hugetlb=1"),
    ("", "glibc.malloc.hugetlb=1"),
    ("glibc.malloc.arena_max=2", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"),
    ("glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=0"),
]


@pytest.mark.parametrize("user,expected", CASES)
def test_rdma_run_starts_the_runner_on_huge_pages(tmp_path, user, expected):
    assert tunables_seen_by_runner(tmp_path, user) == expected


@pytest.mark.parametrize("user,expected", CASES)
def test_bench_starts_the_runner_on_huge_pages(monkeypatch, user, expected):
    bench = load_bench()
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    if user is not None:
        monkeypatch.setenv("GLIBC_TUNABLES", user)
    env = bench.runner_env()
    assert env["GLIBC_TUNABLES"] == expected
    assert env["PATH"] == os.environ["PATH"]  # the rest of the environment is kept
