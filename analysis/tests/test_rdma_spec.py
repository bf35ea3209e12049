"""Tests of what sweeps and tuning share (rdma_analysis.spec) and of the
key list the runner gives as JSON."""

import json
import os
import re
import subprocess

import crafted
from rdma_analysis import spec as rs

KEYS_DOC = os.path.join(crafted.REPO_ROOT, "docs", "scenario-keys.md")


def documented_keys():
    """``{key: unit}`` of every row of docs/scenario-keys.md (the main
    table's unit column; the congestion-control tables have none)."""
    keys = {}
    with open(KEYS_DOC) as handle:
        for line in handle:
            m = re.match(r"\|\s*`([^`]+)`\s*\|", line)
            if m:
                cells = [c.strip() for c in
                         line.strip().strip("|").split("|")]
                keys[m.group(1)] = cells[2] if len(cells) >= 6 else ""
    return keys


# --- the key list as JSON ----------------------------------------------------

def test_parse_keys_json():
    text = json.dumps({"keys": [
        {"path": "seed", "kind": "scenario", "unit": ""},
        {"path": "stop_time_ms", "kind": "scenario", "unit": "ms"},
        {"path": "cc.dcqcn.G", "kind": "cc", "unit": ""}]})
    assert rs.parse_keys_json(text) == {"seed": "", "stop_time_ms": "ms",
                                        "cc.dcqcn.G": ""}
    assert rs.parse_keys_json("| `seed` | integer |") is None
    assert rs.parse_keys_json('{"no": "keys"}') is None
    assert rs.parse_keys_json('{"keys": [{"unit": "ms"}]}') is None


@crafted.needs_runner
def test_runner_lists_every_documented_key_as_json():
    proc = subprocess.run([crafted.RUNNER, "--list-keys", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    entries = json.loads(proc.stdout)["keys"]
    fields = {"path", "kind", "type", "unit", "min", "max", "choices",
              "default", "doc"}
    assert all(fields <= set(e) for e in entries)
    by_path = {e["path"]: e for e in entries}
    assert len(by_path) == len(entries)
    # The same keys and units as the Markdown reference.
    assert {p: e["unit"] for p, e in by_path.items()} == documented_keys()
    assert rs.scenario_keys(crafted.RUNNER) == documented_keys()
    stop = by_path["stop_time_ms"]
    assert (stop["kind"], stop["type"], stop["unit"], stop["min"],
            stop["max"], stop["default"]) == ("scenario", "number", "ms",
                                              1e-6, None, 100)
    seed = by_path["seed"]
    assert (seed["type"], seed["min"], seed["max"]) == ("int", 0,
                                                        4294967295)
    assert by_path["topology.type"]["choices"][:2] == ["star", "leaf_spine"]
    assert by_path["nic.cnp_interval_us"]["default"] is None  # derived
    gain = by_path["cc.dcqcn.G"]
    assert (gain["kind"], gain["algorithm"], gain["attribute"],
            gain["type"], gain["default"]) == ("cc", "dcqcn", "G",
                                               "double 0:1", "0.00390625")
    assert by_path["cc.hpcc.RttBoundary"]["choices"] == ["Psn", "SendTime"]


@crafted.needs_runner
def test_json_flag_goes_with_list_keys():
    proc = subprocess.run([crafted.RUNNER, crafted.TINY, "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "--json goes with --list-keys" in proc.stderr
