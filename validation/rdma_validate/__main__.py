"""./rdma validate [NAME...] [--quick] [--out DIR]: run the validation cases and write
DIR/report.md (default out/validate). Exit 0 when every case passed, 1 otherwise, 2 on
bad arguments."""

import argparse
import os
import sys
import time
from pathlib import Path

from .cases import ALL
from .report import table, write
from .sim import ROOT, Sim, SimError


def main(argv=None):
    p = argparse.ArgumentParser(prog="rdma validate", description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", help="cases to run (default: all): "
                   + ", ".join(c.name for c in ALL))
    p.add_argument("--quick", action="store_true",
                   help="the quick subset, smaller runs (CI; under a minute)")
    p.add_argument("--out", default=str(ROOT / "out" / "validate"))
    p.add_argument("--runner", default=os.environ.get(
        "RDMA_RUNNER", str(ROOT / "build" / "bin" / "rdma-run")))
    a = p.parse_args(argv)
    known = {c.name: c for c in ALL}
    for n in a.names:
        if n not in known:
            print(f"rdma validate: error: unknown case '{n}' (cases: {', '.join(known)})",
                  file=sys.stderr)
            return 2
    cases = [known[n] for n in a.names] if a.names else \
        [c for c in ALL if c.quick or not a.quick]
    out = Path(a.out)
    sim = Sim(a.runner, out / "runs")
    results, errors = [], {}
    for case in cases:
        t0 = time.monotonic()
        try:
            res = case.run(sim, a.quick)
            res.seconds = time.monotonic() - t0
            if res.figure:
                (out / res.figure).write_bytes((sim.out / res.figure).read_bytes())
        except SimError as e:
            res, errors[case.name] = None, str(e)
        results.append((case, res))
        status = "error" if res is None else ("pass" if res.passed else "FAIL")
        print(f"[validate] {case.name}: {status} ({time.monotonic() - t0:.0f} s)",
              file=sys.stderr)
    write(out / "report.md", results, errors, a.quick)
    print(table(results))
    print(f"\nreport: {out / 'report.md'}")
    return 0 if all(r is not None and r.passed for _, r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
