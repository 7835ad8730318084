"""``PassManager``: the default compilation pipeline and per-pass IR dumps (§6.2-§6.3).

``ir.PassManager.get_strategy(ir.OptimizationStrategy.Default)`` gives the
passes of the default pipeline, built from the pass declarations in
``pypto.passes.registry``; ``run_passes`` runs them through a ``PassPipeline``
(so the active context's verification level applies) and can dump the IR
after every pass.
"""

from __future__ import annotations

import enum
import os
from typing import Any, Iterable

from ..ir.function import Program

__all__ = ["OptimizationStrategy", "PassDumpLevel", "PassManager", "coerce_dump_level"]


class OptimizationStrategy(enum.Enum):
    Default = "Default"


class PassDumpLevel(enum.Enum):
    """How much IR to dump per pass.  EXPLICIT prints the same as CONCISE in pypto."""

    NONE = 0
    CONCISE = 1
    EXPLICIT = 2


def coerce_dump_level(dump_passes: Any) -> PassDumpLevel:
    """A dump switch (``run_passes(dump_ir=)``, ``compile(dump_passes=)``) as a level."""
    if isinstance(dump_passes, PassDumpLevel):
        return dump_passes
    if dump_passes is None or dump_passes is False:
        return PassDumpLevel.NONE
    if dump_passes is True:
        return PassDumpLevel.CONCISE
    raise TypeError(f"run_passes: 'dump_ir' expects a bool or PassDumpLevel, "
                    f"got {type(dump_passes).__name__}")


class PassManager:
    """An ordered pass list for one optimization strategy.

    ``PassManager(strategy)`` is the strategy's pipeline, as in PyPTO (``get_strategy``
    is the same); ``PassManager([p1, p2, ...])`` -- pypto's own form -- runs the given
    passes.  ``analyze_auto_scopes_for_deps`` (PyPTO's task-dependency analysis of
    automatic scopes, a back-end pass) is not available: only ``False`` is accepted.
    """

    def __init__(self, strategy: OptimizationStrategy | Iterable[Any] = OptimizationStrategy.Default,
                 *, analyze_auto_scopes_for_deps: bool = False) -> None:
        from .pass_base import Pass
        if analyze_auto_scopes_for_deps:
            raise ValueError("PassManager: analyze_auto_scopes_for_deps=True needs PyPTO's "
                             "AutoDeriveTaskDependencies pass, which pypto does not have")
        if isinstance(strategy, OptimizationStrategy):
            from .registry import default_pipeline_specs
            self._passes = [spec.create() for spec in default_pipeline_specs()]
            self._strategy = strategy
            return
        if isinstance(strategy, (str, bytes)) or not isinstance(strategy, Iterable):
            raise TypeError(f"PassManager expects an OptimizationStrategy or a list of passes, "
                            f"got {type(strategy).__name__}")
        self._passes = list(strategy)
        for i, p in enumerate(self._passes):
            if not isinstance(p, Pass):
                raise TypeError(f"PassManager: 'passes[{i}]' expects a Pass, "
                                f"got {type(p).__name__}")
        self._strategy = OptimizationStrategy.Default

    @classmethod
    def get_strategy(cls, strategy: OptimizationStrategy = OptimizationStrategy.Default, *,
                     analyze_auto_scopes_for_deps: bool = False) -> "PassManager":
        if not isinstance(strategy, OptimizationStrategy):
            raise ValueError(f"PassManager.get_strategy: unknown strategy {strategy!r}; "
                             f"expected one of {[s.name for s in OptimizationStrategy]}")
        return cls(strategy, analyze_auto_scopes_for_deps=analyze_auto_scopes_for_deps)

    @property
    def strategy(self) -> OptimizationStrategy:
        return self._strategy

    @property
    def passes(self) -> list:
        return list(self._passes)

    @property
    def pass_names(self) -> list[str]:
        return [p.get_name() for p in self._passes]

    def get_pass_names(self) -> list[str]:
        return self.pass_names

    def run_passes(self, input_ir: Program, dump_ir: bool | PassDumpLevel = False,
                   output_dir: str | os.PathLike | None = None, prefix: str = "pl") -> Program:
        from .pipeline import PassPipeline
        program = input_ir
        if not isinstance(program, Program):
            raise TypeError(f"PassManager.run_passes expects an ir.Program, "
                            f"got {type(program).__name__}")
        pipeline = PassPipeline(self._passes)
        if coerce_dump_level(dump_ir) is PassDumpLevel.NONE:
            return pipeline.run(program)
        if output_dir is None:
            raise ValueError("PassManager.run_passes: output_dir is required when dumping IR")
        return _run_with_dumps(pipeline, program, os.fspath(output_dir), prefix)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")


def _run_with_dumps(pipeline: Any, program: Program, output_dir: str, prefix: str) -> Program:
    """Dump the input and the IR after each pass via an ``IRDump`` callback instrument
    appended to the active context's instruments."""
    from . import (CallbackInstrument, PassContext, PropertyVerifierRegistry,
                          format_report, get_default_verification_level,
                          get_structural_properties)
    from .diagnostic import DiagnosticSeverity
    from ..ir.printer import python_print

    os.makedirs(output_dir, exist_ok=True)
    _write(os.path.join(output_dir, "00_frontend.py"), python_print(program, prefix=prefix))
    count = 0

    def dump_after(pass_: Any, result: Program) -> None:
        nonlocal count
        count += 1
        stem = os.path.join(output_dir, f"{count:02d}_after_{pass_.get_name()}")
        _write(stem + ".py", python_print(result, prefix=prefix))
        props = pass_.get_produced_properties().union_with(get_structural_properties())
        warnings = [d for d in PropertyVerifierRegistry.verify(props, result)
                    if d.severity is not DiagnosticSeverity.Error]
        if warnings:
            _write(stem + ".log", format_report(warnings))

    dump = CallbackInstrument(after_pass=dump_after, name="IRDump")
    outer = PassContext.current()
    if outer is None:
        context = PassContext([dump], verification_level=get_default_verification_level())
    else:
        context = PassContext([*outer.get_instruments(), dump],
                              verification_level=outer.get_verification_level(),
                              runtime=outer.get_runtime())
    with context:
        return pipeline.run(program)
