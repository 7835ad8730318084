"""The stable codes of parser errors (PyPTO's ``ErrorCode`` values), one table.

``get_error_code(type(err))`` is the code a parser error class reports under; the
command line's findings (``parser/findings.py``) read their ``E0xx``-``E3xx`` codes
from here.
"""

from __future__ import annotations

from enum import Enum
from typing import Optional

from .exceptions import (InvalidOperationError, ParserSyntaxError, ParserTypeError,
                         SSAViolationError, ScopeIsolationError, UndefinedVariableError,
                         UnsupportedFeatureError)

__all__ = ["ErrorCategory", "ErrorCode", "get_error_code"]


class ErrorCategory(Enum):
    """The first two characters of a code: what kind of mistake it is."""

    SYNTAX = "E0"
    TYPE = "E1"
    NAME = "E2"
    OPERATION = "E3"


class ErrorCode(Enum):
    UNSUPPORTED_STATEMENT = "E001"
    INVALID_ASSIGNMENT = "E002"
    INVALID_LOOP_TARGET = "E003"
    INVALID_RANGE_USAGE = "E004"
    MISSING_RANGE_CALL = "E005"
    TUPLE_UNPACKING_ERROR = "E006"
    ITER_ARG_MISMATCH = "E007"
    MISSING_TYPE_ANNOTATION = "E100"
    INVALID_TYPE_ANNOTATION = "E101"
    UNSUPPORTED_TYPE = "E102"
    INCOMPLETE_TYPE = "E103"
    TENSOR_TYPE_ERROR = "E104"
    DTYPE_ERROR = "E105"
    UNDEFINED_VARIABLE = "E200"
    SSA_VIOLATION = "E201"
    SCOPE_ISOLATION_ERROR = "E202"
    UNKNOWN_OPERATION = "E300"
    UNSUPPORTED_OPERATION = "E301"
    INVALID_OPERATION_ARGS = "E302"
    UNSUPPORTED_BINARY_OP = "E303"
    UNSUPPORTED_UNARY_OP = "E304"
    UNSUPPORTED_COMPARISON = "E305"


# Error class -> the code it reports under.  A subclass not listed (DSLSyntaxError)
# reports under its nearest listed base.
_CLASS_CODES: dict[type, ErrorCode] = {
    ParserSyntaxError: ErrorCode.UNSUPPORTED_STATEMENT,
    ParserTypeError: ErrorCode.INVALID_TYPE_ANNOTATION,
    UndefinedVariableError: ErrorCode.UNDEFINED_VARIABLE,
    SSAViolationError: ErrorCode.SSA_VIOLATION,
    ScopeIsolationError: ErrorCode.SCOPE_ISOLATION_ERROR,
    UnsupportedFeatureError: ErrorCode.UNSUPPORTED_OPERATION,
    InvalidOperationError: ErrorCode.INVALID_OPERATION_ARGS,
}


def get_error_code(exception_type: type) -> Optional[ErrorCode]:
    """The code errors of ``exception_type`` report under (``None``: not a parser error
    class with a code, e.g. the ``ParserError`` base itself)."""
    for klass in getattr(exception_type, "__mro__", ()):
        code = _CLASS_CODES.get(klass)
        if code is not None:
            return code
    return None


def coded_classes() -> tuple[type, ...]:
    """The parser error classes that have a code of their own, in code order."""
    return tuple(sorted(_CLASS_CODES, key=lambda klass: _CLASS_CODES[klass].value))
