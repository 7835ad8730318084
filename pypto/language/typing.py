"""Annotation types of the DSL: ``pl.Tensor[[64], pl.FP32]``, ``pl.InOut[...]``, ...

The parser reads annotations from the AST and never evaluates them; these
classes only make ``def`` statements evaluate without error at Python level
(``pl.Tensor[...]`` returns an annotation record) and give ``@pl.jit`` users
something to write for bare tensor parameters.
"""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any, TypeVar

from ._value_surface import ScalarSurface, ShapedSurface

__all__ = ["Tensor", "Tile", "Scalar", "Tuple", "InOut", "Out", "TaskId", "DynVar", "dynamic",
           "AnnotationRecord", "RUNTIME"]


class AnnotationRecord:
    """What ``pl.Tensor[...]`` evaluates to at Python level (inert)."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, args: Any) -> None:
        self.kind = kind
        self.args = args if isinstance(args, tuple) else (args,)

    def __repr__(self) -> str:
        return f"pl.{self.kind}[{', '.join(map(repr, self.args))}]"

    def to_ast(self) -> "ast.expr":
        """The annotation as DSL source AST (``pl.Tensor[[64, M], pl.FP32]``), so an alias
        (``T = pl.Tensor[...]``; ``x: T``) can be read like the spelled-out form."""
        items = [_value_ast(arg) for arg in self.args]
        index = items[0] if len(items) == 1 else ast.Tuple(elts=items, ctx=ast.Load())
        return ast.Subscript(value=_pl_attr(self.kind), slice=index, ctx=ast.Load())


def _pl_attr(*names: str) -> "ast.expr":
    node: ast.expr = ast.Name(id="pl", ctx=ast.Load())
    for name in names:
        node = ast.Attribute(value=node, attr=name, ctx=ast.Load())
    return node


def _value_ast(value: Any) -> "ast.expr":
    from ..ir.dtype import DataType
    if isinstance(value, AnnotationRecord):
        return value.to_ast()
    if isinstance(value, (list, tuple)):
        return ast.List(elts=[_value_ast(v) for v in value], ctx=ast.Load())
    if isinstance(value, DataType):
        return _pl_attr(value.name)
    if isinstance(value, DynVar):
        return ast.Name(id=value.name, ctx=ast.Load())
    if isinstance(value, enum.Enum):
        owner = "Mem" if type(value).__name__ == "MemorySpace" else type(value).__name__
        return _pl_attr(owner, value.name)
    if isinstance(value, (int, float, bool, str)) or value is None:
        return ast.Constant(value=value)
    raise TypeError(f"Cannot spell {value!r} in a type annotation")


class _AnnotationMeta(type):
    def __getitem__(cls, args: Any) -> AnnotationRecord:
        return AnnotationRecord(cls.__name__, args)

    def __repr__(cls) -> str:
        return f"pl.{cls.__name__}"


class Tensor(ShapedSurface, metaclass=_AnnotationMeta):
    """``pl.Tensor[[d0, d1], dtype(, layout | pl.TensorView(...))(, pl.MemRef(...))]``"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("pl.Tensor is an annotation; use pl.create_tensor(...) inside a "
                        "@pl.function body to make a tensor")


class Tile(ShapedSurface, metaclass=_AnnotationMeta):
    """``pl.Tile[[d0, d1], dtype(, memory space, pl.MemRef(...), pl.TileView(...))]``"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("pl.Tile is an annotation; use pl.create_tile(...) or pl.load(...) "
                        "inside a @pl.function body")


class Scalar(ScalarSurface, metaclass=_AnnotationMeta):
    """``pl.Scalar[dtype]``"""


if TYPE_CHECKING:
    # Type checkers read pl.Tuple[A, B] as a tuple and pl.Out[T] / pl.InOut[T] as T
    # (the direction is the parser's business); docs/guide/typing.md.
    _T = TypeVar("_T")
    from builtins import tuple as Tuple
    from typing import Annotated
    InOut = Annotated[_T, "pl.InOut"]
    Out = Annotated[_T, "pl.Out"]
else:
    class Tuple(metaclass=_AnnotationMeta):
        """``pl.Tuple[T1, T2]``: one tuple-typed value."""

    class InOut(metaclass=_AnnotationMeta):
        """``pl.InOut[T]``: a parameter the function reads and writes."""

    class Out(metaclass=_AnnotationMeta):
        """``pl.Out[T]``: a parameter the function only writes."""


class TaskId(metaclass=_AnnotationMeta):
    """``pl.TaskId``: the ``Scalar[TASK_ID]`` returned by ``pl.submit``."""


class _DimArithmetic:
    """Python-level arithmetic on dims, so ``pl.Tensor[[M * 2, N + 1], ...]`` evaluates
    when Python runs a ``def``; the parser reads the dims from the AST instead."""

    __slots__ = ()

    def _combine(self, op: str, other: Any, reflected: bool = False) -> "DimExpr":
        left, right = (other, self) if reflected else (self, other)
        return DimExpr(f"({left!r} {op} {right!r})")

    def __add__(self, other: Any) -> "DimExpr":
        return self._combine("+", other)

    def __radd__(self, other: Any) -> "DimExpr":
        return self._combine("+", other, True)

    def __sub__(self, other: Any) -> "DimExpr":
        return self._combine("-", other)

    def __rsub__(self, other: Any) -> "DimExpr":
        return self._combine("-", other, True)

    def __mul__(self, other: Any) -> "DimExpr":
        return self._combine("*", other)

    def __rmul__(self, other: Any) -> "DimExpr":
        return self._combine("*", other, True)

    def __floordiv__(self, other: Any) -> "DimExpr":
        return self._combine("//", other)

    def __rfloordiv__(self, other: Any) -> "DimExpr":
        return self._combine("//", other, True)

    def __mod__(self, other: Any) -> "DimExpr":
        return self._combine("%", other)

    def __rmod__(self, other: Any) -> "DimExpr":
        return self._combine("%", other, True)


class DimExpr(_DimArithmetic):
    """An inert composite dim built at Python level (never read by the parser)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


class DynVar(_DimArithmetic):
    """A named dynamic dimension (``M = pl.dynamic("M")``).

    The parser maps each name to one ``ir.Var("M", Scalar[INDEX])`` per program
    (or per standalone function), so the same name is the same variable.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"pl.dynamic() needs an identifier name, got {name!r}")
        self.name = name

    def __repr__(self) -> str:
        return f'pl.dynamic("{self.name}")'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DynVar) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("DynVar", self.name))


def dynamic(name: str) -> DynVar:
    """Declare a dynamic dimension usable in shapes: ``M = pl.dynamic("M")``."""
    return DynVar(name)


class _RuntimeMarker:
    """``pl.RUNTIME``: in ``@pl.jit`` signature mode, leaves a scalar unspecialised."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "pl.RUNTIME"


RUNTIME = _RuntimeMarker()
