"""PyPTO's op-conversion registry: how a tensor-level op becomes tile-level ops.

``register_op_conversion("tensor.add", "tile.add")`` records a one-to-one rename;
``@op_conversion("tensor.exp")`` / ``register_op_conversion_custom`` record a function
``func(args, kwargs, ctx) -> Expr`` that may emit statements first through ``ctx``
(a ``ConversionContext``).  ``convert_call(call, ctx)`` applies what is registered.

pypto's own pipeline stops before ConvertTensorToTileOps (out of scope), so no pass of
pypto consults this registry; it is kept for user code that registers and applies
conversions itself.  A conversion, once registered, cannot be replaced.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from .expr import Call, Var
from .node import Expr, Stmt
from .ops import create_op_call, get_op
from .span import Span
from .stmt import AssignStmt

__all__ = ["AssignStmt", "ConversionContext", "Expr", "Span", "Stmt", "Var", "convert_call",
           "has_op_conversion", "op_conversion", "register_op_conversion",
           "register_op_conversion_custom"]

Converter = Callable[[Sequence[Expr], Mapping[str, Any], "ConversionContext"], Expr]
_CONVERSIONS: dict[str, Converter] = {}


class ConversionContext:
    """Collects the statements a conversion emits before its result."""

    def __init__(self, span: Span) -> None:
        self._span = span
        self._stmts: list[Stmt] = []

    @property
    def stmts(self) -> list[Stmt]:
        return list(self._stmts)

    def emit(self, stmt: Stmt) -> None:
        if not isinstance(stmt, Stmt):
            raise TypeError(f"ConversionContext.emit expects an ir.Stmt, got {type(stmt).__name__}")
        self._stmts.append(stmt)

    def let(self, name: str, value: Expr) -> Var:
        """Bind ``value`` to a new variable ``name`` (an emitted assignment)."""
        var = Var(name, value.type, self._span)
        self._stmts.append(AssignStmt(var, value, self._span))
        return var


def _register(from_op: str, converter: Converter) -> None:
    get_op(from_op)  # only registered ops convert
    if from_op in _CONVERSIONS:
        raise ValueError(f"a conversion for '{from_op}' is already registered")
    _CONVERSIONS[from_op] = converter


def register_op_conversion(from_op: str, to_op: str) -> None:
    """Convert ``from_op`` to ``to_op`` with the same operands and attributes."""
    get_op(to_op)

    def rename(args: Sequence[Expr], kwargs: Mapping[str, Any], ctx: ConversionContext) -> Expr:
        return create_op_call(to_op, list(args), dict(kwargs), ctx._span)
    _register(from_op, rename)


def register_op_conversion_custom(from_op: str, func: Converter) -> None:
    if not callable(func):
        raise TypeError(f"register_op_conversion_custom: func must be callable, got "
                        f"{type(func).__name__}")
    _register(from_op, func)


def op_conversion(from_op: str) -> Callable[[Converter], Converter]:
    """Decorator form of ``register_op_conversion_custom``."""
    def decorate(func: Converter) -> Converter:
        register_op_conversion_custom(from_op, func)
        return func
    return decorate


def has_op_conversion(op_name: str) -> bool:
    return op_name in _CONVERSIONS


def convert_call(call: Call, ctx: ConversionContext | None = None) -> Expr:
    """The converted form of ``call`` (statements it needs go to ``ctx``)."""
    converter = _CONVERSIONS.get(call.op.name)
    if converter is None:
        raise ValueError(f"no conversion is registered for '{call.op.name}'")
    ctx = ctx if ctx is not None else ConversionContext(call.span)
    # the op's hidden/default attributes are canonical kwargs of the call already
    return converter(list(call.args), call.kwargs, ctx)
