"""Scope statements: regions that run their body once and that the outliners lift."""

from __future__ import annotations

import keyword

from typing import Any, ClassVar, Mapping

from .dtype import DataType
from .enums import Level, Role, ScopeKind, SplitMode
from .expr import ConstInt, _ordered_dict, _span
from .node import Expr, FieldKind, Stmt, check_type
from .span import Span
from .stmt import _body

__all__ = ["ScopeStmt", "InCoreScopeStmt", "ClusterScopeStmt", "HierarchyScopeStmt",
           "SpmdScopeStmt", "RuntimeScopeStmt", "GraphScopeStmt", "SplitAivScopeStmt",
           "SCOPE_ATTR_KEYS"]

_set = object.__setattr__
_U = FieldKind.USUAL
# Structural field order shared by every scope kind (02-ir.md §7); kind-specific fields follow.
_COMMON = (("name_hint", _U), ("body", _U), ("attrs", _U))

# Canonical order of reserved scope attrs (the printer and parser follow it).
SCOPE_ATTR_KEYS = ("manual_dep_edges", "arg_direction_overrides_vars", "dump_vars",
                   "task_id_var", "allow_early_resolve", "predicate", "slot_num")


class ScopeStmt(Stmt):
    """Abstract scope.  ``name_hint`` is compared; names defined inside stay visible after."""

    __slots__ = ("name_hint", "body", "_attrs")
    name_hint: str
    body: Stmt
    _attrs: dict[str, Any]
    # Each concrete class names its kind; ``scope_kind`` (PyPTO's property) reports it.
    _KIND: ClassVar[ScopeKind]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("ScopeStmt is abstract; construct InCoreScopeStmt, GraphScopeStmt, ...")

    def _init_scope(self, name_hint: str, body: Any, span: Any, attrs: Any) -> None:
        owner = type(self).__name__
        if body is None:  # positional or keyword, as in PyPTO, but never optional
            raise TypeError(f"{owner}: missing required argument 'body'")
        if name_hint.__class__ is not str:
            check_type(owner, "name_hint", name_hint, str, "str")
        _set(self, "name_hint", name_hint)
        _set(self, "body", body if isinstance(body, Stmt) else _body(owner, "body", body))
        _set(self, "_attrs", _ordered_dict(owner, "attrs", attrs))
        _set(self, "span", span if span.__class__ is Span else _span(owner, span))
        _set(self, "leading_comments", ())

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)

    @property
    def scope_kind(self) -> ScopeKind:
        """Which scope this is (``ScopeKind.InCore`` for an ``InCoreScopeStmt``, ...)."""
        return self._KIND


class InCoreScopeStmt(ScopeStmt):
    """``with pl.at(level=pl.Level.CORE_GROUP):``"""

    __slots__ = ("split",)
    split: SplitMode
    _KIND = ScopeKind.InCore
    _fields = _COMMON + (("split", _U),)

    def __init__(self, split: SplitMode = SplitMode.NONE, name_hint: str = "",
                 body: Stmt | None = None, span: Span | None = None, *,
                 attrs: Mapping | None = None) -> None:
        if split.__class__ is not SplitMode:
            check_type("InCoreScopeStmt", "split", split, SplitMode, "SplitMode")
            split = SplitMode(split)
        _set(self, "split", split)
        self._init_scope(name_hint, body, span, attrs)


class ClusterScopeStmt(ScopeStmt):
    """``with pl.cluster():``"""

    __slots__ = ()
    _KIND = ScopeKind.Cluster
    _fields = _COMMON

    def __init__(self, name_hint: str = "", body: Stmt | None = None,
                 span: Span | None = None, *, attrs: Mapping | None = None) -> None:
        self._init_scope(name_hint, body, span, attrs)


class HierarchyScopeStmt(ScopeStmt):
    """``with pl.at(level=..., role=...):`` for any level but CORE_GROUP."""

    __slots__ = ("level", "role")
    level: Level
    role: Role | None
    _KIND = ScopeKind.Hierarchy
    _fields = _COMMON + (("level", _U), ("role", _U))

    def __init__(self, level: Level, role: Role | None = None, name_hint: str = "",
                 body: Stmt | None = None, span: Span | None = None, *,
                 attrs: Mapping | None = None) -> None:
        check_type("HierarchyScopeStmt", "level", level, Level, "Level")
        if role is not None:
            check_type("HierarchyScopeStmt", "role", role, Role, "Role or None")
        _set(self, "level", Level(level))
        _set(self, "role", None if role is None else Role(role))
        self._init_scope(name_hint, body, span, attrs)


class SpmdScopeStmt(ScopeStmt):
    """``with pl.spmd(n):`` / ``for i in pl.spmd(n):``"""

    __slots__ = ("core_num", "sync_start")
    core_num: Expr
    sync_start: bool
    _KIND = ScopeKind.Spmd
    _fields = _COMMON + (("core_num", _U), ("sync_start", _U))

    def __init__(self, core_num: Expr | int, sync_start: bool = False, name_hint: str = "",
                 body: Stmt | None = None, span: Span | None = None, *,
                 attrs: Mapping | None = None) -> None:
        if isinstance(core_num, int) and not isinstance(core_num, bool):
            core_num = ConstInt(core_num, DataType.INDEX)
        check_type("SpmdScopeStmt", "core_num", core_num, Expr, "Expr or int")
        if isinstance(core_num, ConstInt) and core_num.value < 1:
            raise ValueError(f"SpmdScopeStmt: field 'core_num' is {core_num.value}; a pl.spmd "
                             "region runs on at least one block")
        check_type("SpmdScopeStmt", "sync_start", sync_start, bool, "bool")
        _set(self, "core_num", core_num)
        _set(self, "sync_start", sync_start)
        self._init_scope(name_hint, body, span, attrs)


class RuntimeScopeStmt(ScopeStmt):
    """``with pl.scope():`` / ``with pl.manual_scope():`` (transparent to the outliners)."""

    __slots__ = ("manual",)
    manual: bool
    _KIND = ScopeKind.Runtime
    _fields = _COMMON + (("manual", _U),)

    def __init__(self, manual: bool = False, name_hint: str = "", body: Stmt | None = None,
                 span: Span | None = None, *, attrs: Mapping | None = None) -> None:
        check_type("RuntimeScopeStmt", "manual", manual, bool, "bool")
        _set(self, "manual", manual)
        self._init_scope(name_hint, body, span, attrs)


class SplitAivScopeStmt(ScopeStmt):
    """``for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):`` inside a kernel: the
    body runs once on each of the ``count`` vector cores of a core group, which share the
    work as ``split`` says.  The loop name is the body's first statement,
    ``aiv_id = pl.tile.get_subblock_idx()`` (the scope itself binds nothing)."""

    __slots__ = ("split", "count")
    split: SplitMode
    count: int
    _KIND = ScopeKind.SplitAiv
    _fields = _COMMON + (("split", _U), ("count", _U))

    def __init__(self, split: SplitMode, count: int = 2, name_hint: str = "",
                 body: Stmt | None = None, span: Span | None = None, *,
                 attrs: Mapping | None = None) -> None:
        check_type("SplitAivScopeStmt", "split", split, SplitMode, "SplitMode")
        if isinstance(count, bool) or not isinstance(count, int):
            raise TypeError(f"SplitAivScopeStmt: field 'count' expects int, got "
                            f"{type(count).__name__}")
        if count <= 0:
            raise ValueError(f"SplitAivScopeStmt: field 'count' must be positive, got {count}")
        _set(self, "split", SplitMode(split))
        _set(self, "count", count)
        self._init_scope(name_hint, body, span, attrs)


class GraphScopeStmt(ScopeStmt):
    """``with pl.graph("name"):`` -- the name becomes the outlined Graph function's name.

    The name is mandatory: it is the graph's identity at run time, so it is
    never generated.  An empty name is rejected here, as in the builder and parser.
    """

    __slots__ = ()
    _KIND = ScopeKind.Graph
    _fields = _COMMON

    def __init__(self, name_hint: str, body: Stmt | None = None,
                 span: Span | None = None, *, attrs: Mapping | None = None) -> None:
        check_type("GraphScopeStmt", "name_hint", name_hint, str, "str")
        if not name_hint:
            raise ValueError("GraphScopeStmt: field 'name_hint' must not be empty; a pl.graph "
                             "region needs a name (it becomes the outlined function's name)")
        if not name_hint.isidentifier() or keyword.iskeyword(name_hint):
            what = "a Python keyword" if keyword.iskeyword(name_hint) else \
                "not a Python identifier"
            raise ValueError(f"GraphScopeStmt: field 'name_hint' is {name_hint!r}, {what} "
                             "(it becomes the outlined function's name)")
        self._init_scope(name_hint, body, span, attrs)
