"""The documentation's links resolve, and the README stays free of lab-notebook detail.

* Every relative link in README.md, CHANGELOG.md, bench/README.md and docs/*.md points to a
  file or folder of the repository, and a link to a heading of a Markdown file
  (``file.md#heading``) names a heading that file has.
* Every reference of the form ``docs/design.md, "Heading"`` (or performance.md) in the
  sources, tests and scripts names a heading of that document, so a renamed section
  cannot leave comments pointing at nothing.
* README.md has no commit hashes, no dates or times of measurement runs and no issue
  numbers: those belong in docs/performance.md, CHANGELOG.md and the git log.
"""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md"] +
              list((ROOT / "docs").glob("*.md")))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def headings(md_file):
    """GitHub's anchors of the headings of a Markdown file."""
    text = FENCE.sub("", md_file.read_text())
    anchors = set()
    for line in text.splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            title = match.group(1).strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            anchors.add(title.replace(" ", "-"))
    return anchors


def titles(md_file):
    """The headings of a Markdown file as written."""
    text = FENCE.sub("", md_file.read_text())
    return {m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.*?)\s*$", text, re.M)}


def relative_links(md_file):
    text = FENCE.sub("", md_file.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        yield target


@pytest.mark.parametrize("md_file", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(md_file):
    assert md_file.is_file(), md_file
    broken = []
    for target in relative_links(md_file):
        path, _, anchor = target.partition("#")
        resolved = (md_file.parent / path).resolve() if path else md_file
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in headings(resolved):
            broken.append(target + " (no such heading)")
    assert not broken, f"{md_file.relative_to(ROOT)}: broken links {broken}"


def source_files():
    for folder in ("src", "test", "bench", "scratch"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".cc", ".h", ".py", ".sh") and path.is_file():
                yield path
    yield ROOT / "rdma"


def test_section_references_in_the_code_name_existing_headings():
    documents = {name: titles(ROOT / "docs" / name) for name in ("design.md", "performance.md")}
    missing = []
    for path in source_files():
        if path == Path(__file__).resolve():
            continue
        # Join comment lines, so a reference wrapped over two lines reads as one.
        text = re.sub(r"\n\s*(//+|\*|#)?\s*", " ", path.read_text(errors="replace"))
        for name, section in re.findall(r'docs/(design\.md|performance\.md),? "([^"]+)"', text):
            if section not in documents[name]:
                missing.append(f"{path.relative_to(ROOT)}: docs/{name}, \"{section}\"")
    assert not missing, "references to sections that do not exist:\n" + "\n".join(missing)


def test_readme_has_no_commit_hashes_dates_or_issue_numbers():
    text = (ROOT / "README.md").read_text()
    problems = []
    for line_no, line in enumerate(text.splitlines(), 1):
        checks = (
            (r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", "a commit hash"),
            (r"\b20\d\d-\d\d-\d\d\b", "a date"),
            (r"\b\d\d:\d\d(-\d\d:\d\d)? UTC\b", "a time of day"),
            (r"\b[Ii]ssues? #?\d+", "an issue number"),
        )
        for pattern, what in checks:
            if re.search(pattern, line):
                problems.append(f"README.md:{line_no}: {what}: {line.strip()}")
    assert not problems, "\n".join(problems)
