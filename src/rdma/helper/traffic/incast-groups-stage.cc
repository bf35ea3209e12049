/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/incast-generator.h"
#include "ns3/incast-group-reader.h"
#include "ns3/input-fields.h"
#include "ns3/random-variable-stream.h"
#include "ns3/scenario-access.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-keys-util.h"
#include "ns3/traffic-stage.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * traffic.incast_groups_csv: incast groups that join and leave a run (IncastGroupReader),
 * relative to the scenario file; read in Prepare, so its errors come before any output.
 * Owns the key traffic.incast_groups_csv and writes incast_groups into summary.json.
 */
class IncastGroupsStage : public TrafficStage
{
  public:
    /// Make traffic.incast_groups_csv absolute (relative to the scenario \p file).
    void ResolvePaths(nlohmann::json& scenario, const std::string& file) const override;
    /// The file must exist.
    void Check(const nlohmann::json& scenario,
               const std::string& file,
               uint32_t hosts) const override;
    bool Enabled(const nlohmann::json& scenario) const override;
    /// The keys traffic.* of this source.
    std::vector<ScenarioKey> Keys() const override;
    /// Flows and QPs: senders x qps_per_sender of every group.
    void Estimate(const nlohmann::json& scenario, SizeGuard::Estimate& estimate) const override;
    /// Read the groups (errors: file:line, a group in the control class or leaving after
    /// stop_time_ms).
    void Prepare(const nlohmann::json& scenario, uint32_t hosts) override;
    /// Add the groups' flows, one random stream per group, in file order.
    void AddTraffic(const nlohmann::json& scenario,
                    RdmaTopology& topo,
                    TrafficDriver& driver,
                    int64_t& stream) override;
    /// incast_groups: the number of groups (if any).
    void Summarize(nlohmann::json& summary, Time end) const override;

  private:
    std::vector<IncastGenerator> m_groups;
};

using json = nlohmann::json;
using namespace scenario;

namespace
{
// Its order among the sources fixes when it adds its flows (flow ids, streams).
const StageRegistration<TrafficStage, IncastGroupsStage> g_stage(50);
} // namespace

void
IncastGroupsStage::ResolvePaths(json& s, const std::string& file) const
{
    ResolvePathKey(s, "traffic.incast_groups_csv", file);
}

void
IncastGroupsStage::Check(const json& s, const std::string& file, uint32_t /* hosts */) const
{
    CheckFileKey(s, file, "traffic.incast_groups_csv");
}

bool
IncastGroupsStage::Enabled(const json& s) const
{
    return !Str(s, "traffic.incast_groups_csv").empty();
}

void
IncastGroupsStage::Prepare(const json& s, uint32_t hosts)
{
    if (!Enabled(s))
    {
        return;
    }
    const std::string groups = Str(s, "traffic.incast_groups_csv");
    m_groups = IncastGroupReader::Read(groups, hosts, Int(s, "nic.data_priority"));
    for (const IncastGenerator& g : m_groups)
    {
        if (g.priority == Int(s, "nic.control_priority"))
        {
            throw ScenarioError(groups + ": a group uses priority " + std::to_string(g.priority) +
                                ", the control class (nic.control_priority)");
        }
        if (g.until > Us(Num(s, "stop_time_ms") * 1000))
        {
            throw ScenarioError(groups + ": a group leaves at " +
                                std::to_string(g.until.GetMicroSeconds()) +
                                " us, after stop_time_ms");
        }
    }
}

void
IncastGroupsStage::AddTraffic(const json& /* scenario */,
                              RdmaTopology& /* topo */,
                              TrafficDriver& driver,
                              int64_t& stream)
{
    for (const IncastGenerator& g : m_groups)
    {
        Ptr<UniformRandomVariable> rng = CreateObject<UniformRandomVariable>();
        rng->SetStream(stream++);
        for (const FlowSpec& f : g.Generate(rng))
        {
            driver.AddFlow(f);
        }
    }
}

void
IncastGroupsStage::Summarize(json& sum, Time /* end */) const
{
    if (!m_groups.empty())
    {
        sum["incast_groups"] = m_groups.size();
    }
}

std::vector<ScenarioKey>
IncastGroupsStage::Keys() const
{
    using T = ScenarioKey::Type;
    // clang-format off
    return {
        {"traffic.incast_groups_csv", T::STRING, "", 0, 0, {}, "path", "Incast groups that join and leave: CSV with columns receiver,senders,qps_per_sender,join_us,leave_us[,message_bytes,jitter_us,priority] (senders like 1-7 or 1;4;9), relative to the scenario file; empty = none."},
    };
    // clang-format on
}

namespace
{
/// Hosts in a host-set cell such as "1-7" or "1;4;9" (a malformed part counts as one).
double
SetSize(const std::string& cell)
{
    double n = 0;
    std::stringstream ss(cell);
    std::string part;
    while (std::getline(ss, part, ';'))
    {
        const auto dash = part.find('-');
        try
        {
            n += dash == std::string::npos ? 1
                                           : std::max(0.0,
                                                      std::stod(part.substr(dash + 1)) -
                                                          std::stod(part.substr(0, dash)) + 1);
        }
        catch (const std::exception&)
        {
            n += 1;
        }
    }
    return n;
}
} // namespace

void
IncastGroupsStage::Estimate(const json& s, SizeGuard::Estimate& e) const
{
    // senders x qps_per_sender, summed over the rows, without reading the groups (Prepare
    // does, and reports their errors).
    const std::string path = Str(s, "traffic.incast_groups_csv");
    if (path.empty() || SizeGuard::DataLines(path) == 0)
    {
        return;
    }
    std::ifstream in = inputfields::OpenInputFile(path, "incast group list");
    std::string line;
    double qps = 0;
    while (std::getline(in, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#' || line.find("receiver") == first)
        {
            continue;
        }
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, ','))
        {
            cells.push_back(c);
        }
        double q = 1;
        try
        {
            q = cells.size() > 2 ? std::stod(cells[2]) : 1;
        }
        catch (const std::exception&)
        {
        }
        qps += (cells.size() > 1 ? SetSize(cells[1]) : 1) * q;
    }
    e.AddFlows(qps, qps, "traffic.incast_groups_csv");
}

} // namespace ns3
