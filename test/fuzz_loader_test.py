"""A bounded fuzz test of the scenario loader (issue 13).

Seeded mutations of the shipped scenarios (values of the wrong type, out of range,
huge or empty; keys removed, added, duplicated; the text cut or corrupted) go through
rdma-run. Every case must end in exit 0 or 2, an exit 2 with exactly one line, and no
output folder or partial folder left. Most cases use `--check` (load, check, estimate);
three in five that pass the check is also run for a few simulated microseconds.

Run: RDMA_RUN=build/bin/rdma-run /usr/bin/python3 -m pytest test/fuzz_loader_test.py
(ctest runs it as `fuzz-loader`). FUZZ_CASES and FUZZ_SEED change the size and seed.
"""

import json
import os
import random
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = os.environ.get("RDMA_RUN", str(ROOT / "build" / "bin" / "rdma-run"))
CASES = int(os.environ.get("FUZZ_CASES", "300"))
SEED = int(os.environ.get("FUZZ_SEED", "13"))
PATH_KEYS = [
    ("traffic", "flows_csv"), ("traffic", "cdf", "file"), ("topology", "file"),
    ("traffic", "hpcc_flow_file"), ("traffic", "incast_groups_csv"), ("traffic", "trace", "csv"),
]
ODD_VALUES = [
    -1, 0, 1, 2, 7, -1e300, 1e300, 1e-12, 2**63, 2**64 + 1, 1000000000, 0.5, "", "x",
    "100Gbps", "0bps", "-5", None, True, False, [], {}, [1, 2, 3], {"a": 1}, "nan",
    "../../etc/passwd", "/dev/zero", "\u00e9\u0000\x01",
]


def load_bases():
    bases = []
    for f in sorted((ROOT / "scenarios").glob("*.json")):
        s = json.loads(f.read_text())
        for path in PATH_KEYS:  # absolute, so the copy in a temp folder finds its files
            node = s
            for k in path[:-1]:
                node = node.get(k, {}) if isinstance(node, dict) else {}
            if isinstance(node, dict) and isinstance(node.get(path[-1]), str) and node[path[-1]]:
                node[path[-1]] = str((f.parent / node[path[-1]]).resolve())
        bases.append((f.stem, s))
    return bases


def leaves(node, prefix=()):
    """Every (path, value) of a JSON tree, objects and arrays included."""
    out = [(prefix, node)] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += leaves(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += leaves(v, prefix + (i,))
    return out


def set_at(node, path, value, delete=False):
    for k in path[:-1]:
        node = node[k]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value


def mutate(rng, scenario):
    """A mutated scenario as text."""
    s = json.loads(json.dumps(scenario))
    for _ in range(rng.randint(1, 3)):
        paths = leaves(s)
        if not paths:
            break
        path, _ = rng.choice(paths)
        op = rng.random()
        if op < 0.55:
            set_at(s, path, rng.choice(ODD_VALUES))
        elif op < 0.7 and isinstance(path[-1], str):
            set_at(s, path, None, delete=True)
        elif op < 0.8:
            parent = s
            for k in path[:-1]:
                parent = parent[k]
            if isinstance(parent, dict):
                parent[rng.choice(["zzz", "Hosts", "enabled", "k", "rate"])] = rng.choice(ODD_VALUES)
        else:
            set_at(s, path, rng.choice([-3, 10**6, 4096, 0.0001]))
    text = json.dumps(s, indent=1)
    op = rng.random()
    if op < 0.08:
        text = text[: rng.randrange(len(text))]  # cut
    elif op < 0.14:
        i = rng.randrange(len(text))
        text = text[:i] + chr(rng.choice([0, 7, 34, 44, 123, 125, 0xFF])) + text[i:]
    elif op < 0.2:
        m = re.search(r'\n( *)"([a-z_]+)": ([^\n{\[]+)\n', text)
        if m:  # the same key twice in one object
            text = text[: m.end()] + m.group(1) + '"' + m.group(2) + '": ' + m.group(3) + "\n" + text[m.end():]
    return text


def run(args, timeout=120):
    p = subprocess.run([RUNNER] + args, capture_output=True, text=True, errors="replace",
                       timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def leftovers(folder):
    return [p.name for p in Path(folder).iterdir() if p.name.startswith("out")]


def test_mutated_scenarios_exit_zero_or_two_and_leave_nothing():
    assert Path(RUNNER).exists(), RUNNER
    rng = random.Random(SEED)
    bases = load_bases()
    assert bases
    failures, codes, runs = [], {0: 0, 2: 0}, 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(CASES):
            name, base = rng.choice(bases)
            text = mutate(rng, base)
            f = Path(tmp) / f"case{case}.json"
            f.write_text(text, errors="replace")
            code, out = run([str(f), "--check", "--max-memory-gb", "2"])
            what = f"case {case} ({name}, --check)"
            m = re.search(r"about ([0-9.e+-]+) GB of memory", out)
            if code == 0 and m and float(m.group(1)) < 0.5 and rng.random() < 0.6:
                runs += 1
                what = f"case {case} ({name}, run)"
                code, out = run([str(f), "--quiet", "--out", str(Path(tmp) / "out"),
                                 "--max-memory-gb", "2", "--set", "stop_time_ms=0.005"])
            codes[code] = codes.get(code, 0) + 1
            lines = [l for l in out.splitlines() if "warning" not in l]
            if code not in (0, 2):
                failures.append(f"{what}: exit {code}: {out[-300:]}")
            elif code == 2 and len(lines) != 1:
                failures.append(f"{what}: {len(lines)} lines: {out[-300:]}")
            if code != 0 and leftovers(tmp):
                failures.append(f"{what}: left {leftovers(tmp)}")
            if (Path(tmp) / "out").exists():
                subprocess.run(["rm", "-rf", str(Path(tmp) / "out")], check=True)
            if leftovers(tmp):
                failures.append(f"{what}: left {leftovers(tmp)}")
                subprocess.run("rm -rf " + str(Path(tmp)) + "/out*", shell=True)
            f.unlink()
    print(f"{CASES} cases ({runs} run), exit codes {codes}")
    assert not failures, "\n".join(failures[:20])
    assert codes.get(2, 0) > CASES // 4, f"the mutations should mostly be refused: {codes}"
    assert codes.get(0, 0) > 0 and runs > 0, f"some mutations should pass and run: {codes}"
