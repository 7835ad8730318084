"""IR types.  Types compare structurally (``==`` is ``structural_equal``) and
hash structurally, so equal types are interchangeable dict keys."""

from __future__ import annotations

import collections.abc as _abc
from typing import Any, ClassVar, Iterable, Sequence

from .dtype import DataType
from .enums import CompactMode, MemorySpace, TensorLayout, TileLayout, PadValue
from .node import Expr, as_tuple, check_type

__all__ = ["Type", "UnknownType", "ScalarType", "ShapedType", "TensorType", "TileType",
           "TupleType", "MemRef", "TensorView", "TileView", "shape_of", "has_dynamic_dims"]

_set = object.__setattr__


class Type:
    """Base of IR types.  Immutable; structural ``==`` and ``hash``."""

    __slots__ = ("_hash", "_plain")
    _hash: int
    _plain: tuple[Any, ...] | None
    _fields: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set '{name}'")

    def __reduce__(self) -> tuple:
        """Pickle and copy by slots (``pickling.py``); the cached hash is not written."""
        from .pickling import reduce_slots
        return reduce_slots(self)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Type):
            return NotImplemented
        if type(self) is not type(other):
            return False
        mine, theirs = self._plain_key(), other._plain_key()
        if mine is not None and theirs is not None:
            return mine == theirs
        from .structural import structural_equal
        return structural_equal(self, other)

    def _plain_key(self) -> tuple | None:
        """A value key when the type holds no Var (most types): comparing two keys gives
        exactly structural equality's answer, at the cost of a tuple compare.  Cached."""
        try:
            return self._plain
        except AttributeError:
            key = self._compute_plain_key()
            _set(self, "_plain", key)
            return key

    def _compute_plain_key(self) -> tuple | None:
        return None

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            from .structural import structural_hash
            value = structural_hash(self)
            _set(self, "_hash", value)
            return value

    def as_python(self, prefix: str = "pl") -> str:
        from .printer import python_print
        return python_print(self, prefix=prefix)

    def __str__(self) -> str:
        return self.as_python()

    __repr__ = __str__


class UnknownType(Type):
    """The type of an expression whose type has not been deduced."""

    __slots__ = ()

    @staticmethod
    def get() -> "UnknownType":
        return _UNKNOWN

    def __reduce__(self) -> tuple:
        return UnknownType.get, ()  # the one instance


class ScalarType(Type):
    __slots__ = ("dtype",)
    dtype: DataType
    _fields = ("dtype",)

    def _compute_plain_key(self) -> tuple | None:
        return (self.dtype.code(),)

    def __init__(self, dtype: DataType) -> None:
        check_type("ScalarType", "dtype", dtype, DataType, "DataType")
        _set(self, "dtype", dtype)


def _shape_item(owner: str, i: int, dim: Any) -> "Expr":
    from .expr import ConstInt
    from .node import Expr
    if isinstance(dim, bool):
        raise TypeError(f"{owner}: field 'shape[{i}]' expects int or Expr, got bool")
    static = dim.value if isinstance(dim, ConstInt) else dim
    if isinstance(static, int) and static < 0:
        raise ValueError(f"{owner}: field 'shape[{i}]' is {static}; a dimension cannot be "
                         "negative")
    if isinstance(dim, int):
        return ConstInt(dim, DataType.INDEX)
    if isinstance(dim, Expr):
        return dim
    raise TypeError(f"{owner}: field 'shape[{i}]' expects int or Expr, got {type(dim).__name__}")


def shape_of(owner: str, shape: Iterable[Any]) -> tuple:
    kind = type(shape)
    if kind is not tuple and kind is not list and (
            isinstance(shape, (str, bytes)) or not isinstance(shape, _abc.Iterable)):
        raise TypeError(f"{owner}: field 'shape' expects a list of int or Expr, "
                        f"got {type(shape).__name__}")
    ConstInt, index_const = _expr.ConstInt, _expr.index_const
    out: list[Expr] = []
    for i, dim in enumerate(shape):
        kind = type(dim)
        if kind is int and dim >= 0:
            out.append(index_const(dim))
        elif kind is ConstInt and dim.value >= 0:
            out.append(dim)
        else:
            out.append(_shape_item(owner, i, dim))
    return tuple(out)


class ShapedType(Type):
    """Abstract base of ``TensorType`` and ``TileType``."""

    __slots__ = ("shape", "dtype", "memref", "_static")
    shape: tuple[Expr, ...]
    dtype: DataType
    memref: MemRef | None
    _static: bool

    @property
    def memory_space(self) -> "MemorySpace | None":
        """Where the data lives: a tensor with a memref is in ``DDR`` (``None`` without
        one; a MemRef holds no memory space); a tile has its own field."""
        return MemorySpace.DDR if self.memref is not None else None

    def shares_memref_with(self, other: "ShapedType") -> bool:
        """Do both have a memref, and the same one (base, byte offset, size)?"""
        return self.memref is not None and getattr(other, "memref", None) is not None \
            and self.memref == other.memref

    @property
    def static_shape(self) -> bool:
        """Is every dim a ``ConstInt`` (no Var, no expression)?  Cached: walkers and
        mutators ask it for every Var they meet."""
        try:
            return self._static
        except AttributeError:
            ConstInt = _expr.ConstInt
            value = all(type(dim) is ConstInt for dim in self.shape)
            _set(self, "_static", value)
            return value

    def _compute_plain_key(self) -> tuple | None:
        ConstInt = _expr.ConstInt
        dims = []
        for dim in self.shape:
            if type(dim) is not ConstInt:
                return None
            # INDEX and INT64 constants are equal (02-ir.md §13.4): canonicalise to INT64
            dtype = dim.dtype
            dims.append((DataType.INT64 if dtype is DataType.INDEX else dtype).code())
            dims.append(dim.value)
        if isinstance(self, TensorType):
            if self.tensor_view is not None:
                return None
            return ("tensor", self.dtype.code(), tuple(dims))
        if self.tile_view is not None:  # type: ignore[attr-defined]
            return None
        space = self.memory_space
        return ("tile", self.dtype.code(), tuple(dims), -1 if space is None else int(space))


class TensorType(ShapedType):
    __slots__ = ("tensor_view",)
    tensor_view: TensorView | None
    _fields = ("dtype", "shape", "tensor_view")

    def __init__(self, shape: Sequence[Any], dtype: DataType, memref: "MemRef | None" = None,
                 tensor_view: "TensorView | None" = None) -> None:
        # Checks inline (a type is built for almost every value); messages on failure only.
        if dtype.__class__ is not DataType:
            check_type("TensorType", "dtype", dtype, DataType, "DataType")
        if memref is not None and memref.__class__ is not MemRef:
            check_type("TensorType", "memref", memref, MemRef, "MemRef or None")
        if tensor_view is not None and tensor_view.__class__ is not TensorView:
            check_type("TensorType", "tensor_view", tensor_view, TensorView, "TensorView or None")
        _set(self, "shape", shape_of("TensorType", shape))
        _set(self, "dtype", dtype)
        _set(self, "memref", memref)
        _set(self, "tensor_view", tensor_view)


class TileType(ShapedType):
    __slots__ = ("tile_view", "memory_space")
    tile_view: TileView | None
    memory_space: MemorySpace | None
    _fields = ("dtype", "shape", "tile_view", "memory_space")

    def __init__(self, shape: Sequence[Any], dtype: DataType, memref: "MemRef | None" = None,
                 tile_view: "TileView | None" = None,
                 memory_space: MemorySpace | None = None) -> None:
        if dtype.__class__ is not DataType:
            check_type("TileType", "dtype", dtype, DataType, "DataType")
        if memref is not None and memref.__class__ is not MemRef:
            check_type("TileType", "memref", memref, MemRef, "MemRef or None")
        if tile_view is not None and tile_view.__class__ is not TileView:
            check_type("TileType", "tile_view", tile_view, TileView, "TileView or None")
        if memory_space is not None and memory_space.__class__ is not MemorySpace:
            check_type("TileType", "memory_space", memory_space, MemorySpace,
                       "MemorySpace or None")
            memory_space = MemorySpace(memory_space)
        _set(self, "shape", shape_of("TileType", shape))
        _set(self, "dtype", dtype)
        _set(self, "memref", memref)
        _set(self, "tile_view", tile_view)
        _set(self, "memory_space", memory_space)

    def get_effective_tile_view(self) -> "TileView":
        """The tile's view, or the default view when it has none."""
        return self.tile_view if self.tile_view is not None else TileView()


class TupleType(Type):
    __slots__ = ("types",)
    types: tuple[Type, ...]
    _fields = ("types",)

    def __init__(self, types: Iterable[Type]) -> None:
        _set(self, "types", as_tuple("TupleType", "types", types, Type, "Type"))

    @classmethod
    def _of_checked(cls, types: tuple[Type, ...]) -> "TupleType":
        """The TupleType of ``types``, a tuple already known to hold only Types (the
        types of Exprs): built without checking them again."""
        made = object.__new__(cls)
        _set(made, "types", types)
        return made


# -- layout / memory metadata: carried and printed, otherwise opaque -----------------

class _Value:
    """A small immutable record compared field by field (views, memrefs)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple:
        from .pickling import reduce_slots
        return reduce_slots(self)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        from .structural import structural_equal
        return structural_equal(self, other)

    def __hash__(self) -> int:
        return hash(type(self).__name__)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


def _exprs(owner: str, field: str, items: Iterable[Any] | None) -> tuple:
    if items is None:
        return ()
    ConstInt = _expr.ConstInt
    out = []
    for i, item in enumerate(items):
        if isinstance(item, int) and not isinstance(item, bool):
            item = ConstInt(item, DataType.INDEX)
        elif hasattr(type(item), "__ir_dim__"):
            item = item.__ir_dim__()  # a DSL dim (``pl.dynamic("N")``) at Python level
        if not isinstance(item, Expr):
            raise TypeError(f"{owner}: field '{field}[{i}]' expects int or Expr")
        out.append(item)
    return tuple(out)


class TensorView(_Value):
    """Strides, layout and valid shape of a tensor view."""

    __slots__ = ("stride", "layout", "valid_shape", "pad")
    stride: tuple[Expr, ...]
    layout: TensorLayout
    valid_shape: tuple[Expr, ...]
    pad: PadValue
    _fields = ("stride", "layout", "valid_shape", "pad")

    def __init__(self, stride: Iterable[Any] | None = None, layout: TensorLayout | None = None,
                 valid_shape: Iterable[Any] | None = None, pad: PadValue = PadValue.null) -> None:
        _set(self, "stride", _exprs("TensorView", "stride", stride))
        # PyPTO's default ``None`` means the row-major ND layout.
        _set(self, "layout", TensorLayout.ND if layout is None else TensorLayout(layout))
        _set(self, "valid_shape", _exprs("TensorView", "valid_shape", valid_shape))
        # What reads outside the valid region see (a type annotation; the CPU executor
        # does not read it).
        _set(self, "pad", PadValue(pad))


class TileView(_Value):
    """Valid shape, strides, offset, block/scatter layouts, fractal size, pad and compact
    mode of a tile (the compact mode is a storage choice of the device; recorded only)."""

    __slots__ = ("valid_shape", "stride", "start_offset", "blayout", "slayout", "fractal", "pad",
                 "compact")
    valid_shape: tuple[Expr, ...]
    stride: tuple[Expr, ...]
    start_offset: Expr | None
    blayout: TileLayout
    slayout: TileLayout
    fractal: int
    pad: PadValue
    compact: CompactMode
    _fields = ("valid_shape", "stride", "start_offset", "blayout", "slayout", "fractal", "pad",
               "compact")

    def __init__(self, valid_shape: Iterable[Any] | None = None,
                 stride: Iterable[Any] | None = None, start_offset: Any = None,
                 blayout: TileLayout = TileLayout.row_major,
                 slayout: TileLayout = TileLayout.none_box, fractal: int = 512,
                 pad: PadValue = PadValue.null, compact: CompactMode = CompactMode.null) -> None:
        ConstInt = _expr.ConstInt
        _set(self, "valid_shape", _exprs("TileView", "valid_shape", valid_shape))
        _set(self, "stride", _exprs("TileView", "stride", stride))
        if isinstance(start_offset, int):
            start_offset = ConstInt(start_offset, DataType.INDEX)
        _set(self, "start_offset", start_offset)
        _set(self, "blayout", TileLayout(blayout))
        _set(self, "slayout", TileLayout(slayout))
        _set(self, "fractal", int(fractal))
        _set(self, "pad", PadValue(pad))
        _set(self, "compact", CompactMode(compact))


_UNKNOWN = object.__new__(UnknownType)


def has_dynamic_dims(t: Type) -> bool:
    """Could a Var occur in ``t``'s shape -- a dim that is not a constant, in ``t`` or in
    a tuple item?  Scalars and other types have no dims (``ShapedType.static_shape``)."""
    if isinstance(t, ShapedType):
        return not t.static_shape
    if isinstance(t, TupleType):
        return any(has_dynamic_dims(item) for item in t.types)
    return False


# MemRef has its own module (its constructor forms); it is one of the types' names here.
from .memref import MemRef  # noqa: E402
# The module, not its names: expr imports this module first.  Bound once here, because
# an import inside a function costs about 2 us a call (shapes are built per value).
from . import expr as _expr  # noqa: E402
