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


class RuntimeScalarMarker(Scalar):
    """``pl.RUNTIME``: in ``@pl.jit`` signature mode, leaves a scalar unspecialised.

    A ``Scalar`` (as PyPTO's is): ``RuntimeScalarMarker()`` is the marker itself, which
    stands for a value only known when the program runs and so has no expression to
    ``unwrap``; ``RuntimeScalarMarker(expr=e)`` marks the runtime scalar ``e`` (a
    parameter's ``Var``, say), and ``unwrap()`` gives ``e`` back."""

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or kwargs:
            super().__init__(*args, **kwargs)

    def unwrap(self) -> Expr:
        """The scalar expression marked as a runtime value (``TypeError`` for the bare
        ``pl.RUNTIME`` marker, which stands for none yet)."""
        try:
            return self._expr
        except AttributeError:
            raise TypeError("pl.RUNTIME stands for a scalar known only at run time; it has "
                            "no IR expression to unwrap (RuntimeScalarMarker(expr=e) "
                            "marks the expression e)") from None

    def __repr__(self) -> str:
        try:
            return f"pl.RUNTIME(expr={self._expr!r})"
        except AttributeError:
            return "pl.RUNTIME"

    def __reduce__(self) -> Any:
        # The bare marker stays the one ``pl.RUNTIME`` through copies and pickles: code
        # tests for it with ``is``.
        try:
            return (RuntimeScalarMarker, (), (None, {"_expr": self._expr}))
        except AttributeError:
            return "RUNTIME"


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
