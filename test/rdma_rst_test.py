"""The module's ns-3 model documentation, src/rdma/doc/rdma.rst.

- It is valid reStructuredText on its own (docutils, Debian package python3-docutils,
  reports no warning or error), so ns-3's Sphinx, which adds to docutils, builds it in a
  tree's doc/models;
- it has the sections of ns-3's model-library layout: Model Description (Design, Scope
  and Limitations, References), Usage (Helpers, Attributes, Traces, Examples),
  Validation;
- every TypeId the module registers (TypeId("ns3::X").SetParent... in model/ and
  helper/) is named there or in the generated key reference, docs/scenario-keys.md.

Run: /usr/bin/python3 -m pytest test/rdma_rst_test.py
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RST = ROOT / "src" / "rdma" / "doc" / "rdma.rst"
KEYS = ROOT / "docs" / "scenario-keys.md"
REGISTERED = re.compile(r'TypeId\s*\(\s*"(ns3::[A-Za-z0-9_]+)"\s*\)\s*\.\s*SetParent')


def registered_type_ids():
    names = set()
    for folder in ("model", "helper"):
        for source in (ROOT / "src" / "rdma" / folder).rglob("*.cc"):
            names.update(REGISTERED.findall(source.read_text()))
    return names


def test_every_registered_type_id_is_documented():
    names = registered_type_ids()
    # The pattern still finds the registrations (a module with fewer would have lost some).
    assert {"ns3::RdmaNic", "ns3::RdmaSwitch", "ns3::Dcqcn", "ns3::RdmaSimulatorImpl"} <= names
    text = RST.read_text() + KEYS.read_text()
    missing = sorted(n for n in names if not re.search(re.escape(n) + r"(?![A-Za-z0-9_])", text))
    assert not missing, f"TypeIds named neither in {RST.name} nor in {KEYS.name}: {missing}"


def test_sections_follow_the_ns3_model_library_layout():
    lines = RST.read_text().splitlines()
    # A title is a line underlined by a line of one repeated punctuation character.
    titles = {}
    for text, under in zip(lines, lines[1:]):
        if text.strip() and under and len(set(under)) == 1 and under[0] in "-*=#" \
                and len(under) >= len(text.strip()):
            titles[text.strip()] = under[0]
    want = {"Model Description": "*", "Design": "=", "Scope and Limitations": "=",
            "References": "=", "Usage": "*", "Helpers": "=", "Attributes": "=",
            "Traces": "=", "Examples": "=", "Validation": "*"}
    for title, level in want.items():
        assert titles.get(title) == level, f"section {title!r} (underlined with {level})"
    assert list(titles.values())[0] == "-", "the chapter title comes first, underlined with -"


def test_is_valid_restructuredtext():
    docutils_core = pytest.importorskip("docutils.core", reason="apt install python3-docutils")
    import io
    warnings = io.StringIO()
    docutils_core.publish_doctree(
        RST.read_text(), source_path=str(RST),
        settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": warnings})
    assert warnings.getvalue() == "", warnings.getvalue()
