"""The example specs stay valid and docs/analysis.md lists every metric."""

import glob
import os
import re

import pytest

import crafted
from rdma_analysis import data as rdma_data
from rdma_analysis import sweep as rdma_sweep
from rdma_analysis import tune as rdma_tune

EXAMPLES = sorted(glob.glob(os.path.join(crafted.ANALYSIS_DIR, "examples",
                                         "*.json")))
DOC = os.path.join(crafted.REPO_ROOT, "docs", "analysis.md")


def _load(path, check):
    if os.path.basename(path).startswith("tune-"):
        return rdma_tune.Tune(path, check_runner=check)
    return rdma_sweep.Sweep(path, check_runner=check)


def test_there_are_sweep_and_tune_examples():
    names = [os.path.basename(p) for p in EXAMPLES]
    assert any(n.startswith("sweep-") for n in names)
    assert any(n.startswith("tune-") for n in names)


@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_example_spec_parses(path):
    spec = _load(path, check=False)
    assert os.path.dirname(spec.base) == os.path.join(crafted.REPO_ROOT,
                                                      "scenarios")
    assert os.path.isfile(spec.base)
    assert spec.out.startswith(os.path.join(crafted.REPO_ROOT, "out") +
                               os.sep)


@crafted.needs_runner
@pytest.mark.parametrize("path", EXAMPLES, ids=os.path.basename)
def test_example_spec_keys_and_values_accepted_by_the_simulator(path):
    _load(path, check=True)   # raises SpecError with the simulator's word


def test_docs_list_every_derived_metric():
    with open(DOC) as handle:
        doc = handle.read()
    for name in rdma_data.DERIVED_METRICS:
        m = re.fullmatch(r"(\w*)slowdown_(\w+)", name)
        if m:   # rows like `small_slowdown_avg` ... `small_slowdown_p999`
            assert f"`{m.group(1)}slowdown_avg`" in doc, name
            assert f"`{m.group(1)}slowdown_p999`" in doc, name
        else:
            assert f"`{name}`" in doc, name


def test_examples_measure_throughput_in_the_window():
    # Open-loop-safe throughput: no example judges throughput by the
    # whole-run goodput_gbps / goodput_utilization.
    for path in EXAMPLES:
        with open(path) as handle:
            text = handle.read()
        assert "window_goodput_gbps" in text, path
        assert '"goodput_gbps"' not in text and "goodput_utilization" \
            not in text, path


def test_readme_links_the_analysis_docs():
    with open(os.path.join(crafted.REPO_ROOT, "README.md")) as handle:
        assert "(docs/analysis.md)" in handle.read()
