/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_MPI_H
#define RDMA_MPI_H

namespace ns3
{

/**
 * \ingroup rdma
 * \brief Whether this build of the module can run distributed under ns-3's MPI.
 *
 * True when the module was compiled with NS3_MPI defined: built inside an ns-3 tree
 * configured with --enable-mpi (./rdma setup --mpi), where the library links ns-3's mpi
 * module and MPI::MPI_CXX. False in every other build, e.g. the out-of-tree one against
 * Debian's libns3-dev, which has no MPI.
 *
 * \return true if this build supports MPI
 */
bool RdmaMpiAvailable();

} // namespace ns3

#endif // RDMA_MPI_H
