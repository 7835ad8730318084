"""``MemRef``: a byte range ``[byte_offset, byte_offset + size)`` of one buffer.

PyPTO's model: the buffer is its *base*, a ``pl.Ptr`` variable -- the result of
``mem: pl.Ptr = pl.tile.alloc(pl.Mem.Vec, 4096)``, or a base no statement defines
(a tensor's DDR buffer), which prints as its name in a string:
``pl.MemRef("mem_ddr_0", pl.const(0, pl.INT64), 4096)``.  The constructor is PyPTO's
``MemRef(base, byte_offset, size, span=..., is_pinned=False, slots=1, slot=None)``;
a ``str`` base makes a fresh ``pl.Ptr`` variable of that name (the parser instead
interns one variable per name and program, ``TypeResolver.interned_base_ptr``).

A MemRef holds no memory space, as in PyPTO: a tile's is its type's ``memory_space``
(and its base's ``pl.tile.alloc``), a tensor's is ``DDR``.  The fields that print --
base, byte offset, size, and the pinning/slot keywords when not their defaults -- are
the ones structural equality, hashing and serialization see.
"""

from __future__ import annotations

from typing import Any

from .dtype import DataType
from .enums import MemorySpace
from .node import Expr, check_type
from .span import Span
from .types import _Value

__all__ = ["MemRef", "NEW_FORM"]

_set = object.__setattr__

# What the constructor and the parser name when refusing pypto's old spelling.
NEW_FORM = "pl.MemRef(base, byte_offset, size)"


def _int_expr(field: str, value: Any, dtype: DataType) -> Expr:
    from .expr import ConstInt
    if isinstance(value, int) and not isinstance(value, bool):
        return ConstInt(value, dtype)
    check_type("MemRef", field, value, Expr, "int or Expr")
    return value


def _const(expr: Expr | None) -> int | None:
    from .expr import ConstInt
    return expr.value if type(expr) is ConstInt else None


def _base_var(base: Any, span: Span | None) -> Any:
    """The base as a ``pl.Ptr`` variable (a name makes a fresh one)."""
    from .array_types import PtrType
    from .expr import Var
    if isinstance(base, str):
        return Var(base, PtrType.get(), span)
    if isinstance(base, (MemorySpace, int)) and not isinstance(base, bool) \
            or isinstance(base, Expr) and not isinstance(base, Var):
        raise TypeError(f"MemRef(base, byte_offset, size, span=None, is_pinned=False, slots=1, "
                        f"slot=None): 'base' is a pl.Ptr variable (pl.tile.alloc's result) or "
                        f"its name, got {type(base).__name__}; the old form "
                        f"MemRef(memory_space, addr, size, id) is now {NEW_FORM}")
    check_type("MemRef", "base", base, Var, "a pl.Ptr Var or a str")
    if not isinstance(base.type, PtrType):
        raise TypeError(f"MemRef: 'base' must be a pl.Ptr variable, got '{base.name_hint}' "
                        f"of type {base.type}")
    return base


class MemRef(_Value):
    """A byte range of the buffer ``base_`` points to; see the module docstring."""

    __slots__ = ("_base", "_byte_offset", "_size", "_pinned", "_slots", "_slot", "_span",
                 "unique_id")
    _base: Any  # a Var of PtrType
    _byte_offset: Expr
    _size: int
    _pinned: bool
    _slots: int
    _slot: Expr | None
    _span: Span
    unique_id: int
    _fields = ("base_", "byte_offset_", "size_", "is_pinned_", "slot_count_", "slot_index_")

    def __init__(self, base: Any, byte_offset: Any, size: Any, span: Span | None = None,
                 is_pinned: bool = False, slots: int = 1, slot: Any = None) -> None:
        from .expr import ConstInt, _ids
        base = _base_var(base, span if isinstance(span, Span) else None)
        if span is not None:
            check_type("MemRef", "span", span, Span, "Span")
        if isinstance(size, ConstInt):
            size = size.value
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise TypeError(f"MemRef: 'size' must be a non-negative int (bytes), got {size!r}")
        if isinstance(slots, bool) or not isinstance(slots, int) or slots < 1:
            raise ValueError(f"MemRef: 'slots' must be a positive int, got {slots!r}")
        _set(self, "_base", base)
        _set(self, "_byte_offset", _int_expr("byte_offset", byte_offset, DataType.INT64))
        _set(self, "_size", size)
        _set(self, "_pinned", bool(is_pinned))
        _set(self, "_slots", slots)
        _set(self, "_slot", None if slot is None else _int_expr("slot", slot, DataType.INDEX))
        _set(self, "_span", span if span is not None else Span.unknown())
        _set(self, "unique_id", next(_ids))

    def _replace(self, **changes: Any) -> MemRef:
        """A copy with some constructor arguments changed (``base``, ``byte_offset`` ...)."""
        args = {"base": self._base, "byte_offset": self._byte_offset, "size": self._size,
                "span": self._span, "is_pinned": self._pinned, "slots": self._slots,
                "slot": self._slot}
        args.update(changes)
        return MemRef(**args)

    # -- PyPTO's members ----------------------------------------------------------------
    @property
    def base_(self) -> Any:
        """The ``pl.Ptr`` variable of the buffer this range lies in."""
        return self._base

    @property
    def byte_offset_(self) -> Expr:
        """Offset in bytes from the buffer's start (an INT64 expression)."""
        return self._byte_offset

    @property
    def size_(self) -> int:
        """Length of the range in bytes (0: unknown, e.g. a dynamically shaped tensor)."""
        return self._size

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
        """The base's name (``mem_vec_2``)."""
        return str(self._base.name_hint)

    @property
    def span(self) -> Span:
        return self._span

    @property
    def type(self) -> Any:
        """A MemRef is an address: its type is ``PtrType``."""
        from .array_types import PtrType
        return PtrType.get()

    def same_as(self, other: object) -> bool:
        """Whether ``other`` is this very object (``==`` compares structurally)."""
        return self is other

    @staticmethod
    def same_allocation(a: MemRef, b: MemRef) -> bool:
        """Whether ``a`` and ``b`` lie in the same buffer (the same base variable)."""
        return a._base is b._base

    @staticmethod
    def may_alias(a: MemRef, b: MemRef) -> bool:
        """Whether ``a`` and ``b`` may share a byte: in one buffer unless their constant
        byte ranges are disjoint (a size of 0 or a non-constant offset is unknown, and
        may alias); ranges of two bases never do."""
        if not MemRef.same_allocation(a, b):
            return False
        return _overlap(_const(a._byte_offset), a._size, _const(b._byte_offset), b._size)

    def as_python(self, prefix: str = "pl", concise: bool = False, format: bool = True) -> str:
        from .printer import python_print
        return python_print(self, prefix=prefix)


def _overlap(start_a: int | None, size_a: int, start_b: int | None, size_b: int) -> bool:
    if start_a is None or start_b is None or size_a <= 0 or size_b <= 0:
        return True
    return start_a < start_b + size_b and start_b < start_a + size_a
