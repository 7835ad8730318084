"""PyPTO's diagnostic-check vocabulary: which advisory checks exist
(``DiagnosticCheck``), when they would run (``DiagnosticPhase``) and sets of them
(``DiagnosticCheckSet``, what ``PassContext(disabled_diagnostics=...)`` takes), plus
the memory planner choice a ``PassContext`` carries.

The checks themselves are in ``diagnostic_rules.py``; ``DiagnosticInstrument`` and
``DiagnosticCheckRegistry`` (``diagnostic_registry.py``) run them.  They report and
never change a result.
"""

from __future__ import annotations

import enum
from typing import Iterable, Iterator

from .._core_enum import CoreEnumRepr
__all__ = ["DiagnosticCheck", "DiagnosticPhase", "DiagnosticCheckSet", "MemoryPlanner",
           "get_default_diagnostic_phase", "default_disabled_diagnostics"]


class DiagnosticCheck(CoreEnumRepr, enum.Enum):
    UnusedVariable = 0
    UnusedControlFlowResult = 1
    TileInnermostDimGranularity = 2
    OutParamWriteDropped = 3


class DiagnosticPhase(CoreEnumRepr, enum.Enum):
    NONE = 0
    PRE_PIPELINE = 1
    POST_PASS = 2
    POST_PIPELINE = 3


class MemoryPlanner(CoreEnumRepr, enum.Enum):
    """Who plans on-chip memory (a back-end concern; recorded, not used by pypto)."""

    PYPTO = 0
    PTOAS = 1
    DSA_RP = 2


class DiagnosticCheckSet:
    """A mutable set of ``DiagnosticCheck`` members, kept in member order."""

    def __init__(self, checks: Iterable[DiagnosticCheck] = ()) -> None:
        self._checks: set[DiagnosticCheck] = set()
        for check in checks:
            self.insert(check)

    def insert(self, check: DiagnosticCheck) -> None:
        if not isinstance(check, DiagnosticCheck):
            raise TypeError(f"DiagnosticCheckSet: expected a DiagnosticCheck, got "
                            f"{type(check).__name__}")
        self._checks.add(check)

    def remove(self, check: DiagnosticCheck) -> None:
        self._checks.discard(check)

    def contains(self, check: DiagnosticCheck) -> bool:
        return check in self._checks

    def empty(self) -> bool:
        return not self._checks

    def union_with(self, other: "DiagnosticCheckSet") -> "DiagnosticCheckSet":
        return DiagnosticCheckSet([*self._checks, *other._checks])

    def difference(self, other: "DiagnosticCheckSet") -> "DiagnosticCheckSet":
        return DiagnosticCheckSet(self._checks - other._checks)

    def to_list(self) -> list[DiagnosticCheck]:
        return sorted(self._checks, key=lambda c: c.value)

    def __contains__(self, check: object) -> bool:
        return check in self._checks

    def __iter__(self) -> Iterator[DiagnosticCheck]:
        return iter(self.to_list())

    def __len__(self) -> int:
        return len(self._checks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiagnosticCheckSet) and other._checks == self._checks

    __hash__ = None  # type: ignore[assignment]  # unhashable: the set is mutable

    def __repr__(self) -> str:
        return "{" + ", ".join(c.name for c in self.to_list()) + "}"


def default_disabled_diagnostics() -> DiagnosticCheckSet:
    """PyPTO's default for ``disabled_diagnostics``: a fresh set each call."""
    return DiagnosticCheckSet([DiagnosticCheck.UnusedControlFlowResult])


def get_default_diagnostic_phase() -> DiagnosticPhase:
    return DiagnosticPhase.PRE_PIPELINE
