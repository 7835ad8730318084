"""``pickle``, ``copy.copy`` and ``copy.deepcopy`` of IR nodes, types and records.

IR objects are immutable: their slots are written once, by the constructor, and
``__setattr__`` refuses, so Python's default reduction (make an empty object, then
set its state) cannot rebuild them.  ``reduce_slots`` gives pickle the class and the
slot values; ``rebuild`` writes them back through the slots' own descriptors.  Pickle
keeps sharing within one dump (a Var and its uses stay one object).  A rebuilt
``Var`` (or ``MemRef``) is a new variable with a fresh ``unique_id``, as
``ir.deserialize`` makes it: two live objects never share an id.  Lazily computed
caches (a type's hash) are not written; they are computed again on first use.
Singletons (data types, ``UnknownType``, the parameterless handle types, registered
ops) reduce to themselves.
"""

from __future__ import annotations

from typing import Any

__all__ = ["reduce_slots", "rebuild"]

_CACHE_SLOTS = frozenset({"_hash", "_plain", "_static"})
_set = object.__setattr__
_get = object.__getattribute__


def _state_slots(cls: type) -> list[str]:
    """The slots that hold a node's state, base classes first."""
    return [slot for klass in reversed(cls.__mro__) for slot in klass.__dict__.get("__slots__", ())
            if slot not in _CACHE_SLOTS]


def reduce_slots(obj: Any) -> tuple:
    """``(rebuild, (class, ((slot, value), ...)))``: an unset slot is left out."""
    cls = type(obj)
    state = []
    for slot in _state_slots(cls):
        try:
            state.append((slot, _get(obj, slot)))
        except AttributeError:
            continue
    return rebuild, (cls, tuple(state))


def rebuild(cls: type, state: tuple) -> Any:
    """The object ``reduce_slots`` described; only pypto IR classes are made."""
    from .expr import _ids
    from .node import IRNode, Op
    from .types import Type, _Value
    if not (isinstance(cls, type) and issubclass(cls, (IRNode, Type, _Value, Op))):
        raise TypeError(f"pypto.ir: cannot rebuild a {getattr(cls, '__name__', cls)!r}: "
                        "not an IR class")
    obj = object.__new__(cls)
    for slot, value in state:
        _set(obj, slot, next(_ids) if slot == "unique_id" else value)
    return obj
