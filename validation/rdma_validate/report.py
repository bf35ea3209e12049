"""Writing out/validate/report.md: one section per case and a pass/fail table."""

from pathlib import Path


def table(results):
    """The pass/fail table (also pasted into the README)."""
    lines = ["| case | claim | result | checks | time |", "|---|---|---|---|---|"]
    for case, res in results:
        status = "error" if res is None else ("pass" if res.passed else "FAIL")
        n = "" if res is None else f"{sum(c.passed for c in res.checks)}/{len(res.checks)}"
        t = "" if res is None else f"{res.seconds:.0f} s"
        lines.append(f"| {case.title} | {case.source} | {status} | {n} | {t} |")
    return "\n".join(lines)


def write(path: Path, results, errors, quick):
    out = ["# Validation report", ""]
    out.append("Every case reruns published claims (or physics) with `rdma-run`; "
               + ("this is the `--quick` subset." if quick else "the full suite."))
    out += ["", table(results), ""]
    for case, res in results:
        out += [f"## {case.title} (`{case.name}`)", "", f"> {case.claim}", "",
                f"Source: {case.source}", ""]
        if res is None:
            out += [f"**Error:** {errors.get(case.name, 'unknown')}", ""]
            continue
        out += [f"**Result: {'pass' if res.passed else 'FAIL'}** ({res.seconds:.0f} s)", "",
                "| check | published / expected | simulated | pass |", "|---|---|---|---|"]
        for c in res.checks:
            out.append(f"| {c.what} | {c.published} | {c.simulated} | "
                       f"{'yes' if c.passed else '**no**'} |")
        out.append("")
        for note in res.notes:
            out += [note, ""]
        if res.figure:
            out += [f"![{case.name}]({res.figure})", ""]
    path.write_text("\n".join(out) + "\n")
