"""The op registry: every op is declared once, as data (01-language.md §12, 02-ir.md §11).

An ``OpDef`` lists the op's positional parameters (``ParamSpec``: name, operand
kind, effect), its keyword parameters (``KwargSpec``: name, accepted value kind,
default) and a type-deduction rule.  ``create_op_call`` (``call.py``), the unified
``pl.*`` functions, the printer and the outliners all read these declarations, so
adding an op means adding one table entry (+ a rule if no existing one fits).
"""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from ..dtype import DataType
from ..expr import ConstBool, ConstFloat, ConstInt, MakeTuple
from ..node import Expr, Op
from ..types import ScalarType, TensorType, TileType, Type

__all__ = ["Effect", "ArgKind", "ValueKind", "ParamSpec", "KwargSpec", "OpDef", "DeduceRule",
           "BOOL", "INT", "FLOAT", "STR", "DTYPE", "INT_TUPLE", "enum_kind",
           "register_op", "get_op", "is_op_registered", "list_ops", "find_op"]

_set = object.__setattr__

# A deduction rule gets the (converted, kind-checked) positional args and the
# canonical kwargs, and returns the result type.  It raises ValueError for
# shape/dtype problems *without* naming the op: create_op_call prefixes the name.
DeduceRule = Callable[[tuple, Mapping[str, Any]], Type]


class Effect(enum.Enum):
    """What an op does to the storage behind one argument."""

    Read = 0
    Write = 1
    ReadWrite = 2


def _is_index_tuple(value: Expr) -> bool:
    return isinstance(value, MakeTuple) and all(
        isinstance(e.type, ScalarType) and e.type.dtype.is_int() for e in value.elements)


class ArgKind(enum.Enum):
    """The kind of IR value a positional parameter accepts."""

    Tensor = "a Tensor"
    Tile = "a Tile"
    Scalar = "a Scalar"
    IndexTuple = "a tuple of integer scalars (e.g. [0, 0])"

    @property
    def description(self) -> str:
        return self.value

    def accepts(self, value: Expr) -> bool:
        return _KIND_CHECKS[self](value)


_KIND_CHECKS: dict[ArgKind, Callable[[Expr], bool]] = {
    ArgKind.Tensor: lambda v: isinstance(v.type, TensorType),
    ArgKind.Tile: lambda v: isinstance(v.type, TileType),
    ArgKind.Scalar: lambda v: isinstance(v.type, ScalarType),
    ArgKind.IndexTuple: _is_index_tuple,
}


class BadKwargValue(Exception):
    """Raised by a ``ValueKind`` converter; ``call.py`` turns it into a ``TypeError``."""


@dataclass(frozen=True)
class ValueKind:
    """The Python values a keyword parameter accepts, and how they are canonicalised.

    ``convert`` returns the canonical value or raises ``BadKwargValue``.  IR
    constants (``ConstInt`` ...) are accepted too, because a parser may hand over a
    literal it has already turned into IR.
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


BOOL = ValueKind("bool", _to_bool)
INT = ValueKind("int", _to_int)
FLOAT = ValueKind("float", _to_float)
STR = ValueKind("str", _to_str)
DTYPE = ValueKind("DataType", _to_dtype)
INT_TUPLE = ValueKind("list of int", _to_int_tuple)


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


@dataclass(frozen=True)
class ParamSpec:
    """One positional parameter.

    ``optional`` parameters are trailing and simply omitted when not given.
    ``read_write_if`` names a keyword that, when set to a truthy value, turns a
    ``Write`` effect into ``ReadWrite`` (atomic store/assemble read the target).
    """

    name: str
    kind: ArgKind
    effect: Effect = Effect.Read
    optional: bool = False
    read_write_if: str | None = None


@dataclass(frozen=True)
class KwargSpec:
    """One keyword parameter.  ``choices`` restricts the (canonical) value."""

    name: str
    value: ValueKind
    default: Any = None
    required: bool = False
    choices: tuple | None = None


class OpDef(Op):
    """A registered op.  ``name`` is the qualified name (``tensor.add``).

    ``compute`` marks tensor ops that do arithmetic; the SplitIncoreOrch verifier
    warns when they appear directly in an orchestration body.
    """

    __slots__ = ("params", "keywords", "deduce", "compute", "doc")

    def __init__(self, name: str, params: Iterable[ParamSpec], deduce: DeduceRule,
                 keywords: Iterable[KwargSpec] = (), compute: bool = False,
                 doc: str = "") -> None:
        super().__init__(name)
        if "." not in name:
            raise ValueError(f"OpDef: op name '{name}' must be qualified ('<namespace>.<op>')")
        params = tuple(params)
        keywords = tuple(keywords)
        seen_optional = False
        for spec in params:
            if seen_optional and not spec.optional:
                raise ValueError(f"OpDef '{name}': required parameter '{spec.name}' follows "
                                 "an optional one")
            seen_optional = seen_optional or spec.optional
        names = [p.name for p in params] + [k.name for k in keywords]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"OpDef '{name}': duplicate parameter name(s) {duplicates}")
        keyword_names = {k.name for k in keywords}
        for spec in params:
            if spec.read_write_if is not None and spec.read_write_if not in keyword_names:
                raise ValueError(f"OpDef '{name}': parameter '{spec.name}' depends on unknown "
                                 f"keyword '{spec.read_write_if}'")
        _set(self, "params", params)
        _set(self, "keywords", keywords)
        _set(self, "deduce", deduce)
        _set(self, "compute", bool(compute))
        _set(self, "doc", doc)

    @property
    def namespace(self) -> str:
        """``"tensor"`` for ``tensor.add``."""
        return self.name.split(".", 1)[0]

    @property
    def short_name(self) -> str:
        """``"add"`` for ``tensor.add``."""
        return self.name.split(".", 1)[1]

    @property
    def min_args(self) -> int:
        return sum(1 for p in self.params if not p.optional)

    @property
    def max_args(self) -> int:
        return len(self.params)

    def keyword(self, name: str) -> KwargSpec | None:
        for spec in self.keywords:
            if spec.name == name:
                return spec
        return None

    def arg_effect(self, index: int, kwargs: Mapping[str, Any]) -> Effect:
        """Effect on positional argument ``index`` given the call's kwargs."""
        spec = self.params[index]
        if spec.effect is Effect.Write and spec.read_write_if is not None \
                and kwargs.get(spec.read_write_if):
            return Effect.ReadWrite
        return spec.effect

    # A registered op is a singleton: copies and unpickled objects are the registry entry.
    def __reduce__(self) -> tuple:
        return (get_op, (self.name,))

    def __copy__(self) -> "OpDef":
        return self

    def __deepcopy__(self, memo: dict) -> "OpDef":
        return self

    def __repr__(self) -> str:
        return f"OpDef({self.name!r})"


_OPS: dict[str, OpDef] = {}


def register_op(op: OpDef) -> OpDef:
    """Add ``op`` to the registry; a second op with the same name is rejected."""
    if not isinstance(op, OpDef):
        raise TypeError(f"register_op expects an OpDef, got {type(op).__name__}")
    if op.name in _OPS:
        raise ValueError(f"Op '{op.name}' is already registered")
    _OPS[op.name] = op
    return op


def find_op(name: str) -> OpDef | None:
    """The registered op called ``name``, or ``None``."""
    return _OPS.get(name) if isinstance(name, str) else None


def get_op(name: str) -> OpDef:
    """The registered op called ``name``; ``ValueError`` naming it if unknown."""
    if not isinstance(name, str):
        raise TypeError(f"get_op expects an op name (str), got {type(name).__name__}")
    op = _OPS.get(name)
    if op is None:
        close = difflib.get_close_matches(name, list(_OPS), n=3)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(f"Unknown op '{name}': it is not registered{hint}")
    return op


def is_op_registered(name: str) -> bool:
    return isinstance(name, str) and name in _OPS


def list_ops() -> list[str]:
    """Every registered op name, sorted."""
    return sorted(_OPS)
