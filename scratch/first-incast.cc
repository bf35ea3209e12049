/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A starting point for your own experiment: a 4:1 incast on a small leaf-spine, built
 * with the C++ API instead of a scenario file. Prints each flow's completion time.
 *
 *   ./build/bin/first-incast --cc=none --kminKb=100
 */
#include "ns3/core-module.h"
#include "ns3/rdma-module.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string ccName = "dcqcn";
    uint32_t kminKb = 100;
    uint32_t messageKb = 512;
    CommandLine cmd(__FILE__);
    cmd.AddValue("cc", "Congestion control: dcqcn or none", ccName);
    cmd.AddValue("kminKb", "ECN Kmin at 100G (KiB)", kminKb);
    cmd.AddValue("messageKb", "Message size per sender (KiB)", messageKb);
    cmd.Parse(argc, argv);

    RdmaTopology topo;
    ObjectFactory cc;
    cc.SetTypeId(ccName == "none" ? NoCongestionControl::GetTypeId() : Dcqcn::GetTypeId());
    topo.SetCongestionControl(cc);
    topo.SetMmuAttribute("Kmin", UintegerValue(kminKb * 1024));
    topo.SetMmuAttribute("Kmax", UintegerValue(4 * kminKb * 1024));

    LeafSpineHelper ls;
    ls.leaves = 2;
    ls.spines = 2;
    ls.hostsPerLeaf = 4;
    ls.Build(topo);
    topo.Finalize();

    TrafficDriver traffic(topo);
    for (uint32_t src = 4; src < 8; ++src) // the hosts of the second leaf
    {
        FlowSpec f;
        f.src = src;
        f.dst = 0;
        f.bytes = uint64_t(messageKb) * 1024;
        traffic.AddFlow(f);
    }
    traffic.SetRecordCallback(
        Callback<void, const TrafficDriver::Record&>([](const TrafficDriver::Record& r) {
            std::cout << "flow " << r.flowId << " " << r.src << "->" << r.dst << " " << r.bytes
                      << " B in " << (r.end - r.start).GetMicroSeconds() << " us (ideal "
                      << r.ideal.GetMicroSeconds() << " us)\n";
        }));
    traffic.SetDoneCallback(Callback<void>([]() { Simulator::Stop(); }));
    traffic.Start();
    Simulator::Stop(Seconds(1));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
