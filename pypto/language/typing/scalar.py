"""``pl.Scalar[dtype]``, ``pl.RUNTIME`` and predicate operands."""

from __future__ import annotations

from typing import Any

from ...ir.node import Expr
from .._value_surface import ScalarSurface
from ._annotation import AnnotationMeta, WrappedExpr
# PyPTO's module-level names of this path
from ...ir.dtype import DataType  # noqa: E402,F401
from ...ir.expr import ConstInt  # noqa: E402,F401
from ...ir.span import Span  # noqa: E402,F401

__all__ = ["Scalar", "RuntimeScalarMarker", "RUNTIME", "predicate_to_expr"]


class ScalarMeta(AnnotationMeta):
    """``pl.Scalar[dtype]``."""


class Scalar(WrappedExpr, ScalarSurface, metaclass=ScalarMeta):
    """``pl.Scalar[dtype]`` as an annotation; ``pl.Scalar(expr=e)`` wraps a scalar IR
    expression built at Python level."""

    __slots__ = ()
    _ir_type = "ScalarType"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or set(kwargs) != {"expr"}:
            raise TypeError("pl.Scalar is an annotation (pl.Scalar[pl.INT64]); "
                            "pl.Scalar(expr=e) wraps a scalar IR expression")
        self._wrap(kwargs["expr"])


class RuntimeScalarMarker:
    """``pl.RUNTIME``: in ``@pl.jit`` signature mode, leaves a scalar unspecialised."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "pl.RUNTIME"


RUNTIME = RuntimeScalarMarker()


def predicate_to_expr(value: Any, span: Any = None) -> Any:
    """A predicate operand as IR: ``None`` stays ``None``, a bool is a ``ConstBool``,
    a wrapped scalar is its expression, an expression is itself."""
    if isinstance(value, Scalar):
        value = value.unwrap()
    if value is None or isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        from ...ir.expr import ConstBool
        from ...ir.span import Span
        return ConstBool(value, span or Span.unknown())
    raise TypeError(f"a predicate must be a bool or a Bool scalar expression, got "
                    f"{type(value).__name__}")
