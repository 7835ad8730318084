"""Per-function variable naming (02-ir.md §12.4).

One walk (``VarScan``) collects, in the spec's order, the parameters, the Vars at
definition sites (depth-first pre-order), the Vars only used, the Vars that occur
in printed types (dynamic-dim candidates) and the program functions called.
``assign_names`` then turns that into a ``Var -> printed name`` table: a name held
by one Var is kept (and reserved); Vars sharing a name get the name if still free,
else ``name_1``, ``name_2``, ... skipping taken names.
"""

from __future__ import annotations

from typing import Any, Iterable, cast

from ...errors import InternalError
from .. import expr as E
from .. import scope as S
from .. import stmt as St
from ..function import Function
from ..node import Expr, GlobalVar, Stmt
from ..types import ShapedType, TensorType, TupleType, Type
from .spelling import sanitize_identifier


def unspellable_scope(node: S.ScopeStmt) -> str:
    """Why a scope the DSL has no construct for cannot be printed."""
    kind = type(node).__name__
    if kind == "CommDomainScopeStmt":
        return ("python_print: a CommDomainScopeStmt has no DSL spelling: PyPTO's backend "
                "pass MaterializeCommDomainScopes builds it, and pypto does not run the "
                "backend passes; print the program before that lowering")
    return f"python_print: a {kind} has no DSL spelling"

__all__ = ["VarScan", "assign_names", "FREE_VAR_SUFFIX"]

FREE_VAR_SUFFIX = "__FREE_VAR"


_SCAN_LEAVES = frozenset((E.Var, E.IterArg, E.ConstInt, E.ConstFloat, E.ConstBool))


class VarScan:
    """Collects the Vars of one function (or lone statement / expression) in one walk.

    All collections are insertion-ordered dicts keyed by the Var object (identity hash).
    Run inside ``nesting_guard()``.
    """

    __slots__ = ("defined", "used", "type_vars", "mem_bases", "callees", "_seen")

    def __init__(self) -> None:
        # Operator and call nodes already scanned, by identity: a sub-expression shared
        # by hand-built IR is scanned once (the nodes outlive the scan).
        self._seen: set[int] = set()
        self.defined: dict[E.Var, None] = {}    # params, then definitions in pre-order
        self.used: dict[E.Var, None] = {}       # every Var referenced, first-use order
        self.type_vars: dict[E.Var, None] = {}  # Vars inside printed types (shape dims ...)
        # The ``pl.Ptr`` bases of printed memrefs: a defined one prints as its Var, one no
        # statement defines as its name in a string (``pl.MemRef("mem_ddr_0", ...)``).
        self.mem_bases: dict[E.Var, None] = {}
        self.callees: dict[str, None] = {}      # GlobalVar names called, first-call order

    # -- entry points --------------------------------------------------------------
    def function(self, func: Function) -> "VarScan":
        for param in func.params:
            self._define(param)
        for ret in func.return_types:
            self._type(ret)
        for value in func._attrs.values():
            self._value(value)
        self.stmt(func.body)
        return self

    def ordered_vars(self) -> list[E.Var]:
        """Collection order: definitions (params first), then Vars that are only used."""
        out = list(self.defined)
        defined = self.defined
        out.extend(var for var in self.used if var not in defined)
        return out

    def free_vars(self) -> list[E.Var]:
        defined = self.defined
        return [var for var in self.used if var not in defined]

    def free_bases(self) -> list[E.Var]:
        """Memref bases no statement or parameter of the scanned code defines."""
        defined = self.defined
        return [var for var in self.mem_bases if var not in defined]

    # -- statements ----------------------------------------------------------------
    def stmt(self, node: Stmt) -> None:
        handler = _STMT_HANDLERS.get(type(node))
        if handler is None:
            handler = _lookup(_STMT_HANDLERS, type(node))
            if handler is None:
                if isinstance(node, S.ScopeStmt):
                    raise ValueError(unspellable_scope(node))
                raise InternalError(f"printer: no naming rule for statement {type(node).__name__}")
        handler(self, node)

    def _assign(self, node: St.AssignStmt) -> None:
        self._define(node.var)
        self.expr(node.value)

    def _eval(self, node: St.EvalStmt) -> None:
        self.expr(node.expr)

    def _values(self, node: St.ReturnStmt | St.YieldStmt) -> None:
        for value in node.value:
            self.expr(value)

    def _seq(self, node: St.SeqStmts) -> None:
        defined, seen = self.defined, self._seen
        for child in node.stmts:
            if type(child) is St.AssignStmt:  # most statements: no dispatch
                var = child.var
                defined[var] = None
                if id(var.type) not in seen:
                    self._type(var.type)
                self.expr(child.value)
            else:
                self.stmt(child)

    def _if(self, node: St.IfStmt) -> None:
        for var in node.return_vars:
            self._define(var)
        self.expr(node.condition)
        self.stmt(node.then_body)
        if node.else_body is not None:
            self.stmt(node.else_body)

    def _for(self, node: St.ForStmt) -> None:
        self._define(node.loop_var, typed=False)
        for var in node.return_vars:
            self._define(var)
        self._iter_args(node.iter_args)
        self.expr(node.start)
        self.expr(node.stop)
        self.expr(node.step)
        for value in node._attrs.values():
            self._value(value)
        self.stmt(node.body)

    def _while(self, node: St.WhileStmt) -> None:
        for var in node.return_vars:
            self._define(var)
        self._iter_args(node.iter_args)
        self.expr(node.condition)
        self.stmt(node.body)

    def _iter_args(self, iter_args: Iterable[E.IterArg]) -> None:
        for arg in iter_args:
            self._define(arg, typed=False)
            self.expr(arg.initValue)

    def _scope(self, node: S.ScopeStmt) -> None:
        if type(node) is S.SpmdScopeStmt:
            self.expr(node.core_num)
        for value in node._attrs.values():
            self._value(value)
        self.stmt(node.body)

    def _leaf(self, node: Stmt) -> None:
        pass

    # -- expressions ---------------------------------------------------------------
    def expr(self, node: Expr, in_type: bool = False) -> None:
        cls = type(node)
        if not in_type and cls not in _SCAN_LEAVES:
            seen = self._seen
            if id(node) in seen:
                return
            seen.add(id(node))
        if cls is E.Call:  # (most statement values)
            self._call_like(node)  # type: ignore[arg-type]  # (no cast() call per node)
        elif isinstance(node, E.Var):
            self.used[node] = None
            if in_type:
                self.type_vars[node] = None
        elif cls is E.ConstInt or cls is E.ConstFloat or cls is E.ConstBool:
            return
        elif isinstance(node, E.BinaryExpr):
            self.expr(node.left, in_type)
            self.expr(node.right, in_type)
        elif isinstance(node, E.UnaryExpr):
            self.expr(node.operand, in_type)
        elif cls is E.Call:
            self._call_like(cast(E.Call, node))
        elif cls is E.Submit:
            submit = cast(E.Submit, node)
            self._call_like(submit)
            for dep in submit.deps:
                self.expr(dep)
            if submit.core_num is not None:
                self.expr(submit.core_num)
            if submit.predicate is not None:
                self.expr(submit.predicate)
        elif cls is E.MakeTuple:
            for element in cast(E.MakeTuple, node).elements:
                self.expr(element, in_type)
        elif cls is E.TupleGetItemExpr:
            self.expr(cast(E.TupleGetItemExpr, node).tuple, in_type)
        else:
            raise InternalError(f"printer: no naming rule for expression {cls.__name__}")

    def _call_like(self, node: E.Call | E.Submit) -> None:
        if isinstance(node.op, GlobalVar):
            self.callees[node.op.name] = None
        used = self.used
        arg: Any
        for arg in node.args:
            kind = type(arg)
            if kind is E.Var or kind is E.IterArg:  # most operands: recorded here
                used[arg] = None
            elif kind is not E.ConstInt:
                self.expr(arg)
        for value in node._kwargs.values():
            self._value(value)
        for value in node._attrs.values():
            self._value(value)

    def _value(self, value: Any) -> None:
        """A kwargs / attrs value: Exprs, nested lists and dicts, Types."""
        if isinstance(value, Expr):
            self.expr(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                self._value(item)
        elif isinstance(value, dict):
            for item in value.values():
                self._value(item)
        elif isinstance(value, Type):
            self._type(value)

    # -- definitions and types -----------------------------------------------------
    def _define(self, var: E.Var, typed: bool = True) -> None:
        """Record a definition; ``typed`` when its type is printed (so dims count as uses)."""
        self.defined[var] = None
        if typed:
            self._type(var.type)

    def _type(self, type_: Type) -> None:
        # A type object is scanned once: Vars share types, and what a type records is
        # the same each time (the type outlives the scan, so its id stays its own).
        seen = self._seen
        if id(type_) in seen:
            return
        seen.add(id(type_))
        if isinstance(type_, ShapedType):
            for dim in type_.shape:
                if type(dim) is not E.ConstInt:  # (most dims: they name nothing)
                    self.expr(dim, True)
            memref = type_.memref
            if memref is not None:
                self.mem_bases[memref.base_] = None
                self.expr(memref.byte_offset_, True)
                if memref.slot_index_ is not None:
                    self.expr(memref.slot_index_, True)
            view = type_.tensor_view if isinstance(type_, TensorType) else \
                getattr(type_, "tile_view", None)  # (an ArrayType has no view)
            if view is not None:
                for item in _view_exprs(view):
                    self.expr(item, True)
        elif isinstance(type_, TupleType):
            for element_type in type_.types:
                self._type(element_type)


def _view_exprs(view: Any) -> Iterable[Expr]:
    yield from view.valid_shape
    yield from view.stride
    start = getattr(view, "start_offset", None)
    if start is not None:
        yield start


_STMT_HANDLERS: dict[type, Any] = {
    St.AssignStmt: VarScan._assign,
    St.EvalStmt: VarScan._eval,
    St.ReturnStmt: VarScan._values,
    St.YieldStmt: VarScan._values,
    St.SeqStmts: VarScan._seq,
    St.IfStmt: VarScan._if,
    St.ForStmt: VarScan._for,
    St.WhileStmt: VarScan._while,
    St.BreakStmt: VarScan._leaf,
    St.ContinueStmt: VarScan._leaf,
    St.InlineStmt: VarScan._leaf,
    S.InCoreScopeStmt: VarScan._scope,
    S.ClusterScopeStmt: VarScan._scope,
    S.HierarchyScopeStmt: VarScan._scope,
    S.SpmdScopeStmt: VarScan._scope,
    S.RuntimeScopeStmt: VarScan._scope,
    S.GraphScopeStmt: VarScan._scope,
    S.SplitAivScopeStmt: VarScan._scope,
}


def _lookup(table: dict[type, Any], cls: type) -> Any:
    """Handler of the nearest registered base class (user subclasses of node classes)."""
    for base in cls.__mro__[1:]:
        if base in table:
            table[cls] = table[base]
            return table[base]
    return None


def assign_names(ordered: Iterable[E.Var], reserved: frozenset[str] | set[str],
                 fixed: dict[E.Var, str] | None = None,
                 taken: Iterable[str] = (),
                 spelled: dict[str, str] | None = None) -> dict[E.Var, str]:
    """The ``Var -> name`` table for Vars in collection order.

    ``reserved`` names are never produced (identifier shadowing: ``pl``, ``self``);
    ``fixed`` Vars keep a name decided elsewhere (program-wide dynamic dims);
    ``taken`` names are unavailable to the others.  Linear: each base name keeps its
    next suffix, and each taken name can be skipped at most once.  ``spelled`` memoises
    ``name_hint -> sanitised name`` for one ``reserved`` set (the functions of a print
    share their names' spellings).
    """
    if spelled is None:
        spelled = {}
    names: dict[E.Var, str] = dict(fixed) if fixed else {}
    used_names: set[str] = set(taken)
    used_names.update(names.values())
    bases: list[tuple[E.Var, str]] = []
    counts: dict[str, int] = {}
    for var in ordered:
        if var in names:
            continue
        hint = var.name_hint
        base = spelled.get(hint)
        if base is None:
            base = spelled[hint] = sanitize_identifier(hint, reserved)
        bases.append((var, base))
        counts[base] = counts.get(base, 0) + 1
    # Names held by exactly one Var are kept first, so colliding Vars cannot steal them.
    for var, base in bases:
        if counts[base] == 1 and base not in used_names:
            names[var] = base
            used_names.add(base)
    next_suffix: dict[str, int] = {}
    for var, base in bases:
        if var in names:
            continue
        name = base
        if name in used_names:
            k = next_suffix.get(base, 1)
            while f"{base}_{k}" in used_names:
                k += 1
            name = f"{base}_{k}"
            next_suffix[base] = k + 1
        names[var] = name
        used_names.add(name)
    return names
