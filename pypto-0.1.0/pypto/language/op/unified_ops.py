"""The unified ``pl.*`` op functions (01-language.md §12.1-§12.2), with PyPTO's
signatures.

Each routes to the ``pl.tensor``/``pl.tile`` wrapper of the same name by the kind of
its first shaped operand (a Tensor or a Tile); a scalar second operand of a binary op
picks the scalar form (``pl.add(t, 2.0)`` is ``tensor.adds``), a scalar first one is
swapped behind the other for commutative ops only, and two scalars build scalar IR
(``ir.add``, ``ir.min_`` ...).  Keywords that only one path has (``out_dtype`` on a
Tile matmul, ``tmp_tile`` on a Tensor row_sum) are ``TypeError``s when set.
"""

from __future__ import annotations

from typing import Any, Callable

from pypto import ir
from pypto.ir.dtype import DataType
from pypto.ir.enums import AtomicType, PadValue
from pypto.ir.op._helpers import resolve_cast_mode
from ..typing import Scalar, Tensor, Tile
from . import _unified_data, tensor_ops
from ._routing import describe as _describe, kind_of as _kind, route as _route
from ._routing import SHAPED_KINDS, routed as _shaped
from ._unified_data import *  # noqa: F401,F403  (creation, movement, views)
from ._unified_tile import *  # noqa: F401,F403  (tile- or system-only functions)
from ._unified_tile import __all__ as _ONE_NAMESPACE

__all__ = [
    "UNIFIED_OPS", "add", "sub", "mul", "div", "maximum", "minimum", "maximums", "minimums",
    "and_", "ands", "or_", "ors", "xor", "xors", "shl", "shls", "shr", "shrs", "fmod", "fmods",
    "part_add", "part_max", "part_min", "part_mul", "exp", "log", "sqrt", "rsqrt", "recip",
    "neg", "abs", "relu", "sin", "cos", "not_", "cast", "matmul", "matmul_acc", "row_sum",
    "row_max", "row_min", "row_prod", "row_argmax", "row_argmin", "col_sum", "col_max",
    "col_min", "col_prod", "col_argmax", "col_argmin", "row_expand", "row_expand_add",
    "row_expand_sub", "row_expand_mul", "row_expand_div", "row_expand_max", "row_expand_min",
    "row_expand_expdif", "col_expand", "col_expand_add", "col_expand_sub", "col_expand_mul",
    "col_expand_div", "col_expand_max", "col_expand_min", "col_expand_expdif", "expands",
    "cmp", "cmps", "sel", "create_tensor", "create_tile", "create_l1", "full", "arange",
    "load", "store", "move", "slice", "assemble", "reshape", "transpose", "read", "write",
    "dim", "concat", "fillpad", "fillpad_expand", "expand_clone", "gather", "gather_row",
    "scatter", "scatter_update", "sort32", "mrgsort", "reinterpret_view", "set_validshape",
    "paged_gather", "random", "aic_gather", "aiv_shard", "min", "max", "get_block_idx",
    "get_block_num", "get_subblock_idx", *_ONE_NAMESPACE,
]

_SCALAR_IR: dict[str, Callable[..., ir.Expr]] = {
    "add": ir.add, "sub": ir.sub, "mul": ir.mul, "div": ir.truediv, "maximum": ir.max_,
    "minimum": ir.min_}
_COMMUTATIVE = frozenset({"add", "mul", "maximum", "minimum", "and_", "or_", "xor"})
# On tiles PyPTO's unified binary ops with a scalar rhs are the ...s ops (the pl.tile
# wrappers of these have no scalar routing of their own).
_TILE_SCALAR = {"maximum": "maximums", "minimum": "minimums", "and_": "ands", "or_": "ors",
                "xor": "xors", "shl": "shls", "shr": "shrs", "fmod": "fmods"}


def _binary(name: str, lhs: Any, rhs: Any, span: Any, **kwargs: Any) -> ir.Expr:
    lhs_kind, rhs_kind = _kind(lhs), _kind(rhs)
    if lhs_kind == "scalar" and rhs_kind == "scalar":
        build = _SCALAR_IR.get(name)
        if build is None:
            raise TypeError(f"pl.{name} needs a Tensor or Tile operand; got two scalars")
        return build(lhs, rhs, span=span)
    if lhs_kind == "scalar" and rhs_kind in SHAPED_KINDS:
        if name not in _COMMUTATIVE:
            raise TypeError(f"pl.{name}: 'lhs' must be a Tensor or Tile when 'rhs' is one "
                            "(got a scalar lhs)")
        lhs, rhs, rhs_kind = rhs, lhs, lhs_kind
    op = _TILE_SCALAR.get(name, name) if _kind(lhs) == "tile" and rhs_kind == "scalar" else name
    return _route(name, "lhs", lhs, op)(lhs, rhs, span=span, **kwargs)


# The unary ops whose wrapper takes high_precision, per path.
_PRECISE = {"tensor": frozenset({"log", "recip", "rsqrt"}), "tile": frozenset({"log", "recip"})}


def _unary(name: str, x: Any, span: Any, high_precision: bool = False) -> ir.Expr:
    if _kind(x) == "scalar" and name in ("neg", "abs"):
        return (ir.neg if name == "neg" else ir.abs_)(x, span=span)
    fn = _route(name, "input", x)
    if name in _PRECISE[_kind(x)]:
        return fn(x, high_precision=high_precision, span=span)
    if high_precision:
        raise TypeError(f"pl.{name}: 'high_precision' is not supported for tile operands")
    return fn(x, span=span)


# -- elementwise ---------------------------------------------------------------------

def add(lhs, rhs, *, span=None):
    return _binary("add", lhs, rhs, span)


def sub(lhs, rhs, *, span=None):
    return _binary("sub", lhs, rhs, span)


def mul(lhs, rhs, *, span=None):
    return _binary("mul", lhs, rhs, span)


def div(lhs, rhs, high_precision=False, *, span=None):
    if _kind(lhs) == "scalar" and _kind(rhs) == "scalar":
        if high_precision:
            raise TypeError("pl.div: 'high_precision' is not supported for scalar operands")
        return ir.truediv(lhs, rhs, span=span)
    return _binary("div", lhs, rhs, span, high_precision=high_precision)


def maximum(lhs, rhs, *, span=None):
    return _binary("maximum", lhs, rhs, span)


def minimum(lhs, rhs, *, span=None):
    return _binary("minimum", lhs, rhs, span)


def maximums(lhs, rhs, *, span=None):
    return _route("maximums", "lhs", lhs)(lhs, rhs, span=span)


def minimums(lhs, rhs, *, span=None):
    return _route("minimums", "lhs", lhs)(lhs, rhs, span=span)


def _bit(name: str) -> Callable[..., ir.Expr]:
    def fn(lhs, rhs, *, span=None):
        return _binary(name, lhs, rhs, span)
    fn.__name__ = fn.__qualname__ = name
    return fn


and_, ands, or_, ors = _bit("and_"), _bit("ands"), _bit("or_"), _bit("ors")
shl, shls, shr, shrs = _bit("shl"), _bit("shls"), _bit("shr"), _bit("shrs")
fmod, fmods = _bit("fmod"), _bit("fmods")
part_add, part_max = _bit("part_add"), _bit("part_max")
part_min, part_mul = _bit("part_min"), _bit("part_mul")


def _with_tmp(name: str, lhs: Any, rhs: Any, tmp: Any, span: Any) -> ir.Expr:
    """``xor``/``xors``: the tile ops take a scratch ``tmp``, the tensor ones none."""
    if _kind(lhs) == "tensor" or (_kind(lhs) == "scalar" and _kind(rhs) == "tensor"):
        if tmp is not None:
            raise TypeError(f"pl.{name} on a Tensor does not take tmp")
        return _binary(name, lhs, rhs, span)
    if _kind(lhs) == "scalar" and name in _COMMUTATIVE:
        lhs, rhs = rhs, lhs
    if tmp is None:
        raise TypeError(f"pl.{name} on a Tile requires tmp (a scratch Tile)")
    op = "xors" if _kind(rhs) == "scalar" else name
    return _route(name, "lhs", lhs, op)(lhs, rhs, tmp, span=span)


def xor(lhs, rhs, tmp=None, *, span=None):
    return _with_tmp("xor", lhs, rhs, tmp, span)


def xors(lhs, rhs, tmp=None, *, span=None):
    return _with_tmp("xors", lhs, rhs, tmp, span)


def exp(input, *, span=None):  # noqa: A002  (PyPTO's parameter name)
    return _unary("exp", input, span)


def sqrt(input, *, span=None):  # noqa: A002
    return _unary("sqrt", input, span)


def neg(input, *, span=None):  # noqa: A002
    return _unary("neg", input, span)


def abs(input, *, span=None):  # noqa: A001,A002
    return _unary("abs", input, span)


def sin(input, *, span=None):  # noqa: A002
    return _unary("sin", input, span)


def cos(input, *, span=None):  # noqa: A002
    return _unary("cos", input, span)


def not_(input, *, span=None):  # noqa: A002
    return _unary("not_", input, span)


def log(input, high_precision=False, *, span=None):  # noqa: A002
    return _unary("log", input, span, high_precision)


def recip(input, high_precision=False, *, span=None):  # noqa: A002
    return _unary("recip", input, span, high_precision)


def rsqrt(input, high_precision=False, *, span=None):  # noqa: A002
    return _unary("rsqrt", input, span, high_precision)


def relu(tile, *, span=None):
    return _route("relu", "tile", tile)(tile, span=span)


def cast(input, target_type, mode="round", *, span=None):  # noqa: A002
    if _kind(input) == "scalar":
        if mode != "round":
            raise TypeError("pl.cast: 'mode' is not supported for scalar operands")
        return ir.cast(input, target_type, span=span)
    return _shaped("cast", input, target_type, mode, span=span)


# -- matmul, reductions, broadcasts ----------------------------------------------------

def matmul(lhs, rhs, out_dtype=None, a_trans=False, b_trans=False, c_matrix_nz=False, *,
           span=None):
    fn = _route("matmul", "lhs", lhs, out_dtype=out_dtype, a_trans=a_trans, b_trans=b_trans,
                c_matrix_nz=c_matrix_nz)
    if _kind(lhs) == "tile":
        return fn(lhs, rhs, span=span)
    return fn(lhs, rhs, out_dtype, a_trans, b_trans, c_matrix_nz, span=span)


def matmul_acc(acc, lhs, rhs, a_trans=False, b_trans=False, init_cond=None, *, span=None):
    fn = _route("matmul_acc", "acc", acc, a_trans=a_trans, b_trans=b_trans)
    if _kind(acc) == "tile":
        return fn(acc, lhs, rhs, init_cond, span=span)
    return fn(acc, lhs, rhs, a_trans, b_trans, init_cond, span=span)


def _reduce(name: str, tile_tmp: str) -> Callable[..., ir.Expr]:
    """``tile_tmp``: "required"/"optional"/"none" -- whether the tile op takes a scratch."""
    def fn(input, tmp_tile=None, *, span=None):  # noqa: A002
        kind = _kind(input)
        if kind == "tensor":
            if tmp_tile is not None:
                raise TypeError(f"pl.{name} on a Tensor does not take tmp_tile")
            return _route(name, "input", input)(input, span=span)
        if tile_tmp == "required" and tmp_tile is None:
            raise TypeError(f"pl.{name} on a Tile requires tmp_tile (a scratch Tile)")
        if tile_tmp == "none":
            return _route(name, "input", input)(input, span=span)
        return _route(name, "input", input)(input, tmp_tile, span=span)
    fn.__name__ = fn.__qualname__ = name
    return fn


row_sum, row_max = _reduce("row_sum", "required"), _reduce("row_max", "required")
row_min, row_prod = _reduce("row_min", "required"), _reduce("row_prod", "required")
row_argmax, row_argmin = _reduce("row_argmax", "required"), _reduce("row_argmin", "required")
col_sum, col_argmax = _reduce("col_sum", "optional"), _reduce("col_argmax", "required")
col_argmin = _reduce("col_argmin", "required")


def col_max(input, *, span=None):  # noqa: A002
    return _shaped("col_max", input, span=span)


def col_min(input, *, span=None):  # noqa: A002
    return _shaped("col_min", input, span=span)


def col_prod(input, *, span=None):  # noqa: A002
    return _shaped("col_prod", input, span=span)


def _expand(name: str) -> Callable[..., ir.Expr]:
    def fn(lhs, rhs, *, span=None):
        return _route(name, "lhs", lhs)(lhs, rhs, span=span)
    fn.__name__ = fn.__qualname__ = name
    return fn


row_expand, row_expand_sub = _expand("row_expand"), _expand("row_expand_sub")
row_expand_mul, row_expand_div = _expand("row_expand_mul"), _expand("row_expand_div")
row_expand_max, row_expand_min = _expand("row_expand_max"), _expand("row_expand_min")
row_expand_expdif = _expand("row_expand_expdif")
col_expand, col_expand_add = _expand("col_expand"), _expand("col_expand_add")
col_expand_sub, col_expand_mul = _expand("col_expand_sub"), _expand("col_expand_mul")
col_expand_div, col_expand_max = _expand("col_expand_div"), _expand("col_expand_max")
col_expand_min, col_expand_expdif = _expand("col_expand_min"), _expand("col_expand_expdif")


def row_expand_add(lhs, rhs, tmp=None, *, span=None):
    fn = _route("row_expand_add", "lhs", lhs, tmp=tmp)
    return fn(lhs, rhs, tmp, span=span) if _kind(lhs) == "tile" else fn(lhs, rhs, span=span)


def expands(target, scalar, *, span=None):
    return _route("expands", "target", target)(target, scalar, span=span)


def cmp(lhs, rhs, cmp_type=0, *, span=None):
    if _kind(rhs) == "scalar":
        return _route("cmp", "lhs", lhs, "cmps")(lhs, rhs, cmp_type, span=span)
    return _route("cmp", "lhs", lhs)(lhs, rhs, cmp_type, span=span)


def cmps(lhs, rhs, cmp_type=0, *, span=None):
    return _route("cmps", "lhs", lhs)(lhs, rhs, cmp_type, span=span)


def sel(mask, lhs, rhs, tmp, *, span=None):
    return _route("sel", "mask", mask)(mask, lhs, rhs, tmp, span=span)


# -- scalars and block indices -------------------------------------------------------

def _scalar_pair(name: str, elementwise: str, lhs: Any, rhs: Any) -> None:
    for param, value in (("lhs", lhs), ("rhs", rhs)):
        if _kind(value) != "scalar":
            raise TypeError(f"pl.{name} takes scalars ('{param}' is {_describe(value)}); "
                            f"use pl.{elementwise} for tensors and tiles")


def min(lhs, rhs, *, span=None):  # noqa: A001
    _scalar_pair("min", "minimum", lhs, rhs)
    return ir.min_(lhs, rhs, span=span)


def max(lhs, rhs, *, span=None):  # noqa: A001
    _scalar_pair("max", "maximum", lhs, rhs)
    return ir.max_(lhs, rhs, span=span)


def get_block_idx(*, span=None):
    return tensor_ops.get_block_idx(span=span)


def get_block_num(*, span=None):
    return tensor_ops.get_block_num(span=span)


def get_subblock_idx(*, span=None):
    return tensor_ops.get_subblock_idx(span=span)


# The parser looks ``pl.<name>`` up here (01-language.md §8).
UNIFIED_OPS: dict[str, Callable[..., ir.Expr]] = {
    name: globals()[name] for name in __all__ if name != "UNIFIED_OPS"
}
# PyPTO's module-level names besides the functions
_ = (_unified_data, DataType, AtomicType, PadValue, resolve_cast_mode, Scalar, Tensor, Tile)
