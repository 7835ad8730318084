"""PyPTO's ``DiagnosticCheckRegistry`` and ``DiagnosticInstrument``: the advisory checks of
``diagnostic_rules.py`` run on demand or around a pipeline's passes.

* ``DiagnosticCheckRegistry.run_checks(checks, phase, program)`` runs the given checks
  (a ``DiagnosticCheckSet``, or any iterable of ``DiagnosticCheck``) and returns their
  ``Diagnostic``s, check by check in member order; at ``DiagnosticPhase.NONE`` nothing
  runs.
* ``DiagnosticInstrument(checks=...)`` runs its checks, less the active context's
  ``disabled_diagnostics``, when the context's ``diagnostic_phase`` says: before a
  pipeline's first pass (``PRE_PIPELINE``; a pass called on its own counts as a
  pipeline of one), after every pass (``POST_PASS``) or after the last one
  (``POST_PIPELINE``).  Each finding is logged once, on the ``pypto.passes`` logger
  (warnings as warnings, performance hints as info), and kept in ``diagnostics``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Iterable

from ..ir.function import Program
from .context import PassContext, PassInstrument
from .diagnostic import Diagnostic, DiagnosticSeverity
from .diagnostic_checks import (DiagnosticCheck, DiagnosticCheckSet, DiagnosticPhase,
                                default_disabled_diagnostics, get_default_diagnostic_phase)
from .diagnostic_rules import CHECKS
from .pipeline import in_pipeline

if TYPE_CHECKING:
    from .pass_base import Pass

__all__ = ["DiagnosticCheckRegistry", "DiagnosticInstrument", "format_diagnostics"]

logger = logging.getLogger("pypto.passes")


def _check_set(checks: object, owner: str) -> DiagnosticCheckSet:
    if isinstance(checks, DiagnosticCheck):
        return DiagnosticCheckSet([checks])
    if isinstance(checks, (str, bytes)) or not isinstance(checks, Iterable):
        raise TypeError(f"{owner}: 'checks' expects a DiagnosticCheckSet or DiagnosticCheck "
                        f"items, got {type(checks).__name__}")
    return DiagnosticCheckSet(checks)  # (its insert checks the item type)


class DiagnosticCheckRegistry:
    """The registered advisory checks (all four are built in)."""

    @staticmethod
    def get_all_checks() -> DiagnosticCheckSet:
        return DiagnosticCheckSet(CHECKS)

    @staticmethod
    def get_warning_checks() -> DiagnosticCheckSet:
        return DiagnosticCheckSet(c for c, rule in CHECKS.items()
                                  if rule.severity is DiagnosticSeverity.Warning)

    @staticmethod
    def get_perf_hint_checks() -> DiagnosticCheckSet:
        return DiagnosticCheckSet(c for c, rule in CHECKS.items()
                                  if rule.severity is DiagnosticSeverity.PerfHint)

    @staticmethod
    def run_checks(checks: DiagnosticCheckSet | Iterable[DiagnosticCheck],
                   phase: DiagnosticPhase, program: Program) -> list[Diagnostic]:
        wanted = _check_set(checks, "DiagnosticCheckRegistry.run_checks")
        if not isinstance(phase, DiagnosticPhase):
            raise TypeError("DiagnosticCheckRegistry.run_checks: 'phase' expects a "
                            f"DiagnosticPhase, got {type(phase).__name__}")
        if not isinstance(program, Program):
            raise TypeError("DiagnosticCheckRegistry.run_checks: 'program' expects an "
                            f"ir.Program, got {type(program).__name__}")
        if phase is DiagnosticPhase.NONE:
            return []
        out: list[Diagnostic] = []
        for check in wanted.to_list():
            out.extend(CHECKS[check].run(program))
        return out


# PyPTO's default ``checks``: every check (copied by the constructor, never changed).
_ALL = DiagnosticCheckRegistry.get_all_checks()


class DiagnosticInstrument(PassInstrument):
    """Runs advisory checks at the active context's diagnostic phase (module docstring)."""

    def __init__(self, checks: DiagnosticCheckSet | Iterable[DiagnosticCheck] | None = _ALL
                 ) -> None:
        super().__init__("DiagnosticInstrument")
        self._checks = (DiagnosticCheckRegistry.get_all_checks() if checks is None
                        else _check_set(checks, "DiagnosticInstrument"))  # a copy
        self._reported: set[tuple] = set()
        self.diagnostics: list[Diagnostic] = []

    def get_checks(self) -> DiagnosticCheckSet:
        return DiagnosticCheckSet(self._checks)

    # -- when ---------------------------------------------------------------------------
    def run_before_pipeline(self, program: Program) -> None:
        if _phase() is DiagnosticPhase.PRE_PIPELINE:
            self._run(program, "before the pipeline")

    def run_after_pipeline(self, program: Program) -> None:
        if _phase() is DiagnosticPhase.POST_PIPELINE:
            self._run(program, "after the pipeline")

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        if not in_pipeline() and _phase() is DiagnosticPhase.PRE_PIPELINE:
            self._run(program, f"before {pass_.get_name()}")

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        phase = _phase()
        if phase is DiagnosticPhase.POST_PASS or (
                not in_pipeline() and phase is DiagnosticPhase.POST_PIPELINE):
            self._run(program, f"after {pass_.get_name()}")

    # -- what -----------------------------------------------------------------------------
    def _run(self, program: Program, when: str) -> None:
        context = PassContext.current()
        disabled = (context.get_disabled_diagnostics() if context is not None
                    else default_disabled_diagnostics())
        found = DiagnosticCheckRegistry.run_checks(self._checks.difference(disabled),
                                                   DiagnosticPhase.POST_PASS, program)
        fresh = []
        for diag in found:
            key = (diag.rule_name, diag.message, diag.span.to_string())
            if key not in self._reported:
                self._reported.add(key)
                fresh.append(diag)
        if not fresh:
            return
        self.diagnostics.extend(fresh)
        level = (logging.WARNING if any(d.severity is DiagnosticSeverity.Warning for d in fresh)
                 else logging.INFO)
        logger.log(level, "Diagnostics (%s):\n%s", when, format_diagnostics(fresh))


_LABELS = {DiagnosticSeverity.Error: "error", DiagnosticSeverity.Warning: "warning",
           DiagnosticSeverity.PerfHint: "perf hint"}


def format_diagnostics(diagnostics: Iterable[Diagnostic]) -> str:
    """One line per finding: ``<file:line:col>: warning[UnusedVariable]: <message>``."""
    return "\n".join(f"{d.span.to_string()}: {_LABELS[d.severity]}[{d.rule_name}]: {d.message}"
                     for d in diagnostics)


def _phase() -> DiagnosticPhase:
    context = PassContext.current()
    return (context.get_diagnostic_phase() if context is not None
            else get_default_diagnostic_phase())
