"""What ``pl.Tensor[...]`` and friends evaluate to at Python level.

The parser reads annotations from the AST and never evaluates them; these records
only make ``def`` statements evaluate without error (``pl.Tensor[...]`` returns an
inert record) and let an alias (``T = pl.Tensor[...]``; ``x: T``) be read like the
spelled-out form.
"""

from __future__ import annotations

import ast
import enum
from typing import Any

from ...ir.dtype import DataType
from ...ir.node import Expr

__all__ = ["AnnotationRecord", "AnnotationMeta", "WrappedExpr"]


class AnnotationRecord:
    """What ``pl.Tensor[...]`` evaluates to at Python level (inert)."""

    __slots__ = ("kind", "args")

    def __init__(self, kind: str, args: Any) -> None:
        self.kind = kind
        self.args = args if isinstance(args, tuple) else (args,)

    def __repr__(self) -> str:
        if self.kind == "Scalar" and len(self.args) == 1 and isinstance(self.args[0], DataType):
            return f"Scalar[{self.args[0].to_string()}]"  # PyPTO's form (``pl.TaskId``)
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
    from ...ir.dtype import DataType
    from .dynamic import DynVar
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


class AnnotationMeta(type):
    """``pl.<Kind>[args]`` makes an ``AnnotationRecord`` of that kind."""

    def __getitem__(cls, args: Any) -> AnnotationRecord:
        return AnnotationRecord(cls.__name__, args)

    def __repr__(cls) -> str:
        return f"pl.{cls.__name__}"


class WrappedExpr:
    """A DSL value standing for one IR expression at Python level (PyPTO's
    ``pl.Tensor(expr=e)``); ``unwrap()`` gives the expression back."""

    __slots__ = ("_expr",)
    _ir_type = ""  # the IR type name the wrapped expression must have

    def _wrap(self, expr: Any) -> None:
        if not isinstance(expr, Expr):
            raise TypeError(f"pl.{type(self).__name__}(expr=...) needs an IR expression, "
                            f"got {type(expr).__name__}")
        if self._ir_type and type(expr.type).__name__ != self._ir_type:
            raise TypeError(f"pl.{type(self).__name__}(expr=...) needs an expression of "
                            f"{self._ir_type}, got {type(expr.type).__name__}")
        self._expr = expr

    def unwrap(self) -> Expr:
        """The IR expression this value stands for."""
        return self._expr

    def __repr__(self) -> str:
        return f"pl.{type(self).__name__}(expr={self._expr!r})"
