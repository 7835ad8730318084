"""Does a value fit where a type is declared?  For yields, calls and returns.

``type_mismatch`` is the strict rule of yields (kind, dtype, shape; the TypeCheck
verifier).  ``value_mismatch`` is the rule of a value passed to a parameter or
returned under a declared type: kind and dtype of tensors and tiles must agree, a
static dim must equal a static dim, and a symbolic dim (a dynamic dim, a scalar
parameter used as a dim) matches anything -- its value is only known at run time.
Scalars need the same family (bool / integer / float): an integer literal fits any
integer parameter, as the parser types it per use.  ``call_mismatch`` binds a
callee's dynamic dims and scalar parameters to the caller's values first, so
``f(x: Tensor[[M], FP32], y: Tensor[[M], FP32])`` called with ``[64]`` and ``[32]``
is refused.  ``UnknownType`` ("not deduced", e.g. a bare ``pl.Tensor``) fits
everything.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from .dtype import DataType
from .expr import ConstInt, Var
from .node import Expr
from .ops.analysis import bind_call, substitute_type
from .structural import structural_equal
from .types import ScalarType, ShapedType, TupleType, Type, UnknownType

__all__ = ["type_mismatch", "value_mismatch", "call_mismatch", "return_mismatch", "kind_name"]

_INT64_LIKE = (DataType.INDEX, DataType.INT64)


def kind_name(t: Type) -> str:
    """``Tensor``, ``Tile``, ``Scalar``, ``Tuple``, ...: a type's kind, for messages."""
    return type(t).__name__.replace("Type", "") or "Type"


_kind = kind_name


def _same_dtype(a: DataType, b: DataType) -> bool:
    return a == b or (a in _INT64_LIKE and b in _INT64_LIKE)


def _dim_text(dim: Expr) -> str:
    if isinstance(dim, ConstInt):
        return str(dim.value)
    if isinstance(dim, Var):
        return dim.name_hint
    return type(dim).__name__


def _shape_text(t: ShapedType) -> str:
    return "[" + ", ".join(_dim_text(d) for d in t.shape) + "]"


def type_mismatch(actual: Type, expected: Type) -> str | None:
    """Why ``actual`` does not match ``expected`` in kind, dtype or shape (``None`` if it does)."""
    if isinstance(actual, UnknownType) or isinstance(expected, UnknownType):
        return None
    if type(actual) is not type(expected):
        return f"kind {_kind(actual)} != {_kind(expected)}"
    # from here on ``expected`` is of ``actual``'s class
    if isinstance(actual, ScalarType):
        e_dtype = cast(ScalarType, expected).dtype
        if not _same_dtype(actual.dtype, e_dtype):
            return f"dtype {actual.dtype.to_string()} != {e_dtype.to_string()}"
        return None
    if isinstance(actual, ShapedType):
        shaped = cast(ShapedType, expected)
        if not _same_dtype(actual.dtype, shaped.dtype):
            return f"dtype {actual.dtype.to_string()} != {shaped.dtype.to_string()}"
        if len(actual.shape) != len(shaped.shape) or not all(
                structural_equal(a, b) for a, b in zip(actual.shape, shaped.shape)):
            return f"shape {_shape_text(actual)} != {_shape_text(shaped)}"
        return None
    if isinstance(actual, TupleType):
        expected_types = cast(TupleType, expected).types
        if len(actual.types) != len(expected_types):
            return f"tuple size {len(actual.types)} != {len(expected_types)}"
        for index, (a, b) in enumerate(zip(actual.types, expected_types)):
            reason = type_mismatch(a, b)
            if reason is not None:
                return f"tuple element {index}: {reason}"
    return None


def _family(dtype: DataType) -> str:
    if dtype is DataType.BOOL:
        return "bool"
    return "float" if dtype.is_float() else "int" if dtype.is_int() else dtype.to_string()


def value_mismatch(actual: Type, expected: Type) -> str | None:
    """Why a value of type ``actual`` does not fit a declared ``expected`` (see module doc)."""
    if actual is expected:
        return None  # every rule below accepts a type where it is itself declared
    if isinstance(actual, UnknownType) or isinstance(expected, UnknownType):
        return None
    if type(actual) is not type(expected):
        return f"a {_kind(actual)} where a {_kind(expected)} is declared"
    # from here on ``expected`` is of ``actual``'s class
    if isinstance(actual, ScalarType):
        a, e = actual.dtype, cast(ScalarType, expected).dtype
        if not _same_dtype(a, e) and _family(a) != _family(e):
            return f"dtype {a.to_string()} where {e.to_string()} is declared"
        return None
    if isinstance(actual, ShapedType):
        shaped = cast(ShapedType, expected)
        a_dtype, e_dtype = actual.dtype, shaped.dtype
        if not _same_dtype(a_dtype, e_dtype):
            return f"dtype {a_dtype.to_string()} where {e_dtype.to_string()} is declared"
        a_shape, e_shape = actual.shape, shaped.shape
        if len(a_shape) != len(e_shape) or any(
                type(a) is ConstInt and type(e) is ConstInt and a.value != e.value
                for a, e in zip(a_shape, e_shape)):
            return f"shape {_shape_text(actual)} where {_shape_text(shaped)} is declared"
        return None
    if isinstance(actual, TupleType):
        expected_types = cast(TupleType, expected).types
        if len(actual.types) != len(expected_types):
            return (f"a tuple of {len(actual.types)} where one of "
                    f"{len(expected_types)} is declared")
        for index, (a_item, e_item) in enumerate(zip(actual.types, expected_types)):
            reason = value_mismatch(a_item, e_item)
            if reason is not None:
                return f"tuple element {index}: {reason}"
    return None


def call_mismatch(params: Sequence[Var], args: Sequence[Expr]) -> tuple[int, Type, str] | None:
    """The first argument that does not fit its parameter: ``(index, the parameter's type
    with the callee's dynamic dims bound, reason)``; ``None`` if all fit.  The caller
    checks the argument count first."""
    bindings = bind_call(list(params), list(args))
    for index, (param, arg) in enumerate(zip(params, args)):
        expected = param.type
        if bindings:
            expected = substitute_type(expected, bindings)
        reason = value_mismatch(arg.type, expected)
        if reason is not None:
            return index, expected, reason
    return None


def return_mismatch(values: Sequence[Any], return_types: Sequence[Type]) -> str | None:
    """Why ``return values`` does not fit the declared ``return_types``; one tuple-typed
    value may stand for several return types (``return self.pair(x)``)."""
    types = [v.type for v in values]
    if len(types) == 1 and len(return_types) > 1 and isinstance(types[0], TupleType):
        types = list(types[0].types)
    if len(types) != len(return_types):
        return (f"returns {len(types)} value(s) but the function declares "
                f"{len(return_types)}")
    for index, (actual, expected) in enumerate(zip(types, return_types)):
        reason = value_mismatch(actual, expected)
        if reason is not None:
            which = f"value {index + 1}: " if len(types) > 1 else ""
            return f"{which}{reason}"
    return None
