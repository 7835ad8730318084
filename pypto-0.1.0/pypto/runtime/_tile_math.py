"""NumPy implementations of the tile ops beyond the core arithmetic: ternary adds,
activations, the scalar select, the matmul family (batched, biased, MX), creation
(``tri``), extraction and views (padding is in ``_views``).  Same contract as ``_array_math``:
``impl(args, info, state) -> value``, a fresh array unless the entry declares a write.
"""

from __future__ import annotations

from typing import Any, Callable

from ._array_math import _accumulator, _as_result_dtype, _product, _result, scalar_as
from ._valid import is_partial, mark_valid
from ._windows import check_sizes, shape_text, window
from .dtypes import numpy_dtype, np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["TERNARY", "ternary", "leaky_relu", "prelu", "select_scalar", "batch_matmul",
           "batch_matmul_acc", "matmul_bias", "matmul_mx", "tri", "extract", "transpose_view",
           "set_validshape"]

Impl = Callable[[list, OpInfo, ExecState], Any]

# addc/subc (and the scalar-middle addsc/subsc): a + b + c and a - b + c.
TERNARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "add_add": lambda a, b, c: np.add(np.add(a, b), c),
    "sub_add": lambda a, b, c: np.add(np.subtract(a, b), c),
}


def _operand(value: Any, like: Any) -> Any:
    """A Python scalar operand as a NumPy scalar of ``like``'s dtype (arrays unchanged)."""
    return value if isinstance(value, np.ndarray) else scalar_as(like.dtype, value)


def ternary(combine: str) -> Impl:
    fn = TERNARY[combine]

    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        a = args[0]
        return _result(fn(a, _operand(args[1], a), args[2]), info, a)
    return impl


def leaky_relu(args: list, info: OpInfo, state: ExecState) -> Any:
    """``lrelu(x, slope)``: ``x`` where positive, ``slope * x`` elsewhere."""
    x = args[0]
    return _result(np.where(x > 0, x, x * _operand(args[1], x)), info, x)


def prelu(args: list, info: OpInfo, state: ExecState) -> Any:
    """``prelu(x, slope, tmp)``: as ``lrelu`` with a slope per element."""
    x = args[0]
    return _result(np.where(x > 0, x, x * args[1]), info, x)


def select_scalar(args: list, info: OpInfo, state: ExecState) -> Any:
    """``sels(mask, src, tmp, scalar)``: ``src`` where the mask is set, else the scalar."""
    mask, src = args[0], args[1]
    chosen = mask if mask.dtype == np.bool_ else np.not_equal(mask, 0)
    return _result(np.where(chosen, src, _operand(args[3], src)), info, src)


# -- matmul family ----------------------------------------------------------------------

def _batched(lhs: Any, rhs: Any) -> Any:
    acc = _accumulator(np.result_type(lhs, rhs))
    return np.matmul(lhs.astype(acc, copy=False), rhs.astype(acc, copy=False))


def batch_matmul(args: list, info: OpInfo, state: ExecState) -> Any:
    return _as_result_dtype(_batched(args[0], args[1]), info, args[0])


def batch_matmul_acc(args: list, info: OpInfo, state: ExecState) -> Any:
    product = _batched(args[1], args[2])
    return _as_result_dtype(args[0].astype(product.dtype) + product, info, args[0])


def matmul_bias(args: list, info: OpInfo, state: ExecState) -> Any:
    """``lhs @ rhs + bias`` (also ``gemv_bias``): the bias row is added to every row."""
    product = _product(args[0], args[1])
    bias = np.asarray(args[2]).reshape(1, -1).astype(product.dtype)
    return _as_result_dtype(np.asarray(product) + bias, info, args[0])


def _scaled(values: Any, scales: Any, axis: int) -> Any:
    """MX operands: every group of ``K / groups`` values along K shares one scale."""
    groups = scales.shape[axis]
    k = values.shape[axis]
    if groups == 0 or k % groups:
        raise OpFailure(f"K = {k} is not a multiple of the {groups} scale groups")
    return values.astype(np.float64) * np.repeat(scales.astype(np.float64), k // groups, axis=axis)


def matmul_mx(variant: str) -> Impl:
    """``matmul_mx(lhs, lhs_scale, rhs, rhs_scale)``: ``(lhs * lhs_scale) @ (rhs *
    rhs_scale)`` with each scale repeated over its group of K, in FP32; ``acc``: added
    to a leading accumulator; ``bias``: a trailing bias row added."""
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        operands = args[1:5] if variant == "acc" else args[:4]
        lhs, lhs_scale, rhs, rhs_scale = operands
        product = _scaled(lhs, lhs_scale, 1) @ _scaled(rhs, rhs_scale, 0)
        if variant == "acc":
            product = product + args[0]
        elif variant == "bias":
            product = product + np.asarray(args[4], dtype=np.float64).reshape(1, -1)
        return _as_result_dtype(product.astype(np.float32), info, lhs)
    return impl


# -- creation, extraction, views, padding ---------------------------------------------------

def tri(args: list, info: OpInfo, state: ExecState) -> Any:
    """``tri(diagonal, shape)``: 1 on and below the ``diagonal``-th diagonal (above it
    with ``upper``), 0 elsewhere; ``valid_shape`` makes a partial tile."""
    rows, cols = check_sizes(args[1], "shape")
    ones = np.ones((rows, cols), dtype=np.int64)
    k = int(args[0])
    data = np.triu(ones, k) if info.kwargs.get("upper") else np.tril(ones, k)
    out = data.astype(numpy_dtype(info.kwargs["dtype"]))
    return mark_valid(out, check_sizes(args[2], "valid_shape") if len(args) > 2 else None)


def extract(args: list, info: OpInfo, state: ExecState) -> Any:
    """``extract(src, row, col, shape)``: a copy of the window at ``[row, col]``."""
    src = args[0]
    return src[window((args[1], args[2]), check_sizes(args[3], "shape"), src.shape,
                      "source")].copy()


def transpose_view(args: list, info: OpInfo, state: ExecState) -> Any:
    """The last two dims swapped; a valid region swaps with them."""
    x = args[0]
    out = np.ascontiguousarray(np.swapaxes(x, -1, -2))
    if is_partial(x):
        valid = x.valid_shape
        return mark_valid(out, valid[:-2] + (valid[-1], valid[-2]))
    return out


def set_validshape(args: list, info: OpInfo, state: ExecState) -> Any:
    """The data unchanged, with the valid region ``[valid_rows, valid_cols]``."""
    x = args[0]
    rows, cols = int(args[1]), int(args[2])
    if not (0 <= rows <= x.shape[0] and 0 <= cols <= x.shape[1]):
        raise OpFailure(f"valid shape [{rows}, {cols}] does not fit in {shape_text(x.shape)}")
    return mark_valid(np.array(x), (rows, cols))
