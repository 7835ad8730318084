"""Type annotations: ``pl.Tensor[[64, M], pl.FP32]`` & co., read from the AST.

Annotations are never evaluated as a whole: the parser walks their AST and
evaluates only leaves (dims, dtypes, layouts) against the closure.
"""

from __future__ import annotations

import ast
from typing import Any, Protocol, Sequence

from . import pyast
from ...ir import expr as E
from ...ir import types as T
from ...ir.array_types import (ArrayType, AsyncEventType, AsyncSessionType,
                               PrefetchAsyncContextType, PtrType)
from ...ir.distributed_types import CommCtxType, DistributedTensorType, WindowBufferType
from ...ir.dtype import DataType
from ...ir.enums import MemorySpace, ParamDirection, TensorLayout
from ...ir.node import Expr
from ...ir.scalar_types import scalar_type
from ...ir.span import Span
from ..typing import DynVar
from .closure import MISSING, Closure, is_dunder
from .diagnostics import ParserTypeError
from .memref_slot import memref_slot

__all__ = ["parse_annotation", "parse_param_annotation", "parse_return_annotation",
           "parse_dtype", "attr_chain"]

class _NameLookup(Protocol):
    def lookup(self, name: str) -> Any: ...


class _DynDims(Protocol):
    def dyn_var(self, dyn: DynVar, span: Span | None = None) -> Any: ...
    def interned_base_ptr(self, name: str, span: Span | None = None) -> Any: ...


class AnnotationContext(Protocol):
    """What reading an annotation needs of its parser: a ``FunctionParser``, or a
    ``TypeResolver`` outside a function parse."""

    @property
    def closure(self) -> Closure: ...
    @property
    def names(self) -> _NameLookup: ...
    @property
    def program(self) -> _DynDims: ...
    def span(self, node: ast.AST) -> Span: ...
    def read_name(self, name: str, node: ast.AST) -> Any: ...
    def parse_expr(self, node: ast.expr) -> Any: ...


_DTYPE_NAMES = frozenset(dt.name for dt in DataType.all())
_TYPE_HEADS = ("Tensor", "Tile", "Scalar", "Tuple", "InOut", "Out", "TaskId", "UnknownType",
               "DistributedTensor", "CommCtx", "WindowBuffer", "Array", "Ptr", "PtrType",
               "PrefetchAsyncContext", "AsyncSession", "AsyncEvent")
# The parameterless handle annotations (``pl.Ptr``; ``pl.PtrType`` is PyPTO's alias).
_HANDLE_TYPES = {"Ptr": PtrType, "PtrType": PtrType,
                 "PrefetchAsyncContext": PrefetchAsyncContextType,
                 "AsyncSession": AsyncSessionType, "AsyncEvent": AsyncEventType}


def attr_chain(node: ast.expr) -> list[str] | None:
    """``pl.Mem.Vec`` -> ``["pl", "Mem", "Vec"]``; None if not a plain dotted name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    parts.reverse()
    return parts


def _head(node: ast.expr) -> str | None:
    """The DSL type name an annotation starts with (``pl.Tensor`` -> ``Tensor``)."""
    chain = attr_chain(node)
    if chain is None:
        return None
    if len(chain) == 1:
        return chain[0] if chain[0] in _TYPE_HEADS or chain[0] == "tuple" else None
    if len(chain) == 2 and chain[1] in _TYPE_HEADS:
        return chain[1]
    return None


def _string_annotation(p: AnnotationContext, node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            parsed = pyast.parse(node.value, mode="eval").body
        except SyntaxError:
            raise ParserTypeError(f"Invalid string annotation {node.value!r}", p.span(node)) from None
        return _relocate(parsed, node)
    return node


def _relocate(parsed: ast.expr, anchor: ast.expr) -> ast.expr:
    for sub in ast.walk(parsed):
        ast.copy_location(sub, anchor)  # (only the nodes that have a position)
    return parsed


def parse_param_annotation(p: AnnotationContext, node: ast.expr,
                           allow_bare: bool = False) -> tuple[T.Type, ParamDirection]:
    """A parameter annotation: a type, optionally wrapped in ``pl.InOut``/``pl.Out``."""
    node = _string_annotation(p, node)
    record = _alias_record(p, node)
    if record is not None:
        return _record_type(p, record, node, allow_direction=True)
    if isinstance(node, ast.Subscript):
        head = _head(node.value)
        if head in ("InOut", "Out"):
            inner = parse_annotation(p, node.slice, allow_bare=allow_bare)
            if isinstance(inner, T.ScalarType):
                raise ParserTypeError(f"pl.{head}[...] cannot wrap a scalar type; scalars are "
                                      "always passed by value", p.span(node))
            return inner, ParamDirection.InOut if head == "InOut" else ParamDirection.Out
    return parse_annotation(p, node, allow_bare=allow_bare), ParamDirection.In


def parse_return_annotation(p: AnnotationContext, node: ast.expr | None) -> list[T.Type]:
    """``-> T`` (one), ``-> tuple[T1, T2]`` (several), ``-> pl.Tuple[...]`` (one tuple)."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return []
    node = _string_annotation(p, node)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
            and node.value.id == "tuple":
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return [parse_annotation(p, item) for item in items]
    return [parse_annotation(p, node)]


def parse_annotation(p: AnnotationContext, node: ast.expr, allow_bare: bool = False) -> T.Type:
    plain = _plain_annotation(node, p.closure)
    if plain is not None:
        return plain
    node = _string_annotation(p, node)
    span = p.span(node)
    record = _alias_record(p, node)
    if record is not None:
        return _record_type(p, record, node, allow_direction=False)[0]
    if isinstance(node, ast.Subscript):
        head = _head(node.value)
        items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head in ("Tensor", "DistributedTensor"):
            return _tensor(p, node, items, distributed=head == "DistributedTensor")
        if head == "Tile":
            return _tile(p, node, items)
        if head == "Array":
            return _array(p, node, items)
        if head == "Scalar":
            if len(items) != 1:
                raise ParserTypeError("pl.Scalar[...] takes exactly one dtype", span)
            return scalar_type(parse_dtype(p, items[0]))
        if head in ("Tuple", "tuple"):
            if len(items) == 1 and isinstance(items[0], ast.Tuple) and not items[0].elts:
                return T.TupleType([])
            return T.TupleType([parse_annotation(p, item) for item in items])
        if head in ("InOut", "Out"):
            raise ParserTypeError(f"pl.{head}[...] is only allowed on function parameters", span)
        raise ParserTypeError(f"Unsupported type annotation '{ast.unparse(node)}'", span,
                              hint="Use pl.Tensor[[...], dtype], pl.Tile[[...], dtype], "
                                   "pl.Scalar[dtype] or pl.Tuple[...]")
    head = _head(node)
    if head == "TaskId":
        return scalar_type(DataType.TASK_ID)
    if head == "CommCtx":
        return CommCtxType.get()
    if head == "WindowBuffer":
        return WindowBufferType.get()
    if head in _HANDLE_TYPES:
        return _HANDLE_TYPES[head].get()
    if head == "UnknownType":  # printed for the result of a call to a not-yet-parsed method
        return T.UnknownType()
    if head in ("Tensor", "Tile") and allow_bare:
        return T.UnknownType()
    if head in ("Tensor", "Tile", "Scalar", "Tuple") or _is_dtype_node(node):
        what = ast.unparse(node)
        raise ParserTypeError(f"Incomplete type annotation '{what}'", span,
                              hint="Spell the full type: pl.Tensor[[64, 128], pl.FP32], "
                                   "pl.Tile[[16, 16], pl.FP32], pl.Scalar[pl.INT64]")
    raise ParserTypeError(f"Unsupported type annotation '{ast.unparse(node)}'", span,
                          hint="Use pl.Tensor[[...], dtype], pl.Tile[[...], dtype], "
                               "pl.Scalar[dtype] or pl.Tuple[...]")


def _plain_annotation(node: ast.expr, closure: Closure) -> T.Type | None:
    """The type of the commonest spellings, read straight off the tree (every printed
    assignment carries one): ``X.Tensor[[16, 64], X.FP32]`` and ``X.Tile[...]`` with
    literal int dims and no further slot, ``X.Scalar[X.INDEX]``; ``None`` for any other
    annotation.  What they mean depends on no binding -- the general path too takes a
    dotted head and dtype by their last name and a literal dim as it is -- so this
    builds exactly the type the general path builds, without its lookups.  Also a
    Tile's memory space as the printer writes it, ``X.Tile[[16, 64], X.FP32, X.Mem.Vec]``,
    where the general path evaluates ``X.Mem.Vec`` against the closure: taken when that
    evaluation is plainly a member (``_memory_space``)."""
    if node.__class__ is not ast.Subscript:
        return None
    head = node.value
    if head.__class__ is not ast.Attribute or head.value.__class__ is not ast.Name:
        return None
    kind = head.attr
    items = node.slice
    if kind == "Scalar":
        scalar_dtype = _dotted_dtype(items)
        return scalar_type(scalar_dtype) if scalar_dtype is not None else None
    if (kind != "Tensor" and kind != "Tile") or items.__class__ is not ast.Tuple:
        return None
    space = None
    if len(items.elts) == 3 and kind == "Tile":
        space = _memory_space(items.elts[2], closure)
        if space is None:
            return None
    elif len(items.elts) != 2:
        return None
    shape, dtype_node = items.elts[0], items.elts[1]
    dtype = _dotted_dtype(dtype_node)
    if shape.__class__ is not ast.List or dtype is None:
        return None
    dims: list[int] = []
    for dim in shape.elts:
        if dim.__class__ is not ast.Constant or type(dim.value) is not int \
                or dim.value > _MAX_DIM:
            return None
        dims.append(dim.value)
    if kind == "Tensor":
        return T.TensorType(dims, dtype, None, None)
    return T.TileType(dims, dtype, None, None, space)


def _memory_space(node: ast.expr, closure: Closure) -> MemorySpace | None:
    """``X.Mem.Vec`` -> ``MemorySpace.Vec`` when the closure's ``X.Mem`` is MemorySpace
    and ``Vec`` one of its members: what evaluating the slot gives then (the name
    lookup and two attribute reads of ``Closure.evaluate``); ``None`` otherwise."""
    if not isinstance(node, ast.Attribute):
        return None
    owner = node.value
    if not (isinstance(owner, ast.Attribute) and owner.attr == "Mem"
            and isinstance(owner.value, ast.Name)) or is_dunder(owner.value.id):
        return None
    base = closure.lookup(owner.value.id)
    if base is MISSING or getattr(base, "Mem", None) is not MemorySpace:
        return None
    member = MemorySpace.__members__.get(node.attr)
    return member if member is not None and getattr(MemorySpace, node.attr) is member else None


def _dotted_dtype(node: ast.expr) -> DataType | None:
    """``X.FP32`` -> ``DataType("FP32")`` (what ``parse_dtype`` reads it as); else None."""
    if node.__class__ is ast.Attribute and node.value.__class__ is ast.Name \
            and node.attr in _DTYPE_NAMES:
        return DataType(node.attr)
    return None


def _array(p: AnnotationContext, node: ast.Subscript, items: list[ast.expr]) -> T.Type:
    """``pl.Array[extent, dtype]``: the extent a constant int."""
    span = p.span(node)
    if len(items) != 2:
        raise ParserTypeError("pl.Array[...] takes an extent and a dtype: "
                              "pl.Array[8, pl.INT32]", span)
    extent = items[0].value if isinstance(items[0], ast.Constant) \
        else p.closure.evaluate(items[0], p.span(items[0]))
    if isinstance(extent, bool) or not isinstance(extent, int) or extent <= 0:
        raise ParserTypeError(f"pl.Array extent must be a positive int constant, got "
                              f"'{ast.unparse(items[0])}'", p.span(items[0]))
    return ArrayType(parse_dtype(p, items[1]), extent)


def _is_dtype_node(node: ast.expr) -> bool:
    chain = attr_chain(node)
    return chain is not None and chain[-1] in _DTYPE_NAMES


def parse_dtype(p: AnnotationContext, node: ast.expr) -> DataType:
    """``pl.FP32``, ``X.FP32``, ``FP32`` or a closure variable holding a DataType."""
    chain = attr_chain(node)
    if chain is not None and chain[-1] in _DTYPE_NAMES and (len(chain) > 1
                                                          or p.closure.lookup(chain[0]) is MISSING):
        return DataType(chain[-1])
    value = p.closure.evaluate(node, p.span(node))
    if isinstance(value, DataType):
        return value
    raise ParserTypeError(f"Expected a dtype such as pl.FP32, got '{ast.unparse(node)}'",
                          p.span(node))


def parse_shape(p: AnnotationContext, node: ast.expr) -> list[Any]:
    """A shape: list/tuple literal or a closure value; ints, DynVars, DSL scalars, exprs."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_dim(p, elt) for elt in node.elts]
    value = p.closure.evaluate(node, p.span(node), in_shape=True)
    if not isinstance(value, (list, tuple)):
        raise ParserTypeError(f"A shape must be a list, got {type(value).__name__} from "
                              f"'{ast.unparse(node)}'", p.span(node))
    return [_dim_value(p, v, node) for v in value]


def _dim(p: AnnotationContext, node: ast.expr) -> Any:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        if node.value > _MAX_DIM:  # (a literal is never negative: ``-5`` is a UnaryOp)
            return _dim_value(p, node.value, node)  # refused there
        return node.value
    if isinstance(node, ast.Name):
        bound = p.read_name(node.id, node)
        if bound is not None:
            return _dim_value(p, bound, node)
        return _dim_value(p, p.closure.evaluate(node, p.span(node), in_shape=True), node)
    return _dim_value(p, p.parse_expr(node), node)


_MAX_DIM = (1 << 63) - 1


def _dim_value(p: AnnotationContext, value: Any, node: ast.expr) -> Any:
    if isinstance(value, bool):
        raise ParserTypeError(f"A shape dimension cannot be a bool ('{ast.unparse(node)}')",
                              p.span(node))
    static = value.value if isinstance(value, E.ConstInt) else value  # ``-5`` folds to one
    if isinstance(static, int):
        if static < 0:
            raise ParserTypeError(f"A shape dimension cannot be negative ('{ast.unparse(node)}' "
                                  f"is {static})", p.span(node))
        if static > _MAX_DIM:
            raise ParserTypeError(f"The shape dimension '{ast.unparse(node)}' does not fit a "
                                  f"64-bit index", p.span(node))
    if isinstance(value, int):
        return value
    if isinstance(value, DynVar):
        return p.program.dyn_var(value, p.span(node))
    if isinstance(value, Expr):
        if not isinstance(value.type, T.ScalarType) or not value.type.dtype.is_int():
            raise ParserTypeError(f"A shape dimension must be an integer scalar, got "
                                  f"'{ast.unparse(node)}' of type {value.type}", p.span(node))
        return value
    raise ParserTypeError(f"Unsupported shape dimension '{ast.unparse(node)}' "
                          f"({type(value).__name__})", p.span(node))


def _enum_slot(p: AnnotationContext, node: ast.expr) -> Any:
    """A layout / memory-space / MemRef / view slot, evaluated against the closure."""
    if isinstance(node, ast.Call):
        return _view_call(p, node)
    return p.closure.evaluate(node, p.span(node))


def _view_call(p: AnnotationContext, node: ast.Call) -> Any:
    """``pl.TensorView(stride=[...], ...)`` etc.: list arguments hold dims (may be dynamic)."""
    ctor = p.closure.evaluate(node.func, p.span(node))
    if isinstance(ctor, type) and issubclass(ctor, T.MemRef):  # ir.MemRef or pl.MemRef
        return memref_slot(p, node)
    if ctor not in (T.TensorView, T.TileView):
        raise ParserTypeError(f"Unsupported call '{ast.unparse(node.func)}' in a type annotation",
                              p.span(node))

    def arg(value: ast.expr) -> Any:
        if isinstance(value, (ast.List, ast.Tuple)):
            return parse_shape(p, value)
        if isinstance(value, ast.Constant):
            return value.value
        if isinstance(value, ast.Name) and p.names.lookup(value.id) is not None:
            return _dim(p, value)
        result = p.closure.evaluate(value, p.span(value), in_shape=True)
        return _dim_value(p, result, value) if isinstance(result, DynVar) else result
    if any(k.arg is None for k in node.keywords):
        raise ParserTypeError(f"Invalid {ctor.__name__}: argument unpacking (**) is not "
                              "supported", p.span(node))
    try:
        return ctor(*[arg(a) for a in node.args],
                    **{k.arg: arg(k.value) for k in node.keywords if k.arg is not None})
    except (TypeError, ValueError) as exc:
        raise ParserTypeError(f"Invalid {ctor.__name__}: {exc}", p.span(node)) from None


def _tensor(p: AnnotationContext, node: ast.Subscript, items: list[ast.expr],
            distributed: bool = False) -> T.Type:
    what = "pld.DistributedTensor" if distributed else "pl.Tensor"
    if not 2 <= len(items) <= 4:
        raise ParserTypeError(f"{what}[...] takes 2 to 4 items (shape, dtype, [layout or "
                              f"view], [memref]), got {len(items)}", p.span(node))
    slots = [(_enum_slot(p, item), item) for item in items[2:]]
    t = tensor_type(p, parse_shape(p, items[0]), parse_dtype(p, items[1]), slots)
    return DistributedTensorType(t.shape, t.dtype, t.memref, t.tensor_view) if distributed else t


def _tile(p: AnnotationContext, node: ast.Subscript, items: list[ast.expr]) -> T.Type:
    if not 2 <= len(items) <= 5:
        raise ParserTypeError(f"pl.Tile[...] takes 2 to 5 items, got {len(items)}", p.span(node))
    slots = [(_enum_slot(p, item), item) for item in items[2:]]
    return tile_type(p, parse_shape(p, items[0]), parse_dtype(p, items[1]), slots, node)


def tensor_type(p: AnnotationContext, shape: list, dtype: DataType,
                slots: Sequence[tuple[Any, ast.AST]]) -> T.TensorType:
    """A TensorType from its shape, dtype and extra slots (layout / view / memref)."""
    view = memref = None
    for value, where in slots:
        if isinstance(value, TensorLayout):
            if value is TensorLayout.DN:
                raise ParserTypeError("pl.DN is not a valid tensor layout", p.span(where),
                                      hint="Use pl.ND or pl.NZ for tensors")
            # ``pl.ND`` is the default layout: no view at all, as in PyPTO.
            view = None if value is TensorLayout.ND else T.TensorView(layout=value)
        elif isinstance(value, T.TensorView):
            view = value
        elif isinstance(value, T.MemRef):
            memref = value
        else:
            raise ParserTypeError(f"Unsupported pl.Tensor slot {_slot_text(value, where)}",
                                  p.span(where), hint="Expected a layout (pl.NZ), a "
                                  "pl.TensorView(...) or a pl.MemRef(...)")
    return T.TensorType(shape, dtype, memref, view)


def tile_type(p: AnnotationContext, shape: list, dtype: DataType,
              slots: Sequence[tuple[Any, ast.AST]], node: ast.AST) -> T.TileType:
    """A TileType from its shape, dtype and extra slots (memory space / memref / view)."""
    memref = view = space = None
    for value, where in slots:
        if isinstance(value, MemorySpace):
            space = value
        elif isinstance(value, T.MemRef):
            memref = value
        elif isinstance(value, T.TileView):
            view = value
        else:
            raise ParserTypeError(f"Unsupported pl.Tile slot {_slot_text(value, where)}",
                                  p.span(where), hint="Expected a memory space (pl.Mem.Vec), "
                                  "a pl.MemRef(...) or a pl.TileView(...)")
    if memref is not None and space is None:
        raise ParserTypeError("A pl.Tile with a pl.MemRef also needs a memory space "
                              "(e.g. pl.Mem.Vec)", p.span(node))
    return T.TileType(shape, dtype, memref, view, space)


def _slot_text(value: Any, where: ast.AST) -> str:
    return f"'{ast.unparse(where)}' ({type(value).__name__})"


# -- type aliases: `T = pl.Tensor[[64], pl.FP32]` in the closure, `x: T` in a signature --------

def _alias_record(p: AnnotationContext, node: ast.expr) -> Any:
    """The AnnotationRecord a plain name annotation refers to, if it is an alias."""
    if not isinstance(node, (ast.Name, ast.Attribute)) or _head(node) is not None:
        return None
    chain = attr_chain(node)
    if chain is None or p.names.lookup(chain[0]) is not None \
            or p.closure.lookup(chain[0]) is MISSING:
        return None
    from ..typing import AnnotationRecord
    try:
        value = p.closure.evaluate(node, p.span(node))
    except ParserTypeError:
        return None
    return value if isinstance(value, AnnotationRecord) else None


def _record_type(p: AnnotationContext, record: Any, node: ast.expr,
                 allow_direction: bool) -> tuple[T.Type, ParamDirection]:
    """Convert an evaluated annotation (``pl.Tensor[[64], pl.FP32]``) to an IR type."""
    from ..typing import AnnotationRecord
    kind, args = record.kind, record.args
    span = p.span(node)
    if kind in ("InOut", "Out"):
        if not allow_direction:
            raise ParserTypeError(f"pl.{kind}[...] is only allowed on function parameters", span)
        inner, _ = _record_type(p, args[0], node, False)
        if isinstance(inner, T.ScalarType):
            raise ParserTypeError(f"pl.{kind}[...] cannot wrap a scalar type", span)
        return inner, ParamDirection.InOut if kind == "InOut" else ParamDirection.Out
    if kind == "Scalar" and len(args) == 1 and isinstance(args[0], DataType):
        return scalar_type(args[0]), ParamDirection.In
    if kind == "Tuple":
        return T.TupleType([_record_type(p, a, node, False)[0] for a in args
                            if isinstance(a, AnnotationRecord)]), ParamDirection.In
    if kind in ("Tensor", "Tile", "DistributedTensor") and len(args) >= 2 \
            and isinstance(args[1], DataType) and isinstance(args[0], (list, tuple)):
        shape = [_dim_value(p, dim, node) for dim in args[0]]
        slots = [(extra, node) for extra in args[2:]]
        if kind == "Tensor":
            return tensor_type(p, shape, args[1], slots), ParamDirection.In
        if kind == "DistributedTensor":
            t = tensor_type(p, shape, args[1], slots)
            return (DistributedTensorType(t.shape, t.dtype, t.memref, t.tensor_view),
                    ParamDirection.In)
        return tile_type(p, shape, args[1], slots, node), ParamDirection.In
    if kind == "Array" and len(args) == 2 and type(args[0]) is int and args[0] > 0 \
            and isinstance(args[1], DataType):
        return ArrayType(args[1], args[0]), ParamDirection.In
    raise ParserTypeError(f"Unsupported type annotation alias '{ast.unparse(node)}' "
                          f"({record!r})", span)
