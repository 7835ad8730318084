"""``pypto.ir.compiled_program``: PyPTO's module path for ``CompiledProgram``
(``pypto.passes.compile``), re-exported lazily, with the other names PyPTO's module has."""

from __future__ import annotations

from .._lazy import lazy_reexports

_HOMES = {"CompiledProgram": "pypto.passes.compile", "ParamInfo": "pypto.passes.compile",
          "extract_param_infos": "pypto.passes.compile", "BackendType": "pypto.backend",
          "ConstInt": "pypto.ir", "DataType": "pypto.ir", "Function": "pypto.ir",
          "FunctionType": "pypto.ir", "ParamDirection": "pypto.ir", "Program": "pypto.ir",
          "ScalarType": "pypto.ir", "ShapedType": "pypto.ir"}
__all__ = ["CompiledProgram", "ParamInfo", "extract_param_infos"]
__getattr__, __dir__ = lazy_reexports(__name__, _HOMES)
