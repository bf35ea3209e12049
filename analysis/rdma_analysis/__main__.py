"""The one command-line entry point of the analysis:
``python3 -m rdma_analysis COMMAND ARGS...`` with ``analysis/`` on the
module path (``./rdma plot|compare|sweep|tune`` runs it).

COMMAND is ``plot``, ``compare``, ``sweep`` or ``tune``; ARGS go to that
module's ``main`` (``python3 -m rdma_analysis COMMAND --help``), whose
return value is the exit code.
"""

import importlib
import sys

COMMANDS = {
    "plot": "report of one run: figures and Markdown",
    "compare": "several runs overlaid: figures and a summary table",
    "sweep": "grid / random parameter sweep x seeds, resumable",
    "tune": "Optuna (TPE) tuning of scenario keys, resumable",
}


def usage():
    """The help text listing the commands."""
    width = max(map(len, COMMANDS))
    lines = ["usage: python3 -m rdma_analysis COMMAND [ARGS...]", "",
             "commands:"]
    lines += [f"  {name:<{width}}  {what}" for name, what in COMMANDS.items()]
    lines += ["", "python3 -m rdma_analysis COMMAND --help shows a "
              "command's arguments; see docs/analysis.md."]
    return "\n".join(lines)


def main(argv=None):
    """Run one command; returns the process exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"rdma_analysis: error: unknown command '{command}' (expected "
              f"one of: {', '.join(COMMANDS)})", file=sys.stderr)
        return 2
    module = importlib.import_module(f".{command}", __package__)
    return module.main(args)


if __name__ == "__main__":
    sys.exit(main())
