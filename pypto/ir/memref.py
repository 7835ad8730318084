"""``MemRef``: a buffer in one memory space, or a byte range of one.

Two families of constructor forms are accepted, dispatched on the first argument:

* the form pypto prints and parses, ``MemRef(memory_space, addr=0, size=0, id=0)``:
  buffer ``id`` of ``memory_space`` at address ``addr``, ``size`` bytes;
* PyPTO's newer forms: ``MemRef(span=..., slots=1)`` and ``MemRef(name, span=...,
  slots=1)`` make a fresh allocation root (no address yet, memory space ``DDR`` unless
  ``memory_space=`` says otherwise); ``MemRef(base, byte_offset, size, span=...,
  is_pinned=False, slots=1, slot=None)`` is the byte range ``[byte_offset, byte_offset +
  size)`` of ``base``'s allocation; ``MemRef(addr, size, id, span=...)`` is the printed
  form without a memory space (``DDR``).

Only the printed form's four fields (``memory_space``, ``addr``, ``size``, ``id``) take
part in structural equality, hashing, printing and serialization; ``base_``,
``byte_offset_``, ``slot_count_``, ``slot_index_``, ``is_pinned_`` and ``name_hint`` are
carried by the object (docs/guide/differences.md).
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from .dtype import DataType
from .enums import MemorySpace
from .node import Expr, check_type
from .span import Span
from .types import _Value

__all__ = ["MemRef"]

_set = object.__setattr__


def _int_expr(owner: str, field: str, value: Any, dtype: DataType) -> Expr:
    from .expr import ConstInt
    if isinstance(value, int) and not isinstance(value, bool):
        return ConstInt(value, dtype)
    check_type(owner, field, value, Expr, "int or Expr")
    return value


def _const(expr: Expr | None) -> int | None:
    from .expr import ConstInt
    return expr.value if type(expr) is ConstInt else None


class MemRef(_Value):
    """A buffer (an allocation root) or a byte range of one; see the module docstring."""

    __slots__ = ("memory_space", "addr", "size", "id", "_base", "_byte_offset", "_slots",
                 "_slot", "_pinned", "_name", "_span", "_uid", "_explicit_id")
    memory_space: MemorySpace
    addr: Expr
    size: int
    id: int
    _base: MemRef | None
    _byte_offset: Expr
    _slots: int
    _slot: Expr | None
    _pinned: bool
    _name: str
    _span: Span
    _uid: int
    _explicit_id: bool
    _fields = ("memory_space", "addr", "size", "id")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from .expr import _ids
        first = args[0] if args else kwargs.get("base")
        init: Callable[..., None]
        _set(self, "_uid", next(_ids))
        if isinstance(first, MemRef):
            form, init = "(base, byte_offset, size, span, is_pinned, slots, slot)", self._init_view
        elif isinstance(first, (str, Span)) or not args and not {"addr", "size", "id"} & set(kwargs):
            form, init = "(name='', span=None, slots=1, *, memory_space=DDR)", self._init_root
        elif isinstance(first, Expr):
            form, init = "(addr, size, id, span)", self._init_addr
        else:  # an int first argument is a memory space, as before
            form, init = "(memory_space, addr=0, size=0, id=0, span=None)", self._init_buffer
        try:
            inspect.signature(init).bind(*args, **kwargs)
        except TypeError as err:
            raise TypeError(f"MemRef{form}: {err}") from None
        init(*args, **kwargs)

    # -- the constructor forms ----------------------------------------------------------
    def _init_buffer(self, memory_space: MemorySpace, addr: Any = 0, size: int = 0,
                     id: int = 0, span: Span | None = None) -> None:  # noqa: A002
        self._common(MemorySpace(memory_space), _int_expr("MemRef", "addr", addr, DataType.INT64),
                     size, span)
        _set(self, "id", int(id))
        _set(self, "_explicit_id", True)

    def _init_addr(self, addr: Expr, size: int, id: int, span: Span | None = None) -> None:  # noqa: A002
        self._init_buffer(MemorySpace.DDR, addr, size, id, span)

    def _init_root(self, name: str = "", span: Span | None = None, slots: int = 1, *,
                   memory_space: MemorySpace = MemorySpace.DDR) -> None:
        if isinstance(name, Span):  # MemRef(span, slots)
            name, span = "", name
        check_type("MemRef", "name", name, str, "str")
        self._common(MemorySpace(memory_space), _int_expr("MemRef", "addr", 0, DataType.INT64),
                     0, span, slots=slots)
        _set(self, "_name", name)
        _set(self, "id", 0)
        _set(self, "_explicit_id", False)

    def _init_view(self, base: MemRef, byte_offset: Any, size: int,
                   span: Span | None = None, is_pinned: bool = False, slots: int = 1,
                   slot: Any = None) -> None:
        from .expr import Add
        offset = _int_expr("MemRef", "byte_offset", byte_offset, DataType.INT64)
        root = base.base_
        total = base.byte_offset_
        start, extra = _const(total), _const(offset)
        total = _int_expr("MemRef", "byte_offset", start + extra, DataType.INT64) \
            if start is not None and extra is not None else Add(total, offset, DataType.INT64)
        base_addr, extra = _const(root.addr), _const(total)
        addr = _int_expr("MemRef", "addr", base_addr + extra, DataType.INT64) \
            if base_addr is not None and extra is not None else Add(root.addr, total,
                                                                     DataType.INT64)
        self._common(root.memory_space, addr, size, span, slots=slots, pinned=is_pinned)
        _set(self, "_base", root)
        _set(self, "_byte_offset", total)
        _set(self, "_slot", None if slot is None else
             _int_expr("MemRef", "slot", slot, DataType.INDEX))
        _set(self, "id", root.id)
        _set(self, "_explicit_id", root._explicit_id)

    def _common(self, memory_space: MemorySpace, addr: Expr, size: Any, span: Span | None, *,
                slots: int = 1, pinned: bool = False) -> None:
        if span is not None:
            check_type("MemRef", "span", span, Span, "Span")
        if isinstance(slots, bool) or not isinstance(slots, int) or slots < 1:
            raise ValueError(f"MemRef: 'slots' must be a positive int, got {slots!r}")
        _set(self, "memory_space", memory_space)
        _set(self, "addr", addr)
        _set(self, "size", int(size))
        _set(self, "_span", span if span is not None else Span.unknown())
        _set(self, "_slots", slots)
        _set(self, "_pinned", bool(pinned))
        _set(self, "_base", None)
        _set(self, "_byte_offset", _int_expr("MemRef", "byte_offset", 0, DataType.INT64))
        _set(self, "_slot", None)
        _set(self, "_name", "")

    # -- PyPTO's members ----------------------------------------------------------------
    @property
    def base_(self) -> MemRef:
        """The allocation root this range lies in (a root is its own base)."""
        return self if self._base is None else self._base

    @property
    def byte_offset_(self) -> Expr:
        """Offset in bytes from the root's start (0 for a root)."""
        return self._byte_offset

    @property
    def size_(self) -> int:
        return self.size

    @property
    def slot_count_(self) -> int:
        """How many rotating slots the buffer has (1: a single buffer)."""
        return self._slots

    @property
    def slot_index_(self) -> Expr | None:
        """Which slot this range names, if it names one."""
        return self._slot

    @property
    def is_pinned_(self) -> bool:
        """A pinned range keeps its place: memory reuse may not move or share it."""
        return self._pinned

    @property
    def name_hint(self) -> str:
        return self.base_._name

    @property
    def span(self) -> Span:
        return self._span

    @property
    def type(self) -> Any:
        """A MemRef is an address: its type is ``PtrType``."""
        from .array_types import PtrType
        return PtrType()

    @property
    def unique_id(self) -> int:
        return self._uid

    def same_as(self, other: object) -> bool:
        """Whether ``other`` is this very object (``==`` compares structurally)."""
        return self is other

    def _allocation(self) -> tuple:
        root = self.base_
        if root._explicit_id:  # a numbered buffer of the printed form
            return (root.memory_space, root.id)
        return (root.memory_space, "root", root._uid)

    @staticmethod
    def same_allocation(a: MemRef, b: MemRef) -> bool:
        """Whether ``a`` and ``b`` lie in the same buffer (same memory space and buffer id,
        or the same allocation root)."""
        return a._allocation() == b._allocation()

    @staticmethod
    def may_alias(a: MemRef, b: MemRef) -> bool:
        """Whether ``a`` and ``b`` may share a byte: in one buffer unless their constant
        byte ranges are disjoint; in two numbered buffers of one memory space when their
        constant address ranges overlap.  A size of 0 or a non-constant bound is unknown
        and may alias."""
        if a.memory_space is not b.memory_space:
            return False
        if MemRef.same_allocation(a, b):
            return _overlap(_const(a.byte_offset_), a.size, _const(b.byte_offset_), b.size)
        if a.base_._explicit_id and b.base_._explicit_id:
            return _overlap(_const(a.addr), a.size, _const(b.addr), b.size)
        return False  # distinct allocation roots are distinct buffers

    def as_python(self, prefix: str = "pl", concise: bool = False, format: bool = True) -> str:
        from .printer import python_print
        return python_print(self, prefix=prefix)


def _overlap(start_a: int | None, size_a: int, start_b: int | None, size_b: int) -> bool:
    if start_a is None or start_b is None or size_a <= 0 or size_b <= 0:
        return True
    return start_a < start_b + size_b and start_b < start_a + size_a
