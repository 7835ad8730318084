"""pypto: a pure-Python front end and scope-outlining compiler for the PyPTO tile DSL.

``import pypto.language as pl`` for the DSL; ``from pypto import ir, passes`` for the
IR and the compiler passes.

The package root imports nothing heavy: ``pypto.ir``, ``pypto.passes``,
``pypto.language``, ``pypto.DataType``, the ``DT_*`` constants and ``pypto.run`` are
loaded on first use, so ``pypto --help`` and ``pypto --version`` start in a few
milliseconds.  Logging (``set_log_level``, ``log_info`` ...) and the check functions
are PyPTO's (``pypto/logging_.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"

from ._lazy import install_lazy_attributes as _install_lazy_attributes
from .errors import Error, InternalError
from .logging_ import (LogLevel, check, get_log_level, internal_check, internal_check_span,
                       log_debug, log_error, log_event, log_fatal, log_info, log_warn,
                       set_log_level)

_DTYPES = ("BF16", "BOOL", "FP16", "FP32", "FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "HF4",
           "HF8", "INDEX", "INT16", "INT32", "INT4", "INT64", "INT8", "UINT16", "UINT32",
           "UINT4", "UINT64", "UINT8")

__all__ = [*(f"DT_{name}" for name in _DTYPES), "DataType", "Error", "InternalError",
           "LogLevel", "check", "compile_profiling", "get_log_level", "internal_check",
           "internal_check_span", "ir", "language", "log_debug", "log_error", "log_event",
           "log_fatal", "log_info", "log_warn", "passes", "run", "runtime", "set_log_level",
           "__version__"]

_install_lazy_attributes(__name__, {
    "ir": ("pypto.ir", None),
    "passes": ("pypto.passes", None),
    "language": ("pypto.language", None),
    "runtime": ("pypto.runtime", None),
    "jit": ("pypto.jit", None),
    "backend": ("pypto.backend", None),
    "arith": ("pypto.arith", None),
    "compile_profiling": ("pypto.compile_profiling", None),
    "pypto_core": ("pypto.pypto_core", None),
    "debug": ("pypto.debug", None),
    "DataType": ("pypto.ir.dtype", "DataType"),
    **{f"DT_{name}": ("pypto.ir.dtype", f"DataType.{name}") for name in _DTYPES},
    "run": ("pypto.runtime", "execute"),  # NumPy is imported only when a program runs
})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
