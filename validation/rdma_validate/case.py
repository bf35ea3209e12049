"""The shape of a validation case and of its result."""

from dataclasses import dataclass, field
from typing import Callable, List, Optional


@dataclass
class Check:
    """One compared quantity: what the paper (or physics) says, what we got, and
    whether it is within the stated tolerance."""

    what: str
    published: str
    simulated: str
    passed: bool


@dataclass
class Result:
    """A case's outcome: its checks, an optional figure (file name in the output
    folder), and notes (where we disagree with a paper, and why)."""

    checks: List[Check] = field(default_factory=list)
    figure: Optional[str] = None
    notes: List[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    def add(self, what, published, simulated, passed):
        self.checks.append(Check(what, str(published), str(simulated), bool(passed)))


@dataclass
class Case:
    """A reproduction: ``run(sim, out_dir, quick)`` returns a Result.

    ``claim`` is quoted in the report with ``source`` (paper, figure or table);
    ``quick`` cases form the ``--quick`` subset that CI runs (under a minute)."""

    name: str
    title: str
    claim: str
    source: str
    run: Callable
    quick: bool = False
