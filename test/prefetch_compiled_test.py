"""The cache-line prefetches of the hot path are in the compiled library, in the core.

A prefetch changes no result, so no simulation test can see one go missing, and one
did: GCC 12 found EventWheel::Prefetch, a function that only prefetched, "pure", and
removed every call to it, so the simulation loop never loaded the next events' hints
(src/rdma/model/sim/prefetch.h). This reads the machine code of the library (x86-64,
objdump) and checks that the event loop has at least as many prefetch instructions as
the core's source asks for, counted from the constants of the source, and that the
model's own functions have none (the loads ahead are the core's layer, FabricLayout).
"""
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "src" / "rdma" / "model"
LIB = os.environ.get("RDMA_LIB", str(ROOT / "build" / "lib" / "libns3-rdma.so"))

pytestmark = pytest.mark.skipif(
    platform.machine() != "x86_64" or shutil.which("objdump") is None,
    reason="reads x86-64 machine code with objdump")


def constant(path, name):
    """The value of `constexpr uint32_t name = N;` in a source file."""
    match = re.search(r"constexpr uint32_t %s = (\d+);" % name, (MODEL / path).read_text())
    assert match, f"{name} not found in {path}"
    return int(match.group(1))


def prefetches_by_function():
    """Prefetch instructions of each function of the library, by demangled name, and
    the calls each makes, tail calls included (("calls", caller, callee) keys)."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", LIB],
                         capture_output=True, text=True, check=True).stdout
    counts = {}
    function = None
    for line in out.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            function = head.group(1)
        elif function and re.search(r"\tprefetch", line):
            counts[function] = counts.get(function, 0) + 1
        elif function:
            # (a tail call is a jmp to the callee's entry or its PLT slot)
            call = (re.search(r"\tcall\s+[0-9a-f]+ <(.*)>$", line) or
                    re.search(r"\tjmp\s+[0-9a-f]+ <([^+]*)>$", line))
            if call:
                key = ("calls", function, call.group(1))
                counts[key] = counts.get(key, 0) + 1
    return counts


def count(counts, prefix):
    return sum(n for f, n in counts.items() if isinstance(f, str) and f.startswith(prefix))


def calls(counts, caller, callee):
    """Whether a function named `caller...` calls one named `callee...`."""
    return any(k[1].startswith(caller) and k[2].startswith(callee)
               for k in counts if isinstance(k, tuple))


@pytest.fixture(scope="module")
def counts():
    assert Path(LIB).exists(), f"build the library first: {LIB}"
    return prefetches_by_function()


def test_the_simulation_loop_prefetches_the_next_events_and_their_hints(counts):
    # EventWheel::Pop and PrefetchNext (GCC inlines them into the loop; counted in their
    # own copies too, should another compiler keep them, which the loop then calls: they
    # call Head, which writes, so they are not pure): an event's object (kObjectLines), its
    # first hint (kFirstHintLines), its second (as many lines as the ports say, a loop: at
    # least one prefetch), third (kThirdHintLines) and fourth (kFourthHintLines), for the
    # event after the next; the next one's too when it was not prefetched before; and one
    # more node. The build with the bug had 1.
    budget = "sim/prefetch-budget.h"
    one_event = constant(budget, "kObjectLines") + constant(budget, "kFirstHintLines") + 1 + \
        constant(budget, "kThirdHintLines") + constant(budget, "kFourthHintLines")
    # Run's loop comes in two instantiations (warming the next event or not), each
    # with its own copy when GCC inlines PrefetchNext; or inlined into Run itself.
    shared = count(counts, "ns3::EventWheel::PrefetchNext(") + \
        count(counts, "ns3::EventWheel::Pop(") + count(counts, "ns3::SplitEventQueue::Pop(")
    loops = [count(counts, "void ns3::RdmaSimulatorImpl::RunEvents<%s>(" % warm)
             for warm in ("true", "false")]
    if loops == [0, 0]:
        loops = [count(counts, "ns3::RdmaSimulatorImpl::Run(")]
    for loop in loops:
        assert loop + shared >= 2 * one_event + 1


def test_the_warm_ups_prefetch_what_follows_the_hints(counts):
    # FabricLayout::Warm, in the warming loop (inlined, or called): a switch's arrival
    # loads the ingress counters (2 lines), the egress port's hot lines and the egress
    # counters (2); a switch port's end of transmission its queued frame
    # (RdmaFrame::kLines) and the counters its dequeue updates (4); a NIC's pull or
    # acknowledgement the QP's send state (the controller's first kCcFirstLines lines
    # unrolled, one more in the loop over the rest, the limiter, the peer group, the
    # oldest message); the link's next frame (1); the FIFO slot a transmission takes (1).
    hot = constant("link/rdma-net-device.h", "kHotLines")
    frame = constant("link/rdma-frame.h", "kLines")
    state = constant("sim/fabric-layout.h", "kCcFirstLines") + 1 + 2
    least = (2 + hot + 2) + (frame + 4) + state + 1 + 1
    warming = count(counts, "void ns3::RdmaSimulatorImpl::RunEvents<true>(")
    cold = count(counts, "void ns3::RdmaSimulatorImpl::RunEvents<false>(")
    outlined = count(counts, "ns3::FabricLayout::Warm(") + count(counts, "ns3::FabricLayout::Inline::")
    assert warming - cold >= least or outlined >= least


def test_the_model_issues_no_prefetch_of_its_own(counts):
    # Speed is the core's layer (model/sim): the link, the ports, the NIC, the switch and
    # the controllers compile to no prefetch, so that removing the layer removes them all.
    model = ("ns3::RdmaChannel::", "ns3::RdmaNetDevice::", "ns3::RdmaNic::", "ns3::RdmaSwitch::",
             "ns3::SwitchMmu::", "ns3::QpScheduler::")
    found = {f: n for f, n in counts.items() if isinstance(f, str) and f.startswith(model)}
    assert found == {}
