"""The cache-line prefetches of the hot path are in the compiled library.

A prefetch changes no result, so no simulation test can see one go missing, and one
did: GCC 12 found EventWheel::Prefetch, a function that only prefetched, "pure", and
removed every call to it, so the simulation loop never loaded the next events' hints
(src/rdma/model/sim/prefetch.h). This reads the machine code of the library (x86-64,
objdump) and checks that each function that issues prefetches has at least as many
prefetch instructions as its source asks for, counted from the constants of the source.
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
    # least one prefetch) and third (kThirdHintLines), for the event after the next; the
    # next one's too when it was not prefetched before; and one more node. The build with
    # the bug had 1.
    one_event = constant("sim/prefetch-budget.h", "kObjectLines") + \
        constant("sim/prefetch-budget.h", "kFirstHintLines") + 1 + \
        constant("sim/prefetch-budget.h", "kThirdHintLines")
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


def test_a_switch_prefetches_the_egress_port_and_the_buffer_counters(counts):
#Ingress counters(2 lines), the egress port's hot lines, the egress counters (2).
    hot = constant("link/rdma-net-device.h", "kHotLines")
    assert count(counts, "ns3::RdmaSwitch::FrameReceived(") >= 2 + hot + 2
    assert count(counts, "ns3::RdmaSwitch::FrameDequeued(") >= 4


def test_a_nic_prefetches_the_qp_it_pulls_or_acknowledges(counts):
#PrefetchSendState : the controller's lines, the rate limiter, the oldest message and
#the peer group, in its own copy and in each caller, inlined or called.
    # (the controller's first kCcFirstLines unrolled, one more in the loop over the rest)
    lines = constant("nic/rdma-nic.h", "kCcFirstLines") + 1
    state = "ns3::RdmaNic::PrefetchSendState("
    if count(counts, state) > 0:
        assert count(counts, state) >= lines + 3
    # (an acknowledgement's copy leaves out the oldest message: one fewer)
    for caller, more in (("ns3::RdmaNic::Pull(", 3), ("ns3::RdmaNic::ReceiveAck(", 2),
                         ("ns3::RdmaNic::ReceiveNack(", 2)):
        assert count(counts, caller) >= lines + more or calls(counts, caller, state), caller


def test_a_nic_loads_the_qp_of_its_next_pull_a_pull_ahead(counts):
    # PrefetchLikelyNext: the first kQpLines lines of the QP the next pull will likely
    # serve, at the end of a pull that made a packet (inlined into Pull, or called).
    # The build before it had none in Pull.
    qp = constant("nic/rdma-nic.h", "kQpLines")
    likely = "ns3::RdmaNic::PrefetchLikelyNext("
    assert count(counts, "ns3::RdmaNic::Pull(") >= qp or (
        calls(counts, "ns3::RdmaNic::Pull(", likely) and count(counts, likely) >= qp)


def test_the_qp_scheduler_prefetches_its_ready_ring_ahead(counts):
    assert count(counts, "ns3::QpScheduler::PopReady(") >= 1


def test_a_port_prefetches_its_link_and_an_arrival_the_next_fifo_slot(counts):
    # the link (1 line), then what Transmit reads (PrefetchTxState): the link's direction
    # (2), the receiver's QP tables (1) and the FIFO slot the frame will take (1), in
    # TryTransmitIfFree's copy or its own
    tx_state = "ns3::RdmaNetDevice::PrefetchTxState("
    assert count(counts, "ns3::RdmaNetDevice::TryTransmitIfFree(") >= 5 or (
        count(counts, "ns3::RdmaNetDevice::TryTransmitIfFree(") >= 1 and
        count(counts, tx_state) >= 4)
    assert count(counts, "ns3::RdmaChannel::Arrive(") >= 1
    # and the arrival's warm-up, one event earlier: the slot Arrive reads after the head
    assert count(counts, "ns3::RdmaChannel::Direction::Warm(") >= 1


def test_the_warm_ups_prefetch_what_follows_the_hints(counts):
    # DirectEvent::Warm of the next event: a switch's arrival loads the ingress counters
    # (2 lines), the egress port's hot lines and the egress counters (2); a NIC's pull
    # or acknowledgement loads the QP's send state; a port's end of transmission, the
    # queued frame it will send (RdmaFrame::kLines) and what Transmit reads (4,
    # PrefetchTxState), in its own copy or in the event's Warm.
    hot = constant("link/rdma-net-device.h", "kHotLines")
    assert count(counts, "ns3::RdmaSwitch::WarmArrival(") >= 2 + hot + 2
    lines = constant("nic/rdma-nic.h", "kCcFirstLines") + 1
    state = "ns3::RdmaNic::PrefetchSendState("
    for warm, more in (("ns3::RdmaNic::WarmPull(", 3), ("ns3::RdmaNic::WarmArrival(", 2)):
        assert count(counts, warm) >= lines + more or calls(counts, warm, state), warm
    tx = count(counts, "ns3::RdmaNetDevice::WarmTransmitComplete(") + \
        count(counts, "ns3::MemberEvent<ns3::RdmaNetDevice, &ns3::RdmaNetDevice::TransmitComplete")
    frame = constant("link/rdma-frame.h", "kLines")
    assert tx >= frame + 4 or (tx >= frame and calls(
        counts, "ns3::RdmaNetDevice::WarmTransmitComplete(", "ns3::RdmaNetDevice::PrefetchTxState("))
