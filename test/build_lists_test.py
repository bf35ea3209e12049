"""The rdma module's build lists come from one place: the files on disk.

src/rdma/CMakeLists.txt and src/rdma/wscript both glob every .cc and .h under model/ and
helper/, with the same patterns, so adding a class is adding its files (no list to edit
in either build system). This checks that both build files still glob those patterns,
that no source lives outside them, and that header names are unique (they are installed
flat as "ns3/<name>.h").

Run: /usr/bin/python3 -m pytest test/build_lists_test.py
"""

import ast
import re
from collections import Counter
from pathlib import Path

MODULE_DIR = Path(__file__).resolve().parent.parent / "src" / "rdma"
CMAKE_FILE = MODULE_DIR / "CMakeLists.txt"
WSCRIPT_FILE = MODULE_DIR / "wscript"
FOLDERS = ("model", "helper")
# Not part of the library: the module's tests (GoogleTest cases and the ns-3 TestSuite
# that runs them) and its programs, each folder with its own build rules.
OTHER_FOLDERS = ("test", "examples")


def cmake_patterns(variable):
    """The items of `set(<variable> ...)` in CMakeLists.txt."""
    text = CMAKE_FILE.read_text()
    m = re.search(r"\bset\s*\(\s*" + re.escape(variable) + r"\b([^)]*)\)", text)
    assert m, f"{CMAKE_FILE.name}: no set({variable} ...)"
    return sorted(m.group(1).split())


def wscript_patterns(name):
    """The list assigned to the module-level constant <name> in the wscript."""
    tree = ast.parse(WSCRIPT_FILE.read_text(), filename=str(WSCRIPT_FILE))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return sorted(ast.literal_eval(node.value))
    raise AssertionError(f"{WSCRIPT_FILE.name}: no {name} = [...]")


def test_cmake_globs_every_source_and_header_of_the_module_folders():
    assert cmake_patterns("rdma_patterns_cc") == sorted(f"{d}/*.cc" for d in FOLDERS)
    assert cmake_patterns("rdma_patterns_h") == sorted(f"{d}/*.h" for d in FOLDERS)
    text = CMAKE_FILE.read_text()
    for var, patterns in (("rdma_sources", "rdma_patterns_cc"), ("rdma_headers", "rdma_patterns_h")):
        assert re.search(r"file\(\s*GLOB_RECURSE\s+" + var + r"\s+CONFIGURE_DEPENDS\s+RELATIVE"
                         r"\s+\$\{CMAKE_CURRENT_SOURCE_DIR\}\s+\$\{" + patterns + r"\}\s*\)", text), \
            f"{CMAKE_FILE.name}: {var} is not globbed from {patterns} (recursively, re-checked at build)"


def test_wscript_globs_the_same_patterns():
    assert wscript_patterns("SOURCE_PATTERNS") == sorted(f"{d}/**/*.cc" for d in FOLDERS)
    assert wscript_patterns("HEADER_PATTERNS") == sorted(f"{d}/**/*.h" for d in FOLDERS)
    text = WSCRIPT_FILE.read_text()
    assert "module.source = sorted(bld.path.ant_glob(SOURCE_PATTERNS)" in text
    assert "headers.source = sorted(bld.path.ant_glob(HEADER_PATTERNS)" in text


def test_no_source_outside_the_globbed_folders():
    stray = [p.relative_to(MODULE_DIR).as_posix() for p in MODULE_DIR.rglob("*")
             if p.suffix in (".cc", ".h")
             and p.relative_to(MODULE_DIR).parts[0] not in FOLDERS + OTHER_FOLDERS]
    assert not stray, f"not built (outside {', '.join(FOLDERS)}): {stray}"


def test_header_names_are_unique_once_installed_flat():
    names = Counter(p.name for d in FOLDERS for p in (MODULE_DIR / d).rglob("*.h"))
    assert names, "no headers found"
    clashes = sorted(n for n, c in names.items() if c > 1)
    assert not clashes, f"installed as ns3/<name>.h, these names clash: {clashes}"
