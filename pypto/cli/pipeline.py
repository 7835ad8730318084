"""The command line's view of the passes: pipeline selection, running, listing.

``pypto compile`` runs its pipeline through ``ir.PassManager`` (so ``--dump-dir`` is
the PassManager's per-pass dump) inside a ``PassContext`` that adds two instruments:

* a precondition check before every pass -- its required properties plus the
  structural ones.  A pass called directly never checks what it requires, and a
  ``-p`` pipeline is in the user's hands, so a wrong order must end in a diagnostic
  that says which pass to add, not in a confusing failure deeper down;
* the ``--print-after-all`` printer.

An enclosing ``PassContext`` (a test harness, a notebook) keeps its instruments and
verification level; its own ``VerificationInstrument`` then replaces the check.
"""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

from .report import ProgramError, UsageError, plain_error, render_diagnostic
from ..ir.function import Program
from ..passes.pass_manager import OptimizationStrategy, PassManager
from ..passes import (CallbackInstrument, IRProperty, IRPropertySet, Pass, PassContext,
                     PassInstrument, PassSpec, PropertyVerifierRegistry, VerificationInstrument,
                     VerificationLevel, build_pipeline, get_default_verify_properties,
                     get_structural_properties, list_passes)
from ..passes.diagnostic import has_errors
from ..passes.pipeline import get_default_verification_level

__all__ = ["resolve_pipeline", "pass_context", "run_pipeline", "describe_passes",
           "frontend_check_properties", "parse_props", "PrintAfterPass"]

# (pass name, 1-based index, pass count, program after the pass)
PrintAfterPass = Callable[[str, int, int, Program], None]


def resolve_pipeline(text: Optional[str]) -> list[Pass]:
    """``-p`` text -> passes; ``None`` means the default pipeline."""
    if text is None:
        return PassManager.get_strategy(OptimizationStrategy.Default).passes
    try:
        return build_pipeline(text).get_passes()
    except ValueError as exc:  # "Unknown pass 'x'; valid passes: ..."
        raise UsageError(f"-p: {exc}") from None


@contextmanager
def pass_context(pass_count: int, print_after: Optional[PrintAfterPass] = None
                 ) -> Iterator[PassContext]:
    """The context ``pypto compile`` runs passes in (see the module docstring)."""
    outer = PassContext.current()
    level = outer.get_verification_level() if outer is not None \
        else get_default_verification_level()
    outer_instruments = outer.get_instruments() if outer is not None else []
    instruments: list[PassInstrument] = []
    if print_after is not None:
        counter = itertools.count(1)
        instruments.append(CallbackInstrument(
            after_pass=lambda p, program: print_after(p.get_name(), next(counter), pass_count,
                                                      program),
            name="PrintAfterAll"))
    if level is not VerificationLevel.NONE and \
            not any(isinstance(i, VerificationInstrument) for i in outer_instruments):
        instruments.append(_PreconditionCheck())
    kwargs = {"runtime": outer.get_runtime()} if outer is not None else {}
    with PassContext([*instruments, *outer_instruments], verification_level=level,
                     **kwargs) as context:
        yield context


def run_pipeline(program: Program, passes: list[Pass],
                 print_after: Optional[PrintAfterPass] = None,
                 dump_dir: Optional[str] = None) -> Program:
    manager = PassManager(passes)
    with pass_context(len(passes), print_after):
        return manager.run_passes(program, dump_ir=dump_dir is not None, output_dir=dump_dir)


class _PreconditionCheck(PassInstrument):
    """Before each pass: its required properties and the structural ones hold."""

    def __init__(self) -> None:
        super().__init__("PreconditionCheck")

    def run_before_pass(self, pass_: Pass, program: Program) -> None:
        props = pass_.get_required_properties().union_with(get_structural_properties())
        diagnostics = PropertyVerifierRegistry.verify(props, program)
        if has_errors(diagnostics):
            raise ProgramError(_precondition_report(pass_, program, diagnostics))


def _precondition_report(pass_: Pass, program: Program, diagnostics: list) -> str:
    missing = [prop for prop in pass_.get_required_properties().to_list()
               if has_errors(PropertyVerifierRegistry.verify(IRPropertySet([prop]), program))]
    name = _cli_name(pass_.get_name())
    if missing:
        headline = (f"pass '{name}' cannot run: its input lacks "
                    f"{', '.join(p.name for p in missing)}")
    else:
        headline = f"pass '{name}' cannot run: its input is not valid IR"
    lines = [plain_error(headline)]
    lines += [render_diagnostic(d) for d in diagnostics if d.is_error]
    for prop in missing:
        producers = _producers_of(prop)
        if producers:
            lines.append(f"help: run {' or '.join(producers)} before {name} "
                         f"(it produces {prop.name})")
    return "\n".join(lines)


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
