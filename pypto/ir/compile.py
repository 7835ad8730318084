"""``pypto.ir.compile``: PyPTO's module path for ``compile``.  It runs the pass
pipeline, so it lives with the passes (``pypto.passes.compile``); this module only
re-exports it, lazily, so that ``pypto.ir`` never imports the layers above it."""

from __future__ import annotations

from .._lazy import lazy_reexports

TYPE_CHECKING = False  # PyPTO's module exposes it

_HOMES = {"compile": "pypto.passes.compile", "CompiledProgram": "pypto.passes.compile",
          "OptimizationStrategy": "pypto.passes.pass_manager",
          "PassDumpLevel": "pypto.passes.pass_manager", "PassManager": "pypto.passes.pass_manager",
          "BackendType": "pypto.backend", "CompileProfiler": "pypto.compile_profiling",
          "get_active_profiler": "pypto.compile_profiling"}
__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_reexports(__name__, _HOMES)
