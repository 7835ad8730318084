"""``pl.Tensor[[d0, d1], dtype, ...]``."""

from __future__ import annotations

from typing import Any

from .._value_surface import ShapedSurface
from ._annotation import AnnotationMeta, WrappedExpr
# PyPTO's module-level names of this path
from ...ir.dtype import DataType  # noqa: E402,F401
from ...ir.enums import TensorLayout  # noqa: E402,F401
from ...ir.node import Expr  # noqa: E402,F401
from ...ir.types import MemRef  # noqa: E402,F401

__all__ = ["Tensor"]


class TensorMeta(AnnotationMeta):
    """``pl.Tensor[...]``."""


class Tensor(WrappedExpr, ShapedSurface, metaclass=TensorMeta):
    """``pl.Tensor[[d0, d1], dtype(, layout | pl.TensorView(...))(, pl.MemRef(...))]`` as an
    annotation; ``pl.Tensor(expr=e)`` wraps a tensor IR expression built at Python level."""

    __slots__ = ()
    _ir_type = "TensorType"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if args or set(kwargs) != {"expr"}:
            raise TypeError("pl.Tensor is an annotation; use pl.create_tensor(...) inside a "
                            "@pl.function body to make a tensor (pl.Tensor(expr=e) wraps a "
                            "tensor IR expression)")
        self._wrap(kwargs["expr"])

    def bind_dynamic(self, dim: int, var: Any) -> None:
        """``x.bind_dynamic(0, M)`` in a ``@pl.jit`` body: dim 0 of ``x`` is the dynamic
        dim ``M``.  The jit reads it from the source; it does not run as Python."""
        raise RuntimeError("x.bind_dynamic(dim, var) only has a meaning inside a @pl.jit "
                           "body, where pypto reads it; it cannot run as plain Python")
