/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/rdma-mpi.h"

namespace ns3
{

bool
RdmaMpiAvailable()
{
#ifdef NS3_MPI
    return true;
#else
    return false;
#endif
}

} // namespace ns3
