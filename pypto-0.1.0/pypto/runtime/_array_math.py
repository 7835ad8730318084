"""NumPy implementations of the arithmetic ops (elementwise, reductions, matmul,
row/column broadcasts, compare/select, casts).

Every implementation has the signature ``impl(args, info, state) -> value``
(``args``: evaluated operands; ``info``: ``OpInfo``; ``state``: ``ExecState``)
and returns a *new* array: only the ops that the registry declares as writers
update an operand in place (see ``_data_movement``).

Result dtypes follow the call's deduced type (``info.out_numpy``), falling back to
the first operand's dtype for untyped calls.  Integer ``div`` truncates toward zero
(C semantics) and fails on a zero divisor; float division follows IEEE (inf/nan).
Float16 reductions and matmuls accumulate in float32, integer ones in int64.
"""

from __future__ import annotations

from typing import Any, Callable

from ..ir.dtype import DataType
from ._valid import is_partial, mark_valid, valid_part, valid_shape_of
from ._windows import shape_text
from .dtypes import cast_array, int_wrapper, np
from .errors import OpFailure
from .state import ExecState, OpInfo

__all__ = ["elementwise", "elementwise_scalar", "unary", "divide", "divide_scalar", "cast",
           "matmul", "matmul_acc", "reduce_rows", "reduce_cols", "row_expand", "col_expand",
           "expands", "compare", "compare_scalar", "select", "scalar_as", "divide_values",
           "COMPARISONS"]

Impl = Callable[[list, OpInfo, ExecState], Any]


def _result(value: Any, info: OpInfo, like: Any) -> Any:
    target = info.out_numpy if info.out_numpy is not None else like.dtype
    value = np.asarray(value)
    return value if value.dtype == target else value.astype(target)


def _broadcast_failure(lhs: Any, rhs: Any, lhs_name: str = "lhs",
                       rhs_name: str = "rhs") -> OpFailure:
    return OpFailure(f"shapes {shape_text(np.shape(lhs))} ({lhs_name}) and "
                     f"{shape_text(np.shape(rhs))} ({rhs_name}) are not broadcastable")


def _is_int(array: Any) -> bool:
    return array.dtype.kind in "iu"


def scalar_as(dtype: Any, value: Any) -> Any:
    """``value`` (a Python scalar) as a NumPy scalar of ``dtype``; ints wrap to the width."""
    kind = dtype.kind
    if kind == "b":
        return np.bool_(bool(value))
    if kind in "iu":
        if isinstance(value, float):
            value = int(value)  # C conversion
        wrap = int_wrapper(dtype.itemsize * 8, kind == "i")
        return dtype.type(wrap(int(value)))
    return dtype.type(value)


# -- elementwise ----------------------------------------------------------------------

def elementwise(ufunc: Any) -> Impl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        lhs, rhs = args[0], args[1]
        try:
            value = ufunc(lhs, rhs)
        except ValueError:
            raise _broadcast_failure(lhs, rhs) from None
        return _result(value, info, lhs)
    return impl


def elementwise_scalar(ufunc: Any) -> Impl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        lhs = args[0]
        return _result(ufunc(lhs, scalar_as(lhs.dtype, args[1])), info, lhs)
    return impl


def _truncating_divide(lhs: Any, rhs: Any) -> Any:
    if np.any(np.equal(rhs, 0)):
        raise OpFailure("integer division by zero")
    quotient = np.floor_divide(lhs, rhs)
    remainder = np.subtract(lhs, np.multiply(quotient, rhs))
    signs_differ = np.not_equal(np.less(lhs, 0), np.less(rhs, 0))
    return quotient + (np.not_equal(remainder, 0) & signs_differ)


def divide_values(lhs: Any, rhs: Any) -> Any:
    if _is_int(np.asarray(lhs)) and _is_int(np.asarray(rhs)):
        return _truncating_divide(lhs, rhs)
    return np.true_divide(lhs, rhs)


def divide(args: list, info: OpInfo, state: ExecState) -> Any:
    lhs, rhs = args[0], args[1]
    try:
        value = divide_values(lhs, rhs)
    except ValueError:
        raise _broadcast_failure(lhs, rhs) from None
    return _result(value, info, lhs)


def divide_scalar(args: list, info: OpInfo, state: ExecState) -> Any:
    lhs = args[0]
    return _result(divide_values(lhs, scalar_as(lhs.dtype, args[1])), info, lhs)


def unary(fn: Callable[[Any], Any]) -> Impl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        return _result(fn(args[0]), info, args[0])
    return impl


def cast(args: list, info: OpInfo, state: ExecState) -> Any:
    return cast_array(args[0], info.kwargs["target_type"], info.kwargs.get("mode", "round"))


# -- matmul ---------------------------------------------------------------------------

def _accumulator(dtype: Any) -> Any:
    if dtype.kind in "iub":
        return np.int64
    return np.float32 if dtype.itemsize <= 4 else dtype


def _as_result_dtype(value: Any, info: OpInfo, like: Any) -> Any:
    target: DataType | None = info.out_dtype
    if target is None:
        return value.astype(like.dtype)
    return cast_array(value, target, "rint")


def _matrix(value: Any, name: str) -> Any:
    if np.ndim(value) != 2:
        raise OpFailure(f"operand '{name}' must be 2-D, got shape {shape_text(np.shape(value))}")
    return value


def _product(lhs: Any, rhs: Any) -> Any:
    """``lhs @ rhs`` accumulated wide.  With partial tiles only the valid K is summed
    (the lhs's valid columns, else the rhs's valid rows) and the product is valid in the
    lhs's valid rows and the rhs's valid columns."""
    if lhs.shape[-1] != rhs.shape[-2]:
        raise OpFailure(f"inner dims differ: lhs {shape_text(lhs.shape)} x rhs "
                        f"{shape_text(rhs.shape)}")
    valid = None
    if is_partial(lhs) or is_partial(rhs):
        lv, rv = valid_shape_of(lhs), valid_shape_of(rhs)
        k = lv[-1] if is_partial(lhs) else rv[-2]
        valid = lv[:-1] + (rv[-1],)
        lhs, rhs = np.asarray(lhs)[..., :k], np.asarray(rhs)[..., :k, :]
    acc = _accumulator(np.result_type(lhs, rhs))
    return mark_valid(np.matmul(lhs.astype(acc, copy=False), rhs.astype(acc, copy=False)), valid)


def matmul(args: list, info: OpInfo, state: ExecState) -> Any:
    product = _product(*_operands(args[0], args[1], info))
    return mark_valid(_as_result_dtype(product, info, args[0]), getattr(product, "valid_shape",
                                                                        None))


def _operands(lhs: Any, rhs: Any, info: OpInfo) -> tuple[Any, Any]:
    lhs, rhs = _matrix(lhs, "lhs"), _matrix(rhs, "rhs")
    return (lhs.T if info.kwargs.get("a_trans") else lhs,
            rhs.T if info.kwargs.get("b_trans") else rhs)


def matmul_acc(args: list, info: OpInfo, state: ExecState) -> Any:
    """``acc + lhs @ rhs``; a true ``init_cond`` (fourth operand) starts the accumulation
    afresh: the result is the product alone."""
    acc = args[0]
    product = _product(*_operands(args[1], args[2], info))
    if len(args) > 3 and args[3]:
        acc = np.zeros_like(acc)
    if acc.shape != product.shape:
        raise OpFailure(f"accumulator shape {shape_text(acc.shape)} does not match the "
                        f"product shape {shape_text(product.shape)}")
    return mark_valid(_as_result_dtype(acc.astype(product.dtype) + product, info, acc),
                      getattr(product, "valid_shape", None))


# -- reductions and row/column broadcasts ---------------------------------------------

def _reduce(reducer: Any, axis: int) -> Impl:
    """Over ``axis``; a partial tile is reduced over its valid extent along it, and the
    result is valid where the tile is along the other dims."""
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        x = args[0]
        if np.ndim(x) < 2:
            raise OpFailure(f"operand 'x' must have rank >= 2, got shape {shape_text(x.shape)}")
        valid = valid_shape_of(x)
        x = valid_part(x, (axis % x.ndim,))
        if reducer is np.sum:
            value = np.sum(x, axis=axis, keepdims=True, dtype=_accumulator(x.dtype))
        else:
            value = reducer(x, axis=axis, keepdims=True)
        out = _result(value, info, x)
        return mark_valid(out, valid[:axis % x.ndim] + (1,) + valid[axis % x.ndim + 1:])
    return impl


def reduce_rows(reducer: Any) -> Impl:
    """``[..., M, N] -> [..., M, 1]``."""
    return _reduce(reducer, -1)


def reduce_cols(reducer: Any) -> Impl:
    """``[..., M, N] -> [..., 1, N]``."""
    return _reduce(reducer, -2)


def _expand(expected: Callable[[tuple], tuple], pattern: str,
            combine: Callable[[Any, Any], Any] | None) -> Impl:
    def impl(args: list, info: OpInfo, state: ExecState) -> Any:
        lhs, vec = args[0], args[1]
        if np.ndim(lhs) < 2:
            raise OpFailure(f"operand 'lhs' must have rank >= 2, got shape "
                            f"{shape_text(lhs.shape)}")
        want = expected(lhs.shape)
        if vec.shape != want:
            raise OpFailure(f"operand 'vec' must have shape {pattern} = {shape_text(want)}, "
                            f"got {shape_text(vec.shape)}")
        if combine is None:
            return _result(np.broadcast_to(vec, lhs.shape).copy(), info, lhs)
        return _result(combine(lhs, vec), info, lhs)
    return impl


def row_expand(combine: Callable[[Any, Any], Any] | None) -> Impl:
    """``lhs[..., M, N]`` with one value per row, ``vec[..., M, 1]``."""
    return _expand(lambda s: s[:-1] + (1,), "[..., M, 1]", combine)


def col_expand(combine: Callable[[Any, Any], Any] | None) -> Impl:
    """``lhs[..., M, N]`` with one value per column, ``vec[..., 1, N]``."""
    return _expand(lambda s: s[:-2] + (1, s[-1]), "[..., 1, N]", combine)


def expands(args: list, info: OpInfo, state: ExecState) -> Any:
    target = args[0]
    return np.full(target.shape, scalar_as(target.dtype, args[1]), dtype=target.dtype)


# -- compare / select -----------------------------------------------------------------

# cmp_type codes, in the registry's order: ==, !=, <, <=, >, >=.
COMPARISONS = (np.equal, np.not_equal, np.less, np.less_equal, np.greater, np.greater_equal)


def _comparison(info: OpInfo) -> Any:
    code = info.kwargs.get("cmp_type", 0)
    if not 0 <= code < len(COMPARISONS):
        raise OpFailure(f"cmp_type {code} is not one of 0..{len(COMPARISONS) - 1}")
    return COMPARISONS[code]


def compare(args: list, info: OpInfo, state: ExecState) -> Any:
    lhs, rhs = args[0], args[1]
    try:
        value = _comparison(info)(lhs, rhs)
    except ValueError:
        raise _broadcast_failure(lhs, rhs) from None
    return _result(value, info, value)  # tensor.cmp keeps the operands' dtype (1/0)


def compare_scalar(args: list, info: OpInfo, state: ExecState) -> Any:
    lhs = args[0]
    return np.asarray(_comparison(info)(lhs, scalar_as(lhs.dtype, args[1])))


def select(args: list, info: OpInfo, state: ExecState) -> Any:
    """``sel(mask, lhs, rhs, tmp)``: ``lhs`` where the mask is set, else ``rhs``."""
    mask, lhs, rhs = args[0], args[1], args[2]
    chosen = mask if mask.dtype == np.bool_ else np.not_equal(mask, 0)
    try:
        value = np.where(chosen, lhs, rhs)
    except ValueError:
        raise _broadcast_failure(mask, lhs, "mask", "lhs") from None
    return _result(value, info, lhs)
