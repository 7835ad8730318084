"""The unified ``pl.*`` op functions (01-language.md §12.1-§12.2).

Each function routes to one registered op by the kinds of its operands:

* the first Tensor/Tile operand picks ``tensor.<op>`` or ``tile.<op>`` (if the
  registry has no op of that name for the path, the call is a ``TypeError``);
* a scalar second operand picks the ``…s`` form (``add`` -> ``adds``); a scalar
  *first* operand is swapped behind the other one for commutative ops only;
* all-scalar operands build scalar IR (``ir.add``, ``ir.min_``, ``ir.cast`` ...).

Keywords that belong to the other path (``b_trans=`` on tiles, ``tmp_tile`` on
tensors, a missing ``tmp_tile`` on tiles) are ``TypeError``s; shape and dtype
problems surface as the registry's ``ValueError``s.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from pypto import ir
from pypto.ir.enums import MemorySpace, TensorLayout
from pypto.ir.ops import create_op_call, is_op_registered

__all__ = [
    "UNIFIED_OPS", "add", "sub", "mul", "div", "maximum", "minimum", "exp", "log", "sqrt",
    "rsqrt", "recip", "neg", "abs", "relu", "cast", "matmul", "matmul_acc", "row_sum",
    "row_max", "row_min", "col_sum", "col_max", "col_min", "row_expand", "row_expand_add",
    "row_expand_sub", "row_expand_mul", "row_expand_div", "col_expand", "col_expand_add",
    "col_expand_sub", "col_expand_mul", "col_expand_div", "expands", "cmp", "cmps", "sel",
    "create_tensor", "create_tile", "full", "load", "store", "move", "slice", "assemble",
    "reshape", "transpose", "read", "write", "dim", "min", "max", "get_block_idx",
    "get_block_num", "get_subblock_idx",
]

Span = ir.Span
_SHAPED = ("tensor", "tile")


# -- operand kinds and routing -------------------------------------------------------

def _kind(value: Any) -> str | None:
    """``"tensor"``, ``"tile"``, ``"scalar"`` (IR scalar or Python number), or None."""
    if isinstance(value, ir.Expr):
        t = value.type
        if isinstance(t, ir.TensorType):
            return "tensor"
        if isinstance(t, ir.TileType):
            return "tile"
        return "scalar" if isinstance(t, ir.ScalarType) else None
    if isinstance(value, (bool, int, float)) and not isinstance(value, enum.Enum):
        return "scalar"
    return None


def _describe(value: Any) -> str:
    if isinstance(value, ir.Expr):
        return str(value.type)
    return f"{type(value).__name__} {value!r}"


def _path(unified: str, param: str, value: Any) -> str:
    """The namespace chosen by a Tensor/Tile operand."""
    kind = _kind(value)
    if kind in _SHAPED:
        return kind
    raise TypeError(f"pl.{unified}: '{param}' must be a Tensor or Tile, got {_describe(value)}")


def _call(unified: str, path: str, op: str, args: list, kwargs: dict | None,
          span: Span | None) -> ir.Call:
    name = f"{path}.{op}"
    if not is_op_registered(name):
        other = "Tensor" if path == "tile" else "Tile"
        raise TypeError(f"pl.{unified} has no {path} form ({name} is not an op); "
                        f"it takes a {other}")
    return create_op_call(name, args, kwargs, span)


def _reject(unified: str, path: str, **given: Any) -> None:
    """``TypeError`` for keywords set to a non-default value on a path without them."""
    for key, value in given.items():
        if value is not None and value is not False:
            raise TypeError(f"pl.{unified}: '{key}' is not supported for {path} operands")


def _present(*optional: Any) -> list:
    """Trailing optional operands that were given (``None`` means omitted)."""
    return [value for value in optional if value is not None]


@dataclass(frozen=True)
class _BinaryRoute:
    scalar_form: str                         # op used when rhs is a scalar
    scalar_ir: Callable[..., ir.Expr] | None  # builder for scalar ⊕ scalar
    commutative: bool = False                 # may a scalar lhs swap behind the rhs?


_BINARY: dict[str, _BinaryRoute] = {
    "add": _BinaryRoute("adds", ir.add, commutative=True),
    "sub": _BinaryRoute("subs", ir.sub),
    "mul": _BinaryRoute("muls", ir.mul, commutative=True),
    "div": _BinaryRoute("divs", ir.truediv),
    "maximum": _BinaryRoute("maximums", ir.max_, commutative=True),
    "minimum": _BinaryRoute("minimums", ir.min_, commutative=True),
    "cmp": _BinaryRoute("cmps", None),
}

# Unary ops with a scalar IR form; the rest need a Tensor or Tile.
_UNARY_SCALAR: dict[str, Callable[..., ir.Expr]] = {"neg": ir.neg, "abs": ir.abs_}


def _binary(name: str, lhs: Any, rhs: Any, span: Span | None, **kwargs: Any) -> ir.Expr:
    route = _BINARY[name]
    lhs_kind, rhs_kind = _kind(lhs), _kind(rhs)
    if lhs_kind == "scalar" and rhs_kind == "scalar":
        if route.scalar_ir is None:
            raise TypeError(f"pl.{name} needs a Tensor or Tile operand; got two scalars")
        _reject(name, "scalar", **kwargs)
        return route.scalar_ir(lhs, rhs, span=span)
    if lhs_kind == "scalar" and rhs_kind in _SHAPED:
        if not route.commutative:
            raise TypeError(f"pl.{name}: 'lhs' must be a Tensor or Tile when 'rhs' is one "
                            f"(got a scalar lhs)")
        lhs, rhs, rhs_kind = rhs, lhs, lhs_kind
    path = _path(name, "lhs", lhs)
    op = route.scalar_form if rhs_kind == "scalar" else name
    return _call(name, path, op, [lhs, rhs], kwargs, span)


def _unary(name: str, x: Any, span: Span | None, **kwargs: Any) -> ir.Expr:
    if _kind(x) == "scalar":
        build = _UNARY_SCALAR.get(name)
        if build is None:
            raise TypeError(f"pl.{name} has no scalar form; 'x' must be a Tensor or Tile")
        _reject(name, "scalar", **kwargs)
        return build(x, span=span)
    return _call(name, _path(name, "x", x), name, [x], kwargs, span)


def _shaped(name: str, first: str, args: list, span: Span | None,
            kwargs: dict | None = None) -> ir.Call:
    """Ops routed by their first operand only, with the same name on both paths."""
    return _call(name, _path(name, first, args[0]), name, args, kwargs, span)


def _row_reduce(name: str, x: Any, tmp_tile: Any, span: Span | None) -> ir.Call:
    path = _path(name, "x", x)
    if path == "tile":
        if tmp_tile is None:
            raise TypeError(f"pl.{name} on a Tile requires tmp_tile (a scratch Tile)")
        return _call(name, path, name, [x, tmp_tile], None, span)
    if tmp_tile is not None:
        raise TypeError(f"pl.{name} on a Tensor does not take tmp_tile")
    return _call(name, path, name, [x], None, span)


# -- elementwise ---------------------------------------------------------------------

def add(lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Expr:
    return _binary("add", lhs, rhs, span)


def sub(lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Expr:
    return _binary("sub", lhs, rhs, span)


def mul(lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Expr:
    return _binary("mul", lhs, rhs, span)


def div(lhs: Any, rhs: Any, high_precision: bool = False, *,
        span: Span | None = None) -> ir.Expr:
    return _binary("div", lhs, rhs, span, high_precision=high_precision)


def maximum(lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Expr:
    return _binary("maximum", lhs, rhs, span)


def minimum(lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Expr:
    return _binary("minimum", lhs, rhs, span)


def exp(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("exp", x, span, high_precision=high_precision)


def log(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("log", x, span, high_precision=high_precision)


def sqrt(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("sqrt", x, span, high_precision=high_precision)


def rsqrt(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("rsqrt", x, span, high_precision=high_precision)


def recip(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("recip", x, span, high_precision=high_precision)


def neg(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:
    return _unary("neg", x, span, high_precision=high_precision)


def abs(x: Any, high_precision: bool = False, *, span: Span | None = None) -> ir.Expr:  # noqa: A001
    return _unary("abs", x, span, high_precision=high_precision)


def relu(tile: Any, *, span: Span | None = None) -> ir.Expr:
    return _unary("relu", tile, span)


def cast(x: Any, target_type: ir.DataType, mode: str = "round", *,
         span: Span | None = None) -> ir.Expr:
    if _kind(x) == "scalar":
        if mode != "round":
            raise TypeError("pl.cast: 'mode' is not supported for scalar operands")
        return ir.cast(x, target_type, span=span)
    return _shaped("cast", "x", [x], span, {"target_type": target_type, "mode": mode})


# -- matmul, reductions, row/column broadcasts ---------------------------------------

def matmul(lhs: Any, rhs: Any, out_dtype: ir.DataType | None = None, a_trans: bool = False,
           b_trans: bool = False, *, span: Span | None = None) -> ir.Call:
    path = _path("matmul", "lhs", lhs)
    if path == "tile":
        _reject("matmul", path, out_dtype=out_dtype, a_trans=a_trans, b_trans=b_trans)
        return _call("matmul", path, "matmul", [lhs, rhs], None, span)
    kwargs = {"out_dtype": out_dtype, "a_trans": a_trans, "b_trans": b_trans}
    return _call("matmul", path, "matmul", [lhs, rhs], kwargs, span)


def matmul_acc(acc: Any, lhs: Any, rhs: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("matmul_acc", "acc", [acc, lhs, rhs], span)


def row_sum(x: Any, tmp_tile: Any = None, *, span: Span | None = None) -> ir.Call:
    return _row_reduce("row_sum", x, tmp_tile, span)


def row_max(x: Any, tmp_tile: Any = None, *, span: Span | None = None) -> ir.Call:
    return _row_reduce("row_max", x, tmp_tile, span)


def row_min(x: Any, tmp_tile: Any = None, *, span: Span | None = None) -> ir.Call:
    return _row_reduce("row_min", x, tmp_tile, span)


def col_sum(x: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_sum", "x", [x], span)


def col_max(x: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_max", "x", [x], span)


def col_min(x: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_min", "x", [x], span)


def row_expand(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("row_expand", "lhs", [lhs, vec], span)


def row_expand_add(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("row_expand_add", "lhs", [lhs, vec], span)


def row_expand_sub(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("row_expand_sub", "lhs", [lhs, vec], span)


def row_expand_mul(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("row_expand_mul", "lhs", [lhs, vec], span)


def row_expand_div(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("row_expand_div", "lhs", [lhs, vec], span)


def col_expand(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_expand", "lhs", [lhs, vec], span)


def col_expand_add(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_expand_add", "lhs", [lhs, vec], span)


def col_expand_sub(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_expand_sub", "lhs", [lhs, vec], span)


def col_expand_mul(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_expand_mul", "lhs", [lhs, vec], span)


def col_expand_div(lhs: Any, vec: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("col_expand_div", "lhs", [lhs, vec], span)


def expands(target: Any, scalar: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("expands", "target", [target, scalar], span)


def cmp(lhs: Any, rhs: Any, cmp_type: int = 0, *, span: Span | None = None) -> ir.Expr:
    return _binary("cmp", lhs, rhs, span, cmp_type=cmp_type)


def cmps(lhs: Any, rhs: Any, cmp_type: int = 0, *, span: Span | None = None) -> ir.Call:
    return _call("cmps", _path("cmps", "lhs", lhs), "cmps", [lhs, rhs],
                 {"cmp_type": cmp_type}, span)


def sel(mask: Any, lhs: Any, rhs: Any, tmp: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("sel", "mask", [mask, lhs, rhs, tmp], span)


# -- creation and data movement ------------------------------------------------------

def create_tensor(shape: Any, dtype: ir.DataType, layout: TensorLayout = TensorLayout.ND, *,
                  span: Span | None = None) -> ir.Call:
    return create_op_call("tensor.create", [shape], {"dtype": dtype, "layout": layout}, span)


def create_tile(shape: Any, dtype: ir.DataType, target_memory: MemorySpace = MemorySpace.Vec,
                *, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.create", [shape],
                          {"dtype": dtype, "target_memory": target_memory}, span)


def full(shape: Any, dtype: ir.DataType, value: Any, *, span: Span | None = None) -> ir.Call:
    return create_op_call("tensor.full", [shape, value], {"dtype": dtype}, span)


def load(tensor: Any, offsets: Any, shapes: Any, valid_shape: Any = None,
         target_memory: MemorySpace = MemorySpace.Vec, *, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.load", [tensor, offsets, shapes, *_present(valid_shape)],
                          {"target_memory": target_memory}, span)


def store(tile: Any, offsets: Any, output_tensor: Any, shapes: Any = None, *,
          atomic: ir.AtomicType | None = None, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.store", [tile, offsets, output_tensor, *_present(shapes)],
                          {"atomic": atomic}, span)


def move(tile: Any, target_memory: MemorySpace, *, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.move", [tile], {"target_memory": target_memory}, span)


def slice(x: Any, shape: Any, offset: Any, valid_shape: Any = None,  # noqa: A001
          drop_dims: Any = None, *, span: Span | None = None) -> ir.Call:
    return _shaped("slice", "x", [x, shape, offset, *_present(valid_shape)], span,
                   {"drop_dims": drop_dims})


def assemble(target: Any, source: Any, offset: Any, *, atomic: ir.AtomicType | None = None,
             span: Span | None = None) -> ir.Call:
    return _shaped("assemble", "target", [target, source, offset], span, {"atomic": atomic})


def reshape(x: Any, shape: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("reshape", "x", [x, shape], span)


def transpose(x: Any, axis1: Any, axis2: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("transpose", "x", [x, axis1, axis2], span)


def read(src: Any, offset: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("read", "src", [src, offset], span)


def write(dst: Any, offset: Any, value: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("write", "dst", [dst, offset, value], span)


def dim(tensor: Any, axis: Any, *, span: Span | None = None) -> ir.Call:
    return _shaped("dim", "tensor", [tensor, axis], span)


# -- scalars and block indices -------------------------------------------------------

def _scalar_pair(name: str, elementwise: str, a: Any, b: Any) -> None:
    for param, value in (("a", a), ("b", b)):
        if _kind(value) != "scalar":
            raise TypeError(f"pl.{name} takes scalars ('{param}' is {_describe(value)}); "
                            f"use pl.{elementwise} for tensors and tiles")


def min(a: Any, b: Any, *, span: Span | None = None) -> ir.Expr:  # noqa: A001
    _scalar_pair("min", "minimum", a, b)
    return ir.min_(a, b, span=span)


def max(a: Any, b: Any, *, span: Span | None = None) -> ir.Expr:  # noqa: A001
    _scalar_pair("max", "maximum", a, b)
    return ir.max_(a, b, span=span)


def get_block_idx(*, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.get_block_idx", [], None, span)


def get_block_num(*, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.get_block_num", [], None, span)


def get_subblock_idx(*, span: Span | None = None) -> ir.Call:
    return create_op_call("tile.get_subblock_idx", [], None, span)


# The parser looks ``pl.<name>`` up here (01-language.md §8).
UNIFIED_OPS: dict[str, Callable[..., ir.Expr]] = {
    name: globals()[name] for name in __all__ if name != "UNIFIED_OPS"
}
