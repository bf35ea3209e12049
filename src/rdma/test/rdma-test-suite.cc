/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The module's GoogleTest cases as ns-3 TestSuites, for ./test.py in an ns-3 source tree
 * (contrib/rdma): one copy of every test, two runners. `./test.py -s rdma` runs the
 * suite "rdma": one TestCase per GoogleTest test suite linked into the module's test
 * library (unit/ and the in-process system/ tests; see the module's CMakeLists.txt), run
 * in-process with RUN_ALL_TESTS and the filter "Suite.*". A GoogleTest failure prints
 * its message and fails the TestCase, naming the failed test.
 */
#include "ns3/test.h"

#include <gtest/gtest.h>
#include <string>

namespace ns3
{
namespace
{

/// The GoogleTest tests of one GoogleTest test suite, as one ns-3 TestCase.
class GoogleTestCase : public TestCase
{
  public:
    explicit GoogleTestCase(const std::string& suite)
        : TestCase(CaseName(suite)),
          m_suite(suite)
    {
    }

    /// \p suite as an ns-3 TestCase name, which may not contain any of "/\|? (a
    /// parameterized GoogleTest suite is named "Instance/Suite").
    static std::string CaseName(std::string suite)
    {
        for (char& c : suite)
        {
            c = std::string("\"/\\|?").find(c) == std::string::npos ? c : '-';
        }
        return suite;
    }

  private:
    void DoRun() override
    {
        ::testing::GTEST_FLAG(filter) = m_suite + ".*";
        const int rc = RUN_ALL_TESTS();
        const ::testing::UnitTest& all = *::testing::UnitTest::GetInstance();
        int ran = 0;
        for (int i = 0; i < all.total_test_suite_count(); ++i)
        {
            const ::testing::TestSuite& ts = *all.GetTestSuite(i);
            if (ts.name() != m_suite)
            {
                continue;
            }
            ran += ts.test_to_run_count();
            for (int j = 0; j < ts.total_test_count(); ++j)
            {
                const ::testing::TestInfo& t = *ts.GetTestInfo(j);
                NS_TEST_EXPECT_MSG_EQ(t.result()->Failed(),
                                      false,
                                      "GoogleTest " << m_suite << "." << t.name()
                                                    << " failed (its messages are above)");
            }
        }
        NS_TEST_EXPECT_MSG_GT(ran, 0, "no GoogleTest test ran for " << m_suite);
        NS_TEST_EXPECT_MSG_EQ(rc, 0, "RUN_ALL_TESTS for " << m_suite);
    }

    std::string m_suite;
};

/// The suite "rdma": its TestCases are made when it runs, once every GoogleTest test has
/// registered itself (at static initialization, in any order of the library's files).
class RdmaTestSuite : public TestSuite
{
  public:
    RdmaTestSuite()
        : TestSuite("rdma")
    {
    }

  private:
    void DoSetup() override
    {
        if (m_initialized)
        {
            return;
        }
        m_initialized = true;
        int argc = 1;
        char name[] = "rdma";
        char* argv[] = {name, nullptr};
        ::testing::InitGoogleTest(&argc, argv);
        const ::testing::UnitTest& all = *::testing::UnitTest::GetInstance();
        for (int i = 0; i < all.total_test_suite_count(); ++i)
        {
            AddTestCase(new GoogleTestCase(all.GetTestSuite(i)->name()));
            ++m_cases;
        }
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_GT(m_cases, 0, "no GoogleTest test is linked into the suite");
    }

    bool m_initialized = false;
    int m_cases = 0;
};

RdmaTestSuite g_rdmaTestSuite; ///< registers the suite "rdma"

} // namespace
} // namespace ns3
