/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * rdma-run: run one scenario file and write its results.
 *
 *   rdma-run SCENARIO.json --out DIR [--set KEY=VALUE ...] [--quiet] [--strict]
 *            [--keep-partial] [--max-memory-gb G] [--max-output-gb G]
 *   rdma-run SCENARIO.json --check [--set KEY=VALUE ...]   (check and estimate only)
 *   mpirun -np N rdma-run SCENARIO.json --out DIR --ranks N   (one run over N MPI ranks;
 *            ./rdma run SCENARIO.json --out DIR --ranks N writes this line)
 *   rdma-run --list-keys          (the scenario schema, as Markdown)
 *   rdma-run --list-keys --json   (the same keys as JSON, for tools)
 *
 * Exit codes: 0 done, 2 bad input or a scenario too large (nothing written), 3 done but
 * flows unfinished with --strict (results written), 1 internal failure, 128 + N killed
 * by signal N (130 SIGINT, 143 SIGTERM: the partial folder removed, or kept with
 * --keep-partial).
 */
#include "ns3/rdma-module.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <iostream>

namespace po = boost::program_options;
using namespace ns3;

namespace
{
/// Exit code of a run that left flows unfinished, with --strict.
constexpr int kExitUnfinished = 3;

/// Most MPI ranks --ranks takes.
constexpr int kMaxRanks = 65536;

/// Longest error message printed (a 5,000-character path or a binary line is cut).
constexpr std::size_t kMaxMessage = 600;

/// \p text as one printable line: control and non-ASCII bytes (a binary input file's
/// content quoted in an error) become '?', and a text longer than kMaxMessage characters
/// keeps its start and its end (where the reason is), "..." between.
std::string
OneLine(const std::string& text)
{
    const std::string cut =
        text.size() <= kMaxMessage
            ? text
            : text.substr(0, kMaxMessage / 2) + "..." + text.substr(text.size() - kMaxMessage / 2);
    std::string out;
    for (const char c : cut)
    {
        const auto u = static_cast<unsigned char>(c);
        out += (u >= 0x20 && u < 0x7f) ? c : '?';
    }
    return out;
}

/// The command line's options, documented for --help.
po::options_description
Options()
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
                                                        "with --list-keys: print the keys as JSON")(
        "check",
        "check the scenario and print its size estimate; run nothing, write nothing")(
        "strict",
        "exit 3 if flows are unfinished at the end (results are still written)")(
        "keep-partial",
        "on SIGINT/SIGTERM keep the partial folder (DIR.partial-PID, marked INCOMPLETE)")(
        "max-memory-gb",
        po::value<double>(),
        "refuse a scenario estimated to need more memory (default: the available memory)")(
        "max-output-gb",
        po::value<double>(),
        "refuse a run estimated to write more (default: the free disk space)")(
        "ranks",
        po::value<int>(),
        "run over N MPI ranks, under mpirun -np N (./rdma run --ranks N starts it so); "
        "with --check: check that the fabric splits into N");
    return opts;
}

/**
 * Parse the command line into \p vm. Returns -1 to go on, else the exit code: 0 after
 * --help or --list-keys, 2 after a usage error (printed).
 */
int
Parse(int argc, char* argv[], po::variables_map& vm)
{
    const po::options_description opts = Options();
    po::options_description hidden;
    hidden.add_options()("scenario", po::value<std::string>(), "scenario file");
    po::options_description all;
    all.add(opts).add(hidden);
    po::positional_options_description pos;
    pos.add("scenario", 1);
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
        std::cout << (vm.count("json") ? ScenarioSchema::KeysJson().dump(2) + "\n"
                                       : ScenarioSchema::Markdown());
        return 0;
    }
    for (const char* limit : {"max-memory-gb", "max-output-gb"})
    {
        if (vm.count(limit) && !(vm[limit].as<double>() > 0 && vm[limit].as<double>() < 1e9))
        {
            std::cerr << "rdma-run: error: --" << limit << " must be a positive number of GB\n";
            return 2;
        }
    }
    if (vm.count("ranks"))
    {
        const int ranks = vm["ranks"].as<int>();
        if (ranks < 1 || ranks > kMaxRanks)
        {
            std::cerr << "rdma-run: error: --ranks " << ranks << ": must be 1 to " << kMaxRanks
                      << "\n";
            return 2;
        }
        // One rank needs no MPI on the rdma engine: the run over ranks, on one (its
        // partition, end and merge), as a build without MPI can check it.
        if (!RdmaRanks::Available() && !vm.count("check") && ranks > 1)
        {
            std::cerr << "rdma-run: error: --ranks " << ranks
                      << ": this rdma-run is built without ns-3's MPI module; ./rdma setup "
                         "--mpi builds one, and ./rdma run --ranks N runs it\n";
            return 2;
        }
    }
    if (!vm.count("scenario") || (!vm.count("out") && !vm.count("check")))
    {
        std::cerr << "rdma-run: usage: rdma-run SCENARIO.json --out DIR [--set KEY=VALUE ...]\n";
        return 2;
    }
    return -1;
}

/// The MPI rank of this process as its launcher (mpirun, srun) tells it, before MPI
/// starts; 0 when not launched so.
int
LauncherRank()
{
    for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    {
        if (const char* v = std::getenv(var))
        {
            return std::atoi(v);
        }
    }
    return 0;
}

/// --check: the checks that need the built fabric too, and the estimate; nothing runs.
/// \p ranks: the number of MPI ranks to split the fabric into (0: none).
int
CheckOnly(const nlohmann::json& scenario, const std::string& file, uint32_t ranks)
{
    const SizeGuard::Estimate e = ScenarioStages::Estimate(scenario);
    ScenarioRunner checked(scenario);
    checked.SetRanks(ranks);
    checked.SetOrigin(file);
    checked.Prepare();
    checked.CheckFabric();
    std::cout << std::setprecision(3) << file << ": ok; " << std::llround(e.hosts) << " hosts, "
              << std::llround(e.switches) << " switches, " << std::llround(e.links) << " links, "
              << e.qps << " QPs, " << e.flows << " flows; about " << e.MemoryBytes() / 1e9
              << " GB of memory, at most " << e.OutputBytes() / 1e9 << " GB of output\n";
    return 0;
}

/// Run \p scenario into \p out; the exit code (kExitUnfinished: --strict and flows left).
int
RunScenario(const nlohmann::json& scenario,
            const std::string& file,
            const std::string& out,
            const po::variables_map& vm)
{
    RunCleanup::Install(vm.count("keep-partial") > 0);
    ScenarioRunner runner(scenario);
    runner.SetRanks(vm.count("ranks") ? vm["ranks"].as<int>() : 0);
    runner.SetOrigin(file);
    runner.Prepare();
    const nlohmann::json sum = runner.Run(out, vm.count("quiet") > 0);
    const uint64_t unfinished = sum.value("flows_unfinished", uint64_t(0));
    if (vm.count("strict") && unfinished > 0 && RdmaRanks::Rank() == 0)
    {
        std::cerr << "rdma-run: error: " << unfinished << " of " << sum.value("flows_total", 0)
                  << " flows unfinished at " << sum.value("sim_time_s", 0.0) * 1e3
                  << " ms (--strict; results in " << out << ")\n";
        return kExitUnfinished;
    }
    return 0;
}
} // namespace

int
main(int argc, char* argv[])
{
    po::variables_map vm;
    const int parsed = Parse(argc, argv, vm);
    if (parsed >= 0)
    {
        return parsed;
    }
    const std::vector<std::string> overrides =
        vm.count("set") ? vm["set"].as<std::vector<std::string>>() : std::vector<std::string>{};
    const std::string out = vm.count("out") ? vm["out"].as<std::string>() : std::string();
    const auto gb = [&vm](const char* key) {
        return vm.count(key) ? vm[key].as<double>() * 1e9 : 0.0;
    };
    SizeGuard::Limits limits;
    limits.maxMemoryBytes = gb("max-memory-gb");
    limits.maxOutputBytes = gb("max-output-gb");
    limits.outDir = vm.count("check") ? "." : out;
    const uint32_t ranks = vm.count("ranks") ? vm["ranks"].as<int>() : 0;
    // Over ranks every process meets the same errors: rank 0 alone says so.
    const auto say = [ranks](const std::string& line) {
        if (ranks == 0 || (RdmaRanks::Size() > 1 ? RdmaRanks::Rank() : LauncherRank()) == 0)
        {
            std::cerr << line << "\n";
        }
    };
    int code = 0;
    try
    {
        const std::string file = vm["scenario"].as<std::string>();
        // The size guard comes first (in Load, as soon as the keys are resolved): a
        // scenario too large is refused before any check that would count its hosts.
        const nlohmann::json scenario = ScenarioRunner::Load(file, overrides, &limits);
        if (ranks > 0)
        {
            ScenarioRunner::CheckRanks(scenario, file);
        }
        else if (scenario::Str(scenario, "simulator.engine") != "rdma")
        {
            say("rdma-run: warning: " + file +
                ": simulator.engine is ignored: a run without --ranks has no distributed "
                "engine");
        }
        if (vm.count("check"))
        {
            return CheckOnly(scenario, file, ranks);
        }
        RunOutput::CheckTarget(out);
        if (ranks > 0 && !RdmaRanks::Available() &&
            scenario::Str(scenario, "simulator.engine") != "rdma")
        {
            throw ScenarioError(file + ": key 'simulator.engine' has value '" +
                                scenario::Str(scenario, "simulator.engine") +
                                "', an ns-3 engine of the MPI build; this rdma-run is built "
                                "without MPI (./rdma setup --mpi builds one)");
        }
        if (ranks > 0 && RdmaRanks::Available())
        {
            // First thing to touch the simulator: it binds the distributed engine.
            const std::string engine = scenario::Str(scenario, "simulator.engine");
            RdmaRanks::Enable(&argc,
                              &argv,
                              engine == "rdma"           ? "ns3::RdmaSimulatorImpl"
                              : engine == "null_message" ? "ns3::NullMessageSimulatorImpl"
                                                         : "ns3::DistributedSimulatorImpl");
            if (RdmaRanks::Size() != ranks)
            {
                throw ScenarioError("--ranks " + std::to_string(ranks) + ", but " +
                                    std::to_string(RdmaRanks::Size()) +
                                    " MPI processes were started (mpirun -np " +
                                    std::to_string(ranks) + ")");
            }
        }
        code = RunScenario(scenario, file, out, vm);
    }
    catch (const ScenarioError& e)
    {
        say("rdma-run: error: " + OneLine(e.what()));
        code = 2;
    }
    catch (const std::exception& e)
    {
        say("rdma-run: internal error: " + OneLine(e.what()));
        code = 1;
    }
    RdmaRanks::Disable();
    return code;
}
