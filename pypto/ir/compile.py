"""``pypto.ir.compile``: PyPTO's module path for ``compile``.  It runs the pass
pipeline, so it lives with the passes (``pypto.passes.compile``); this module only
re-exports it, lazily, so that ``pypto.ir`` never imports the layers above it."""

from __future__ import annotations

from .._lazy import lazy_reexports
from .expr import Call
from .function import Program
from .node import GlobalVar
from .walk import iter_exprs, iter_stmts, stmt_exprs

TYPE_CHECKING = False  # PyPTO's module exposes it

_HOMES = {"compile": "pypto.passes.compile", "CompiledProgram": "pypto.passes.compile",
          "OptimizationStrategy": "pypto.passes.pass_manager",
          "PassDumpLevel": "pypto.passes.pass_manager", "PassManager": "pypto.passes.pass_manager",
          "BackendType": "pypto.backend", "CompileProfiler": "pypto.compile_profiling",
          "get_active_profiler": "pypto.compile_profiling"}
__all__ = sorted(_HOMES)
__getattr__, _lazy_dir = lazy_reexports(__name__, _HOMES)


def __dir__() -> list[str]:
    return sorted(set(_lazy_dir()) | {"TYPE_CHECKING", "multi_chip_orch_names"})


def multi_chip_orch_names(transformed_program: Program) -> list[str]:
    """The chip programs of a distributed program: the names of the functions it
    dispatches to devices (``self.f(..., device=r)``), in the order the calls appear
    (each once).  ``[]`` for a single-chip program."""
    if not isinstance(transformed_program, Program):
        raise TypeError(f"multi_chip_orch_names expects an ir.Program, got "
                        f"{type(transformed_program).__name__}")
    names: list[str] = []
    for function in transformed_program.functions.values():
        for stmt in iter_stmts(function.body):
            for top in stmt_exprs(stmt):
                for expr in iter_exprs(top):
                    if isinstance(expr, Call) and isinstance(expr.op, GlobalVar) \
                            and "device" in expr._attrs and expr.op.name not in names:
                        names.append(expr.op.name)
    return names
