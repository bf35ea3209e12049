/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns-3's test-runner (utils/test-runner.cc of an ns-3 tree) for a build against an
 * installed ns-3: runs the ns-3 TestSuites linked in (the module's suite "rdma").
 *   rdma-test-runner --list | --suite=rdma [--verbose]
 */
#include "ns3/test.h"

int
main(int argc, char* argv[])
{
    return ns3::TestRunner::Run(argc, argv);
}
