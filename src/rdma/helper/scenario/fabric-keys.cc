/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The keys of the FabricStage (a table; docs/scenario-keys.md is generated from it): the
 * NICs, the switches (and their buffer policy), routing, congestion control and link events. The
 * parameters of each controller, load balancer and loss-recovery policy come from their attributes
 * (PluginRegistry).
 */
#include "ns3/buffer-policy.h"
#include "ns3/fabric-stage.h"
#include "ns3/packet-trimmer.h"
#include "ns3/plugin-registry.h"

namespace ns3
{

using json = nlohmann::json;

std::vector<ScenarioKey>
FabricStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"topology.link_events", T::LINK_EVENTS, json::array(), 0, 0, {}, "", "Link events: [{\"at_us\": 100, \"a\": 16, \"b\": 20, \"nth\": 0, \"action\": \"down\"|\"up\"|\"rate\", \"rate_gbps\": 25}]; a, b are node ids as in links.csv (hosts first, then leaves, then spines), nth picks among parallel links."},
        {"topology.partition", T::INT_ARRAY, json::array(), 0, 65535, {}, "rank", "Runs over MPI ranks (--ranks N): the rank of every node, one entry per node in node id order (as in links.csv: hosts first, then switches). A host has its ToR's rank, every rank below N holds a host, and no rank is N or more. Empty = automatic: racks in contiguous blocks, every other switch with the rank most of its links lead to. A serial run checks it and runs everything as one rank."},
        {"nic.mtu_bytes", T::INT, 1024, 64, 9000, {}, "bytes", "Payload bytes per packet (RoCE MTU)."},
        {"nic.ack_interval", T::INT, 1, 1, 1e6, {}, "packets", "Responder ACKs every N in-order packets (and each message's last)."},
        {"nic.cnp_interval_us", T::NUMBER, nullptr, 0, 1e6, {}, "us", "Minimum spacing of CNPs per QP. Default: the one the congestion controller's parameters go with (dcqcn: its Preset's, nic 4 us, paper 50 us), else 4 us."},
        {"nic.window_bytes", T::INT, 0, 0, 1e12, {}, "bytes", "Static in-flight limit per QP; 0 = none."},
        {"nic.loss_recovery", T::CHOICE, "go_back_n", 0, 0, PluginRegistry::LossRecoveries().Names(), "", "The loss-recovery policy (see its parameters below). go_back_n: RoCE default; selective_repeat: IRN (receiver places out-of-order packets, NACK carries the PSN that arrived); direct_placement: every packet carries its placement, any order is accepted, cumulative ACKs, no NACK (for adaptive routing)."},
        {"nic.entropy_change_packets", T::INT, 0, 0, 1e9, {}, "packets", "Host-side spraying with nic.load_balancer per_qp: a new UDP source port (ECMP entropy) every N packets of a QP; 0 = one per QP."},
        {"nic.load_balancer", T::CHOICE, "per_qp", 0, 0, PluginRegistry::PathSelectors().Names(), "", "The sender's choice of entropy (UDP source port, which the switches' ECMP hash reads) for each data packet (Ultra Ethernet's load balancing; see its parameters below). per_qp: the QP's own port (RoCEv2), or a new one every nic.entropy_change_packets; oblivious: spray over the QP's nic.paths entropies, each once per round; bitmap: the same, skipping entropies whose ACKs were ECN-marked or whose packets were trimmed or timed out; reps: reuse entropies whose ACKs came back unmarked, explore at random when none is left, freeze on the known-good ones after a timeout. Needs a receiver that accepts reordering with spraying (nic.loss_recovery selective_repeat or direct_placement)."},
        {"nic.paths", T::INT, 64, 1, 16384, {}, "entropies", "Entropies (UDP source ports) in each QP's space for nic.load_balancer oblivious, bitmap and reps (htsim's default: 64, main_uec.cpp -paths)."},
        {"nic.inflight_cap_packets", T::INT, -1, -1, 1e9, {}, "packets", "Packets in flight per QP: -1 = ceil(BDP / MTU) with selective repeat (IRN's BDP-FC) and none with go-back-N; 0 = none."},
        {"nic.cnp_on_out_of_order", T::BOOL, false, 0, 0, {}, "", "A NACK for an out-of-sequence packet also acts as a CNP (recent NICs; DCQCN then slows down on reordering)."},
        {"nic.rate_limit", T::CHOICE, "per_qp", 0, 0, {"per_qp", "per_destination"}, "", "One controller and rate per QP, or shared by all QPs of a NIC to one destination."},
        {"nic.host_rx.rate_gbps", T::NUMBER, 0, 0, 1e6, {}, "Gb/s", "Receiving host model (HostRxModel): the rate at which the host takes delivered payload, one packet after the other; an answer (ACK/NACK) leaves only once the host is done with its packet, and carries the hold time (Swift's endpoint delay). 0 = no limit; with nic.host_rx.delay_us also 0 the model is off (answers leave at once)."},
        {"nic.host_rx.delay_us", T::NUMBER, 0, 0, 1e6, {}, "us", "Receiving host model: processing time of each packet after its payload is taken, before its answer may leave."},
        {"nic.host_rx.nodes", T::INT_ARRAY, json::array(), 0, 1e7, {}, "node", "Hosts that get the receiving host model (node ids as in links.csv); empty = every host."},
        {"nic.probe_timeout_us", T::NUMBER, 300, 1, 1e7, {}, "us", "RTT probe timeout; doubles on each unanswered probe."},
        {"nic.probe_request_priority", T::INT, -1, -1, 7, {}, "", "Class of RTT probe requests; -1 = the QP's data class."},
        {"nic.probe_response_priority", T::INT, -1, -1, 7, {}, "", "Class of RTT probe responses; -1 = nic.control_priority."},
        {"nic.data_priority", T::INT, 3, 0, 7, {}, "", "Class of data packets (and of flows without their own priority)."},
        {"nic.control_priority", T::INT, 7, 0, 7, {}, "", "Strict-priority class of ACK, NACK and CNP."},
        {"nic.ecn_capable", T::BOOL, true, 0, 0, {}, "", "Data packets are ECN-capable (ECT)."},
        {"switch.buffer_mb", T::NUMBER, 32, 1e-3, 1e5, {}, "MiB", "Shared packet buffer per switch (HPCC paper: 32 MB at 100G)."},
        {"switch.pfc.enabled", T::BOOL, true, 0, 0, {}, "", "PFC on data classes (lossless). false: lossy, drops at the egress threshold of switch.buffer.policy (default: dynamic)."},
        {"switch.pfc.dynamic_xoff", T::BOOL, true, 0, 0, {}, "", "Xoff = alpha x free shared buffer (true) or static_xoff_kb (false)."},
        {"switch.pfc.alpha", T::NUMBER, 0.125, 1e-6, 1024, {}, "", "Dynamic Xoff factor."},
        {"switch.pfc.static_xoff_kb", T::NUMBER, 256, 0.001, 1e6, {}, "KiB", "Static Xoff per ingress (port, class)."},
        {"switch.pfc.xon_delta_kb", T::NUMBER, 2, 0, 1e6, {}, "KiB", "Resume when the ingress counter is this far below Xoff."},
        {"switch.pfc.pause_quanta", T::INT, 65535, 2, 65535, {}, "512 bit times", "Pause time of one PFC frame; refreshed at half time."},
        {"switch.pfc.watchdog.enabled", T::BOOL, false, 0, 0, {}, "", "A PFC watchdog on every switch (as SONiC and switch vendors ship it): a lossless queue holding frames and paused without a break for detect_ms is stormed; the action applies until no pause arrived for restore_ms. Events in pfc.csv (storm_detected, storm_restored). Needs switch.pfc.enabled."},
        {"switch.pfc.watchdog.detect_ms", T::NUMBER, 1, 1e-6, 1e6, {}, "ms", "Detection time (SONiC ships 200 ms; simulated runs last milliseconds)."},
        {"switch.pfc.watchdog.restore_ms", T::NUMBER, 2, 1e-6, 1e6, {}, "ms", "Restoration time: a stormed queue is restored when no pause arrived for this long."},
        {"switch.pfc.watchdog.action", T::CHOICE, "drop", 0, 0, {"drop", "forward"}, "", "drop: discard the stormed queue and every frame routed to it (drop reason pfc_watchdog); forward: ignore the peer's pauses for that class."},
        {"switch.pfc.watchdog.poll_us", T::NUMBER, 100, 1e-3, 1e9, {}, "us", "Time between two looks at the queues."},
        {"switch.pfc.deadlock_detection.enabled", T::BOOL, true, 0, 0, {}, "", "Look for PFC deadlocks (cycles of switch queues each paused by the next) with PFC on; each found goes to summary.json (pfc_deadlocks) and one stderr line. It only looks: results are the same without it."},
        {"switch.pfc.deadlock_detection.window_us", T::NUMBER, 500, 1e-3, 1e9, {}, "us", "A queue counts as blocked once its port has been paused without a break for this long while it holds frames."},
        {"switch.pfc.deadlock_detection.interval_us", T::NUMBER, 250, 1e-3, 1e9, {}, "us", "Time between two looks for cycles."},
        {"switch.pint_bits", T::INT, 8, 1, 16, {}, "bits", "PINT (cc.algorithm hpcc-pint): bits of the one value a data packet carries, the path's largest egress utilisation on a log scale with random (unbiased) rounding; 2^bits codes span 2^-10 to 2^10, base 2^(20/(2^bits - 1)): 8 bits give 1.056 (PINT: 1.05). Takes ceil(bits/8) header bytes on data packets and ACKs of hpcc-pint QPs; no effect with other controllers."},
        {"switch.lossy_alpha", T::NUMBER, 1.0, 1e-6, 1024, {}, "", "Lossy classes, switch.buffer.policy dynamic_threshold: drop when an egress queue exceeds alpha x free buffer."},
        {"switch.buffer.policy", T::CHOICE, "dynamic_threshold", 0, 0, BufferPolicy::Names(), "", "Admission rule of the shared buffer for the lossy classes (PFC off, or a class outside PFC; lossless classes follow PFC). dynamic_threshold: an egress queue may hold switch.lossy_alpha x free buffer (Choudhury and Hahne); static: a fixed share per egress queue (switch.buffer.static_kb); abm: Active Buffer Management (Addanki et al., SIGCOMM 2022), alpha / n_p x free buffer x drain rate / line rate (switch.buffer.abm.*). Rules in docs/design.md."},
        {"switch.buffer.static_kb", T::NUMBER, 0, 0, 1e9, {}, "KiB", "static only: the most one egress queue (port, class) may hold; 0 = an equal share of each switch's buffer, switch.buffer_mb / (its ports x 8 classes)."},
        {"switch.buffer.abm.alpha", T::NUMBER, 0.5, 1e-6, 1024, {}, "", "abm only: alpha_p of every class (the ABM paper's evaluation setting: 0.5)."},
        {"switch.buffer.abm.update_interval_us", T::NUMBER, 30, 0.001, 1e6, {}, "us", "abm only: window over which a congested queue's drain rate is measured, about one RTT; a queue congested for less than one window drains at line rate (ns3-datacenter's ABM: 30 us)."},
        {"switch.buffer.abm.congested_bytes", T::INT, 28000, 1, 1e12, {}, "bytes", "abm only: a queue holding at least this is congested (counts in n_p; its drain rate is measured) (ns3-datacenter's ABM: 20 x 1400)."},
        {"switch.trim.enabled", T::BOOL, false, 0, 0, {}, "", "Packet trimming (Ultra Ethernet; htsim's CompositeQueue): a DATA frame the buffer refuses is cut to its header (FLAG_TRIMMED) and forwarded in class switch.trim.priority; the receiver NACKs its PSN and the sender resends exactly it (go-back-N: from it). A header that does not fit either is dropped (drop reason trim_header_overflow). ACK, NACK, CNP, probe and PFC frames and trimmed frames are never trimmed. summary.json: trimmed_packets, trims_by_reason (why the whole frame was refused), trimmed_packets_received."},
        {"switch.trim.bytes", T::INT, 64, PacketTrimmer::kMinBytes, 65535, {}, "bytes", "Size of a trimmed frame on the wire (Ethernet to FCS; htsim's trimsize 64); at least the DATA header stack and trailer (62 bytes) and below a full data frame at nic.mtu_bytes. INT records and the PINT value are removed."},
        {"switch.trim.priority", T::INT, -1, -1, 7, {}, "", "Class the trimmed headers are queued in; -1 = nic.control_priority, the strict-priority class of ACKs and NACKs (htsim's high-priority header queue)."},
        {"switch.buffer.abm.min_drain_rate", T::NUMBER, 0.125, 1e-6, 1, {}, "", "abm only: floor of a measured drain rate / line rate (ns3-datacenter's ABM: 1 / number of classes)."},
        {"switch.ecn.enabled", T::BOOL, true, 0, 0, {}, "", "RED/ECN marking at egress."},
        {"switch.ecn.unit", T::CHOICE, "KiB", 0, 0, {"KiB", "kB"}, "", "Unit of switch.ecn.kmin_kb and kmax_kb. KiB: 1,024 bytes (this module's unit). kB: 1,000 bytes, the unit of the HPCC and ConWeave simulators' KMIN_MAP / KMAX_MAP, so that a threshold copied from their configs marks at the same queue (their 100 is 100,000 bytes; as KiB it would be 102,400)."},
        {"switch.ecn.kmin_kb", T::NUMBER, 400, 0, 1e6, {}, "KiB or kB", "Kmin in switch.ecn.unit (at 100 Gb/s if scale_with_rate): no mark while the egress queue holds at most this. HPCC paper baseline: 400 KB (its simulator's 400 x 1000 bytes: 400 with unit kB; the default here is 400 KiB = 409,600 bytes)."},
        {"switch.ecn.kmax_kb", T::NUMBER, 1600, 0, 1e6, {}, "KiB or kB", "Kmax in switch.ecn.unit (at 100 Gb/s if scale_with_rate): every packet marked above it. HPCC paper baseline: 1600 KB (1600 with unit kB)."},
        {"switch.ecn.pmax", T::NUMBER, 0.2, 0, 1, {}, "", "Marking probability at Kmax."},
        {"switch.ecn.scale_with_rate", T::BOOL, true, 0, 0, {}, "", "Scale Kmin/Kmax by port rate / 100 Gb/s."},
        {"routing.ecmp_salt_per_switch", T::BOOL, true, 0, 0, {}, "", "Each switch salts its ECMP hash differently (avoids polarization)."},
        {"routing.load_balancer", T::CHOICE, "ecmp", 0, 0, PluginRegistry::LoadBalancers().Names(), "", "The load balancer of every switch (see its parameters below). ecmp: flow hash; spray: per packet (random or round robin); adaptive: per packet, least-queued egress; flowlet: new path after an idle gap."},
        {"cc.algorithm", T::CHOICE, "dcqcn", 0, 0, PluginRegistry::CongestionControls().Names(), "", "Congestion control of every QP (see the parameter tables below). none: line rate (PFC-only baseline)."},
    };
    // clang-format on
}

} // namespace ns3
