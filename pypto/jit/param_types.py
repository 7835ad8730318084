"""Parameter types as the specializer sees them, read from annotations and written back.

``read_annotation`` reads a ``@pl.jit`` parameter annotation from its AST, resolving
names in the function's namespace (the parser does the same later; this reading only
decides what the specializer must fill in and what it can check).  A bare
``pl.Tensor`` is *bare*; an annotation this module cannot fully read is *opaque* and
is passed to the parser as written.
"""

from __future__ import annotations

import ast
import copy
import enum
import operator
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ..language.parser import pyast
from ..ir.dtype import DataType
from ..ir.enums import ParamDirection, TensorLayout
from ..language.parser.annotations import attr_chain
from ..language.typing import DynVar
from .specs import scalar_value_of

__all__ = ["ExprDim", "Dim", "TensorInfo", "ScalarInfo", "ValueType", "AnnotationInfo",
           "read_annotation", "annotation_head", "parse_string_annotation",
           "type_annotation", "dim_key", "fold_int", "int_literal", "attr_chain"]

_DTYPE_NAMES = frozenset(dt.name for dt in DataType.all())
_TYPE_HEADS = frozenset({"Tensor", "Tile", "Scalar", "Tuple", "InOut", "Out", "TaskId"})
_MISSING = object()


class _Unreadable(Exception):
    """An annotation part this module cannot represent."""


@dataclass(frozen=True)
class ExprDim:
    """A dimension written as an expression (``n * 2``, ``M + 1``), kept as source text.

    Namespace values in it are already inlined (dynamic dims by their names, listed in
    ``dyn_vars``); ``local_names`` are the function's own names it uses, which make it
    meaningless in any other function.
    """

    text: str
    dyn_vars: tuple[DynVar, ...] = ()
    local_names: tuple[str, ...] = ()


Dim = Union[int, DynVar, ExprDim]


@dataclass(frozen=True)
class TensorInfo:
    dims: tuple[Dim, ...]
    dtype: DataType
    layout: TensorLayout = TensorLayout.ND

    @property
    def rank(self) -> int:
        return len(self.dims)

    def describe(self) -> str:
        return _tensor_text(self)


@dataclass(frozen=True)
class ScalarInfo:
    dtype: DataType


ValueType = Union[TensorInfo, ScalarInfo]


@dataclass(frozen=True)
class AnnotationInfo:
    """What a parameter annotation says.

    ``kind`` is ``"tensor"``, ``"scalar"`` or ``"other"``; ``bare`` marks ``pl.Tensor``
    without subscript; ``type`` is None for bare annotations and for ones this module
    cannot read (the parser reads those; the specializer passes them on as written).
    """

    direction: ParamDirection
    kind: str
    bare: bool = False
    type: Optional[ValueType] = None
    # ``x: pl.FP32`` / ``n: pl.INDEX``: a scalar spelled by its dtype alone, which the
    # specializer writes out as ``pl.Scalar[...]`` (PyPTO's reading).
    dtype_only: bool = False


def dim_key(dim: Dim) -> Optional[int]:
    """A dimension in the cache key: its size when static, None when dynamic."""
    return dim if isinstance(dim, int) else None


# -- reading --------------------------------------------------------------------------------

def annotation_head(node: ast.expr) -> Optional[str]:
    """``pl.Tensor`` / ``Tensor`` / ``X.Tensor`` -> ``"Tensor"`` (the parser's rule)."""
    chain = attr_chain(node)
    if chain is None:
        return None
    if len(chain) == 1:
        return chain[0] if chain[0] in _TYPE_HEADS else None
    return chain[-1] if len(chain) == 2 and chain[-1] in _TYPE_HEADS else None


def parse_string_annotation(node: ast.expr) -> ast.expr:
    """``x: "pl.Tensor[...]"`` -> the annotation's AST, positioned on the string."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return node
    try:
        parsed = pyast.parse(node.value, mode="eval").body
    except SyntaxError:
        return node  # the parser reports it
    for sub in ast.walk(parsed):
        if isinstance(sub, (ast.expr, ast.keyword)):
            ast.copy_location(sub, node)
    return parsed


Lookup = Callable[[str], Any]  # name -> value, or raise KeyError when unbound


def read_annotation(node: Optional[ast.expr], lookup: Lookup,
                    is_local: Callable[[str], bool]) -> AnnotationInfo:
    """Read a parameter annotation; ``lookup`` resolves non-local names."""
    if node is None:
        return AnnotationInfo(ParamDirection.In, "other")
    node = resolve_alias(parse_string_annotation(node), lookup, is_local)
    direction = ParamDirection.In
    if isinstance(node, ast.Subscript) and annotation_head(node.value) in ("InOut", "Out"):
        direction = ParamDirection.InOut if annotation_head(node.value) == "InOut" \
            else ParamDirection.Out
        node = resolve_alias(parse_string_annotation(node.slice), lookup, is_local)
    reader = _Reader(lookup, is_local)
    head = annotation_head(node.value if isinstance(node, ast.Subscript) else node)
    if head == "Tensor":
        if not isinstance(node, ast.Subscript):
            return AnnotationInfo(direction, "tensor", bare=True)
        return AnnotationInfo(direction, "tensor", type=reader.tensor(node))
    if head == "Scalar" and isinstance(node, ast.Subscript):
        dtype = reader.dtype(node.slice)
        return AnnotationInfo(direction, "scalar",
                              type=None if dtype is None else ScalarInfo(dtype))
    if head == "Scalar":
        return AnnotationInfo(direction, "scalar", bare=True)
    if head is None and direction is ParamDirection.In:
        dtype = reader.dtype(node)
        if dtype is not None:
            return AnnotationInfo(direction, "scalar", type=ScalarInfo(dtype), dtype_only=True)
    return AnnotationInfo(direction, "other")


def resolve_alias(node: ast.expr, lookup: Lookup, is_local: Callable[[str], bool]) -> ast.expr:
    """``x: T`` with ``T = pl.Tensor[...]`` reads as the spelled-out annotation."""
    from ..language.typing import AnnotationRecord
    chain = attr_chain(node)
    if chain is None or annotation_head(node) is not None or is_local(chain[0]):
        return node
    try:
        value = lookup(chain[0])
        for part in chain[1:]:
            value = getattr(value, part)
    except (KeyError, AttributeError):
        return node
    if not isinstance(value, AnnotationRecord):
        return node
    spelled = value.to_ast()
    for sub in ast.walk(spelled):
        ast.copy_location(sub, node)
    return spelled


class _Reader:
    def __init__(self, lookup: Lookup, is_local: Callable[[str], bool]) -> None:
        self.lookup = lookup
        self.is_local = is_local

    def value(self, name: str) -> Any:
        if self.is_local(name):
            return _MISSING
        try:
            value = self.lookup(name)
        except KeyError:
            return _MISSING
        plain = scalar_value_of(value)  # np.int64(16) stands for 16
        return value if plain is None else plain

    def tensor(self, node: ast.Subscript) -> Optional[TensorInfo]:
        """Shape, dtype and layout; a TensorView / MemRef slot is left to the parser."""
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(items) < 2:
            return None
        dims = self.shape(items[0])
        dtype = self.dtype(items[1])
        if dims is None or dtype is None:
            return None
        layout = self.evaluate(items[2]) if len(items) >= 3 else TensorLayout.ND
        if not isinstance(layout, TensorLayout):
            layout = TensorLayout.ND
        return TensorInfo(tuple(dims), dtype, layout)

    def shape(self, node: ast.expr) -> Optional[list[Dim]]:
        if isinstance(node, (ast.List, ast.Tuple)):
            read = [self.dim(elt) for elt in node.elts]
            dims: list[Dim] = [d for d in read if d is not None]
            return dims if len(dims) == len(read) else None
        value = self.evaluate(node)
        if not isinstance(value, (list, tuple)):
            return None
        values = [v if isinstance(v, DynVar) else scalar_value_of(v) for v in value]
        dims = [d for d in values
                if isinstance(d, DynVar) or (isinstance(d, int) and not isinstance(d, bool))]
        return dims if len(dims) == len(values) else None

    def dim(self, node: ast.expr) -> Optional[Dim]:
        folded = fold_int(node, self.value)
        if folded is not None:
            return folded
        if isinstance(node, ast.Name):
            value = self.value(node.id)
            if isinstance(value, DynVar):
                return value
        return self.expression_dim(node)

    def expression_dim(self, node: ast.expr) -> Optional[ExprDim]:
        """The dim as text with namespace ints and dynamic dims inlined; None when it
        uses anything else (the annotation is then passed through as written)."""
        dyn_vars: list[DynVar] = []
        local_names: list[str] = []
        reader = self

        class Inline(ast.NodeTransformer):
            def visit_Name(self, name: ast.Name) -> ast.expr:
                if reader.is_local(name.id):
                    local_names.append(name.id)
                    return name
                return self.replace(name, reader.value(name.id))

            def visit_Attribute(self, attribute: ast.Attribute) -> ast.expr:
                if attr_chain(attribute) is None:
                    raise _Unreadable()
                return self.replace(attribute, reader.evaluate(attribute))

            @staticmethod
            def replace(old: ast.expr, value: Any) -> ast.expr:
                if isinstance(value, DynVar):
                    dyn_vars.append(value)
                    return ast.Name(id=value.name, ctx=ast.Load())
                if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
                    return ast.Constant(value=value)
                raise _Unreadable()

        try:
            inlined = Inline().visit(copy.deepcopy(node))
        except _Unreadable:
            return None
        return ExprDim(ast.unparse(inlined), tuple(dyn_vars), tuple(local_names))

    def dtype(self, node: ast.expr) -> Optional[DataType]:
        chain = attr_chain(node)
        if chain is not None and chain[-1] in _DTYPE_NAMES and (
                len(chain) > 1 or self.value(chain[0]) is _MISSING):
            return DataType(chain[-1])
        value = self.evaluate(node)
        return value if isinstance(value, DataType) else None

    def evaluate(self, node: ast.expr) -> Any:
        """A dotted name's value (``pl.NZ``, ``LAYOUT``); anything else is unknown."""
        chain = attr_chain(node)
        if chain is None:
            return _MISSING
        value = self.value(chain[0])
        for attr in chain[1:]:
            value = getattr(value, attr, _MISSING)
            if value is _MISSING:
                break
        return value


def int_literal(node: ast.expr) -> Optional[int]:
    """``3`` or ``-3`` written literally; None otherwise."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_literal(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


_FOLD_BINOPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
}


def fold_int(node: ast.expr, value_of: Callable[[str], Any]) -> Optional[int]:
    """An int literal, an int global, or + - * // % of those; None otherwise."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.Name):
        value = value_of(node.id)
        return value if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)) \
            else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = fold_int(node.operand, value_of)
        if operand is None:
            return None
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.BinOp) and type(node.op) in _FOLD_BINOPS:
        left = fold_int(node.left, value_of)
        right = fold_int(node.right, value_of)
        if left is None or right is None:
            return None
        try:
            return _FOLD_BINOPS[type(node.op)](left, right)
        except ZeroDivisionError:
            return None
    return None


# -- writing ----------------------------------------------------------------------------------

def _dim_text(dim: Dim) -> str:
    if isinstance(dim, DynVar):
        return dim.name
    if isinstance(dim, ExprDim):
        return dim.text
    return str(dim)


def _layout_text(layout: TensorLayout) -> str:
    from .. import language as pl
    name = layout.name
    return f"pl.{name}" if getattr(pl, name, None) is layout else f"pl.TensorLayout.{name}"


def _tensor_text(info: TensorInfo) -> str:
    dims = ", ".join(_dim_text(d) for d in info.dims)
    extra = "" if info.layout is TensorLayout.ND else f", {_layout_text(info.layout)}"
    return f"pl.Tensor[[{dims}], pl.{info.dtype.name}{extra}]"


def type_annotation(value_type: ValueType,
                    direction: ParamDirection = ParamDirection.In) -> ast.expr:
    """The annotation AST of a type (positions unset); DynVar dims become their names."""
    if isinstance(value_type, ScalarInfo):
        text = f"pl.Scalar[pl.{value_type.dtype.name}]"
    else:
        text = _tensor_text(value_type)
    if direction is not ParamDirection.In:
        text = f"pl.{direction.name}[{text}]"
    return pyast.parse(text, mode="eval").body
