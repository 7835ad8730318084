"""``pypto.ir.pass_manager``: PyPTO's module path for the pass manager.

The pass manager belongs to the passes (``pypto.passes.pass_manager``).
This module only re-exports it, lazily, so that ``pypto.ir`` never imports the
layers above it.  ``core_ir`` and ``passes`` are the modules PyPTO's module names so.
"""

from __future__ import annotations

import importlib
from typing import Any

from .._lazy import lazy_reexports

__all__ = ["OptimizationStrategy", "PassDumpLevel", "PassManager", "coerce_dump_level"]
_HOMES = {**{name: "pypto.passes.pass_manager" for name in __all__},
          "CompileProfiler": "pypto.compile_profiling", "python_print": "pypto.ir.printer"}
_MODULES = {"core_ir": "pypto.ir", "passes": "pypto.passes"}
_get, _ = lazy_reexports(__name__, _HOMES)


def __getattr__(name: str) -> Any:  # PEP 562
    if name in _MODULES:
        return importlib.import_module(_MODULES[name])
    return _get(name)


def __dir__() -> list[str]:
    return sorted([*_HOMES, *_MODULES])
