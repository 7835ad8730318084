"""``pypto.ir.pass_manager``: PyPTO's module path for the pass manager.

The pass manager belongs to the passes (``pypto.passes.pass_manager``).
This module only re-exports it, lazily, so that ``pypto.ir`` never imports the
layers above it.
"""

from __future__ import annotations

from .._lazy import lazy_reexport

__all__ = ["OptimizationStrategy", "PassDumpLevel", "PassManager", "coerce_dump_level"]
__getattr__, __dir__ = lazy_reexport(__name__, "pypto.passes.pass_manager", __all__)
