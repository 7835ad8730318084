"""Parser diagnostics (PyPTO's ``pypto.language.parser.diagnostics`` package): the error
classes (:mod:`.exceptions`), their snippet renderer (:mod:`.renderer`) and their stable
codes (:mod:`.error_codes`).

Importing it installs the ``sys.excepthook`` wrapper that prints uncaught parser errors
as source snippets (01-language.md §14.5).
"""

from __future__ import annotations

from . import error_codes, exceptions, renderer
from .error_codes import ErrorCategory, ErrorCode, get_error_code
from .exceptions import (BUG_CLASS_EXCEPTIONS, DSLSyntaxError, InvalidOperationError,
                         ParserError, ParserSyntaxError, ParserTypeError, SSAViolationError,
                         ScopeIsolationError, UndefinedVariableError, UnsupportedFeatureError,
                         backtrace_enabled, concise_error_message, install_excepthook,
                         span_to_dict, uninstall_excepthook)
from .renderer import ErrorRenderer

__all__ = ["BUG_CLASS_EXCEPTIONS", "ErrorCategory", "ErrorCode", "ErrorRenderer",
           "InvalidOperationError", "ParserError", "ParserSyntaxError", "ParserTypeError",
           "SSAViolationError", "ScopeIsolationError", "UndefinedVariableError",
           "UnsupportedFeatureError", "concise_error_message", "get_error_code"]
