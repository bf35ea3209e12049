/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SCENARIO_ERROR_H
#define RDMA_SCENARIO_ERROR_H

#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup rdma
 * Bad user input (scenario file, --set override, flow list). The message names the file
 * (and line), the key and the value; the runner prints it and exits with code 2 before
 * anything is written.
 */
class ScenarioError : public std::runtime_error
{
  public:
    explicit ScenarioError(const std::string& message)
        : std::runtime_error(message)
    {
    }
};

} // namespace ns3

#endif /* RDMA_SCENARIO_ERROR_H */
