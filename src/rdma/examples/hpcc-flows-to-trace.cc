/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * hpcc-flows-to-trace: convert the HPCC simulator's flow.txt into the module's collective
 * trace CSV (flow_id,release_ns,src,dst,bytes,phase,layer,wait_groups,gap_ns,prio), so an
 * existing experiment can be replayed (traffic.trace.csv) or extended with dependencies.
 *
 *   hpcc-flows-to-trace FLOW.TXT [TOPOLOGY.TXT] > trace.csv
 *
 * With the HPCC topology.txt, node ids become host indices as topology.type hpcc_file
 * numbers them (and src/dst must be hosts); without, node ids are host indices. Flows
 * keep their start time (release_ns), size and priority group; phase "flow", layer 0, no
 * dependencies. (A run can also read flow.txt directly: traffic.hpcc_flow_file.)
 * Exit code 2 and one error line (file:line) on malformed input.
 */
#include "ns3/rdma-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    if (argc < 2 || argc > 3)
    {
        std::cerr << "usage: hpcc-flows-to-trace FLOW.TXT [TOPOLOGY.TXT] > trace.csv\n";
        return 2;
    }
    try
    {
        std::vector<int64_t> hostOfNode;
        uint32_t hosts = 1u << 30; // without a topology, any node id is a host index
        if (argc == 3)
        {
            const TopologyFile topo = TopologyFile::ReadHpcc(argv[2]);
            hostOfNode = topo.HostIndexOfFileNode();
            hosts = topo.Hosts();
        }
        CollectiveTrace trace;
        const uint32_t group = trace.GroupIndex("flow", 0);
        for (const FlowSpec& f : HpccFlowReader::Read(argv[1], hosts, hostOfNode))
        {
            TraceFlow t;
            t.flowId = trace.flows.size();
            t.releaseNs = f.start.GetNanoSeconds();
            t.src = f.src;
            t.dst = f.dst;
            t.bytes = f.bytes;
            t.phase = "flow";
            t.group = group;
            t.priority = f.priority;
            trace.flows.push_back(t);
        }
        trace.Write(std::cout);
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "hpcc-flows-to-trace: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
