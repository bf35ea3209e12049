/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-run: run one scenario file and write its results.
 *
 *   rdma-run SCENARIO.json --out DIR [--set KEY=VALUE ...] [--quiet]
 *   rdma-run --list-keys          (the scenario schema, as Markdown)
 *   rdma-run --list-keys --json   (the same keys as JSON, for tools)
 *
 * Exit codes: 0 done, 2 bad input (nothing written), 1 internal failure.
 */
#include "ns3/rdma-module.h"

#include <boost/program_options.hpp>
#include <iostream>

namespace po = boost::program_options;
using namespace ns3;

namespace
{
/// Longest error message printed (a 5,000-character path or a binary line is cut).
constexpr std::size_t kMaxMessage = 600;

/// \p text as one printable line: control and non-ASCII bytes (a binary input file's
/// content quoted in an error) become '?', and it is cut at kMaxMessage characters.
std::string
OneLine(const std::string& text)
{
    std::string out;
    for (const char c : text.substr(0, kMaxMessage))
    {
        const auto u = static_cast<unsigned char>(c);
        out += (u >= 0x20 && u < 0x7f) ? c : '?';
    }
    return text.size() > kMaxMessage ? out + "..." : out;
}
} // namespace

int
main(int argc, char* argv[])
{
    po::options_description opts("rdma-run options");
    opts.add_options()("help,h",
                       "show this help")("out,o",
                                         po::value<std::string>(),
                                         "output folder (replaced if it holds an earlier run)")(
        "set,s",
        po::value<std::vector<std::string>>()->composing(),
        "override a scenario key: KEY=VALUE (repeatable)")("quiet,q", "no progress output")(
        "list-keys",
        "print every scenario key (Markdown) and exit")("json",
                                                        "with --list-keys: print the keys as JSON");
    po::options_description hidden;
    hidden.add_options()("scenario", po::value<std::string>(), "scenario file");
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description pos;
    pos.add("scenario", 1);

    po::variables_map vm;
    try
    {
        po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
        po::notify(vm);
    }
    catch (const po::error& e)
    {
        std::cerr << "rdma-run: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help"))
    {
        std::cout << "usage: rdma-run SCENARIO.json --out DIR [--set KEY=VALUE ...] [--quiet]\n"
                  << opts;
        return 0;
    }
    if (vm.count("json") && !vm.count("list-keys"))
    {
        std::cerr << "rdma-run: --json goes with --list-keys\n";
        return 2;
    }
    if (vm.count("list-keys"))
    {
        if (vm.count("json"))
        {
            std::cout << ScenarioSchema::KeysJson().dump(2) << "\n";
        }
        else
        {
            std::cout << ScenarioSchema::Markdown();
        }
        return 0;
    }
    if (!vm.count("scenario") || !vm.count("out"))
    {
        std::cerr << "rdma-run: usage: rdma-run SCENARIO.json --out DIR [--set KEY=VALUE ...]\n";
        return 2;
    }
    const std::vector<std::string> overrides =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    try
    {
        nlohmann::json scenario = ScenarioRunner::Load(vm["scenario"].as<std::string>(), overrides);
        RunOutput::CheckTarget(vm["out"].as<std::string>());
        ScenarioRunner runner(scenario);
        runner.Prepare();
        runner.Run(vm["out"].as<std::string>(), vm.count("quiet") > 0);
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "rdma-run: error: " << OneLine(e.what()) << "\n";
        return 2;
    }
    catch (const std::exception& e)
    {
        std::cerr << "rdma-run: internal error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
