"""``ir.serialize`` / ``ir.deserialize``: IR to bytes and back, within pypto.

The bytes are a header line and JSON.  Every node is written with its class and the
values of all its slots, so any node kind round-trips without a per-kind table; a node
met twice (a Var and its uses, a shared type) is written once and referenced after,
so ``deserialize`` rebuilds the same sharing: a variable stays one object.  Registered
ops are written by name and read back as the registry entry; data types, enum members,
``UnknownType`` and spans by value.  Deserialised variables are new variables (fresh
``unique_id``), structurally equal to the originals.

Only pypto's own IR classes are ever created when reading (no pickle): bytes from
elsewhere can produce a ``ValueError``, never run code.  The format is pypto's; it is
not PyPTO's binary format.
"""

from __future__ import annotations

import enum
import json
from typing import Any

from . import enums
from .depth import nesting_guard
from .dtype import DataType
from .expr import _ids
from .node import IRNode, Op
from .ops.registry import ArgEffect, OpDef, get_op
from .span import Span
from .types import Type, UnknownType, _Value

__all__ = ["serialize", "deserialize", "serialize_to_file", "deserialize_from_file"]

HEADER = b"pypto-ir 1\n"
# Lazily computed caches, rebuilt on first use after reading.
_CACHE_SLOTS = frozenset({"_hash", "_plain", "_static"})


def _classes() -> dict[str, type]:
    """Every concrete IR class pypto defines, by qualified name."""
    found: dict[str, type] = {}
    pending: list[type] = [IRNode, Type, _Value, Op]
    while pending:
        cls = pending.pop()
        if cls.__module__.startswith("pypto.ir"):
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
        pending.extend(cls.__subclasses__())
    return found


def _enum_classes() -> dict[str, type[enum.Enum]]:
    found = {name: value for name, value in vars(enums).items()
             if isinstance(value, type) and issubclass(value, enum.Enum)
             and value.__module__ == enums.__name__}
    found["ArgEffect"] = ArgEffect
    return found


def _slots(cls: type) -> list[str]:
    return [slot for klass in reversed(cls.__mro__) for slot in klass.__dict__.get("__slots__", ())
            if slot not in _CACHE_SLOTS]


class _Writer:
    def __init__(self) -> None:
        self.ids: dict[int, int] = {}
        self.keep: list[Any] = []  # keeps written objects alive, so their ids stay unique

    def value(self, obj: Any, where: str) -> Any:
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, enum.Enum):
            return {"enum": [type(obj).__name__, obj.name]}
        if isinstance(obj, int):
            return obj
        if isinstance(obj, float):
            return {"float": repr(obj)}  # repr keeps inf/nan and every digit
        if isinstance(obj, DataType):
            return {"dtype": _dtype_name(obj)}
        if isinstance(obj, Span):
            return {"span": [obj.filename, obj.begin_line, obj.begin_column, obj.end_line,
                             obj.end_column]}
        if isinstance(obj, tuple):
            return {"tuple": [self.value(item, where) for item in obj]}
        if isinstance(obj, list):
            return {"list": [self.value(item, where) for item in obj]}
        if isinstance(obj, dict):
            return {"dict": [[self.value(k, where), self.value(v, where)] for k, v in obj.items()]}
        if isinstance(obj, OpDef):
            return {"op": obj.name}
        if isinstance(obj, UnknownType):
            return {"unknown_type": True}
        if isinstance(obj, (IRNode, Type, _Value, Op)):
            return self.node(obj)
        raise TypeError(f"serialize: cannot write a {type(obj).__name__} (in {where})")

    def node(self, obj: Any) -> Any:
        key = id(obj)
        if key in self.ids:
            return {"ref": self.ids[key]}
        self.ids[key] = len(self.ids)
        self.keep.append(obj)
        cls = type(obj)
        fields = {}
        for slot in _slots(cls):
            if slot == "unique_id":
                continue
            try:
                value = object.__getattribute__(obj, slot)
            except AttributeError:
                continue
            fields[slot] = self.value(value, f"{cls.__name__}.{slot}")
        return {"id": self.ids[key], "class": f"{cls.__module__}.{cls.__qualname__}",
                "slots": fields}


def _dtype_name(dtype: DataType) -> str:
    for name, value in vars(DataType).items():
        if value is dtype and name.isupper() and not name.startswith("DEFAULT"):
            return name
    raise TypeError(f"serialize: unknown data type {dtype!r}")


class _Reader:
    def __init__(self) -> None:
        self.classes = _classes()
        self.enums = _enum_classes()
        self.nodes: dict[int, Any] = {}

    def value(self, data: Any) -> Any:
        if data is None or isinstance(data, (bool, str, int)):
            return data
        if isinstance(data, list):
            raise ValueError("deserialize: malformed data (bare list)")
        if not isinstance(data, dict) or len(data) < 1:
            raise ValueError("deserialize: malformed data")
        if "ref" in data:
            try:
                return self.nodes[data["ref"]]
            except KeyError:
                raise ValueError(f"deserialize: reference to unknown node {data['ref']}") from None
        if "id" in data:
            return self.node(data)
        kind, payload = next(iter(data.items()))
        if kind == "enum":
            cls = self.enums.get(payload[0])
            if cls is None or payload[1] not in cls.__members__:
                raise ValueError(f"deserialize: unknown enum member {payload!r}")
            return cls[payload[1]]
        if kind == "float":
            return float(payload)
        if kind == "dtype":
            value = getattr(DataType, str(payload), None)
            if not isinstance(value, DataType):
                raise ValueError(f"deserialize: unknown data type {payload!r}")
            return value
        if kind == "span":
            return Span(*payload)
        if kind == "tuple":
            return tuple(self.value(item) for item in payload)
        if kind == "list":
            return [self.value(item) for item in payload]
        if kind == "dict":
            return {self.value(k): self.value(v) for k, v in payload}
        if kind == "op":
            return get_op(payload)
        if kind == "unknown_type":
            return UnknownType.get()
        raise ValueError(f"deserialize: unknown value kind {kind!r}")

    def node(self, data: dict) -> Any:
        cls = self.classes.get(data.get("class", ""))
        if cls is None:
            raise ValueError(f"deserialize: unknown IR class {data.get('class')!r}")
        if hasattr(cls, "get") and not _slots(cls):  # a parameterless singleton type
            obj = cls.get()
            self.nodes[data["id"]] = obj
            return obj
        obj = object.__new__(cls)
        self.nodes[data["id"]] = obj  # before the slots: a node may refer back to itself
        allowed = set(_slots(cls))
        for slot, value in data.get("slots", {}).items():
            if slot not in allowed:
                raise ValueError(f"deserialize: {cls.__name__} has no field {slot!r}")
            object.__setattr__(obj, slot, self.value(value))
        if "unique_id" in allowed:  # a Var or a MemRef: a new object, a new id
            object.__setattr__(obj, "unique_id", next(_ids))
        return obj


def serialize(node: Any) -> bytes:
    """``node`` (a Program, Function, Stmt, Expr or Type) as bytes."""
    if not isinstance(node, (IRNode, Type)):
        raise TypeError(f"serialize expects an IR node, got {type(node).__name__}")
    with nesting_guard(node):  # the writer and the JSON encoder recurse
        body = _Writer().value(node, type(node).__name__)
        return HEADER + json.dumps(body, separators=(",", ":")).encode("utf-8")


def deserialize(data: bytes) -> Any:
    """The node ``serialize`` wrote."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not isinstance(data, (bytes, bytearray)) or not data.startswith(HEADER):
        raise ValueError("deserialize: not pypto IR data (missing the 'pypto-ir 1' header)")
    try:
        body = json.loads(bytes(data[len(HEADER):]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"deserialize: corrupt data ({exc})") from None
    except RecursionError:
        raise ValueError("deserialize: data nested deeper than pypto reads") from None
    try:
        return _Reader().value(body)
    except (TypeError, KeyError, IndexError) as exc:
        raise ValueError(f"deserialize: malformed data ({exc})") from None
    except RecursionError:
        raise ValueError("deserialize: data nested deeper than pypto reads") from None


def serialize_to_file(node: Any, path: str) -> None:
    with open(path, "wb") as f:
        f.write(serialize(node))


def deserialize_from_file(path: str) -> Any:
    with open(path, "rb") as f:
        return deserialize(f.read())
