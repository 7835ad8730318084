"""Instruments for seeing the pipeline: print the IR around passes, time the passes,
count what each pass changed.  ``pypto compile --print-*``, ``--time-passes`` and
``--pass-statistics`` are these instruments; in Python, put them in a ``PassContext``::

    timing = passes.PassTimingInstrument()
    with passes.PassContext([passes.PrintIRInstrument(after=["ConvertToSSA"]), timing]):
        compiled = ir.PassManager.get_strategy().run_passes(program)
    print(timing.report())

An instrument object belongs to one run at a time (it numbers the passes it sees).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Optional, TextIO

from ..ir.function import Program
from ..ir.scope import (ClusterScopeStmt, GraphScopeStmt, HierarchyScopeStmt, InCoreScopeStmt,
                        SpmdScopeStmt)
from ..ir.stmt import SeqStmts
from ..ir.walk import iter_stmts
from .context import PassInstrument
from .diagnostic import VerificationError

if TYPE_CHECKING:
    from .pass_base import Pass

__all__ = ["PrintIRInstrument", "PassTimingInstrument", "PassStatisticsInstrument",
           "IRStatistics", "ir_statistics", "pass_name_of"]

_REGION_CLASSES = (InCoreScopeStmt, HierarchyScopeStmt, ClusterScopeStmt, SpmdScopeStmt,
                   GraphScopeStmt)


def pass_name_of(name: str) -> str:
    """``ConvertToSSA`` for ``convert-to-ssa``, ``convert_to_ssa`` or ``ConvertToSSA``
    (``ValueError`` naming the valid passes when it is none of them)."""
    from .registry import get_pass_spec
    return get_pass_spec(name).name


class PrintIRInstrument(PassInstrument):
    """Prints the program before and/or after passes, to ``stream`` (stderr by default).

    ``before`` / ``after`` name passes (any spelling ``pypto passes`` shows);
    ``before_all`` / ``after_all`` print around every pass; ``changed`` restricts the
    after-printing to passes that changed the program (every pass when no other
    after-option is given); ``on_failure`` prints the IR a pass failed on (its input,
    or its output when verifying that output failed).  ``total`` is the pipeline
    length for the ``(pass i of N)`` headers.
    """

    def __init__(self, *, before: Iterable[str] = (), after: Iterable[str] = (),
                 before_all: bool = False, after_all: bool = False, changed: bool = False,
                 on_failure: bool = False, stream: Optional[TextIO] = None,
                 total: Optional[int] = None) -> None:
        super().__init__("PrintIR")
        self._before = {pass_name_of(n) for n in before}
        self._after = {pass_name_of(n) for n in after}
        self._before_all = before_all
        self._after_all = after_all or (changed and not self._after)
        self._changed = changed
        self._on_failure = on_failure
        self._stream = stream
        self._total = total
        self._index = 0
        self._input: Optional[Program] = None

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        self._index += 1
        self._input = program
        if self._before_all or pass_.get_name() in self._before:
            self._show("before", pass_, program)

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        if not (self._after_all or pass_.get_name() in self._after):
            return
        if self._changed and program is self._input:
            return  # the pass returned its input: nothing changed
        self._show("after", pass_, program)

    def run_on_failure(self, pass_: "Pass", program: Program, error: BaseException) -> None:
        if not self._on_failure:
            return
        if program is self._input:
            self._show("before", pass_, program, ", which failed")
        else:
            what = "verification" if isinstance(error, VerificationError) else "a check"
            self._show("after", pass_, program, f", which failed {what}")

    def _show(self, when: str, pass_: "Pass", program: Program, note: str = "") -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        position = f"pass {self._index}" + (f" of {self._total}" if self._total else "")
        print(f"# ===== IR {when} {pass_.get_name()} ({position}){note} =====", file=stream)
        print(program.as_python(), file=stream)
        stream.flush()


class PassTimingInstrument(PassInstrument):
    """Records the wall time of every pass's transform (verification and the other
    instruments excluded); ``report()`` is the table ``pypto compile --time-passes``
    prints."""

    def __init__(self) -> None:
        super().__init__("PassTiming")
        self.timings: list[tuple[str, float]] = []

    def record_pass_time(self, pass_: "Pass", seconds: float) -> None:
        self.timings.append((pass_.get_name(), seconds))

    def total(self) -> float:
        return sum(seconds for _, seconds in self.timings)

    def report(self) -> str:
        total = self.total()
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "Pass execution timing report".center(len(rule)).rstrip(), rule,
                 f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        for name, seconds in self.timings:
            lines.append(f"  {seconds:9.4f} ({_percent(seconds, total)})  {name}")
        lines.append(f"  {total:9.4f} ({_percent(total, total)})  Total")
        return "\n".join(lines)


def _percent(part: float, whole: float) -> str:
    share = 100.0 * part / whole if whole > 0 else 0.0
    return f"{share:5.1f}%"


@dataclass(frozen=True)
class IRStatistics:
    """How big a program is: functions, regions still to outline, statements."""

    functions: int
    regions: int
    statements: int


def ir_statistics(program: Program) -> IRStatistics:
    """Count in one walk per function (statement blocks themselves are not counted)."""
    regions = statements = 0
    for func in program._functions.values():
        for stmt in iter_stmts(func.body):
            if isinstance(stmt, SeqStmts):
                continue
            statements += 1
            regions += isinstance(stmt, _REGION_CLASSES)
    return IRStatistics(len(program._functions), regions, statements)


class PassStatisticsInstrument(PassInstrument):
    """Counts functions, regions and statements before and after every pass;
    ``report()`` is the table ``pypto compile --pass-statistics`` prints."""

    def __init__(self) -> None:
        super().__init__("PassStatistics")
        self.rows: list[tuple[str, IRStatistics, IRStatistics]] = []
        self._before: Optional[tuple[Program, IRStatistics]] = None

    def run_before_pass(self, pass_: "Pass", program: Program) -> None:
        previous = self._before
        if previous is not None and previous[0] is program:
            self._before = previous  # the last pass's output: already counted
        else:
            self._before = (program, ir_statistics(program))

    def run_after_pass(self, pass_: "Pass", program: Program) -> None:
        counted = self._before
        if counted is None:  # put in the context while the pass ran: no input count
            counted = (program, ir_statistics(program))
        before = counted[1]
        after = before if program is counted[0] else ir_statistics(program)
        self.rows.append((pass_.get_name(), before, after))
        self._before = (program, after)

    def report(self) -> str:
        header = f"  {'#':>2}  {'Pass':<28}{'functions':>12}{'regions':>12}{'statements':>14}"
        lines = ["Pass statistics (before -> after)", header]
        for index, (name, before, after) in enumerate(self.rows, 1):
            lines.append(f"  {index:>2}  {name:<28}"
                         f"{_change(before.functions, after.functions):>12}"
                         f"{_change(before.regions, after.regions):>12}"
                         f"{_change(before.statements, after.statements):>14}")
        return "\n".join(lines)


def _change(before: int, after: int) -> str:
    return f"{before} -> {after}"
