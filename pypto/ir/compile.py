"""``pypto.ir.compile``: PyPTO's module path for ``compile``.  It runs the pass
pipeline, so it lives with the passes (``pypto.passes.compile``); this module only
re-exports it, lazily, so that ``pypto.ir`` never imports the layers above it."""

from __future__ import annotations

from .._lazy import lazy_reexport

__all__ = ["compile", "CompiledProgram", "OptimizationStrategy", "PassDumpLevel", "PassManager",
           "BackendType", "CompileProfiler", "get_active_profiler"]
_HOMES = {"compile": "pypto.passes.compile", "CompiledProgram": "pypto.passes.compile",
          "OptimizationStrategy": "pypto.passes.pass_manager",
          "PassDumpLevel": "pypto.passes.pass_manager", "PassManager": "pypto.passes.pass_manager",
          "BackendType": "pypto.backend", "CompileProfiler": "pypto.compile_profiling",
          "get_active_profiler": "pypto.compile_profiling"}


def __getattr__(name: str):  # noqa: ANN202 (PEP 562)
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return lazy_reexport(__name__, home, [name])[0](name)


def __dir__() -> list[str]:
    return sorted(__all__)
