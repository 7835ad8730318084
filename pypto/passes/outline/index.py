"""One walk over a function that every outlining decision is answered from.

The outliner must know, at a target scope, which of its definitions are still
used after it.  Recomputing "what is referenced later" at every position would
be O(M^2) on a block of M statements (03-passes.md §10.2, §12.2 step 2).
Instead this index numbers every statement in pre-order once and records, per
Var, the last position that references it.  In SSA form a value defined inside
a scope can only be referenced later in the order of execution, so

    v is used after scope S  <=>  last_ref[v] > end[S]

and the question costs O(1).  The same walk records which statements contain a
target scope (so statements without one are never descended), each
statement's Var uses (so "does this statement read a renamed Var" is answered
without walking its expressions again), and where store targets are written
inside target scopes (to know which loops and ifs must carry a store target's
renamed value) -- inside a target scope, the uses and the stores come from one
expression walk.
"""

from __future__ import annotations

import bisect
from typing import Any, Container, Iterable

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.types import ShapedType, TupleType, Type
from ...ir.walk import stmt_children as _children
from ...ir.walk import CONST_TYPES, attr_exprs, expr_children, var_uses
from .walk import constants_only, expr_vars, stmt_def_vars, stmt_own_exprs

__all__ = ["FunctionIndex", "VarCollector", "type_dim_vars"]

# Scope kinds whose only expressions are their attrs (a Spmd scope also has core_num).
_JUMPS = frozenset((St.ReturnStmt, St.BreakStmt, St.ContinueStmt))
_PLAIN_SCOPES = frozenset(cls for cls in (S.InCoreScopeStmt, S.ClusterScopeStmt,
                                          S.HierarchyScopeStmt, S.RuntimeScopeStmt,
                                          S.GraphScopeStmt, S.SplitAivScopeStmt))


def type_dim_vars(t: Type) -> Iterable[E.Var]:
    """Vars occurring inside a type (dynamic dims, scalar-dependent dims)."""
    if isinstance(t, ShapedType) and t.static_shape:
        return
    stack = [t]
    while stack:
        item = stack.pop()
        if isinstance(item, ShapedType):
            for dim in item.shape:
                yield from expr_vars(dim)
        elif isinstance(item, TupleType):
            stack.extend(item.types)


class VarCollector:
    """The function's symbol table: params first, then every Var at a definition site.

    ``names`` is the function's set of variable names (the outliner's "local
    names"); ``type_vars`` are Vars that only occur inside types (dynamic dims),
    which stay free in outlined functions instead of being captured.  The
    definitions come from the ``FunctionIndex`` walk (no second walk); the type
    Vars are only gathered if a capture ever needs them.
    """

    def __init__(self, func: Function, defined: Iterable[E.Var]) -> None:
        self.func = func
        self.vars: dict[E.Var, None] = dict.fromkeys(func.params)
        self.vars.update(dict.fromkeys(defined))
        self.names: set[str] = {v.name_hint for v in self.vars}
        self._type_vars: set[E.Var] | None = None

    def __contains__(self, var: object) -> bool:
        return var in self.vars

    @property
    def type_vars(self) -> set[E.Var]:
        if self._type_vars is None:
            found: set[E.Var] = set()
            for t in (*(v.type for v in self.vars), *self.func.return_types):
                found.update(type_dim_vars(t))
            self._type_vars = found
        return self._type_vars


class FunctionIndex:
    """Pre-order positions, references and target-scope containment of one body."""

    def __init__(self, body: Stmt, target: type[S.ScopeStmt], track_stores: bool) -> None:
        self.target = target
        self.pos: dict[int, int] = {}
        self.end: dict[int, int] = {}
        # Var -> the positions referencing it (definitions included): ascending, one
        # entry per statement, so the last entry is the Var's last reference.
        self.ref_positions: dict[E.Var, list[int]] = {}
        self.def_pos: dict[E.Var, int] = {}
        self._refs_upto: list[int] = []  # number of Var references at positions <= p
        # Per position: the Vars the statement references (its definitions first), and
        # how many of them are definitions -- so "does this subtree read X" needs no walk.
        self._refs_at: list[list[E.Var]] = []
        self._defs_at: list[int] = []
        self.contains: set[int] = set()  # ids of statements that are or contain a target
        # tile.store targets written inside a target scope, in position order: where the
        # store is, what it writes, and where its innermost enclosing target scope starts
        self._store_positions: list[int] = []
        self._store_vars: list[E.Var] = []
        self._store_scope_starts: list[int] = []
        self._target_starts: list[int] = []
        self._track_stores = track_stores
        self._counter = 0
        self._target_depth = 0
        # Control flow that would leave a target scope (a return, or a break/continue of
        # a loop outside it): target start position -> the first such statement.
        self.escaping: dict[int, Stmt] = {}
        self._loop_depth = 0
        self._target_loop_depths: list[int] = []
        with nesting_guard(body):
            self._walk(body)

    # -- queries ---------------------------------------------------------------------
    def last_ref(self, var: E.Var) -> int:
        """The last position referencing ``var`` (-1 if none does)."""
        positions = self.ref_positions.get(var)
        return positions[-1] if positions else -1

    def used_after(self, var: E.Var, stmt: Stmt) -> bool:
        """Is ``var`` referenced after ``stmt`` (in SSA execution order)?"""
        return self.last_ref(var) > self.end[id(stmt)]

    def referenced_between(self, var: E.Var, after: int, until: int) -> bool:
        """Is ``var`` referenced at a position p with ``after < p <= until``?"""
        positions = self.ref_positions.get(var)
        if not positions or after >= until:
            return False
        i = bisect.bisect_right(positions, after)
        return i < len(positions) and positions[i] <= until

    def reads_any(self, stmt: Stmt, wanted: Container, also_wanted: Container) -> bool:
        """Does ``stmt`` (its own expressions or nested ones) read a Var in either set?

        Answered from the uses recorded by the walk: no expression is visited again.
        """
        refs_at, defs_at = self._refs_at, self._defs_at
        for position in range(self.pos[id(stmt)], self.end[id(stmt)] + 1):
            refs = refs_at[position]
            for i in range(defs_at[position], len(refs)):
                var = refs[i]
                if var in wanted or var in also_wanted:
                    return True
        return False

    def has_target(self, stmt: Stmt) -> bool:
        return id(stmt) in self.contains

    def stored_targets_in(self, stmt: Stmt) -> list[E.Var]:
        """Store targets written by target scopes nested inside ``stmt``, first-store order.

        Only stores under a target scope that itself lies within ``stmt`` count: those
        are the ones a call placed inside ``stmt`` renames.
        """
        if not self._store_positions:
            return []  # no region stores anything (or stores are not tracked)
        start = self.pos[id(stmt)]
        lo = bisect.bisect_left(self._store_positions, start)
        hi = bisect.bisect_right(self._store_positions, self.end[id(stmt)])
        starts = self._store_scope_starts
        return list(dict.fromkeys(self._store_vars[i] for i in range(lo, hi)
                                  if starts[i] > start))

    def defined_inside(self, var: E.Var, stmt: Stmt) -> bool:
        """Is ``var`` defined within ``stmt`` (params and free Vars never are)?"""
        position = self.def_pos.get(var)
        return position is not None and self.pos[id(stmt)] <= position <= self.end[id(stmt)]

    def anything_referenced_between(self, after_stmt: Stmt, until_stmt: Stmt) -> bool:
        """Does any Var reference sit after ``after_stmt`` and inside ``until_stmt``?"""
        lo, hi = self.end[id(after_stmt)], self.end[id(until_stmt)]
        return hi > lo and self._refs_upto[hi] > self._refs_upto[lo]

    # -- the walk ----------------------------------------------------------------------
    def _walk(self, stmt: Stmt) -> bool:
        position = self._counter
        self._counter = position + 1
        key = id(stmt)
        self.pos[key] = position
        upto = self._refs_upto
        cls = type(stmt)
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the ignores;
        # not ``cast``, which is a call per use)
        if cls is St.SeqStmts or (cls in _PLAIN_SCOPES
                                  and not stmt._attrs):  # type: ignore[attr-defined]
            # No references of their own: a block, a scope without attrs.
            self._refs_at.append([])
            self._defs_at.append(0)
            upto.append(upto[-1] if upto else 0)
            if cls is St.SeqStmts:
                found = False
                children: Any = stmt.stmts  # type: ignore[attr-defined]
            else:
                found = isinstance(stmt, self.target)
                children = (stmt.body,)  # type: ignore[attr-defined]
        else:
            self._own_refs(stmt, position)
            found = isinstance(stmt, self.target)
            children = _children(stmt)
        is_target = found
        if self._target_depth and cls in _JUMPS:
            self._note_jump(stmt, cls)
        if children:
            is_loop = cls is St.ForStmt or cls is St.WhileStmt
            if is_target:
                self._target_depth += 1
                self._target_starts.append(position)
                self._target_loop_depths.append(self._loop_depth)
            elif is_loop:
                self._loop_depth += 1
            in_target = bool(self._track_stores and self._target_depth)
            for child in children:
                kind = type(child)
                if kind is St.AssignStmt or kind is St.YieldStmt:
                    self._leaf(child, kind, in_target)
                elif self._walk(child):
                    found = True
            if is_target:
                self._target_depth -= 1
                self._target_starts.pop()
                self._target_loop_depths.pop()
            elif is_loop:
                self._loop_depth -= 1
        self.end[key] = self._counter - 1
        if found:
            self.contains.add(key)
        return found

    def _note_jump(self, stmt: Stmt, cls: type) -> None:
        """A return, or a break/continue of no loop inside the innermost target scope,
        would leave that scope: the outliner refuses it (``escaping``)."""
        if cls is St.ReturnStmt or self._loop_depth == self._target_loop_depths[-1]:
            self.escaping.setdefault(self._target_starts[-1], stmt)

    def _own_refs(self, stmt: Stmt, position: int) -> None:
        """Record what ``stmt`` itself defines and reads (not its nested bodies)."""
        refs = stmt_def_vars(stmt)  # a fresh list: the uses are appended to it
        self._refs_at.append(refs)
        self._defs_at.append(len(refs))
        if refs:
            def_pos = self.def_pos
            for var in refs:
                if var not in def_pos:
                    def_pos[var] = position
        if self._track_stores and self._target_depth:
            for expr in stmt_own_exprs(stmt):
                refs += self._uses_recording_stores(expr, position)
        else:
            for expr in stmt_own_exprs(stmt):
                refs += var_uses(expr)
        self._count_refs(refs, position)

    def _leaf(self, stmt: St.AssignStmt | St.YieldStmt, kind: type,
              in_target: bool = False) -> None:
        """``_walk`` of an assignment or a yield (most statements), inlined: the same
        records, without the generic per-kind lookups.  ``in_target``: inside a target
        scope, where the expression walk also records the stores."""
        position = self._counter
        self._counter = position + 1
        key = id(stmt)
        self.pos[key] = position
        self.end[key] = position
        uses = self._uses_recording_stores
        if kind is St.AssignStmt:
            assign: St.AssignStmt = stmt  # type: ignore[assignment]
            var = assign.var
            refs = [var]
            refs += uses(assign.value, position) if in_target else var_uses(assign.value)
            self._defs_at.append(1)
            self.def_pos.setdefault(var, position)
        else:
            refs = []
            for value in stmt.value:  # type: ignore[union-attr]
                refs += uses(value, position) if in_target else var_uses(value)
            self._defs_at.append(0)
        self._refs_at.append(refs)
        self._count_refs(refs, position)

    def _count_refs(self, refs: list[E.Var], position: int) -> None:
        """Note ``position`` as a reference of each Var in ``refs`` (once per position),
        and the running reference count."""
        positions = self.ref_positions
        for ref in refs:
            seen = positions.get(ref)
            if seen is None:
                positions[ref] = [position]
            elif seen[-1] != position:
                seen.append(position)
        upto = self._refs_upto
        upto.append(upto[-1] + len(refs) if upto else len(refs))

    def _uses_recording_stores(self, expr: Expr, position: int) -> list[E.Var]:
        """``var_uses(expr)`` -- in another order, which the index never relies on: it
        only counts the uses and dedups them per position -- while recording, in the
        same walk, each ``tile.store`` into a Var among the call operands (where the
        store sits, what it writes, and the innermost target scope holding it)."""
        uses: list[E.Var] = []
        stack = [expr]
        while stack:
            node = stack.pop()
            cls = type(node)
            if cls is E.Var or cls is E.IterArg:
                uses.append(node)  # type: ignore[arg-type]
            elif cls in CONST_TYPES:
                continue
            elif isinstance(node, E.Call):
                if node.op.name == "tile.store" and len(node.args) > 2 \
                        and isinstance(node.args[2], E.Var):
                    self._store_positions.append(position)
                    self._store_vars.append(node.args[2])
                    self._store_scope_starts.append(self._target_starts[-1])
                for arg in node.args:  # the leaves and constant tuples here, not pushed
                    kind = type(arg)
                    if kind is E.Var or kind is E.IterArg:
                        uses.append(arg)  # type: ignore[arg-type]
                    elif kind in CONST_TYPES:
                        continue
                    elif kind is not E.MakeTuple or not constants_only(
                            arg.elements):  # type: ignore[attr-defined]
                        stack.append(arg)
                for item in attr_exprs(node._attrs) if node._attrs else ():
                    uses += var_uses(item)  # attrs are read, but never hold a store
            elif isinstance(node, E.Submit):
                stack.extend(node.args)
                for operand in (*node.deps, node.core_num, node.predicate,
                                *attr_exprs(node._attrs)):
                    if operand is not None:
                        uses += var_uses(operand)
            elif isinstance(node, (E.BinaryExpr, E.UnaryExpr, E.MakeTuple,
                                   E.TupleGetItemExpr)):
                stack.extend(expr_children(node))
            else:
                uses += var_uses(node)  # a Var subclass, or a kind without operands
        return uses


