"""Type rules of the ``tile.*`` ops PyPTO's set adds beyond the core ones: ternary and
scalar-ternary arithmetic, activations, the matmul family (batched, biased, GEMV, MX),
creation, extraction and views.  Same contract as ``deduce``: ``rule(args, kwargs) ->
Type``, ``ValueError`` without the op's name."""

from __future__ import annotations

from typing import Any, Mapping

from ..array_types import PtrType
from ..dtype import DataType
from ..enums import MemorySpace
from ..types import ScalarType, ShapedType, TileType, Type
from .deduce import (_matrix_dims, _require_inner_match, _require_same_dtype, _require_shape,
                     accumulator_dtype, elementwise)
from .shapes import (broadcast_shapes, check_positive_dims, check_rank, check_window,
                     dims_equal, elements, shape_text, shaped_like, static_dim)

__all__ = ["ternary", "scalar_ternary", "with_tmp", "prelu", "select_scalar", "batch_matmul",
           "batch_matmul_acc", "matmul_bias", "matmul_mx", "matmul_mx_acc", "matmul_mx_bias",
           "full_tile", "arange_tile", "tri", "random_tile", "alloc", "extract",
           "transpose_view"]

Args = tuple
Kwargs = Mapping[str, Any]


def ternary(args: Args, kwargs: Kwargs) -> ShapedType:
    """``addc``/``subc``: three tiles of one dtype, broadcast together."""
    first = elementwise(args[:2], kwargs)
    third = args[2].type
    _require_same_dtype(first, third, "lhs", "rhs2")
    return shaped_like(first, broadcast_shapes(first.shape, third.shape, "lhs", "rhs2"),
                       first.dtype)


def scalar_ternary(args: Args, kwargs: Kwargs) -> Type:
    """``addsc``/``subsc(lhs, scalar, rhs2)``: the two tiles as a binary op."""
    return elementwise((args[0], args[2]), kwargs)


def with_tmp(args: Args, kwargs: Kwargs) -> Type:
    """Binary ops with a scratch tile (``rem``, ``xor``): the binary rule on the first two;
    a scalar second operand (``rems``, ``xors``) gives the first operand's type."""
    if isinstance(args[1].type, ScalarType):
        return args[0].type
    return elementwise(args[:2], kwargs)


def prelu(args: Args, kwargs: Kwargs) -> Type:
    """``prelu(tile, slope, tmp)``: a slope per element (broadcast)."""
    return elementwise(args[:2], kwargs)


def select_scalar(args: Args, kwargs: Kwargs) -> Type:
    """``sels(mask, src, tmp, scalar)``: ``src`` where the mask is set, else the scalar."""
    mask, src = args[0].type, args[1].type
    broadcast_shapes(mask.shape, src.shape, "mask", "src")
    return src


# -- matmul family ----------------------------------------------------------------------

def _acc_tile(shape: Any, dtype: DataType) -> TileType:
    return TileType(shape, accumulator_dtype(dtype), memory_space=MemorySpace.Acc)


def batch_matmul(args: Args, kwargs: Kwargs) -> TileType:
    """``[..., M, K] x [..., K, N] -> [..., M, N]`` (batch dims broadcast), in Acc."""
    lhs, rhs = args[0].type, args[1].type
    for name, t in (("lhs", lhs), ("rhs", rhs)):
        if len(t.shape) < 2:
            raise ValueError(f"operand '{name}' must have rank >= 2, got {shape_text(t.shape)}")
    _require_inner_match(lhs.shape[-1], rhs.shape[-2], lhs, rhs)
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    batch = broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2])
    return _acc_tile([*batch, lhs.shape[-2], rhs.shape[-1]], lhs.dtype)


def batch_matmul_acc(args: Args, kwargs: Kwargs) -> Type:
    product = batch_matmul(args[1:], kwargs)
    acc = args[0].type
    _require_shape(acc.shape, product.shape, "acc", "[..., M, N]")
    return acc


def _bias_check(bias: Any, n: Any) -> None:
    shape = bias.shape
    if len(shape) not in (1, 2) or not dims_equal(shape[-1], n) or \
            (len(shape) == 2 and static_dim(shape[0]) != 1):
        raise ValueError(f"operand 'bias' must have shape [1, N] = [1, {static_dim(n)}], got "
                         f"{shape_text(shape)}")


def matmul_bias(args: Args, kwargs: Kwargs) -> Type:
    """``lhs[M, K] x rhs[K, N] + bias[1, N]`` (also ``gemv_bias``), in Acc."""
    lhs, rhs = args[0].type, args[1].type
    m, k_lhs = _matrix_dims(lhs, "lhs", False)
    k_rhs, n = _matrix_dims(rhs, "rhs", False)
    _require_inner_match(k_lhs, k_rhs, lhs, rhs)
    _require_same_dtype(lhs, rhs, "lhs", "rhs")
    _bias_check(args[2].type, n)
    return _acc_tile([m, n], lhs.dtype)


def _mx_dims(lhs: Any, lhs_scale: Any, rhs: Any, rhs_scale: Any) -> tuple:
    """MX (microscaling) operands: ``lhs[M, K]`` with one scale per group of K,
    ``lhs_scale[M, K / g]``; ``rhs[K, N]`` with ``rhs_scale[K / g, N]``."""
    m, k_lhs = _matrix_dims(lhs, "lhs", False)
    k_rhs, n = _matrix_dims(rhs, "rhs", False)
    _require_inner_match(k_lhs, k_rhs, lhs, rhs)
    sm, groups = _matrix_dims(lhs_scale, "lhs_scale", False)
    groups_r, sn = _matrix_dims(rhs_scale, "rhs_scale", False)
    if not (dims_equal(sm, m) and dims_equal(sn, n) and dims_equal(groups, groups_r)):
        raise ValueError(f"scales {shape_text(lhs_scale.shape)} and "
                         f"{shape_text(rhs_scale.shape)} do not match lhs "
                         f"{shape_text(lhs.shape)} and rhs {shape_text(rhs.shape)} "
                         "([M, K / g] and [K / g, N])")
    k, g = static_dim(k_lhs), static_dim(groups)
    if k is not None and g is not None and k % g:
        raise ValueError(f"K = {k} is not a multiple of the {g} scale groups")
    return m, n


def matmul_mx(args: Args, kwargs: Kwargs) -> TileType:
    """``matmul_mx(lhs, lhs_scale, rhs, rhs_scale)``: FP32 in Acc."""
    m, n = _mx_dims(*(a.type for a in args[:4]))
    return TileType([m, n], DataType.FP32, memory_space=MemorySpace.Acc)


def matmul_mx_acc(args: Args, kwargs: Kwargs) -> Type:
    acc = args[0].type
    product = matmul_mx(args[1:], kwargs)
    _require_shape(acc.shape, product.shape, "acc", "[M, N]")
    return acc


def matmul_mx_bias(args: Args, kwargs: Kwargs) -> Type:
    product = matmul_mx(args[:4], kwargs)
    _bias_check(args[4].type, product.shape[1])
    return product


# -- creation -----------------------------------------------------------------------------

def _vec_tile(shape_arg: Any, dtype: DataType) -> TileType:
    shape = elements(shape_arg)
    check_positive_dims(shape, "shape")
    return TileType(shape, dtype, memory_space=MemorySpace.Vec)


def _check_valid(args: Args, index: int, shape_arg: Any) -> None:
    if len(args) > index:
        check_rank(elements(args[index]), len(elements(shape_arg)), "valid_shape", "shape")


def full_tile(args: Args, kwargs: Kwargs) -> Type:
    """``tile.full(shape, value)``: a Vec tile of ``dtype``."""
    return _vec_tile(args[0], kwargs["dtype"])


def arange_tile(args: Args, kwargs: Kwargs) -> Type:
    """``tile.ci(start, shape)``: an integer Vec tile counting from ``start``."""
    if not kwargs["dtype"].is_int():
        raise ValueError(f"dtype must be an integer type, got {kwargs['dtype'].to_string()}")
    return _vec_tile(args[1], kwargs["dtype"])


def tri(args: Args, kwargs: Kwargs) -> Type:
    """``tri(diagonal, shape[, valid_shape])``: a 2-D 0/1 triangle of ``dtype``."""
    if len(elements(args[1])) != 2:
        raise ValueError(f"shape must be 2-D, got {shape_text(elements(args[1]))}")
    _check_valid(args, 2, args[1])
    return _vec_tile(args[1], kwargs["dtype"])


def random_tile(args: Args, kwargs: Kwargs) -> Type:
    for position, key in enumerate(args[:6]):
        if not key.type.dtype.is_int():
            raise ValueError(f"key/counter operand {position} must be an integer scalar")
    _check_valid(args, 7, args[6])
    return _vec_tile(args[6], kwargs["dtype"])


def alloc(args: Args, kwargs: Kwargs) -> Type:
    """A pointer to the new buffer (``pl.Ptr``, as PyPTO types it)."""
    return PtrType.get()


# -- extraction and views ---------------------------------------------------------------------

def extract(args: Args, kwargs: Kwargs) -> Type:
    """``extract(src, row, col, shape)``: the window at ``[row, col]`` in
    ``target_memory``."""
    src = args[0].type
    shape = elements(args[3])
    if len(src.shape) != 2:
        raise ValueError(f"operand 'src' must be 2-D, got {shape_text(src.shape)}")
    check_rank(shape, 2, "shape", "the source")
    check_positive_dims(shape, "shape")
    check_window((args[1], args[2]), shape, src.shape, "source")
    return TileType(shape, src.dtype, memory_space=kwargs["target_memory"])


def transpose_view(args: Args, kwargs: Kwargs) -> Type:
    """The last two dims swapped (the device reinterprets the layout)."""
    x = args[0].type
    if len(x.shape) < 2:
        raise ValueError(f"operand 'tile' must have rank >= 2, got {shape_text(x.shape)}")
    return shaped_like(x, [*x.shape[:-2], x.shape[-1], x.shape[-2]], x.dtype)
