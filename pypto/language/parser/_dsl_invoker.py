"""PyPTO's ``invoke_dsl``: run a Python-level DSL helper at a call site.

A helper that builds IR with ``pl.*`` calls (outside any parse) is called with the
call site's span made the default of every op call it builds (``use_parser_span``),
its result turned back into IR, and its user errors reported as parser diagnostics
at the call site, as the parser reports its own.
"""

from __future__ import annotations

from typing import Any, Callable

from ... import ir  # noqa: F401 - PyPTO's module-level names of this path
from ...errors import InternalError
from ...ir.span import Span
from ...ir.utils import use_parser_span
from ..array_types import Array, Ptr  # noqa: F401
from ..distributed.typing import CommCtx, DistributedTensor  # noqa: F401
from ..typing import AsyncEvent, AsyncSession, PrefetchAsyncContext  # noqa: F401
from ..typing import Scalar, Tensor, Tile  # noqa: F401
from ..typing._annotation import WrappedExpr
from ._defects import raise_if_pypto_defect
from .diagnostics import InvalidOperationError, ParserError, concise_error_message

__all__ = ["invoke_dsl", "use_parser_span"]


def invoke_dsl(fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any],
               span: Span) -> Any:
    """``fn(*args, **kwargs)`` with ``span`` as the default span of the op calls it
    builds.  Wrapped DSL values (``pl.Tensor(expr=e)`` ...) among the arguments and in
    the result are given as their IR expressions (pypto's ``pl.*`` ops take and return
    IR); lists and tuples are converted element by element.  A ``ParserError`` passes
    through; another user error (``TypeError``, ``ValueError`` ...) becomes an
    ``InvalidOperationError`` at ``span``; pypto's own bugs propagate unchanged."""
    if not callable(fn):
        raise TypeError(f"invoke_dsl expects a callable, got {type(fn).__name__}")
    if not isinstance(span, Span):
        raise TypeError(f"invoke_dsl expects an ir.Span, got {type(span).__name__}")
    call_args = [_as_ir(a) for a in args]
    call_kwargs = {name: _as_ir(value) for name, value in dict(kwargs or {}).items()}
    with use_parser_span(span):
        try:
            result = fn(*call_args, **call_kwargs)
        except (ParserError, InternalError, AssertionError, RecursionError):
            raise
        except Exception as exc:  # noqa: BLE001 - a user error of the helper, with a span
            name = getattr(fn, "__name__", type(fn).__name__)
            raise_if_pypto_defect(exc, span, f"a call of {name}(...)")
            raise InvalidOperationError(f"{name}(...) failed: {concise_error_message(exc)}",
                                        span) from exc
    return _as_ir(result)


def _as_ir(value: Any) -> Any:
    if isinstance(value, WrappedExpr):
        return value.unwrap()
    if isinstance(value, list):
        return [_as_ir(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_as_ir(v) for v in value)
    return value
