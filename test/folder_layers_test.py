"""The module's folders are layers: no folder includes another in a cycle.

Every header of src/rdma/model and src/rdma/helper is installed flat and included as
"ns3/<name>.h" (build_lists_test.py checks the names are unique), so each include names
the folder of that header. A folder includes another's headers only if it sits above
it: helper/stage (the stage framework) below helper/topology, helper/traffic and
helper/output, and helper/scenario (the runner) above them all; model/qp (the queue
pairs' state) below model/recovery and model/nic. A cycle between folders, of any
length, fails here with the include lines that make it.

One reader is left out by design: the event core's table of the devices' layouts
(model/sim/fabric-layout.cc and fabric-layout-inline.h, docs/design.md "The hot path")
reads the link, NIC and switch classes so that the model itself names no cache loads,
and the core's scheduling inlines it. Its includes are the one way from model/sim up to
the devices; every other file of model/sim stays below them (checked too).

Run: /usr/bin/python3 -m pytest test/folder_layers_test.py
"""
import re
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rdma"
FOLDERS = ("model", "helper")
# The event core's layout reader (see above): its include lines are not edges.
LAYOUT_READERS = ("model/sim/fabric-layout.cc", "model/sim/fabric-layout-inline.h")
INCLUDE = re.compile(r'^\s*#\s*include\s+"ns3/([^"]+)"', re.MULTILINE)


def module_files():
    for top in FOLDERS:
        for path in sorted((SRC / top).rglob("*")):
            if path.suffix in (".h", ".cc") and path.is_file():
                yield path


def folder_of(path):
    return path.parent.relative_to(SRC).as_posix()


def include_graph():
    """{folder: {included folder: ["file -> header", ...]}} over model/ and helper/."""
    owner = {p.name: folder_of(p) for p in module_files() if p.suffix == ".h"}
    graph = defaultdict(lambda: defaultdict(list))
    for path in module_files():
        here = folder_of(path)
        if path.relative_to(SRC).as_posix() in LAYOUT_READERS:
            continue
        for name in INCLUDE.findall(path.read_text(errors="replace")):
            there = owner.get(name)  # None: an ns-3 header
            if there is not None and there != here:
                graph[here][there].append(f"{path.relative_to(SRC)} -> {name}")
    return graph


def cycles(graph):
    """The strongly connected components of more than one folder (Tarjan), sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(found)


def describe(graph, component):
    lines = [" <-> ".join(component)]
    for a in component:
        for b in component:
            for include in graph.get(a, {}).get(b, []):
                lines.append(f"  {a} -> {b}: {include}")
    return "\n".join(lines)


def test_the_graph_sees_the_layers():
    # (so that a change in the layout does not make the next test pass on nothing)
    graph = include_graph()
    for below in ("helper/stage", "model/cc"):
        assert any(below in targets for targets in graph.values()), below
    assert "helper/stage" in graph["helper/topology"]
    assert "model/qp" in graph["model/recovery"]
    assert "helper/traffic" in graph["helper/output"]


def test_a_cycle_is_found_at_any_length():
    graph = {"a": {"b": ["x"]}, "b": {"c": ["y"]}, "c": {"a": ["z"]}, "d": {"a": ["w"]}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": ["x"]}, "b": {"c": ["y"]}}) == []


def test_no_folder_includes_another_in_a_cycle():
    graph = include_graph()
    found = cycles(graph)
    assert not found, "folders that include each other:\n" + "\n".join(
        describe(graph, c) for c in found)


def test_only_the_layout_reader_reads_the_devices_from_the_core():
    """The files left out exist, and no other file of model/sim includes a header of the
    folders that include model/sim's (the devices): the exception cannot grow unseen."""
    for name in LAYOUT_READERS:
        assert (SRC / name).is_file(), f"{name} is gone: update LAYOUT_READERS"
    graph = include_graph()
    above = {f for f, targets in graph.items() if "model/sim" in targets}
    offending = {t: lines for t, lines in graph.get("model/sim", {}).items() if t in above}
    assert not offending, offending
