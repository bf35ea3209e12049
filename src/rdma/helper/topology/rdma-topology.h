/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TOPOLOGY_H
#define RDMA_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-switch.h"

#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A fabric of RDMA hosts (one NIC port each) and switches joined by point-to-point
 * links of any rate and delay, with the quantities derived from it: shortest-path ECMP
 * routes on every switch, PFC headroom of every switch port (from its link's rate and
 * delay), ECN thresholds per port, and per host pair the path, base RTT, BDP and the
 * ideal completion time of a message.
 *
 * Usage: set attributes (Set*Attribute, SetCongestionControl), AddHost / AddSwitch /
 * AddLink (or a builder such as LeafSpineHelper), over MPI ranks Partition(), then
 * Finalize(). AddHost and AddSwitch create the ns-3 Node; Finalize builds the NICs,
 * switches, devices and channels (over ranks, those of this rank's nodes only).
 */
class RdmaTopology
{
  public:
    /// One link of a path, in the direction of travel.
    struct Hop
    {
        uint64_t bitRate;
        Time delay;
    };

    RdmaTopology();

    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    void SetNicAttribute(const std::string& name, const AttributeValue& value);
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    void SetLoadBalancer(const ObjectFactory& factory);
    /**
     * The shared-buffer admission policy of the lossy classes (a BufferPolicy TypeId and
     * its attributes; default ns3::DynamicThresholdPolicy). Every switch gets its own
     * instance.
     */
    void SetBufferPolicy(const ObjectFactory& factory);
    void SetCongestionControl(const ObjectFactory& factory);
    /**
     * The loss-recovery policy of every NIC (a LossRecovery TypeId and its attributes;
     * default ns3::GoBackN). One instance, created at the first AddHost, serves them all.
     */
    void SetLossRecovery(const ObjectFactory& factory);
    /// Give every switch its own ECMP salt (derived from \p seed); false: all equal.
    void SetEcmpSaltPerSwitch(bool perSwitch, uint32_t seed);

    /// Create a host; returns its node id.
    uint32_t AddHost();
    /// Create a switch; returns its node id. \p kind names its role in outputs
    /// (links.csv): "switch", "leaf", "spine", ...
    uint32_t AddSwitch(const std::string& kind = "switch");
    /// Join two nodes with a full-duplex link. A host takes exactly one link.
    void AddLink(uint32_t a, uint32_t b, DataRate rate, Time delay);
    /// Compute routes, headroom and ECN thresholds. Call once, after the last link.
    void Finalize();

    /// Index of the \p nth link between nodes \p a and \p b (parallel links), or -1.
    int32_t FindLink(uint32_t a, uint32_t b, uint32_t nth = 0) const;
    /// Take a link down or up (both ends) and recompute every route; a down link carries
    /// nothing and frames queued for it are dropped.
    void SetLinkUp(uint32_t link, bool up);
    /// Change a link's rate (both ends), e.g. a degraded optic.
    void SetLinkRate(uint32_t link, DataRate rate);
    /// Frames dropped because of link events (queued on, or in flight over, down links).
    uint64_t GetLinkDownDrops() const;
    /// Bytes sent on each ToR uplink (a leaf port towards a spine), by leaf: the basis
    /// of uplink-imbalance measurements. Empty when the fabric has no leaves.
    std::vector<std::vector<uint64_t>> GetUplinkTxBytes() const;

    /// Host index (position in GetHosts()) of node \p node, or kNotAHost.
    uint32_t GetHostIndex(uint32_t node) const;
    static constexpr uint32_t kNotAHost = 0xffffffff;

    const std::vector<uint32_t>& GetHosts() const;
    const std::vector<uint32_t>& GetSwitches() const;
    /**
     * The hosts this process builds and steps (all of them but over MPI ranks), whose
     * GetNic is not null. Over ranks, another rank's node is a Node only (ns-3 numbers
     * nodes alike on every rank); its NIC or switch, and its links to other ranks'
     * nodes, are not built here.
     */
    const std::vector<uint32_t>& GetLocalHosts() const;
    /// The switches this process builds and steps (see GetLocalHosts).
    const std::vector<uint32_t>& GetLocalSwitches() const;
    /**
     * Number the random streams of every NIC (RdmaNic::AssignStreams), host by host from
     * \p stream, as if every NIC were built here: another rank's NIC skips the streams it
     * takes there, so that a NIC draws the same values over any number of ranks.
     * \return the streams numbered (used or skipped)
     */
    int64_t AssignNicStreams(int64_t stream) const;
    /// As AssignNicStreams, for every switch's MMU and load balancer.
    int64_t AssignSwitchStreams(int64_t stream) const;
    /// As AssignNicStreams, for every switch's PINT rounding (numbered last of all, so
    /// that the streams of runs without PINT are those they always were).
    int64_t AssignPintStreams(int64_t stream) const;
    bool IsHost(uint32_t node) const;
    Ptr<Node> GetNode(uint32_t node) const;
    /// The NIC of host \p host (node id); null if another rank steps it.
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    /// The switch object of switch \p sw (node id); null if another rank steps it.
    Ptr<RdmaSwitch> GetSwitch(uint32_t sw) const;
    uint32_t GetNLinks() const;
    /// Role of a node: "host", or the kind given to AddSwitch.
    const std::string& GetNodeKind(uint32_t node) const;
    /// The switch host \p host (node id) is linked to: its ToR.
    uint32_t GetAttachedSwitch(uint32_t host) const;
    /// Bit rate of the link of host \p host (node id).
    uint64_t GetHostBitRate(uint32_t host) const;
    /// Sum of the bit rates of switch \p sw's links to other switches: for a ToR, its
    /// uplink capacity.
    uint64_t GetSwitchUplinkBitRate(uint32_t sw) const;
    /// Write links.csv: one row per port (node,port,node_kind,peer_node,peer_port,
    /// peer_kind,rate_bps,delay_ns).
    void WriteLinks(std::ostream& out) const;

    /// Links from host \p src to host \p dst along one shortest path.
    std::vector<Hop> GetPath(uint32_t src, uint32_t dst) const;
    /// Number of links of GetPath(src, dst), without building it.
    uint32_t GetPathLength(uint32_t src, uint32_t dst) const;
    /// Round trip of one MTU data packet and its ACK on the unloaded path: the two host
    /// links' shares plus the switch segment's, kept per ToR pair (integer time steps).
    Time GetBaseRtt(uint32_t src, uint32_t dst) const;
    /**
     * Path shapes held: switch segments (with their base-RTT share) between the ToR
     * pairs of the paths asked for so far. Finalize computes none; each distinct ToR
     * pair asked for adds one, and a route change (SetLinkUp) drops them all.
     */
    size_t GetNPathShapes() const;
    /// Largest base RTT over all host pairs (computed once, at Finalize).
    Time GetMaxBaseRtt() const;
    /// Bandwidth-delay product of the path (bytes): source rate x base RTT.
    uint64_t GetBdp(uint32_t src, uint32_t dst) const;
    /**
     * Completion time of a \p bytes message alone on the path: its wire bytes at the
     * bottleneck rate, the last packet store-and-forwarded through the other links, the
     * propagation delays, and the ACK's way back. Rates are the links' full line rates
     * as built: a link slowed by a link event does not raise the ideal (routing may well
     * avoid it), so the ideal is a lower bound of the actual completion time.
     */
    Time GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes) const;
    /// Payload bytes per packet of the NICs.
    uint32_t GetMtu() const;

    /**
     * Split the fabric over \p ranks ranks of a distributed run (ns-3's MPI module):
     * each node's system id. Racks go in contiguous blocks (a host stays with its ToR),
     * every other switch joins the rank most of its links lead to (ties: the rank with
     * the fewest switches). Call after the last AddLink, before Finalize, with the same
     * fabric on every rank: Finalize then builds this rank's nodes only, and the links
     * between ranks carry their frames with MPI (RdmaRemoteChannel, RdmaRanks::Listen).
     * \return "" or why the fabric cannot be split so: more ranks than racks, or a link
     * between ranks without delay (its delay is the ranks' lookahead)
     */
    std::string Partition(uint32_t ranks);
    /**
     * Split the fabric as \p rankOfNode says: the rank of every node, by node id from the
     * first node of this topology (before Finalize, as Partition(ranks)).
     * \return "" or why it cannot be (CheckPartition, or a link between ranks without
     * delay)
     */
    std::string Partition(uint32_t ranks, const std::vector<uint32_t>& rankOfNode);
    /**
     * Whether \p rankOfNode is a split over \p ranks ranks: one entry per node, each
     * below \p ranks, a host with its ToR's rank, every rank with a host.
     * \return "" or what is wrong, naming the node
     */
    std::string CheckPartition(uint32_t ranks, const std::vector<uint32_t>& rankOfNode);
    /// The rank of node \p node (0 before Partition).
    uint32_t GetRank(uint32_t node) const;
    /// Whether this process steps node \p node: its rank is RdmaRanks::Rank().
    bool IsLocal(uint32_t node) const;
    /// Links whose ends are on different ranks.
    uint32_t GetNCutLinks() const;

  private:
    struct Link
    {
        uint32_t a;
        uint32_t b;
        uint32_t portA; ///< device index on a (switch port index if a switch)
        uint32_t portB;
        uint64_t bitRate;   ///< now (link events may change it)
        uint64_t builtRate; ///< as built: the full line rate
        Time delay;
        bool up = true;
    };

    /**
     * The links of the path from host \p src to host \p dst: the source's host link,
     * the switch segment between their anchors (cached), the destination's host link.
     */
    /// The switch links between two anchors, and their base-RTT share once asked for.
    struct SegmentInfo
    {
        static constexpr int64_t kUnknown = -1;

        std::vector<uint32_t> links;
        int64_t rttSteps = kUnknown; ///< sum of LinkRttSteps; reset when a rate changes
    };

    struct PathView
    {
        uint32_t head = 0;          ///< link index of the first hop
        SegmentInfo* mid = nullptr; ///< the links between (may be null)
        uint32_t tail = 0;          ///< link index of the last hop
        uint32_t size = 0;          ///< links in all

        uint32_t operator[](uint32_t i) const
        {
            return i == 0 ? head : (i + 1 == size ? tail : mid->links[i - 1]);
        }
    };

    uint32_t Local(uint32_t node) const;
    /// Partition: each node's rank, racks in contiguous blocks (m_rankOf).
    void AssignRanks(uint32_t ranks);
    /// Partition: system ids, lookahead and cut links from m_rankOf; "" or why not.
    std::string ApplyPartition();
    /// AddHost and AddSwitch: the Node and its bookkeeping.
    uint32_t AddNode(bool host, const std::string& kind);
    void CheckHostsLinked() const;
    /// Finalize: the NICs and switches of this rank's nodes.
    void BuildNodes();
    /// Finalize: the devices and channels of links with an end on this rank.
    void BuildLinks();
    /// The device of \p node's port \p port; null if another rank steps the node.
    Ptr<RdmaNetDevice> Device(uint32_t node, uint32_t port) const;
    /// Host indices, host links and anchors (the node each host is linked to).
    void IndexHosts();
    /// Per anchor: BFS distances of the switches; the ECMP routes of every switch.
    void ComputeRoutes();
    /// The largest base RTT over all host pairs, from per-anchor distances.
    Time ComputeMaxBaseRtt() const;
    void ConfigureSwitchPorts();
    PathView Path(uint32_t src, uint32_t dst) const;
    /// Links from anchor \p from to anchor \p to along the first shortest path (cached).
    SegmentInfo& Segment(uint32_t from, uint32_t to) const;
    /// The next link from switch \p u (local index) towards anchor \p a, or kNotAHost.
    uint32_t NextLink(uint32_t u, uint32_t a) const;
    /// Base-RTT share of one link (time steps): data and ACK serialization, 2 delays.
    int64_t LinkRttSteps(uint32_t link) const;

    ObjectFactory m_deviceFactory;
    ObjectFactory m_nicFactory;
    ObjectFactory m_switchFactory;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_lbFactory;
    ObjectFactory m_bufferPolicyFactory;
    ObjectFactory m_ccFactory;
    ObjectFactory m_recoveryFactory;
    Ptr<LossRecovery> m_recovery; ///< created from m_recoveryFactory at the first AddHost
    bool m_saltPerSwitch;
    uint32_t m_saltSeed;
    bool m_finalized;
    bool m_partitioned = false;

    NodeContainer m_nodes;
    uint32_t m_firstId;
    std::vector<bool> m_isHost;
    std::vector<std::string> m_kinds;
    std::vector<uint32_t> m_hosts;
    std::vector<uint32_t> m_switches;
    std::vector<uint32_t> m_localHosts;
    std::vector<uint32_t> m_localSwitches;
    std::vector<Ptr<RdmaNic>> m_nics;          ///< by local index (null: another rank's)
    std::vector<Ptr<RdmaSwitch>> m_switchObjs; ///< by local index
    std::vector<Link> m_links;
    /// Per local node: per port, the link index.
    std::vector<std::vector<uint32_t>> m_portLinks;
    std::vector<uint32_t> m_hostIndex;   ///< per local node: host index or kNotAHost
    std::vector<uint32_t> m_switchIndex; ///< per local node: switch index or kNotAHost
    std::vector<uint32_t> m_hostLink;    ///< per host index: its link
    std::vector<uint32_t> m_hostAnchor;  ///< per host index: anchor index
    /// Anchors: the nodes hosts are linked to (ToRs), by local index, and their hosts.
    std::vector<uint32_t> m_anchors;
    std::vector<std::vector<uint32_t>> m_anchorHosts;
    /// Per anchor: hop distance of every switch (switch index) to it, hosts not forwarding.
    /// A host's distances are its anchor's plus one, so no table is kept per host.
    std::vector<std::vector<uint32_t>> m_dist;
    /// Switch segments of paths, by (source anchor, destination anchor); cleared when
    /// the routes change, their base-RTT shares reset when a link rate changes.
    mutable std::unordered_map<uint64_t, SegmentInfo> m_segments;
    Time m_maxBaseRtt;
    std::vector<uint32_t> m_rankOf; ///< per local node: its rank (empty: all on rank 0)
    uint32_t m_cutLinks = 0;        ///< links between ranks
};

} // namespace ns3

#endif /* RDMA_TOPOLOGY_H */
