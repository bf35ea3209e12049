/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Every GoogleTest test of the module starts and ends with a clean ns-3, whatever ran
 * before it: no simulator alive (Simulator::Destroy, which also empties the NodeList),
 * and every attribute default and global value (SimulatorImplementationType, RngSeed,
 * RngRun, ...) back to what it was at program start (Config::Reset). One listener, linked
 * into every test binary (and into the ns-3 tree's test library), instead of a fixture
 * base class per test: a test written without one is still covered, and a test that
 * fails half-way, before its own clean-up, does not leak into the next.
 *
 * Why: a test that leaves a DefaultSimulatorImpl alive makes the next one that binds
 * RdmaSimulatorImpl configure the wrong implementation ("Attribute name=WarmNext does
 * not exist"), in one order of the tests and not in another. The repository's build runs
 * every test binary shuffled as well (test/CMakeLists.txt), so such a bug shows at once.
 */
#include "ns3/config.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

namespace
{

/// Cleans ns-3's process-wide state before each test's fixture is built and after it is
/// destroyed (GoogleTest calls OnTestStart before and OnTestEnd after both).
class CleanSimulator : public ::testing::EmptyTestEventListener
{
  public:
    void OnTestStart(const ::testing::TestInfo& /* test */) override
    {
        Clean();
    }

    void OnTestEnd(const ::testing::TestInfo& /* test */) override
    {
        Clean();
    }

  private:
    static void Clean()
    {
        ns3::Simulator::Destroy();
        ns3::Config::Reset();
    }
};

/// Installed while the binary's static objects are built, before main() (GoogleTest's
/// main or the ns-3 test runner's) runs any test; GoogleTest owns and deletes it.
const bool kInstalled = [] {
    ::testing::UnitTest::GetInstance()->listeners().Append(new CleanSimulator);
    return true;
}();

} // namespace
