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

import enum
from typing import Any, Callable

from pypto import ir
from pypto.ir.enums import AtomicType, MemorySpace, PadValue, TensorLayout
from pypto.ir.ops import composite
from . import tensor_ops, tile_ops

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
    "get_block_num", "get_subblock_idx",
]

_MODULES = {"tensor": tensor_ops, "tile": tile_ops}
_VEC = tile_ops  # ops PyPTO has only on tiles


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
    return str(value.type) if isinstance(value, ir.Expr) else f"{type(value).__name__} {value!r}"


def _route(unified: str, param: str, value: Any, op: str | None = None,
           **rejected: Any) -> Callable[..., ir.Expr]:
    """The ``pl.tensor``/``pl.tile`` wrapper ``op`` (default: ``unified``) chosen by
    ``value``; keywords in ``rejected`` must hold their defaults on the Tile path."""
    kind = _kind(value)
    if kind not in _MODULES:
        raise TypeError(f"pl.{unified}: '{param}' must be a Tensor or Tile, got "
                        f"{_describe(value)}")
    fn = getattr(_MODULES[kind], op or unified, None)
    if fn is None:
        other = "Tensor" if kind == "tile" else "Tile"
        raise TypeError(f"pl.{unified} has no {kind} form; it takes a {other}")
    if kind == "tile":
        for key, value in rejected.items():
            if value is not None and value is not False:
                raise TypeError(f"pl.{unified}: '{key}' is not supported for tile operands")
    return fn


_SCALAR_IR: dict[str, Callable[..., ir.Expr]] = {
    "add": ir.add, "sub": ir.sub, "mul": ir.mul, "div": ir.truediv, "maximum": ir.max_,
    "minimum": ir.min_}
_COMMUTATIVE = frozenset({"add", "mul", "maximum", "minimum", "and_", "or_", "xor"})
# On tiles PyPTO's maximum/minimum with a scalar are the ...s ops (pl.tile.maximum has no
# scalar routing of its own).
_TILE_SCALAR = {"maximum": "maximums", "minimum": "minimums"}


def _binary(name: str, lhs: Any, rhs: Any, span: Any, **kwargs: Any) -> ir.Expr:
    lhs_kind, rhs_kind = _kind(lhs), _kind(rhs)
    if lhs_kind == "scalar" and rhs_kind == "scalar":
        build = _SCALAR_IR.get(name)
        if build is None:
            raise TypeError(f"pl.{name} needs a Tensor or Tile operand; got two scalars")
        return build(lhs, rhs, span=span)
    if lhs_kind == "scalar" and rhs_kind in _MODULES:
        if name not in _COMMUTATIVE:
            raise TypeError(f"pl.{name}: 'lhs' must be a Tensor or Tile when 'rhs' is one "
                            "(got a scalar lhs)")
        lhs, rhs, rhs_kind = rhs, lhs, lhs_kind
    op = _TILE_SCALAR.get(name, name) if _kind(lhs) == "tile" and rhs_kind == "scalar" else name
    return _route(name, "lhs", lhs, op)(lhs, rhs, span=span, **kwargs)


def _shaped(name: str, first: Any, *args: Any, span: Any = None, **kwargs: Any) -> ir.Expr:
    return _route(name, "input", first)(first, *args, span=span, **kwargs)


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


def xor(lhs, rhs, tmp=None, *, span=None):
    if tmp is not None:
        raise TypeError("pl.xor: 'tmp' (a tile scratch) is not supported yet")
    return _binary("xor", lhs, rhs, span)


def xors(lhs, rhs, tmp=None, *, span=None):
    if tmp is not None:
        raise TypeError("pl.xors: 'tmp' (a tile scratch) is not supported yet")
    return _binary("xors", lhs, rhs, span)


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


# -- creation and data movement --------------------------------------------------------

def create_tensor(shape, dtype, layout=TensorLayout.ND, manual_dep=False, init_value=None, *,
                  span=None):
    return tensor_ops.create(shape, dtype, layout, manual_dep, init_value, span=span)


def create_tile(shape, dtype, target_memory=MemorySpace.Vec, transpose=None, *,
                flat_layout=None, span=None):
    return tile_ops.create(shape, dtype, target_memory, transpose, flat_layout=flat_layout,
                           span=span)


def create_l1(shape, dtype, transpose=False, *, span=None):
    return tensor_ops.create_l1(shape, dtype, transpose, span=span)


def full(shape, dtype, value, *, span=None):
    return tensor_ops.full(shape, dtype, value, span=span)


def arange(start, shape, dtype=ir.DataType.INT32, descending=False, *, span=None):
    return tensor_ops.ci(start, shape, dtype, descending, span=span)


def load(tensor, offsets, shapes, valid_shape=None, target_memory=MemorySpace.Vec, clamp=False,
         *, span=None):
    return tile_ops.load(tensor, offsets, shapes, valid_shape, target_memory, clamp, span=span)


def store(tile, offsets, output_tensor, shapes=None, *, atomic=AtomicType.None_, span=None):
    return tile_ops.store(tile, offsets, output_tensor, shapes, atomic=atomic, span=span)


def move(tile, target_memory, blayout=None, slayout=None, *, span=None):
    return tile_ops.move(tile, target_memory, blayout, slayout, span=span)


def slice(input, shape, offset, valid_shape=None, drop_dims=None, pad_value=None,  # noqa: A001
          clamp=False, *, span=None):
    fn = _route("slice", "input", input, clamp=clamp)
    if _kind(input) == "tile":
        return fn(input, shape, offset, valid_shape, drop_dims, pad_value, span=span)
    return fn(input, shape, offset, valid_shape, drop_dims, pad_value, clamp, span=span)


def assemble(target, source, offset, *, atomic=AtomicType.None_, span=None):
    if _kind(target) == "tile":
        if atomic != AtomicType.None_:
            raise TypeError("pl.assemble: 'atomic' is not supported for tile operands")
        return tile_ops.assemble(target, source, offset, span=span)
    return _route("assemble", "target", target)(target, source, offset, atomic=atomic, span=span)


def reshape(input, shape, *, span=None):  # noqa: A002
    return _shaped("reshape", input, shape, span=span)


def transpose(input, axis1, axis2, *, span=None):  # noqa: A002
    return _shaped("transpose", input, axis1, axis2, span=span)


def read(src, offset, *, span=None):
    return _route("read", "src", src)(src, offset, span=span)


def write(dst, offset, value, *, span=None):
    return _route("write", "dst", dst)(dst, offset, value, span=span)


def dim(tensor, axis, *, span=None):
    return tensor_ops.dim(tensor, axis, span=span)


def concat(src0, src1, *, span=None):
    return _route("concat", "src0", src0)(src0, src1, span=span)


def fillpad(value, pad_value=PadValue.zero, *, span=None):
    return _route("fillpad", "value", value)(value, pad_value, span=span)


def fillpad_expand(value, shape, pad_value=PadValue.zero, *, span=None):
    return _route("fillpad_expand", "value", value)(value, shape, pad_value, span=span)


def expand_clone(src, target, *, span=None):
    return _route("expand_clone", "src", src)(src, target, span=span)


def gather(input, dim=None, index=None, *, mask_pattern=None, output_dtype=None,  # noqa: A002
           kvalue=None, cmp_mode=None, out_cols=None, offset=0, count_dtype=None, span=None):
    return composite.gather(input, dim, index, mask_pattern=mask_pattern,
                            output_dtype=output_dtype, kvalue=kvalue, cmp_mode=cmp_mode,
                            out_cols=out_cols, offset=offset, count_dtype=count_dtype, span=span)


def gather_row(dst, src, dst_offset, src_offset, shapes, transpose=False, *, valid_shape=None,
               span=None):
    return _route("gather_row", "dst", dst)(dst, src, dst_offset, src_offset, shapes, transpose,
                                            valid_shape=valid_shape, span=span)


def scatter(input, dim=None, index=None, src=None, *, mask_pattern=None, dst=None,  # noqa: A002
            span=None):
    return composite.scatter(input, dim, index, src, mask_pattern=mask_pattern, dst=dst,
                             span=span)


def scatter_update(input, *args, **kwargs):  # noqa: A002
    return composite.scatter_update(input, *args, **kwargs)


def sort32(src, idx, *, span=None):
    return _route("sort32", "src", src)(src, idx, span=span)


def mrgsort(src0, src1=None, src2=None, src3=None, tmp=None, *, exhausted=False,
            block_len=None, span=None):
    if tmp is not None:
        raise TypeError("pl.mrgsort: 'tmp' (a tile scratch) is not supported yet")
    return composite.mrgsort(src0, src1, src2, src3, exhausted=exhausted, block_len=block_len,
                             span=span)


def reinterpret_view(data, dtype, *, shape=None, span=None):
    return _route("reinterpret_view", "data", data)(data, dtype, shape=shape, span=span)


def set_validshape(input, valid_rows, valid_cols, *, span=None):  # noqa: A002
    return _shaped("set_validshape", input, valid_rows, valid_cols, span=span)


def paged_gather(src, indices, block_table, block_size, size, max_indices, *,
                 space=MemorySpace.Mat, col_off=0, is_trans=False, is_b_matrix=False, span=None):
    return tensor_ops.paged_gather(src, indices, block_table, block_size, size, max_indices,
                                   space=space, col_off=col_off, is_trans=is_trans,
                                   is_b_matrix=is_b_matrix, span=span)


def random(key0, key1, counter0, counter1, counter2, counter3, shape,
           dtype=ir.DataType.UINT32, rounds=10, *, span=None):
    return tensor_ops.random(key0, key1, counter0, counter1, counter2, counter3, shape, dtype,
                             rounds, span=span)


def aic_gather(x, span=None):
    return tensor_ops.PARSER_ENTRIES["aic_gather"](x, span=span)


def aiv_shard(x, span=None):
    return tensor_ops.PARSER_ENTRIES["aiv_shard"](x, span=span)


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
