/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-ranks-check: one leaf-spine run, serial or split over the ranks of ns-3's MPI
 * module, writing every completed flow, so that a distributed run can be compared
 * flow by flow with the serial one (test/mpi_ranks_test.sh).
 *
 *   rdma-ranks-check --out PREFIX                       serial (ns-3's default simulator)
 *   mpirun -np N rdma-ranks-check --ranks [--engine null] --out PREFIX
 *
 * The fabric: 4 leaves of 4 hosts, 2 spines, 100 Gb/s links of 1 us, PFC and DCQCN.
 * The traffic: hosts 4-15 send 200 KB each to host 0 (a 12:1 incast across the
 * spines, paused by PFC), and every host 1-15 sends 100 KB to host (i + 5) mod 16.
 * Each rank writes PREFIX.rankK.csv (PREFIX.csv serially): flow_id,src,dst,bytes,
 * start_ns,end_ns of the flows its hosts sent, and prints the frames its switches
 * dropped.
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <fstream>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    bool ranks = false;
    std::string engine = "granted";
    std::string out;
    CommandLine cmd(__FILE__);
    cmd.AddValue("ranks", "split the run over the MPI ranks (run under mpirun)", ranks);
    cmd.AddValue("engine", "with --ranks: granted (time windows) or null (null messages)", engine);
    cmd.AddValue("out", "prefix of the output file(s)", out);
    cmd.Parse(argc, argv);
    if (out.empty() || (engine != "granted" && engine != "null"))
    {
        std::cerr << "rdma-ranks-check: usage: [--ranks [--engine granted|null]] --out PREFIX\n";
        return 2;
    }
    if (ranks && !RdmaRanks::Available())
    {
        std::cerr << "rdma-ranks-check: --ranks needs the MPI build (./rdma setup --mpi)\n";
        return 2;
    }
    if (ranks)
    {
        RdmaRanks::Enable(&argc,
                          &argv,
                          engine == "null" ? "ns3::NullMessageSimulatorImpl"
                                           : "ns3::DistributedSimulatorImpl");
    }

    RdmaTopology topo;
    topo.SetCongestionControl(ObjectFactory("ns3::Dcqcn"));
    topo.SetMmuAttribute("PfcEnabled", BooleanValue(true));
    LeafSpineHelper ls;
    ls.leaves = 4;
    ls.spines = 2;
    ls.hostsPerLeaf = 4;
    ls.Build(topo);
    if (ranks)
    {
        const std::string why = topo.Partition(RdmaRanks::Size());
        if (!why.empty())
        {
            std::cerr << "rdma-ranks-check: " << why << "\n";
            RdmaRanks::Disable();
            return 2;
        }
    }
    topo.Finalize();

    TrafficDriver driver(topo);
    for (uint32_t s = 4; s < 16; ++s)
    {
        FlowSpec f;
        f.src = s;
        f.dst = 0;
        f.bytes = 200000;
        driver.AddFlow(f);
    }
    for (uint32_t s = 1; s < 16; ++s)
    {
        FlowSpec f;
        f.src = s;
        f.dst = (s + 5) % 16;
        f.bytes = 100000;
        f.start = MicroSeconds(10);
        driver.AddFlow(f);
    }
    const std::string file =
        out + (ranks ? ".rank" + std::to_string(RdmaRanks::Rank()) : std::string()) + ".csv";
    std::ofstream csv(file);
    csv << "flow_id,src,dst,bytes,start_ns,end_ns\n";
    driver.SetRecordCallback(
        Callback<void, const TrafficDriver::Record&>([&csv](const TrafficDriver::Record& r) {
            csv << r.flowId << ',' << r.src << ',' << r.dst << ',' << r.bytes << ','
                << r.start.GetNanoSeconds() << ',' << r.end.GetNanoSeconds() << '\n';
        }));
    driver.Start();
    Simulator::Stop(MilliSeconds(20));
    Simulator::Run();

    uint64_t drops = 0;
    for (uint32_t sw : topo.GetLocalSwitches())
    {
        for (uint32_t p = 0; p < topo.GetSwitch(sw)->GetNPorts(); ++p)
        {
            drops += topo.GetSwitch(sw)->GetPortStats(p).drops;
        }
    }
    std::cout << "rank " << RdmaRanks::Rank() << " of " << RdmaRanks::Size() << ": "
              << driver.GetFlowsCompleted() << " flows completed, " << drops << " drops, "
              << topo.GetNCutLinks() << " links between ranks\n";
    Simulator::Destroy();
    RdmaRanks::Disable();
    return 0;
}
