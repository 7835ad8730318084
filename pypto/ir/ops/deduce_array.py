"""Type rules of the ``array.*`` ops (on-chip scalar arrays) and the ``prefetch.*`` ops
(asynchronous prefetch handles).

The entries kind-check the operands (an Array, a scalar, a Tensor); what a kind cannot
say -- that a value is a prefetch context or a session, that an index is inside the
array -- is checked here.  Messages leave out the op name (``create_op_call`` adds it).
"""

from __future__ import annotations

from typing import Any, Mapping, cast

from ..array_types import (ArrayType, AsyncEventType, AsyncSessionType,
                           PrefetchAsyncContextType)
from ..dtype import DataType
from ..expr import ConstInt
from ..node import Expr
from ..scalar_types import scalar_type
from ..types import ScalarType, Type

__all__ = ["array_create", "array_get", "array_update", "prefetch_context",
           "prefetch_session", "prefetch_event", "prefetch_wait"]

Args = tuple
Kwargs = Mapping[str, Any]


def _index(array: ArrayType, index: Expr) -> None:
    # The entry's kind check made the index a scalar.
    if not cast(ScalarType, index.type).dtype.is_int():
        raise ValueError(f"'index' must be an integer scalar, got {index.type}")
    if isinstance(index, ConstInt) and not 0 <= index.value < array.extent:
        raise ValueError(f"index {index.value} is out of range for an array of extent "
                         f"{array.extent}")


def array_create(args: Args, kwargs: Kwargs) -> Type:
    """``create(extent, dtype)``: a new array; the extent is a positive constant."""
    extent = args[0]
    if not isinstance(extent, ConstInt):
        raise ValueError(f"'extent' must be a constant integer (an array is sized when the "
                         f"kernel is compiled), got {extent}")
    if extent.value <= 0:
        raise ValueError(f"'extent' must be positive, got {extent.value}")
    return ArrayType(kwargs["dtype"], extent.value)


def array_get(args: Args, kwargs: Kwargs) -> Type:
    """``get_element(array, index)``: one element, a scalar of the array's dtype."""
    array = args[0].type
    _index(array, args[1])
    return scalar_type(array.dtype)


def array_update(args: Args, kwargs: Kwargs) -> Type:
    """``update_element(array, index, value)``: the array, with one element set in place."""
    array = args[0].type
    _index(array, args[1])
    value = args[2].type
    if value.dtype.is_float() and not array.dtype.is_float():
        raise ValueError(f"'value' of type {value} does not fit an array of "
                         f"{array.dtype.to_string()}")
    return array


def _handle(arg: Expr, name: str, expected: type, spelling: str, maker: str) -> None:
    if not isinstance(arg.type, expected):
        raise ValueError(f"'{name}' must be a {spelling} (from {maker}), got {arg.type}")


def prefetch_context(args: Args, kwargs: Kwargs) -> Type:
    """``make_context()``: a new prefetch context."""
    return PrefetchAsyncContextType.get()


def prefetch_session(args: Args, kwargs: Kwargs) -> Type:
    """``session(ctx)``: a session of the context."""
    _handle(args[0], "ctx", PrefetchAsyncContextType, "pl.PrefetchAsyncContext",
            "pl.prefetch.make_context()")
    return AsyncSessionType.get()


def prefetch_event(args: Args, kwargs: Kwargs) -> Type:
    """``async_prefetch(src, ctx)``: the completion event of prefetching ``src``."""
    _handle(args[1], "ctx", PrefetchAsyncContextType, "pl.PrefetchAsyncContext",
            "pl.prefetch.make_context()")
    return AsyncEventType.get()


_DONE = scalar_type(DataType.BOOL)


def prefetch_wait(args: Args, kwargs: Kwargs) -> Type:
    """``wait(event, session)``: a BOOL scalar, true once the prefetch has landed."""
    _handle(args[0], "event", AsyncEventType, "pl.AsyncEvent", "pl.prefetch.async_prefetch")
    _handle(args[1], "session", AsyncSessionType, "pl.AsyncSession", "pl.prefetch.session")
    return _DONE

