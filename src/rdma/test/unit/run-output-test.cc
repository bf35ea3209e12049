/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * RunOutput: a run's folder appears whole or not at all, and only with CSV files whose
 * rows a run over ranks could merge (every one declared by an OutputFile).
 */
#include "ns3/run-output.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace ns3
{
namespace
{

namespace fs = std::filesystem;

/// A folder under /tmp that does not exist yet.
std::string
FreshDir()
{
    static int n = 0;
    const std::string dir =
        "/tmp/rdma-run-output-test-" + std::to_string(::getpid()) + "-" + std::to_string(++n);
    fs::remove_all(dir);
    return dir;
}

TEST(RunOutput, CommitMovesTheFolderInOnePiece)
{
    const std::string dir = FreshDir();
    {
        RunOutput out(dir);
        out.Stream("fct.csv") << "flow_id\n1\n";
        out.WriteFile("summary.json", "{}\n");
        EXPECT_FALSE(fs::exists(dir)); // nothing visible before the commit
        out.Commit();
    }
    std::ifstream fct(dir + "/fct.csv");
    std::string header;
    std::getline(fct, header);
    EXPECT_EQ(header, "flow_id");
    EXPECT_TRUE(fs::exists(dir + "/summary.json"));
    fs::remove_all(dir);
}

TEST(RunOutput, ACsvNoOutputFileDeclaresIsRefusedAndNothingIsWritten)
{
    // A serial run checks what a run over ranks needs: a CSV with no declaration would
    // lose every rank's rows but rank 0's there, so it is refused here too, by name.
    const std::string dir = FreshDir();
    {
        RunOutput out(dir);
        out.Stream("fct.csv") << "flow_id\n1\n";
        out.Stream("not-declared-anywhere.csv") << "x\n1\n";
        out.WriteFile("summary.json", "{}\n");
        try
        {
            out.Commit();
            ADD_FAILURE() << "an undeclared CSV was committed";
        }
        catch (const std::logic_error& e)
        {
            EXPECT_NE(std::string(e.what()).find("not-declared-anywhere.csv"), std::string::npos)
                << e.what();
        }
    }
    EXPECT_FALSE(fs::exists(dir)); // no half-written output: the staging folder went away
}

} // namespace
} // namespace ns3
