/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/input-fields.h"
#include "ns3/scenario-error.h"
#include "ns3/topology-file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace ns3
{

namespace
{
/// The first word of \p line and the number after it (0 if none).
std::string
Word(const std::string& line, double& number)
{
    std::istringstream in(line);
    std::string word;
    number = 0;
    in >> word >> number;
    return word;
}
} // namespace

TopologyFile::Size
TopologyFile::Count(const std::string& path, bool hpcc)
{
    Size size;
    if (path.empty())
    {
        return size;
    }
    std::ifstream in;
    try
    {
        in = inputfields::OpenInputFile(path, "topology file");
    }
    catch (const ScenarioError&)
    {
        return size;
    }
    std::string line;
    while (std::getline(in, line))
    {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#')
        {
            continue;
        }
        if (hpcc)
        {
            // "nodes switches links"
            std::istringstream head(line);
            double nodes = 0;
            head >> nodes >> size.switches >> size.links;
            size.hosts = std::max(0.0, nodes - size.switches);
            return size;
        }
        if (line.compare(first, 5, "link ") == 0 || line.compare(first, 5, "link\t") == 0)
        {
            ++size.links; // most lines: counted without parsing them
            continue;
        }
        double n = 0;
        const std::string word = Word(line.substr(first), n);
        if (word == "hosts")
        {
            size.hosts = n;
        }
        else if (word == "switches")
        {
            size.switches += n;
        }
    }
    return size;
}

} // namespace ns3
