"""Structural equality and hashing of IR nodes and types (02-ir.md §13-14).

Both walk each node class's ``_fields`` table.  Variables are compared through
a two-way binding map: definition fields (``FieldKind.DEF``) always bind
(auto-mapping), usual fields bind only when ``enable_auto_mapping`` is on and
otherwise require the very same object (or an existing binding).  So two
independently parsed copies of a program compare equal in the default strict
mode, because every variable is bound where it is defined.

Below the top level there is deliberately no "same object => equal" shortcut:
skipping a shared subtree would skip the bindings of the Vars inside it, so
``x + a`` would equal ``x + x`` under auto-mapping and equal nodes could hash
differently.  Pairs already found equal are memoised instead, which keeps shared
subtrees (DAGs) linear; this is sound because bindings are only ever added.
"""

from __future__ import annotations

import enum
import zlib
from typing import Any, cast

from .depth import nesting_guard
from .dtype import DataType
from .expr import ConstInt, IterArg, Var
from .function import Program
from .node import FieldKind, IRNode, Op
from .stmt import ForStmt, SeqStmts
from .types import ScalarType, ShapedType, TensorType, TileType, TupleType, Type, _Value

__all__ = ["structural_equal", "structural_hash", "assert_structural_equal"]

_DEF, _IGNORE = FieldKind.DEF, FieldKind.IGNORE
_INDEX, _INT64 = DataType.INDEX, DataType.INT64
_MASK = (1 << 64) - 1
_COMPOUND = (IRNode, Type, tuple, list, dict, _Value)  # field values that extend the path


class _Mismatch(Exception):
    """Raised at the first difference; frames prepend their path part while unwinding."""

    def __init__(self, reason: str, lhs: Any = None, rhs: Any = None,
                 left_desc: str | None = None, right_desc: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.lhs, self.rhs = lhs, rhs
        self.left_desc, self.right_desc = left_desc, right_desc
        self.parts: list[str] = []


def _canon(dtype: DataType) -> DataType:
    return _INT64 if dtype is _INDEX else dtype


def _fmt(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, DataType):
        return value.to_string()
    return repr(value) if isinstance(value, str) else str(value)


def _dict_keys(mapping: dict) -> list:
    """Canonical key order, so Var bindings inside attrs do not depend on insertion order."""
    return sorted(mapping) if len(mapping) > 1 else list(mapping)


class _Equal:
    __slots__ = ("l2r", "r2l", "auto", "done")

    def __init__(self, auto: bool) -> None:
        self.l2r: dict[Var, Var] = {}
        self.r2l: dict[Var, Var] = {}
        self.auto = auto  # the caller's mode; DEF fields force auto-mapping locally
        self.done: set[tuple[int, int, bool]] = set()

    # -- dispatch ---------------------------------------------------------------
    def value(self, lhs: Any, rhs: Any, auto: bool, canon: bool = False) -> None:
        if isinstance(lhs, IRNode):
            if not isinstance(rhs, IRNode):
                self._presence_or_kind(lhs, rhs)
            self.node(lhs, rhs, auto, canon)
        elif isinstance(lhs, Type):
            self.type(lhs, rhs, auto, canon)
        elif isinstance(lhs, (tuple, list)):
            self.seq(lhs, rhs, auto)
        elif isinstance(lhs, dict):
            self.mapping(lhs, rhs, auto)
        elif lhs is None or rhs is None:
            if lhs is not rhs:
                self._presence_or_kind(lhs, rhs)
        elif isinstance(lhs, Op):
            if not isinstance(rhs, Op) or lhs.name != rhs.name:
                raise _Mismatch(f"Op name mismatch ({_desc(lhs)} != {_desc(rhs)})")
        elif isinstance(lhs, enum.Enum):
            if type(lhs) is not type(rhs) or lhs is not rhs:
                raise _Mismatch(f"{type(lhs).__name__} mismatch ({_fmt(lhs)} != {_fmt(rhs)})")
        elif isinstance(lhs, _Value):
            self.record(lhs, rhs, auto)
        elif type(lhs) is not type(rhs) or (lhs != rhs and not _both_nan(lhs, rhs)):
            if isinstance(rhs, _COMPOUND):
                self._presence_or_kind(lhs, rhs)
            raise _Mismatch(f"value mismatch ({_fmt(lhs)} != {_fmt(rhs)})")

    @staticmethod
    def _presence_or_kind(lhs: Any, rhs: Any) -> None:
        if lhs is None or rhs is None:
            name = type(rhs if lhs is None else lhs).__name__
            raise _Mismatch(f"{name} optional presence mismatch", left_desc=_desc(lhs),
                            right_desc=_desc(rhs))
        raise _Mismatch(f"value kind mismatch ({type(lhs).__name__} != {type(rhs).__name__})",
                        left_desc=_desc(lhs), right_desc=_desc(rhs))

    def node(self, lhs: IRNode, rhs: IRNode, auto: bool, canon: bool = False) -> None:
        cls = type(lhs)
        if cls is not type(rhs):
            raise _Mismatch(f"Node type mismatch ({cls.__name__} != {type(rhs).__name__})",
                            lhs, rhs)
        if isinstance(lhs, Var):
            self.var(lhs, rhs, auto, canon)  # type: ignore[arg-type]
            return
        key = (id(lhs), id(rhs), auto)
        if key in self.done:
            return
        if cls is Program:
            self.program(lhs, rhs, auto)  # type: ignore[arg-type]
        else:
            add_name = cls is not SeqStmts
            is_const_int = cls is ConstInt
            is_for = cls is ForStmt
            for name, kind in cls._fields:
                if kind is _IGNORE:
                    continue
                a, b = getattr(lhs, name), getattr(rhs, name)
                try:
                    self.value(a, b, auto or kind is _DEF,
                               is_const_int or (is_for and name == "loop_var"))
                except _Mismatch as exc:
                    # A differing scalar field (int, str, enum, op name) is reported at its
                    # node, e.g. ``stop`` for ``ConstInt(8)`` vs ``ConstInt(9)`` (§13.6).
                    if add_name and (isinstance(a, _COMPOUND) or isinstance(b, _COMPOUND)):
                        exc.parts.append("." + name)
                    raise
        self.done.add(key)

    def var(self, lhs: Var, rhs: Var, auto: bool, canon: bool) -> None:
        mapped_r = self.l2r.get(lhs)
        mapped_l = self.r2l.get(rhs)
        if mapped_r is not None or mapped_l is not None:
            if mapped_r is rhs and mapped_l is lhs:
                return
            # Strict mode names a one-sided binding a pointer mismatch (§13.3).
            both = mapped_r is not None and mapped_l is not None
            reason = ("Variable mapping inconsistent" if auto or both
                      else "Variable pointer mismatch")
            raise _Mismatch(reason, left_desc=_vdesc(lhs), right_desc=_vdesc(rhs))
        if not auto and lhs is not rhs:
            raise _Mismatch("Variable pointer mismatch", left_desc=_vdesc(lhs),
                            right_desc=_vdesc(rhs))
        # First encounter of this pair: bind it (identical objects too, so a Var cannot
        # later be bound to something else), after checking what a binding implies.
        try:
            self.type(lhs.type, rhs.type, True, canon)
        except _Mismatch as exc:
            raise _Mismatch(f"Variable type mismatch ({exc.reason})",
                            left_desc=f"{_vdesc(lhs)}: {_pr(lhs.type)}",
                            right_desc=f"{_vdesc(rhs)}: {_pr(rhs.type)}") from None
        self.l2r[lhs] = rhs
        self.r2l[rhs] = lhs
        if isinstance(lhs, IterArg):
            # The init is a use in the enclosing scope: compared in the caller's mode.
            try:
                self.value(lhs.initValue, rhs.initValue, self.auto)  # type: ignore[attr-defined]
            except _Mismatch as exc:
                exc.parts.append(".initValue")
                raise
        elif len(type(lhs)._fields) > 2:  # a Var kind's own fields (WindowBuffer's size ...)
            for name, _kind in type(lhs)._fields[2:]:
                a = getattr(lhs, name)
                try:
                    self.value(a, getattr(rhs, name), self.auto)
                except _Mismatch as exc:
                    if isinstance(a, _COMPOUND):
                        exc.parts.append("." + name)
                    raise

    def seq(self, lhs: tuple | list, rhs: Any, auto: bool) -> None:
        if not isinstance(rhs, (tuple, list)):
            self._presence_or_kind(lhs, rhs)
        if len(lhs) != len(rhs):
            raise _Mismatch(f"Vector size mismatch ({len(lhs)} items != {len(rhs)} items)")
        value = self.value
        for i, (a, b) in enumerate(zip(lhs, rhs)):
            try:
                value(a, b, auto)
            except _Mismatch as exc:
                exc.parts.append(f"[{i}]")
                raise

    def program(self, lhs: Program, rhs: Program, auto: bool) -> None:
        left, right = lhs._functions, rhs._functions
        if len(left) != len(right):
            raise _Mismatch(f"Map size mismatch ({len(left)} != {len(right)})")
        for (ka, va), (kb, vb) in zip(left.items(), right.items()):
            if ka != kb:
                raise _Mismatch(f"Map key mismatch ({ka!r} != {kb!r})")
            try:
                self.node(va, vb, auto)
            except _Mismatch as exc:
                exc.parts.append(f"[{ka!r}]")
                raise

    def mapping(self, lhs: dict, rhs: Any, auto: bool) -> None:
        """attrs / kwargs: order-insensitive."""
        if not isinstance(rhs, dict):
            self._presence_or_kind(lhs, rhs)
        if len(lhs) != len(rhs):
            raise _Mismatch(f"Map size mismatch ({len(lhs)} != {len(rhs)})",
                            left_desc=str(sorted(lhs)), right_desc=str(sorted(rhs)))
        for key in _dict_keys(lhs):
            if key not in rhs:
                raise _Mismatch(f"Map key mismatch (key {key!r} missing on the right)")
            try:
                self.value(lhs[key], rhs[key], auto)
            except _Mismatch as exc:
                exc.reason = f"Kwargs value mismatch for key {key!r}: {exc.reason}"
                exc.parts.append(f"[{key!r}]")
                raise

    def record(self, lhs: _Value, rhs: Any, auto: bool) -> None:
        if type(lhs) is not type(rhs):
            raise _Mismatch(f"Type name mismatch ({type(lhs).__name__} != "
                            f"{type(rhs).__name__})")
        for name in lhs._fields:
            try:
                self.value(getattr(lhs, name), getattr(rhs, name), auto)
            except _Mismatch as exc:
                exc.parts.append("." + name)
                raise

    # -- types -----------------------------------------------------------------
    def type(self, lhs: Type, rhs: Any, auto: bool, canon: bool = False) -> None:
        if not isinstance(rhs, Type) or type(lhs) is not type(rhs):
            raise _Mismatch(f"Type name mismatch ({type(lhs).__name__} != "
                            f"{type(rhs).__name__})", left_desc=_pr(lhs), right_desc=_pr(rhs))
        # from here on ``rhs`` is of ``lhs``'s class
        if isinstance(lhs, ScalarType):
            rhs = cast(ScalarType, rhs)
            a, b = lhs.dtype, rhs.dtype
            if canon:
                a, b = _canon(a), _canon(b)
            if a is not b:
                raise _Mismatch(f"ScalarType dtype mismatch ({lhs.dtype.to_string()} != "
                                f"{rhs.dtype.to_string()})")
        elif isinstance(lhs, ShapedType):
            rhs = cast(ShapedType, rhs)
            kind = type(lhs).__name__
            if lhs.dtype is not rhs.dtype:
                raise _Mismatch(f"{kind} dtype mismatch ({lhs.dtype.to_string()} != "
                                f"{rhs.dtype.to_string()})")
            if len(lhs.shape) != len(rhs.shape):
                raise _Mismatch(f"{kind} shape rank mismatch ({len(lhs.shape)} != "
                                f"{len(rhs.shape)})", left_desc=_pr(lhs), right_desc=_pr(rhs))
            for i, (a_dim, b_dim) in enumerate(zip(lhs.shape, rhs.shape)):
                try:
                    self.value(a_dim, b_dim, auto)
                except _Mismatch as exc:
                    exc.parts.append(f".shape[{i}]")
                    raise
            if isinstance(lhs, TensorType):
                self._optional(lhs.tensor_view, cast(TensorType, rhs).tensor_view, "TensorView",
                               auto)
            elif isinstance(lhs, TileType):  # (an ArrayType is its dtype and extent)
                rhs_tile = cast(TileType, rhs)
                self._optional(lhs.tile_view, rhs_tile.tile_view, "TileView", auto)
                a_space, b_space = lhs.memory_space, rhs_tile.memory_space
                if (a_space is None) != (b_space is None):
                    raise _Mismatch("MemorySpace optional presence mismatch")
                if a_space is not b_space:
                    raise _Mismatch(f"MemorySpace mismatch ({_fmt(a_space)} != {_fmt(b_space)})")
        elif isinstance(lhs, TupleType):
            rhs = cast(TupleType, rhs)
            if len(lhs.types) != len(rhs.types):
                raise _Mismatch(f"TupleType size mismatch ({len(lhs.types)} != "
                                f"{len(rhs.types)})")
            for i, (a_item, b_item) in enumerate(zip(lhs.types, rhs.types)):
                try:
                    self.type(a_item, b_item, auto)
                except _Mismatch as exc:
                    exc.parts.append(f".types[{i}]")
                    raise

    def _optional(self, a: Any, b: Any, what: str, auto: bool) -> None:
        if (a is None) != (b is None):
            raise _Mismatch(f"{what} optional presence mismatch")
        if a is not None:
            self.record(a, b, auto)


def _vdesc(var: Var) -> str:
    return f"Var '{var.name_hint}' (id {var.unique_id})"


def _desc(value: Any) -> str:
    if isinstance(value, Var):
        return _vdesc(value)
    if isinstance(value, Op):
        return value.name
    if value is None:
        return "None"
    if isinstance(value, IRNode):
        return type(value).__name__
    return _fmt(value)


def _pr(value: Any) -> str:
    try:
        from .printer import python_print
        return python_print(value)
    except Exception:  # diagnostics must not fail on an unprintable node
        return f"<{type(value).__name__}>"


def _compare(lhs: Any, rhs: Any, auto: bool) -> None:
    if lhs is rhs:
        return
    eq = _Equal(auto)
    with nesting_guard(lhs):
        if isinstance(lhs, Type) or isinstance(rhs, Type):
            if not (isinstance(lhs, Type) and isinstance(rhs, Type)):
                raise _Mismatch(f"Type name mismatch ({type(lhs).__name__} != "
                                f"{type(rhs).__name__})")
            eq.type(lhs, rhs, auto)
        elif isinstance(lhs, IRNode) and isinstance(rhs, IRNode):
            eq.node(lhs, rhs, auto)
        else:
            eq.value(lhs, rhs, auto)


def structural_equal(lhs: Any, rhs: Any, enable_auto_mapping: bool = False) -> bool:
    """True when ``lhs`` and ``rhs`` (nodes or types) are structurally equal."""
    try:
        _compare(lhs, rhs, enable_auto_mapping)
    except _Mismatch:
        return False
    return True


def assert_structural_equal(lhs: Any, rhs: Any, enable_auto_mapping: bool = False) -> None:
    """Raise ``ValueError`` showing the path to the first difference and both sides."""
    try:
        _compare(lhs, rhs, enable_auto_mapping)
    except _Mismatch as exc:
        raise ValueError(_message(exc, lhs, rhs)) from None


def _message(exc: _Mismatch, lhs: Any = None, rhs: Any = None) -> str:
    path = "".join(reversed(exc.parts)).lstrip(".")
    lines = [f"Structural equality assertion failed at: {path}" if path
             else "Structural equality assertion failed"]
    if isinstance(lhs, Program) and isinstance(rhs, Program):
        from .diff import program_context  # which function, which statement
        context = program_context(lhs, rhs, list(reversed(exc.parts)))
        if context:
            lines += [""] + context
    if exc.lhs is not None and exc.rhs is not None:
        for title, node in (("Left-hand side:", exc.lhs), ("Right-hand side:", exc.rhs)):
            lines += ["", title]
            lines += ["  " + line for line in _pr(node).splitlines()]
    if exc.left_desc is not None or exc.right_desc is not None:
        lines.append("")
        if exc.left_desc is not None:
            lines.append(f"Left: {exc.left_desc}")
        if exc.right_desc is not None:
            lines.append(f"Right: {exc.right_desc}")
    else:
        lines.append("")
    lines.append(f"Reason: {exc.reason}")
    return "\n".join(lines)


# -- hashing --------------------------------------------------------------------------

def _combine(seed: int, value: int) -> int:
    return (seed ^ (value + 0x9E3779B9 + (seed << 6) + (seed >> 2))) & _MASK


_NAME_HASH: dict[str, int] = {}


def _both_nan(lhs: Any, rhs: Any) -> bool:
    """Two NaN floats: the same constant (``float("nan")`` is never ``==`` itself)."""
    return isinstance(lhs, float) and lhs != lhs and rhs != rhs


def _name_hash(name: str) -> int:
    found = _NAME_HASH.get(name)
    if found is None:  # stable across processes, unlike hash(str)
        found = _NAME_HASH[name] = zlib.crc32(name.encode()) * 0x100000001B3 & _MASK
    return found


class _Hasher:
    """Mirror of ``_Equal``: whatever it compares is hashed, in the same order."""

    __slots__ = ("tokens", "counter", "memo", "auto")

    def __init__(self, auto: bool) -> None:
        self.tokens: dict[Var, int] = {}
        self.counter = 0
        self.memo: dict[tuple[int, bool], int] = {}
        self.auto = auto

    def value(self, value: Any, auto: bool, canon: bool = False) -> int:
        if isinstance(value, IRNode):
            return self.node(value, auto, canon)
        if isinstance(value, Type):
            return self.type(value, auto, canon)
        if isinstance(value, (tuple, list)):
            seed = _name_hash("seq") ^ len(value)
            for item in value:
                seed = _combine(seed, self.value(item, auto))
            return seed
        if isinstance(value, dict):
            acc = _name_hash("map") ^ len(value)
            for key in _dict_keys(value):  # commutative fold: order-insensitive
                item = self.value(value[key], auto)
                acc = (acc + _combine(_name_hash(str(key)), item)) & _MASK
            return acc
        if value is None:
            return 0x51ED
        if isinstance(value, Op):
            return _name_hash("op:" + value.name)
        if isinstance(value, enum.Enum):
            return _combine(_name_hash(type(value).__name__), int(value.value))
        if isinstance(value, DataType):
            return _combine(0xD7, value.code())
        if isinstance(value, _Value):
            seed = _name_hash(type(value).__name__)
            for name in value._fields:
                seed = _combine(seed, self.value(getattr(value, name), auto))
            return seed
        if isinstance(value, bool):
            return 0xB001 + int(value)
        if isinstance(value, int):
            return value & _MASK
        if isinstance(value, float):
            # hash(nan) is per object since Python 3.10; every NaN constant is one value here
            return _combine(0xF10A7, (hash(value) if value == value else 0x7FF8) & _MASK)
        if isinstance(value, str):
            return _name_hash(value)
        raise TypeError(f"structural_hash: unsupported field value {type(value).__name__}")

    def node(self, node: IRNode, auto: bool, canon: bool = False) -> int:
        if isinstance(node, Var):
            return self.var(node, auto, canon)
        key = (id(node), auto)
        found = self.memo.get(key)
        if found is not None:
            return found
        cls = type(node)
        seed = _name_hash(cls.__name__)
        if cls is Program:
            for name, func in node._functions.items():  # type: ignore[attr-defined]
                seed = _combine(_combine(seed, _name_hash(name)), self.node(func, auto))
        else:
            is_const_int = cls is ConstInt
            is_for = cls is ForStmt
            for name, kind in cls._fields:
                if kind is _IGNORE:
                    continue
                seed = _combine(seed, self.value(getattr(node, name), auto or kind is _DEF,
                                                 is_const_int or (is_for and name == "loop_var")))
        self.memo[key] = seed
        return seed

    def var(self, var: Var, auto: bool, canon: bool) -> int:
        token = self.tokens.get(var)
        if token is None:
            if auto:
                self.counter += 1
                token = _combine(0xA070, self.counter)
            else:
                token = _combine(0x57A1C, var.unique_id)
            token = _combine(token, self.type(var.type, auto, canon))
            if isinstance(var, IterArg):
                token = _combine(token, self.value(var.initValue, self.auto))
            else:
                for name, _kind in type(var)._fields[2:]:
                    token = _combine(token, self.value(getattr(var, name), self.auto))
            self.tokens[var] = token
        return token

    def type(self, t: Type, auto: bool, canon: bool = False) -> int:
        seed = _name_hash(type(t).__name__)
        if isinstance(t, ScalarType):
            return _combine(seed, _canon(t.dtype).code() if canon else t.dtype.code())
        if isinstance(t, ShapedType):
            seed = _combine(seed, t.dtype.code())
            seed = _combine(seed, len(t.shape))
            for dim in t.shape:
                seed = _combine(seed, self.value(dim, auto))
            if isinstance(t, TensorType):
                return _combine(seed, self.value(t.tensor_view, auto))
            if not isinstance(t, TileType):  # an ArrayType: dtype and extent
                return seed
            seed = _combine(seed, self.value(t.tile_view, auto))
            return _combine(seed, self.value(t.memory_space, auto))
        if isinstance(t, TupleType):
            seed = _combine(seed, len(t.types))
            for item in t.types:
                seed = _combine(seed, self.type(item, auto))
        return seed


def structural_hash(node: Any, enable_auto_mapping: bool = False) -> int:
    """An unsigned 64-bit hash consistent with ``structural_equal`` in the same mode."""
    hasher = _Hasher(enable_auto_mapping)
    with nesting_guard(node):
        return hasher.value(node, enable_auto_mapping)
