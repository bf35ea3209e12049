"""The model reaches the event core through its facade only.

Models and helpers schedule and read the clock through src/rdma/model/sim/rdma-sim.h
(and rdma-sim-schedule.h, its inline part), so that they run under any ns-3
SimulatorImpl. The core's own headers (the wheel, the heap, the split queue, the
simulator implementation and its scheduler, and its layer of loads ahead: FabricLayout,
the hints and the prefetch helpers) are included only inside model/sim/ and by the
tests of the core.
"""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rdma"
CORE = {"event-wheel.h", "event-heap.h", "split-event-queue.h", "occupancy-bitmap.h",
        "rdma-simulator-impl.h", "rdma-scheduler.h", "fabric-layout.h",
        "fabric-layout-inline.h", "event-hints.h", "prefetch.h", "prefetch-budget.h",
        "prefetch-jump.h"}


def test_the_core_headers_exist():
    # (so that a renamed header does not make the next test pass on nothing)
    assert all((SRC / "model" / "sim" / h).exists() for h in CORE)


def test_no_file_outside_the_core_includes_its_headers():
    offenders = []
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".h", ".cc") or not path.is_file():
            continue
        rel = path.relative_to(SRC)
        if rel.parts[:2] == ("model", "sim") or rel.parts[0] == "test":
            continue
        for name in re.findall(r'#include\s+"ns3/([^"]+)"', path.read_text(errors="replace")):
            if name in CORE:
                offenders.append(f"{rel}: {name}")
    assert not offenders, "\n".join(offenders)
