"""What an op's operands and attributes accept: ``ArgKind`` (IR operands) and
``ValueKind`` (attribute values, with their canonicalising converters)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Callable

from ..dtype import DataType
from ..expr import ConstBool, ConstFloat, ConstInt, MakeTuple
from ..node import Expr
from ..array_types import ArrayType
from ..types import ScalarType, TensorType, TileType, Type
from ..scalar_types import INDEX_TYPE as _INDEX_SCALAR

__all__ = ["ArgKind", "ValueKind", "BadKwargValue", "BOOL", "INT", "FLOAT", "STR", "DTYPE",
           "INT_TUPLE", "TYPE", "enum_kind"]


def _is_index_tuple(value: Expr) -> bool:
    if not isinstance(value, MakeTuple):
        return False
    for element in value.elements:  # (a loop: no generator frame per operand check)
        t = element.type
        if not (isinstance(t, ScalarType) and (t is _INDEX_SCALAR or t.dtype.is_int())):
            return False
    return True


class ArgKind(enum.Enum):
    """The kind of IR value an operand accepts."""

    Tensor = "a Tensor"
    Tile = "a Tile"
    Shaped = "a Tensor or a Tile"
    Scalar = "a Scalar"
    IndexTuple = "a tuple of integer scalars (e.g. [0, 0])"
    TensorTuple = "a tuple of Tensors"
    Array = "an Array (pl.array.create)"
    Value = "an IR value"

    @property
    def description(self) -> str:
        return self.value

    def accepts(self, value: Expr) -> bool:
        # keyed by name: an Enum member's own hash is a Python-level call
        return _CHECKS_BY_NAME[self._name_](value)


_KIND_CHECKS: dict[ArgKind, Callable[[Expr], bool]] = {
    ArgKind.Tensor: lambda v: isinstance(v.type, TensorType),
    ArgKind.Tile: lambda v: isinstance(v.type, TileType),
    ArgKind.Shaped: lambda v: isinstance(v.type, (TensorType, TileType)),
    ArgKind.Scalar: lambda v: isinstance(v.type, ScalarType),
    ArgKind.IndexTuple: _is_index_tuple,
    ArgKind.TensorTuple: lambda v: isinstance(v, MakeTuple) and all(
        isinstance(e.type, TensorType) for e in v.elements),
    ArgKind.Array: lambda v: isinstance(v.type, ArrayType),
    ArgKind.Value: lambda v: True,
}


_CHECKS_BY_NAME = {kind.name: check for kind, check in _KIND_CHECKS.items()}


class BadKwargValue(Exception):
    """Raised by a ``ValueKind`` converter; ``call.py`` turns it into a ``TypeError``."""


@dataclass(frozen=True)
class ValueKind:
    """The Python values an attribute accepts, and how they are canonicalised.

    ``convert`` returns the canonical value (``None``: canonically absent) or raises
    ``BadKwargValue``.  IR constants (``ConstInt`` ...) are accepted too, because a
    parser may hand over a literal it has already turned into IR.
    """

    label: str
    convert: Callable[[Any], Any]


def _unwrap_const(value: Any) -> Any:
    if isinstance(value, (ConstInt, ConstFloat, ConstBool)):
        return value.value
    return value


def _to_bool(value: Any) -> bool:
    value = _unwrap_const(value)
    if isinstance(value, bool):
        return value
    raise BadKwargValue


def _to_int(value: Any) -> int:
    value = _unwrap_const(value)
    if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
        return value
    raise BadKwargValue


def _to_float(value: Any) -> float:
    value = _unwrap_const(value)
    if isinstance(value, (int, float)) and not isinstance(value, (bool, enum.Enum)):
        return float(value)
    raise BadKwargValue


def _to_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise BadKwargValue


def _to_dtype(value: Any) -> DataType:
    if isinstance(value, DataType):
        return value
    raise BadKwargValue


def _to_int_tuple(value: Any) -> tuple[int, ...] | None:
    items = value.elements if isinstance(value, MakeTuple) else value
    if not isinstance(items, (list, tuple)):
        raise BadKwargValue
    out = tuple(_to_int(item) for item in items)
    return out or None  # an empty list means "none": canonically omitted


def _to_type(value: Any) -> Type:
    if isinstance(value, Type):
        return value
    raise BadKwargValue


BOOL = ValueKind("bool", _to_bool)
INT = ValueKind("int", _to_int)
FLOAT = ValueKind("float", _to_float)
STR = ValueKind("str", _to_str)
DTYPE = ValueKind("DataType", _to_dtype)
INT_TUPLE = ValueKind("list of int", _to_int_tuple)
TYPE = ValueKind("an IR type", _to_type)


def enum_kind(enum_cls: type[enum.IntEnum]) -> ValueKind:
    """Members of ``enum_cls``; a plain int is accepted and mapped to its member."""

    def convert(value: Any) -> enum.IntEnum:
        value = _unwrap_const(value)
        if isinstance(value, enum_cls):
            return enum_cls(value)  # canonical member (aliases collapse)
        if isinstance(value, int) and not isinstance(value, (bool, enum.Enum)):
            try:
                return enum_cls(value)
            except ValueError:
                raise BadKwargValue from None
        raise BadKwargValue

    return ValueKind(enum_cls.__name__, convert)
