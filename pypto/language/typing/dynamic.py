"""``M = pl.dynamic("M")``: named dynamic dimensions."""

from __future__ import annotations

from typing import Any

# PyPTO's module-level names of this path (DynVar.unwrap builds a Var of ScalarType)
from ...ir.dtype import DataType  # noqa: E402,F401
from ...ir.expr import Var  # noqa: E402,F401
from ...ir.node import Expr  # noqa: E402,F401
from ...ir.span import Span  # noqa: E402,F401
from ...ir.types import ScalarType  # noqa: E402,F401
from .scalar import Scalar  # noqa: E402,F401

__all__ = ["DynVar", "dynamic"]


class _DimArithmetic:
    """Python-level arithmetic on dims, so ``pl.Tensor[[M * 2, N + 1], ...]`` evaluates
    when Python runs a ``def``; the parser reads the dims from the AST instead."""

    __slots__ = ()

    def __ir_dim__(self) -> Any:
        """A stand-in INDEX Var for IR constructors Python runs while evaluating an
        annotation (``pl.TensorView(valid_shape=[16, N])``); the parser reads the real
        dim from the source, where ``N`` is the program's one Var of that name."""
        from ...ir.dtype import DataType
        from ...ir.expr import Var
        from ...ir.types import ScalarType
        return Var(getattr(self, "name", "dim"), ScalarType(DataType.INDEX))

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

    __slots__ = ("name", "_var")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """``DynVar("M")`` / ``DynVar(name="M")``, or ``DynVar(expr=v)`` for an existing
        INDEX variable ``v`` (its name; ``unwrap()`` gives ``v`` itself)."""
        name, expr = _dyn_var_args(args, kwargs)
        if expr is not None:
            if not (isinstance(expr, Var) and isinstance(expr.type, ScalarType)):
                raise TypeError(f"pl.DynVar(expr=...) expects a scalar ir.Var, "
                                f"got {type(expr).__name__}")
            name = expr.name_hint if name is None else name
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"pl.dynamic() needs an identifier name, got {name!r}")
        self.name = name
        self._var: Var | None = expr

    def unwrap(self) -> Any:
        """The ``ir.Var(name, Scalar[INDEX])`` this dim stands for when IR is built at
        Python level: one variable per ``DynVar`` object, made on first use.  (The parser
        makes its own, one per name and program.)"""
        if self._var is None:
            from ...ir.scalar_types import scalar_type
            self._var = Var(self.name, scalar_type(DataType.INDEX))
        return self._var

    def __repr__(self) -> str:
        return f'pl.dynamic("{self.name}")'

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DynVar) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("DynVar", self.name))


def _dyn_var_args(args: tuple, kwargs: dict) -> tuple[Any, Any]:
    """``(name, expr)`` from ``DynVar``'s PyPTO-style ``(*args, **kwargs)``."""
    unknown = set(kwargs) - {"name", "expr"}
    if unknown or len(args) > 1 or args and "name" in kwargs:
        raise TypeError("pl.DynVar takes a name (positional or name=) and optionally expr=; "
                        f"got {len(args)} positional and keywords {sorted(kwargs)}")
    name = args[0] if args else kwargs.get("name")
    return name, kwargs.get("expr")


def dynamic(name: str) -> DynVar:
    """Declare a dynamic dimension usable in shapes: ``M = pl.dynamic("M")``."""
    return DynVar(name)
