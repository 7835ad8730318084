"""The command line's view of the passes: pipeline selection, running, listing.

``pypto compile`` runs its pipeline through ``ir.PassManager`` (so ``--dump-dir`` is
the PassManager's per-pass dump) inside a ``PassContext`` that adds instruments:

* a precondition check before every pass -- its required properties plus the
  structural ones.  A pass called directly never checks what it requires, and a
  ``-p`` pipeline is in the user's hands, so a wrong order must end in a diagnostic
  that says which pass to add, not in a confusing failure deeper down;
* the printers, timers and counters of ``--print-*``, ``--time-passes`` and
  ``--pass-statistics`` (``passes.instrumentation``), and the progress line.

An enclosing ``PassContext`` (a test harness, a notebook) keeps its instruments and
verification level; its own ``VerificationInstrument`` then replaces the check.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence, TextIO

from ..ir.function import Program
from ..language.parser.findings import Finding
from ..passes import (IRProperty, IRPropertySet, Pass, PassContext, PassErrorCode,
                      PassInstrument, PassSpec, PassStatisticsInstrument, PassTimingInstrument,
                      PrintIRInstrument, PropertyVerifierRegistry, VerificationInstrument,
                      VerificationLevel, build_pipeline, get_default_verify_properties,
                      get_structural_properties, list_passes)
from ..passes.diagnostic import has_errors
from ..passes.pass_manager import OptimizationStrategy, PassManager
from ..passes.pipeline import get_default_verification_level, pipeline_guarantees
from ..passes.run_memo import trusting_marks
from .errors import ProgramError, UsageError
from .report import diagnostic_finding

__all__ = ["resolve_pipeline", "pass_context", "run_pipeline", "describe_passes",
           "frontend_check_properties", "parse_props", "PipelineView", "pass_names"]


def resolve_pipeline(text: Optional[str]) -> list[Pass]:
    """``-p`` text -> passes; ``None`` means the default pipeline."""
    if text is None:
        return PassManager.get_strategy(OptimizationStrategy.Default).passes
    try:
        return build_pipeline(text).get_passes()
    except ValueError as exc:  # "Unknown pass 'x'; valid passes: ..."
        raise UsageError(f"-p: {exc}") from None


@dataclass
class PipelineView:
    """What ``pypto compile`` shows of the pipeline (``--print-*``, timing, counts)."""

    print_before: Sequence[str] = ()
    print_after: Sequence[str] = ()
    print_before_all: bool = False
    print_after_all: bool = False
    print_changed: bool = False
    print_on_failure: bool = False
    time_passes: bool = False
    pass_statistics: bool = False
    stream: Optional[TextIO] = None
    extra: list[PassInstrument] = field(default_factory=list)  # e.g. the progress line

    def prints(self) -> bool:
        return bool(self.print_before or self.print_after or self.print_before_all
                    or self.print_after_all or self.print_changed or self.print_on_failure)

    def is_plain(self) -> bool:
        """Nothing to show: a jit entry may then take its own cached compile path."""
        return not (self.prints() or self.time_passes or self.pass_statistics)


def pass_names(option: str, text: str, passes: list[Pass]) -> list[str]:
    """``--print-after=a,b``: pass names in any spelling, each in the pipeline."""
    from ..passes.instrumentation import pass_name_of
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise UsageError(f"{option}: expected pass names (see 'pypto passes')")
    running = [p.get_name() for p in passes]
    result = []
    for name in names:
        try:
            canonical = pass_name_of(name)
        except ValueError as exc:
            raise UsageError(f"{option}: {exc}") from None
        if canonical not in running:
            raise UsageError(f"{option}: pass '{name}' is not in the pipeline being run "
                             f"({', '.join(_cli_name(n) for n in running) or 'no passes'})")
        result.append(canonical)
    return result


@contextmanager
def pass_context(instruments: Sequence[PassInstrument] = ()) -> Iterator[PassContext]:
    """The context ``pypto compile`` runs passes in (see the module docstring)."""
    outer = PassContext.current()
    level = outer.get_verification_level() if outer is not None \
        else get_default_verification_level()
    outer_instruments = outer.get_instruments() if outer is not None else []
    own: list[PassInstrument] = list(instruments)
    if level is not VerificationLevel.NONE and \
            not any(isinstance(i, VerificationInstrument) for i in outer_instruments):
        own.append(_PreconditionCheck())
    kwargs: dict[str, Any] = {"runtime": outer.get_runtime()} if outer is not None else {}
    with PassContext([*own, *outer_instruments], verification_level=level,
                     **kwargs) as context:
        yield context


def run_pipeline(program: Program, passes: list[Pass], view: PipelineView,
                 dump_dir: Optional[str] = None) -> Program:
    """Run ``passes`` with what ``view`` asks to see; the timing and statistics tables
    go to ``view.stream`` even when a pass fails (they show how far it got)."""
    printer = PrintIRInstrument(before=view.print_before, after=view.print_after,
                                before_all=view.print_before_all,
                                after_all=view.print_after_all, changed=view.print_changed,
                                on_failure=view.print_on_failure, stream=view.stream,
                                total=len(passes)) if view.prints() else None
    timing = PassTimingInstrument() if view.time_passes else None
    statistics = PassStatisticsInstrument() if view.pass_statistics else None
    instruments = [i for i in (printer, statistics, timing) if i is not None] + view.extra
    manager = PassManager(passes)
    try:
        with pass_context(instruments):
            return manager.run_passes(program, dump_ir=dump_dir is not None,
                                      output_dir=dump_dir)
    finally:
        for table in (statistics, timing):
            if table is not None:
                print(table.report(), file=view.stream)


class _PreconditionCheck(PassInstrument):
    """Before each pass: its required properties and the structural ones hold.

    What is already known is not checked again (on a 20k-line program the checks
    cost more than the passes).  A program the previous pass returned had its input
    checked; its structural properties hold (every pass keeps them: the test suite's
    verification instrument checks that after every pass of every test), and so
    does every property checked or produced since that check and not invalidated
    (the trust the pipeline's own verification places in the declarations).  The
    running pipeline's verified properties (``pipeline_guarantees``) hold too: on the
    first pass's input that is the pipeline's own input check, which this one would
    otherwise repeat."""

    def __init__(self) -> None:
        super().__init__("PreconditionCheck")
        self._last_output: Optional[Program] = None
        self._established = IRPropertySet()  # holds on ``_last_output``

    def run_before_pass(self, pass_: Pass, program: Program) -> None:
        required = pass_.get_required_properties()
        if program is self._last_output:
            wanted = required.difference(self._established)
        else:  # a program from outside this run: check everything
            self._established = IRPropertySet()
            wanted = required.union_with(get_structural_properties())
        # The pipeline has just verified part of it on this very input.
        props = IRPropertySet([prop for prop in wanted.to_list()
                               if not pipeline_guarantees(prop)])
        if not props.empty():
            with trusting_marks():  # the command's own check, as the pipeline's
                diagnostics = PropertyVerifierRegistry.verify(props, program)
            if has_errors(diagnostics):
                raise ProgramError(_precondition_findings(pass_, program, diagnostics))
        self._established = self._established.union_with(required)

    def run_after_pass(self, pass_: Pass, program: Program) -> None:
        self._established = self._established.difference(
            pass_.get_invalidated_properties()).union_with(pass_.get_produced_properties())
        self._last_output = program


def _precondition_findings(pass_: Pass, program: Program, diagnostics: list) -> list[Finding]:
    missing = [prop for prop in pass_.get_required_properties().to_list()
               if has_errors(PropertyVerifierRegistry.verify(IRPropertySet([prop]), program))]
    name = _cli_name(pass_.get_name())
    if missing:
        headline = (f"pass '{name}' cannot run: its input lacks "
                    f"{', '.join(p.name for p in missing)}")
    else:
        headline = f"pass '{name}' cannot run: its input is not valid IR"
    helps = []
    for prop in missing:
        producers = _producers_of(prop)
        if producers:
            helps.append(f"run {' or '.join(producers)} before {name} "
                         f"(it produces {prop.name})")
    summary = Finding("error", PassErrorCode.PRECONDITION.code, headline,
                      hint="; ".join(helps) or None, origin=pass_.get_name())
    return [summary] + [diagnostic_finding(d) for d in diagnostics if d.is_error]


def _cli_name(pass_name: str) -> str:
    for spec in list_passes():
        if spec.name == pass_name:
            return spec.cli_name
    return pass_name


def _producers_of(prop: IRProperty) -> list[str]:
    """Passes that establish ``prop`` from scratch (produce it without requiring it)."""
    return [spec.cli_name for spec in list_passes()
            if prop in spec.produced and prop not in spec.required]


# -- pypto passes -----------------------------------------------------------------------

def describe_passes() -> str:
    specs = list_passes()
    default_count = sum(1 for s in specs if s.in_default_pipeline)
    lines = [f"Registered passes. The default pipeline runs passes 1-{default_count} in this "
             "order; -p takes the names in the first column.", ""]
    number = itertools.count(1)
    for spec in specs:
        index = f"{next(number):>2}." if spec.in_default_pipeline else "   "
        lines.append(f"{index} {spec.cli_name:<26} {spec.name:<24} {spec.kind.value} pass"
                     + ("" if spec.in_default_pipeline else " (not in the default pipeline)"))
        lines.append(f"      {spec.summary}")
        lines += [f"      {label:<12} {_names(props)}" for label, props in _property_rows(spec)]
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def _property_rows(spec: PassSpec) -> list[tuple[str, tuple[IRProperty, ...]]]:
    return [("requires:", spec.required), ("produces:", spec.produced),
            ("invalidates:", spec.invalidated)]


def _names(props: tuple[IRProperty, ...]) -> str:
    return ", ".join(p.name for p in props) if props else "-"


# -- pypto check ------------------------------------------------------------------------

def frontend_check_properties() -> IRPropertySet:
    """What ``pypto check`` verifies by default: the default verify set less SSAForm and
    NoNestedCalls, which the parser does not promise (the front passes establish them)."""
    return get_default_verify_properties().difference(
        IRPropertySet([IRProperty.SSAForm, IRProperty.NoNestedCalls]))


def parse_props(text: str) -> IRPropertySet:
    """``--props``: ``default``, ``structural`` or comma-separated IRProperty names."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    if names == ["default"]:
        return get_default_verify_properties()
    if names == ["structural"]:
        return get_structural_properties()
    if not names:
        raise UsageError("--props: expected property names, 'default' or 'structural'")
    props = IRPropertySet()
    for name in names:
        prop = IRProperty.__members__.get(name)
        if prop is None:
            valid = ", ".join(IRProperty.__members__)
            raise UsageError(f"--props: unknown IR property '{name}'; valid properties: {valid}")
        props.insert(prop)
    return props
