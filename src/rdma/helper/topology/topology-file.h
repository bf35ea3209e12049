/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_TOPOLOGY_FILE_H
#define RDMA_TOPOLOGY_FILE_H

#include "ns3/rdma-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * A fabric read from a file: hosts, switches and links of any rate and delay. Two
 * formats:
 *
 * - the module's own, line-oriented, names with a letter and an index, units spelled out:
 *   \code
 *   # comment
 *   hosts 16               # h0 .. h15, the scenario's host indices
 *   switches 2 leaf        # s0, s1 (kind optional, default "switch"; repeatable)
 *   switches 1 spine       # s2
 *   link h0 s0 100Gbps 1us # rate: bps .. Tbps; delay: ns, us, ms, s
 *   link s0 s2 400Gbps 500ns
 *   \endcode
 * - the HPCC simulator's topology.txt: a line `nodes switches links`, a line with the
 *   switch node ids, then one link per line `a b rate delay error_rate` (e.g.
 *   `0 320 100Gbps 1000ns 0`). Hosts are the other node ids, host index = rank of the
 *   id among them. A non-zero error rate is refused (random loss is not modelled).
 *
 * Every host has exactly one link and every host must reach every other one. Any error
 * throws ScenarioError naming file:line.
 */
class TopologyFile
{
  public:
    struct Link
    {
        uint32_t a; ///< node: 0..hosts-1 hosts, then switches
        uint32_t b;
        uint64_t bitRate;
        int64_t delayNs;
    };

    /// The counts of a topology file, as its header and lines give them.
    struct Size
    {
        double hosts = 0;
        double switches = 0;
        double links = 0;
    };

    /**
     * The counts of \p path (\p hpcc: the HPCC format) without reading it into a fabric:
     * the HPCC format's first line, or the module's 'hosts' and 'switches' lines and its
     * number of 'link' lines. Zero counts if the file cannot be opened, and whatever the
     * lines give if it is malformed (ReadRdma and ReadHpcc report that): the counts size
     * the fabric before it is checked.
     */
    static Size Count(const std::string& path, bool hpcc);

    static TopologyFile ReadRdma(const std::string& path);
    static TopologyFile ReadHpcc(const std::string& path);

    uint32_t Hosts() const;
    /// The host index of each node id of the source file (-1 for switches); identity
    /// for the module's format.
    const std::vector<int64_t>& HostIndexOfFileNode() const;
    /// Add the nodes (hosts first, then switches in file order) and links to \p topo.
    void Build(RdmaTopology& topo) const;
    /// Rack (index of the switch it hangs from) of every host.
    std::vector<uint32_t> RackOf() const;
    /// Per rack: the bit rate of its switch's links to other switches.
    std::vector<double> RackUplinkBitRate() const;
    /// Per host: its link's bit rate.
    std::vector<double> HostBitRate() const;

  private:
    /// Links to switches are read before the hosts are all known: their switch end is
    /// recorded as (switch index | kSwitchFlag) and renumbered at the end of ReadRdma.
    static constexpr uint32_t kSwitchFlag = 1u << 31;

    /// A node of a link line of the module's format ("h3": a host index, "s1": a switch
    /// index | kSwitchFlag). Throws ScenarioError naming \p where.
    uint32_t RdmaNode(const std::string& name, const std::string& where, bool haveHosts) const;
    /// Add the link of a 'link A B RATE DELAY' line (fields \p f). Throws ScenarioError.
    void AddRdmaLink(const std::vector<std::string>& f,
                     const std::string& text,
                     const std::string& where,
                     bool haveHosts);
    /// The switch (node) each host hangs from.
    std::vector<uint32_t> HostSwitch() const;
    /// One link per host, every host reachable. Throws ScenarioError.
    void Check(const std::string& path, const std::vector<uint32_t>& linkLines) const;

    uint32_t m_hosts = 0;
    std::vector<std::string> m_switchKinds;
    std::vector<Link> m_links;
    std::vector<int64_t> m_hostIndexOfFileNode;
};

} // namespace ns3

#endif /* RDMA_TOPOLOGY_FILE_H */
