"""``pypto.ir.compiled_program``: PyPTO's module path for ``CompiledProgram``
(``pypto.passes.compile``), re-exported lazily."""

from __future__ import annotations

from .._lazy import lazy_reexport

__all__ = ["CompiledProgram", "ParamInfo", "extract_param_infos"]
__getattr__, __dir__ = lazy_reexport(__name__, "pypto.passes.compile", __all__)
