/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricStage, packet trimming: the switch.trim.* keys checked and turned into a
 * PacketTrimmer on every switch.
 */
#include "ns3/fabric-stage.h"
#include "ns3/packet-trimmer.h"
#include "ns3/pointer.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/scenario-schema.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

using json = nlohmann::json;
using namespace scenario;

void
FabricStage::CheckTrim(const json& s, const std::string& file)
{
    if (!Bool(s, "switch.trim.enabled"))
    {
        // Set away from its default without trimming, a parameter would be ignored.
        for (const char* key : {"switch.trim.bytes", "switch.trim.priority"})
        {
            if (At(s, key) != ScenarioSchema::Find(key)->defaultValue)
            {
                FailKey(file, s, key, "applies with switch.trim.enabled true only");
            }
        }
        return;
    }
    const uint64_t full = rdmawire::FrameBytes(RdmaPacketType::DATA, Int(s, "nic.mtu_bytes"));
    if (uint64_t(Int(s, "switch.trim.bytes")) >= full)
    {
        FailKey(file,
                s,
                "switch.trim.bytes",
                "must be below a full data frame (" + std::to_string(full) +
                    " bytes at nic.mtu_bytes " + std::to_string(Int(s, "nic.mtu_bytes")) + ")");
    }
}

void
FabricStage::ConfigureTrim(const json& s, RdmaTopology& topo)
{
    if (!Bool(s, "switch.trim.enabled"))
    {
        return;
    }
    const int64_t priority = Int(s, "switch.trim.priority");
    // One trimmer serves every switch: it holds only its settings.
    Ptr<PacketTrimmer> trimmer = CreateObject<PacketTrimmer>();
    trimmer->SetAttribute("TrimmedBytes", UintegerValue(Int(s, "switch.trim.bytes")));
    trimmer->SetAttribute("Priority",
                          UintegerValue(priority >= 0 ? priority : Int(s, "nic.control_priority")));
    topo.SetSwitchAttribute("Trimmer", PointerValue(trimmer));
}

} // namespace ns3
