"""Python values a ``@pl.jit`` body may take from its namespace, written back as source.

Globals and closure values are inlined into the generated program (01-language.md
§17.3), so each supported value has a source spelling (``literal_ast``) and a stable,
process-independent description for the cache key (``literal_key``).  Supported:
``bool``/``int``/``float``, pypto dtypes, ``pl`` enum members, ``pl.dynamic`` dims,
and lists/tuples of these.
"""

from __future__ import annotations

import ast
import enum
import math
from typing import Any, Optional

from ..ir.dtype import DataType
from ..language.typing import DynVar
from .specs import scalar_value_of

__all__ = ["literal_key", "literal_ast", "is_literal"]


def _plain(value: Any) -> Any:
    """NumPy scalars (``np.int64(16)``) stand for the Python number they hold."""
    plain = scalar_value_of(value)
    return value if plain is None else plain


def _pl_enum_class_name(value: enum.Enum) -> Optional[str]:
    """The ``pl.<Class>`` name of an enum member, if ``pl`` exports that class."""
    from .. import language as pl
    name = type(value).__name__
    return name if getattr(pl, name, None) is type(value) else None


def literal_key(value: Any) -> Any:
    """A JSON-able, process-independent description of ``value``; None if unsupported."""
    value = _plain(value)
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, enum.Enum):  # before int: pl enums are IntEnums
        cls = _pl_enum_class_name(value)
        return None if cls is None else ["enum", cls, value.name]
    if isinstance(value, int):
        return ["int", str(value)]
    if isinstance(value, float):
        return ["float", repr(value)]
    if isinstance(value, DataType):
        return ["dtype", value.name]
    if isinstance(value, DynVar):
        return ["dyn", value.name]
    if isinstance(value, (list, tuple)):
        items = [literal_key(item) for item in value]
        if any(item is None for item in items):
            return None
        return ["list" if isinstance(value, list) else "tuple", items]
    return None


def is_literal(value: Any) -> bool:
    return literal_key(value) is not None


def literal_ast(value: Any) -> ast.expr:
    """Source AST for a supported value (positions are set by the caller).

    A ``DynVar`` becomes the name of its header line (``M = pl.dynamic("M")``).
    """
    value = _plain(value)
    if isinstance(value, bool):
        return ast.Constant(value=value)
    if isinstance(value, enum.Enum):
        return _dotted(["pl", type(value).__name__, value.name])
    if isinstance(value, int):
        if value < 0:  # "-5" reads back as a negation, so build it as one
            return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value))
        return ast.Constant(value=value)
    if isinstance(value, float):
        return _float_ast(value)
    if isinstance(value, DataType):
        return _dotted(["pl", value.name])
    if isinstance(value, DynVar):
        return ast.Name(id=value.name, ctx=ast.Load())
    if isinstance(value, list):
        return ast.List(elts=[literal_ast(item) for item in value], ctx=ast.Load())
    if isinstance(value, tuple):
        return ast.Tuple(elts=[literal_ast(item) for item in value], ctx=ast.Load())
    raise TypeError(f"literal_ast: unsupported value of type {type(value).__name__}")


def _float_ast(value: float) -> ast.expr:
    if math.isnan(value):
        # No literal spells NaN; the parser folds inf - inf to it.
        inf = ast.Constant(value=math.inf)
        return ast.BinOp(left=inf, op=ast.Sub(), right=ast.Constant(value=math.inf))
    if math.copysign(1.0, value) < 0:
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value))
    return ast.Constant(value=value)


def _dotted(parts: list[str]) -> ast.expr:
    node: ast.expr = ast.Name(id=parts[0], ctx=ast.Load())
    for part in parts[1:]:
        node = ast.Attribute(value=node, attr=part, ctx=ast.Load())
    return node
