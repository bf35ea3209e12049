/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The table of scenario keys (ScenarioSchema::Keys): every key with its type, range,
 * default, unit and meaning. docs/scenario-keys.md is generated from it.
 */
#include "ns3/cc-key-alias.h"
#include "ns3/plugin-registry.h"
#include "ns3/scenario-schema.h"

#include <limits>

namespace ns3
{

using json = nlohmann::json;
using namespace ccalias;

namespace
{
constexpr double kInf = std::numeric_limits<double>::infinity();
using T = ScenarioSchema::Type;
} // namespace

const std::vector<ScenarioSchema::Key>&
ScenarioSchema::Keys()
{
    // clang-format off
    static const std::vector<Key> keys = {
        {"name", T::STRING, "", 0, 0, {}, "", "Scenario name (default: the file name without .json)."},
        {"seed", T::INT, 1, 0, 4294967295.0, {}, "", "Random seed (ECN marking, start jitter). Same seed, same results."},
        {"stop_time_ms", T::NUMBER, 100, 1e-6, kInf, {}, "ms", "Hard end of the simulation; the run ends earlier once every non-probe flow has completed."},
        {"simulator.port_prefetch", T::CHOICE, "auto", 0, 0, {"auto", "always", "never"}, "", "With simulator.scheduler rdma: whether the event loop loads a port's hot fields into the cache while the event before its own runs, and a switch an egress port's as soon as it has routed a frame (ns3::RdmaSimulatorImpl::PortPrefetch). auto: when the fabric's ports hold more of them than this core's L2 cache. Results do not depend on it: only the speed does."},
        {"simulator.warm_next", T::CHOICE, "auto", 0, 0, {"auto", "always", "never"}, "", "With simulator.scheduler rdma: whether the event loop warms the next event while the one before it runs: a port's end of transmission or a frame's arrival starts loading what its owner reads after the event's own hints, such as the QP's controller and rate limiter or the switch's egress port (ns3::RdmaSimulatorImpl::WarmNext). auto: as simulator.port_prefetch, when the fabric's ports hold more hot fields than this core's L2 cache. Results do not depend on it: only the speed does."},
        {"simulator.scheduler", T::CHOICE, "rdma", 0, 0, {"rdma", "map", "heap", "calendar", "priority_queue", "list"}, "", "Event core: rdma (ns3::RdmaSimulatorImpl, the module's own: a timing wheel for the near events and a 4-ary heap for the others, with one event per busy link direction; the fastest here) or ns-3's DefaultSimulatorImpl with one of ns-3's schedulers (map: ns3::MapScheduler, heap: ns3::HeapScheduler, ...). Every one orders events identically (by time, then by scheduling order), so results do not depend on it: only the speed does."},

        {"topology.type", T::CHOICE, "star", 0, 0, {"star", "leaf_spine", "fat_tree", "file", "hpcc_file"}, "", "star: hosts on one switch; leaf_spine: two-tier Clos; fat_tree: three-tier Clos; file: topology.file in the module's format; hpcc_file: topology.file in the HPCC simulator's topology.txt format."},
        {"topology.hosts", T::INT, 8, 2, 100000, {}, "", "star: number of hosts."},
        {"topology.host_rate_gbps", T::NUMBER, 100, 1e-3, 1e5, {}, "Gb/s", "Host link rate (any value)."},
        {"topology.host_delay_us", T::NUMBER, 1, 0, 1e6, {}, "us", "Host link propagation delay."},
        {"topology.leaves", T::INT, 2, 1, 10000, {}, "", "leaf_spine: number of leaf (ToR) switches."},
        {"topology.spines", T::INT, 2, 1, 10000, {}, "", "leaf_spine: number of spine switches."},
        {"topology.hosts_per_leaf", T::INT, 4, 1, 10000, {}, "", "leaf_spine: hosts under each leaf."},
        {"topology.links_per_spine", T::INT, 1, 1, 64, {}, "", "leaf_spine: parallel links between a leaf and a spine."},
        {"topology.fabric_rate_gbps", T::NUMBER, 100, 1e-3, 1e5, {}, "Gb/s", "leaf_spine, fat_tree: rate of the links between switches."},
        {"topology.fabric_delay_us", T::NUMBER, 1, 0, 1e6, {}, "us", "leaf_spine, fat_tree: delay of the links between switches."},
        {"topology.fat_tree.k", T::INT, 0, 0, 1000, {}, "", "fat_tree: k-ary fat-tree (k even): k pods of k/2 ToRs and k/2 aggregation switches, k/2 hosts per ToR, (k/2)^2 cores; 0 = the shape keys below."},
        {"topology.fat_tree.pods", T::INT, 4, 1, 10000, {}, "", "fat_tree: pods (HPCC paper: 5)."},
        {"topology.fat_tree.tors_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: ToRs per pod, each linked to every aggregation switch of its pod (HPCC paper: 4)."},
        {"topology.fat_tree.aggs_per_pod", T::INT, 2, 1, 10000, {}, "", "fat_tree: aggregation switches per pod (HPCC paper: 4)."},
        {"topology.fat_tree.hosts_per_tor", T::INT, 2, 1, 10000, {}, "", "fat_tree: hosts under each ToR (HPCC paper: 16)."},
        {"topology.fat_tree.cores", T::INT, 4, 1, 100000, {}, "", "fat_tree: core switches, a multiple of aggs_per_pod; aggregation switch j of every pod links to the j-th group of cores (HPCC paper: 16)."},
        {"topology.file", T::STRING, "", 0, 0, {}, "path", "file, hpcc_file: the topology file (hosts, switches, links with rate and delay), relative to the scenario file; see docs/workloads.md."},
        {"topology.link_events", T::LINK_EVENTS, json::array(), 0, 0, {}, "", "Link events: [{\"at_us\": 100, \"a\": 16, \"b\": 20, \"nth\": 0, \"action\": \"down\"|\"up\"|\"rate\", \"rate_gbps\": 25}]; a, b are node ids as in links.csv (hosts first, then leaves, then spines), nth picks among parallel links."},

        {"nic.mtu_bytes", T::INT, 1024, 64, 9000, {}, "bytes", "Payload bytes per packet (RoCE MTU)."},
        {"nic.ack_interval", T::INT, 1, 1, 1e6, {}, "packets", "Responder ACKs every N in-order packets (and each message's last)."},
        {"nic.cnp_interval_us", T::NUMBER, nullptr, 0, 1e6, {}, "us", "Minimum spacing of CNPs per QP. Default: the one the congestion controller's parameters go with (dcqcn: its Preset's, nic 4 us, paper 50 us), else 4 us."},
        {"nic.nack_interval_us", T::NUMBER, 100, 0, 1e6, {}, "us", "A NACK for the same missing PSN is repeated after this time. Shorthand for `nic.go_back_n.NackInterval` (that key wins; both with different values is an error)."},
        {"nic.rto_us", T::NUMBER, 1000, 1, 1e7, {}, "us", "Retransmission timeout (go back to the oldest unacknowledged PSN). Shorthand for `nic.<policy>.RetransmissionTimeout` (that key wins; both with different values is an error)."},
        {"nic.window_bytes", T::INT, 0, 0, 1e12, {}, "bytes", "Static in-flight limit per QP; 0 = none."},
        {"nic.loss_recovery", T::CHOICE, "go_back_n", 0, 0, PluginRegistry::LossRecoveries().Names(), "", "The loss-recovery policy (see its parameters below). go_back_n: RoCE default; selective_repeat: IRN (receiver places out-of-order packets, NACK carries the PSN that arrived); direct_placement: every packet carries its placement, any order is accepted, cumulative ACKs, no NACK (for adaptive routing)."},
        {"nic.entropy_change_packets", T::INT, 0, 0, 1e9, {}, "packets", "Host-side spraying: a new UDP source port (ECMP entropy) every N packets of a QP; 0 = one per QP."},
        {"nic.rto_low_us", T::NUMBER, 100, 1, 1e7, {}, "us", "Selective repeat: timeout with at most rto_low_threshold packets in flight (IRN: 100). Shorthand for `nic.selective_repeat.RtoLow` (that key wins; both with different values is an error)."},
        {"nic.rto_high_us", T::NUMBER, 320, 1, 1e7, {}, "us", "Selective repeat: timeout otherwise (IRN: 320). Shorthand for `nic.selective_repeat.RtoHigh` (that key wins; both with different values is an error)."},
        {"nic.rto_low_threshold", T::INT, 3, 0, 1e6, {}, "packets", "Selective repeat: in-flight packets up to which rto_low applies (IRN: 3). Shorthand for `nic.selective_repeat.RtoLowThreshold` (that key wins; both with different values is an error)."},
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
        {"switch.pfc.enabled", T::BOOL, true, 0, 0, {}, "", "PFC on data classes (lossless). false: lossy, drops at a dynamic egress threshold."},
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
        {"switch.lossy_alpha", T::NUMBER, 1.0, 1e-6, 1024, {}, "", "Lossy classes: drop when an egress queue exceeds alpha x free buffer."},
        {"switch.ecn.enabled", T::BOOL, true, 0, 0, {}, "", "RED/ECN marking at egress."},
        {"switch.ecn.unit", T::CHOICE, "KiB", 0, 0, {"KiB", "kB"}, "", "Unit of switch.ecn.kmin_kb and kmax_kb. KiB: 1,024 bytes (this module's unit). kB: 1,000 bytes, the unit of the HPCC and ConWeave simulators' KMIN_MAP / KMAX_MAP, so that a threshold copied from their configs marks at the same queue (their 100 is 100,000 bytes; as KiB it would be 102,400)."},
        {"switch.ecn.kmin_kb", T::NUMBER, 400, 0, 1e6, {}, "KiB or kB", "Kmin in switch.ecn.unit (at 100 Gb/s if scale_with_rate): no mark while the egress queue holds at most this. HPCC paper baseline: 400 KB (its simulator's 400 x 1000 bytes: 400 with unit kB; the default here is 400 KiB = 409,600 bytes)."},
        {"switch.ecn.kmax_kb", T::NUMBER, 1600, 0, 1e6, {}, "KiB or kB", "Kmax in switch.ecn.unit (at 100 Gb/s if scale_with_rate): every packet marked above it. HPCC paper baseline: 1600 KB (1600 with unit kB)."},
        {"switch.ecn.pmax", T::NUMBER, 0.2, 0, 1, {}, "", "Marking probability at Kmax."},
        {"switch.ecn.scale_with_rate", T::BOOL, true, 0, 0, {}, "", "Scale Kmin/Kmax by port rate / 100 Gb/s."},

        {"routing.ecmp_salt_per_switch", T::BOOL, true, 0, 0, {}, "", "Each switch salts its ECMP hash differently (avoids polarization)."},
        {"routing.load_balancer", T::CHOICE, "ecmp", 0, 0, PluginRegistry::LoadBalancers().Names(), "", "The load balancer of every switch (see its parameters below). ecmp: flow hash; spray: per packet (random or round robin); adaptive: per packet, least-queued egress; flowlet: new path after an idle gap."},
        {"routing.spray_mode", T::CHOICE, "random", 0, 0, {"random", "round_robin"}, "", "spray: how a packet picks its port. Shorthand for `routing.spray.Mode` (that key wins; both with different values is an error)."},
        {"routing.adaptive_paused_as_full", T::BOOL, true, 0, 0, {}, "", "adaptive: never pick a port whose class is paused by PFC while another is not. Shorthand for `routing.adaptive.PausedAsFull` (that key wins; both with different values is an error)."},
        {"routing.flowlet_gap_us", T::NUMBER, 10, 0, 1e6, {}, "us", "flowlet: idle gap after which a flow may change path. Shorthand for `routing.flowlet.Gap` (that key wins; both with different values is an error)."},

        {"cc.algorithm", T::CHOICE, "dcqcn", 0, 0, PluginRegistry::CongestionControls().Names(), "", "Congestion control of every QP (see the parameter tables below). none: line rate (PFC-only baseline)."},
        {"cc.dcqcn.preset", T::CHOICE, AliasDefault("cc.dcqcn.preset"), 0, 0, AliasChoices("cc.dcqcn.preset"), "", "cc.dcqcn.Preset in lower case: nic (NVIDIA ConnectX documented defaults), hpcc_sim (the HPCC simulator's DCQCN loop, to rerun the HPCC paper's curves) or paper (SIGCOMM 2015), the values of the cc.dcqcn.* parameters left at preset. A scenario that gives both keys must give the same value; config.json holds both."},


        {"traffic.incast.enabled", T::BOOL, false, 0, 0, {}, "", "Generate an incast."},
        {"traffic.incast.receiver", T::INT, 0, 0, 1e6, {}, "host", "Receiving host index."},
        {"traffic.incast.senders", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Sending host indices; empty = every other host."},
        {"traffic.incast.qps_per_sender", T::INT, 1, 1, 1e6, {}, "", "QPs per sender, one message each."},
        {"traffic.incast.message_bytes", T::INT, 65536, 1, 1e12, {}, "bytes", "Message size of each QP."},
        {"traffic.incast.until_ms", T::NUMBER, 0, 0, 1e6, {}, "ms", "If > 0: QPs send without end until this time (message_bytes ignored)."},
        {"traffic.incast.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start time."},
        {"traffic.incast.jitter_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Each QP starts at start + U(0, jitter)."},
        {"traffic.incast.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the incast (default nic.data_priority)."},
        {"traffic.probe.enabled", T::BOOL, false, 0, 0, {}, "", "Small-message latency probe (kind 'probe' in fct.csv)."},
        {"traffic.probe.src", T::INT, 1, 0, 1e6, {}, "host", "Probe sender."},
        {"traffic.probe.dst", T::INT, 0, 0, 1e6, {}, "host", "Probe receiver."},
        {"traffic.probe.message_bytes", T::INT, 1024, 1, 1e9, {}, "bytes", "Probe message size."},
        {"traffic.probe.interval_us", T::NUMBER, 20, 0.001, 1e9, {}, "us", "One probe message per interval until the other flows are done."},
        {"traffic.probe.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "First probe."},
        {"traffic.probe.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the probe (default nic.data_priority)."},
        {"traffic.probe.rate_limited", T::BOOL, true, 0, 0, {}, "", "false: the probe's QP is outside congestion control (line rate), so it measures the fabric's queueing delay, not its own fair share (a 1 KB message per 50 us is 164 Mb/s, 11x the share of each of 7,000 QPs on 100G, so paced it would wait for its own rate)."},
        {"traffic.permutation.enabled", T::BOOL, false, 0, 0, {}, "", "Permutation traffic: every host sends one message to a distinct host (under another leaf on a leaf-spine)."},
        {"traffic.permutation.message_bytes", T::INT, 1000000, 1, 1e12, {}, "bytes", "Message size of each host."},
        {"traffic.permutation.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start time."},
        {"traffic.flows_csv", T::STRING, "", 0, 0, {}, "path", "Flow list (src,dst,bytes,start_ns[,priority]), relative to the scenario file; empty = none."},
        {"traffic.cdf.enabled", T::BOOL, false, 0, 0, {}, "", "Background traffic: each sender starts flows as a Poisson process, sizes from a flow-size CDF (kind 'cdf' in fct.csv)."},
        {"traffic.cdf.file", T::STRING, "", 0, 0, {}, "path", "Flow-size CDF, lines 'size_bytes cdf_percent', relative to the scenario file; shipped: scenarios/workloads/{websearch,fb_hadoop,fb_hadoop2015_fine,alistorage2019,solar2022,googlerpc2008}.cdf."},
        {"traffic.cdf.load", T::NUMBER, 0.3, 1e-6, 1, {}, "fraction", "Target offered load: payload bits per second offered over the line rate of the links load_of names."},
        {"traffic.cdf.load_of", T::CHOICE, "host_links", 0, 0, {"host_links", "tor_uplinks"}, "", "host_links: each sender's own link; tor_uplinks: each rack's uplinks (the senders' rate follows from the oversubscription and the share of their flows that leave the rack)."},
        {"traffic.cdf.senders", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Sending hosts; empty = every host."},
        {"traffic.cdf.receivers", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Destination candidates; empty = every host."},
        {"traffic.cdf.destinations", T::CHOICE, "uniform", 0, 0, {"uniform", "other_rack"}, "", "Destination of each flow: uniform over the receivers other than the sender, or over those under another ToR."},
        {"traffic.cdf.start_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Start of the arrivals."},
        {"traffic.cdf.duration_us", T::NUMBER, 1000, 0.001, 1e9, {}, "us", "Flows arrive during [start, start + duration); the run goes on until they complete."},
        {"traffic.cdf.warmup_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Measurement window: flows starting in the first warmup_us are excluded (summary.json warmup_end_ns)."},
        {"traffic.cdf.cooldown_us", T::NUMBER, 0, 0, 1e9, {}, "us", "Measurement window: flows starting in the last cooldown_us of the arrivals are excluded (summary.json cooldown_start_ns)."},
        {"traffic.cdf.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the CDF flows (default nic.data_priority)."},
        {"traffic.moe.enabled", T::BOOL, false, 0, 0, {}, "", "MoE expert-parallel all-to-all: dispatch and combine of every layer (kind 'collective'; collectives.csv, moe-trace.csv)."},
        {"traffic.moe.preset", T::CHOICE, "deepseek_v3", 0, 0, {"deepseek_v3", "mixtral", "decode"}, "", "Defaults of the model keys below. deepseek_v3: EP64 = 8 nodes x 8 GPUs, 4096 tokens per GPU, top-8 of 256 experts, H 7168, at most 4 nodes per token, hierarchical; mixtral: EP8 = 8 nodes x 1 GPU, 4096 tokens, top-2 of 8, H 4096, flat; decode: EP64 = 8 x 8, 128 tokens, top-8 of 256, H 7168, flat, one message per token and expert."},
        {"traffic.moe.ranks", T::INT, nullptr, 2, 1e6, {}, "GPUs", "EP group size, one GPU (rank) per host. Default: the preset's."},
        {"traffic.moe.gpus_per_node", T::INT, nullptr, 1, 1024, {}, "GPUs", "Ranks per node (rank r is local rank r % gpus_per_node of node r / gpus_per_node). Default: the preset's."},
        {"traffic.moe.tokens_per_rank", T::INT, nullptr, 1, 1e8, {}, "tokens", "Tokens each rank routes per layer and micro-batch. Default: the preset's."},
        {"traffic.moe.hidden_size", T::INT, nullptr, 1, 1e6, {}, "", "Hidden size H. Default: the preset's."},
        {"traffic.moe.top_k", T::INT, nullptr, 1, 1024, {}, "experts", "Experts per token. Default: the preset's."},
        {"traffic.moe.experts", T::INT, nullptr, 1, 1e6, {}, "experts", "Routed experts, experts / ranks per rank (expert e on rank e / (experts / ranks)). Default: the preset's."},
        {"traffic.moe.max_nodes", T::INT, nullptr, 0, 1e6, {}, "nodes", "Node-limited routing: a token reaches at most this many nodes; 0 = no limit. Default: the preset's."},
        {"traffic.moe.exchange", T::CHOICE, nullptr, 0, 0, {"flat", "hierarchical"}, "", "flat: one copy per token and destination GPU; hierarchical (rail-aligned): one RDMA copy per token and destination node, to the GPU of the same local rank (the NVLink part is not modelled). Default: the preset's."},
        {"traffic.moe.granularity", T::CHOICE, nullptr, 0, 0, {"per_pair", "per_token"}, "", "per_pair: a phase's copies between two GPUs travel as messages_per_pair messages; per_token: one message per token and expert (flat) or node (hierarchical). Default: the preset's."},
        {"traffic.moe.dispatch_bytes_per_token", T::INT, nullptr, 1, 1e9, {}, "bytes", "Bytes of one dispatch copy. Default: FP8 with scales, H + 4H/128."},
        {"traffic.moe.combine_bytes_per_token", T::INT, nullptr, 1, 1e9, {}, "bytes", "Bytes of one combine copy. Default: BF16, 2H."},
        {"traffic.moe.skew", T::CHOICE, "uniform", 0, 0, {"uniform", "dirichlet"}, "", "Expert popularity: uniform, or drawn per layer from a symmetric Dirichlet(dirichlet_alpha) (summary.json: moe_expert_load_max_over_mean)."},
        {"traffic.moe.dirichlet_alpha", T::NUMBER, 1.0, 1e-3, 1e6, {}, "", "Dirichlet concentration: smaller = more skewed popularity."},
        {"traffic.moe.messages_per_pair", T::INT, 1, 1, 1024, {}, "", "per_pair: messages (each on its own QP unless traffic.collective_qps is per_pair) per GPU pair and phase."},
        {"traffic.moe.layers", T::INT, 1, 1, 10000, {}, "", "MoE layers."},
        {"traffic.moe.micro_batches", T::INT, 1, 1, 10000, {}, "", "Micro-batches; collectives.csv layer = micro_batch x layers + layer."},
        {"traffic.moe.overlap_micro_batches", T::BOOL, false, 0, 0, {}, "", "false: micro-batches one after the other; true: independent chains from time 0 (one's communication overlaps another's compute)."},
        {"traffic.moe.expert_compute_us", T::NUMBER, 0, 0, 1e9, {}, "us", "A GPU starts its combine this long after its dispatch completed (expert compute)."},
        {"traffic.moe.layer_compute_us", T::NUMBER, 0, 0, 1e9, {}, "us", "A GPU starts the next dispatch this long after its combine completed (attention, etc.)."},
        {"traffic.moe.placement", T::CHOICE, "linear", 0, 0, {"linear", "rail"}, "", "Ranks on hosts. linear: rank r on host r (a node's GPUs side by side); rail: local rank i of node n on the n-th host of rack i, so that rail-aligned exchanges stay under one ToR."},
        {"traffic.moe.rank_hosts", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Host of each rank (overrides placement); empty = placement."},
        {"traffic.moe.priority", T::INT, nullptr, 0, 7, {}, "", "Class of the MoE flows (default nic.data_priority)."},
        {"traffic.trace.csv", T::STRING, "", 0, 0, {}, "path", "Collective trace to replay: flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio (src, dst: ranks; wait_groups: phase:layer;...); a flow starts when its groups completed on its sending host, + gap_ns. Relative to the scenario file; empty = none."},
        {"traffic.trace.rank_hosts", T::INT_ARRAY, json::array(), 0, 1e6, {}, "host", "Host of each rank of the trace; empty = rank r on host r."},
        {"traffic.trace.priority", T::INT, nullptr, 0, 7, {}, "", "Class of trace flows with an empty prio (default nic.data_priority)."},
        {"traffic.collective_qps", T::CHOICE, nullptr, 0, 0, {"per_flow", "per_pair"}, "", "QPs of collective flows (MoE, trace): one per flow, or one per host pair and class (messages in order). Default: per_pair for MoE per_token granularity, else per_flow."},
        {"traffic.hpcc_flow_file", T::STRING, "", 0, 0, {}, "path", "The HPCC simulator's flow.txt (a count, then 'src dst priority dport bytes start_s' lines) as plain flows; node ids as in an hpcc_file topology, else host indices. Relative to the scenario file; empty = none."},
        {"traffic.incast_groups_csv", T::STRING, "", 0, 0, {}, "path", "Incast groups that join and leave: CSV with columns receiver,senders,qps_per_sender,join_us,leave_us[,message_bytes,jitter_us,priority] (senders like 1-7 or 1;4;9), relative to the scenario file; empty = none."},

        {"output.queue_sample_us", T::NUMBER, 10, 0.001, 1e9, {}, "us", "Sampling period of queue.csv."},
        {"output.port_sample_us", T::NUMBER, 10, 0, 1e9, {}, "us", "Sampling period of ports.csv (cumulative bytes sent per port); 0 = off."},
        {"output.cc_sample_us", T::NUMBER, 10, 0, 1e9, {}, "us", "Sampling period of cc.csv (rate, window, acked bytes of sampled QPs); 0 = off."},
        {"output.cc_sample_qps", T::INT, 4, 0, 1e6, {}, "QPs", "Number of flows whose QP state is sampled (see output.cc_sample_flows)."},
        {"output.cc_sample_flows", T::CHOICE, "largest", 0, 0, {"largest", "spread"}, "", "Which flows cc.csv samples: largest (the output.cc_sample_qps largest, ties by flow id) or spread (evenly over the flow ids)."},
        {"output.progress", T::BOOL, true, 0, 0, {}, "", "Print progress (simulated time, percent, events/s) to stderr."},
        {"output.pcap.enabled", T::BOOL, false, 0, 0, {}, "", "Packet captures: every port of output.pcap.nodes in DIR/pcap/rdma-NODE-PORT.pcap (Ethernet link type; frames sent and received, PFC frames included, as RoCEv2 bytes: Ethernet, IPv4 with ECN, UDP 4791, BTH, AETH; see docs/pcap.md). Off: nothing is rendered, the run costs the same."},
        {"output.pcap.nodes", T::INT_ARRAY, json::array(), 0, 1e7, {}, "node", "Nodes whose ports are captured (node ids as in links.csv: hosts first, then switches); empty = every node."},
        {"output.pcap.max_packets", T::INT, 100000, 0, 1e12, {}, "frames", "Most frames written per capture file; then the file is closed and its port renders nothing more. 0 = no limit."},
    };
    // clang-format on
    return keys;
}

const ScenarioSchema::Key*
ScenarioSchema::Find(const std::string& path)
{
    for (const Key& k : Keys())
    {
        if (k.path == path)
        {
            return &k;
        }
    }
    return nullptr;
}

} // namespace ns3
