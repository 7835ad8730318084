"""Compatibility facade for code written against the public project's compiled core.

``from pypto.pypto_core import ir, passes`` gives the very same module objects as
``from pypto import ir, passes``; likewise ``backend`` and ``arith``.  The core's log
functions, check functions and error classes are pypto's (``pypto/logging_.py``,
``pypto/errors.py``).  The core's ``codegen`` and ``testing`` modules are not provided
(code generation is out of scope; see docs/guide/differences.md).
"""

from __future__ import annotations

import sys

from .. import arith, backend, ir, passes
from ..errors import (CoreAssertionError as AssertionError,  # noqa: A004 - PyPTO's names
                      CoreIndexError as IndexError, CoreNotImplementedError as NotImplementedError,
                      CoreRuntimeError as RuntimeError, CoreTypeError as TypeError,
                      CoreValueError as ValueError, Error, InternalError)
from ..ir.dtype import DataType
from ..logging_ import (LogLevel, check, get_log_level, internal_check, internal_check_span,
                        log_debug, log_error, log_event, log_fatal, log_info, log_warn,
                        set_log_level)

DEBUG, INFO, WARN, ERROR = LogLevel.DEBUG, LogLevel.INFO, LogLevel.WARN, LogLevel.ERROR
FATAL, EVENT, NONE = LogLevel.FATAL, LogLevel.EVENT, LogLevel.NONE

# The submodules under the core's dotted names (``import pypto.pypto_core.ir.comm_layout``).
for _name, _module in {"ir": ir, "passes": passes, "backend": backend, "arith": arith,
                       "ir.comm_layout": ir.comm_layout,
                       "ir.tensor_view_semantics": ir.tensor_view_semantics}.items():
    sys.modules[f"{__name__}.{_name}"] = _module
del _name, _module

__all__ = ["AssertionError", "DEBUG", "DataType", "ERROR", "EVENT", "Error", "FATAL", "INFO",
           "IndexError", "InternalError", "LogLevel", "NONE", "NotImplementedError",
           "RuntimeError", "TypeError", "ValueError", "WARN", "arith", "backend", "check",
           "get_log_level", "internal_check", "internal_check_span", "ir", "log_debug",
           "log_error", "log_event", "log_fatal", "log_info", "log_warn", "passes",
           "set_log_level"]
