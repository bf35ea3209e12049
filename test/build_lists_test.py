"""The rdma module's build lists stay in sync.

src/rdma/CMakeLists.txt (rdma_sources, rdma_headers) and src/rdma/wscript
(module.source, headers.source) must list the same files in the same order, every
listed file must exist, and every .cc/.h file under src/rdma/model and src/rdma/helper
must be listed, so that a new file cannot be forgotten in either build system.

Run: /usr/bin/python3 -m pytest test/build_lists_test.py
"""

import ast
import re
from pathlib import Path

import pytest

MODULE_DIR = Path(__file__).resolve().parent.parent / "src" / "rdma"
CMAKE_FILE = MODULE_DIR / "CMakeLists.txt"
WSCRIPT_FILE = MODULE_DIR / "wscript"
SCANNED_DIRS = ("model", "helper")


# --- CMakeLists.txt -------------------------------------------------------------------

def _strip_cmake_comments(text):
    # Line comments only (the module's CMakeLists.txt uses no bracket comments);
    # a '#' inside a quoted argument is kept.
    lines = []
    for line in text.splitlines():
        out, quoted = [], False
        for ch in line:
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                break
            out.append(ch)
        lines.append("".join(out))
    return "\n".join(lines)


def parse_cmake_set(text, variable):
    """The items of `set(<variable> item...)`; fails if absent or set twice."""
    text = _strip_cmake_comments(text)
    matches = list(re.finditer(r"\bset\s*\(\s*" + re.escape(variable) + r"\b([^)]*)\)",
                               text, re.IGNORECASE))
    assert matches, f"{CMAKE_FILE.name}: no set({variable} ...) block"
    assert len(matches) == 1, f"{CMAKE_FILE.name}: set({variable} ...) appears {len(matches)} times"
    items = re.findall(r'"([^"]*)"|(\S+)', matches[0].group(1))
    return [quoted or bare for quoted, bare in items]


# --- wscript ----------------------------------------------------------------------------

def _call_kind(node):
    """'module' for bld.create_ns3_module(...), 'headers' for bld(features='ns3header')."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "create_ns3_module":
        return "module"
    if isinstance(func, ast.Name) and func.id == "bld":
        for kw in node.keywords:
            if (kw.arg == "features" and isinstance(kw.value, ast.Constant)
                    and "ns3header" in str(kw.value.value).split()):
                return "headers"
    return None


def parse_wscript(text):
    """{'module': [...], 'headers': [...]} from the <var>.source assignments of build()."""
    tree = ast.parse(text, filename=str(WSCRIPT_FILE))
    builds = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "build"]
    assert len(builds) == 1, f"{WSCRIPT_FILE.name}: expected one top-level def build(bld)"
    kinds = {}   # variable name -> 'module' / 'headers'
    lists = {}
    for node in ast.walk(builds[0]):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and _call_kind(node.value):
                kinds[target.id] = _call_kind(node.value)
            elif (isinstance(target, ast.Attribute) and target.attr == "source"
                  and isinstance(target.value, ast.Name) and target.value.id in kinds):
                kind = kinds[target.value.id]
                assert kind not in lists, f"{WSCRIPT_FILE.name}: {target.value.id}.source set twice"
                try:
                    value = ast.literal_eval(node.value)
                except ValueError:
                    pytest.fail(f"{WSCRIPT_FILE.name} line {node.lineno}: "
                                f"{target.value.id}.source is not a literal list")
                assert isinstance(value, list), \
                    f"{WSCRIPT_FILE.name} line {node.lineno}: {target.value.id}.source is not a list"
                lists[kind] = value
    assert "module" in lists, \
        f"{WSCRIPT_FILE.name}: no module.source (module = bld.create_ns3_module(...))"
    assert "headers" in lists, \
        f"{WSCRIPT_FILE.name}: no headers.source (headers = bld(features='ns3header'))"
    return lists


# --- fixtures ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lists():
    cmake = CMAKE_FILE.read_text()
    waf = parse_wscript(WSCRIPT_FILE.read_text())
    return {
        "sources": {
            "CMakeLists.txt rdma_sources": parse_cmake_set(cmake, "rdma_sources"),
            "wscript module.source": waf["module"],
        },
        "headers": {
            "CMakeLists.txt rdma_headers": parse_cmake_set(cmake, "rdma_headers"),
            "wscript headers.source": waf["headers"],
        },
    }


def _on_disk(suffix):
    return sorted(p.relative_to(MODULE_DIR).as_posix()
                  for d in SCANNED_DIRS for p in (MODULE_DIR / d).rglob("*" + suffix)
                  if p.is_file())


KINDS = {"sources": ".cc", "headers": ".h"}


# --- tests -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_cmake_and_wscript_lists_are_identical(lists, kind):
    (name_a, a), (name_b, b) = lists[kind].items()
    if a == b:
        return
    problems = []
    for f in a:
        if f not in b:
            problems.append(f"{f} is in {name_a} but missing from {name_b}")
    for f in b:
        if f not in a:
            problems.append(f"{f} is in {name_b} but missing from {name_a}")
    if not problems:
        i = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y) if len(a) == len(b) else None
        problems.append(f"same files, different order (first difference at item {i}: "
                        f"{a[i]} in {name_a}, {b[i]} in {name_b})" if i is not None
                        else "same files, different counts (duplicates?)")
    pytest.fail("\n".join(problems))


@pytest.mark.parametrize("kind", KINDS)
def test_no_duplicates_and_right_kind(lists, kind):
    problems = []
    for name, files in lists[kind].items():
        seen = set()
        for f in files:
            if f in seen:
                problems.append(f"{f} is listed twice in {name}")
            seen.add(f)
            if not f.endswith(KINDS[kind]):
                problems.append(f"{f} in {name} is not a {KINDS[kind]} file")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("kind", KINDS)
def test_every_listed_file_exists(lists, kind):
    missing = [f"{f} (listed in {name}) does not exist under src/rdma"
               for name, files in lists[kind].items() for f in files
               if not (MODULE_DIR / f).is_file()]
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("kind", KINDS)
def test_every_file_on_disk_is_listed(lists, kind):
    on_disk = _on_disk(KINDS[kind])
    assert on_disk, f"no {KINDS[kind]} files found under src/rdma/{{{','.join(SCANNED_DIRS)}}}"
    unlisted = [f"src/rdma/{f} is not listed in {name}"
                for name, files in lists[kind].items() for f in on_disk if f not in files]
    assert not unlisted, "\n".join(unlisted)
