"""Moving a scope body into its outlined function in one walk (03-passes.md §10.3).

``extract_scope`` needs two things from a region body: its facts (``BodyFacts``:
captures in first-read order, direction evidence, store targets, lineage) and
the body rebuilt for the new function (captures -> params, live-out definitions
-> fresh Vars, each store into an exported target bound as ``t__store``).  Done
separately that is two full walks of every region, and regions are most of what
the outliners touch.  ``BodyMover`` does both in one walk: it *is* a
``BodyFacts`` (the same recording helpers, in the same order), and it returns
the rebuilt nodes as it goes.

Everything the rebuild needs is known when the walk reaches it: a capture's param
is made at its first read (its type has no Var to rewrite, see below); a
definition is a live-out output iff it is visible at the body's end, used after
the scope, and not an alias of a captured store target -- all settled at its
definition; a store is bound iff its target is a capture, already read by then.

Two-walk semantics differ only where a *type* mentions a Var (dynamic dims): the
two-walk rewriter maps a type's dims with every capture's param known up front.
The mover does not follow that case: on any non-constant shape, an attrs dict
holding expressions, or a node kind it does not know, it raises ``Restart`` and
the caller rolls the minted names back and takes the two-walk path.
"""

from __future__ import annotations

from operator import is_not
from typing import Any, Callable, cast

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.function import Program
from ...ir.node import Expr, Stmt
from ...ir.ops.registry import OpDef
from ...ir.types import has_dynamic_dims
from ...ir.walk import CONST_TYPES, attr_exprs
from .facts import BodyFacts
from .walk import constants_only

__all__ = ["BodyMover", "Restart"]


class Restart(Exception):
    """The body holds something only the two-walk path handles (see the module doc)."""


def _same(new: list, old: tuple) -> bool:
    """Is every rebuilt item (same length) the old object?"""
    return not any(map(is_not, new, old))


class BodyMover(BodyFacts):
    """The facts of a region body and the body rebuilt for its function, in one walk.

    ``is_output(var)`` says whether a visible definition is used after the scope;
    ``param_span`` is the span params get (the scope's).  After construction:
    ``body`` is the rebuilt body, ``remap`` maps captures to their params, live-out
    definitions and rebuilt iter_args to their fresh Vars, ``outputs`` lists the
    live-out definitions remapped, in definition order.
    """

    def __init__(self, body: Stmt, is_known: Callable[[E.Var], bool],
                 is_type_var: Callable[[E.Var], bool], program: Program | None, *,
                 is_output: Callable[[E.Var], bool], export_store_targets: bool,
                 names: Any, param_span: Any, bind_stores: bool = True) -> None:
        self.remap: dict[E.Var, Expr] = {}
        self.outputs: list[E.Var] = []
        self._is_output = is_output
        self._export = export_store_targets
        self._bind = export_store_targets and bind_stores
        self._names = names
        self._param_span = param_span
        self._visible_depth = 0  # > 0 inside loop/if bodies: nothing there is visible after
        # BodyFacts.__init__ walks through the overridden ``_stmt``.
        super().__init__(body, is_known, is_type_var, program)

    def _stmt(self, stmt: Stmt) -> None:  # the facts walk entry point
        self.body = self._move(stmt)

    # -- reads and definitions ---------------------------------------------------------
    def _use(self, var: E.Var, reads: bool = True) -> None:
        captures = self.captures
        if var in captures or var in self.defined:  # seen (and checked) before
            if reads:
                self.read.add(self.alias.get(var, var))
            return
        if has_dynamic_dims(var.type) or (type(var) is not E.Var and type(var) is not E.IterArg):
            raise Restart
        super()._use(var, reads)
        if var in captures:  # first read of a capture: its param
            self.remap[var] = E.Var(var.name_hint, var.type, self._param_span)

    def _define(self, var: E.Var) -> None:
        if has_dynamic_dims(var.type):
            raise Restart  # a definition whose type the param remap could change
        self.defined.add(var)

    def _read(self, var: E.Var) -> Expr:
        self._use(var)
        return self.remap.get(var, var)

    def _define_output(self, var: E.Var) -> E.Var:
        """``var`` as the rebuilt body defines it: a fresh Var if it is a live-out output."""
        if self._visible_depth or not self._is_output(var):
            return var
        target = self.alias.get(var)
        if self._export and target is not None and target in self.captures:
            return var  # an alias of a captured store target: the call's value renames it
        fresh = E.Var(var.name_hint, var.type, var.span)
        self.remap[var] = fresh
        self.outputs.append(var)
        return fresh

    # -- expressions (BodyFacts._expr order) -------------------------------------------
    def _expr_new(self, node: Expr) -> Expr:
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the ignores;
        # not ``cast``, which is a call per use)
        cls = type(node)
        if cls is E.Var or cls is E.IterArg:
            return self._read(node)  # type: ignore[arg-type]
        if cls in CONST_TYPES:
            return node
        if cls is E.Call or cls is E.Submit:
            return self._call_new(node)  # type: ignore[arg-type]
        if cls is E.MakeTuple:
            old_elements = node.elements  # type: ignore[attr-defined]
            elements = [self._expr_new(e) for e in old_elements]
            if _same(elements, old_elements):
                return node
            return E.MakeTuple(elements, node.span)
        if isinstance(node, E.BinaryExpr):
            left = self._expr_new(node.left)
            right = self._expr_new(node.right)
            if left is node.left and right is node.right:
                return node
            return node.replace(left=left, right=right)
        if isinstance(node, E.UnaryExpr):
            operand = self._expr_new(node.operand)
            return node if operand is node.operand else node.replace(operand=operand)
        if cls is E.TupleGetItemExpr:
            item = cast(E.TupleGetItemExpr, node)
            tup = self._expr_new(item.tuple)
            if tup is item.tuple:
                return node
            return E.TupleGetItemExpr(tup, item.index, node.span)
        raise Restart

    def _call_new(self, call: E.Call | E.Submit) -> Expr:
        """``BodyFacts._call``'s records, with the call rebuilt on the way."""
        if has_dynamic_dims(call.type) or (call._attrs and attr_exprs(call._attrs)):
            raise Restart
        op = call.op
        if type(op) is OpDef and not op.written:
            writes: dict = {}  # an op that writes no operand (most): nothing to ask
            user_callee = None
        else:
            writes = self._writes(call)
            user_callee = self._callee(call)
        is_store = type(call) is E.Call and op.name == "tile.store"
        remap = self.remap
        args: list[Expr] = []
        changed = False
        for index, arg in enumerate(call.args):
            cls = type(arg)
            if cls in CONST_TYPES:
                new = arg
            elif isinstance(arg, E.Var):
                self._var_arg(arg, index, writes.get(index), user_callee, is_store)
                new = remap.get(arg, arg)
            elif cls is E.MakeTuple and constants_only(arg.elements):  # type: ignore[attr-defined]
                new = arg  # offsets and shapes: nothing to read or rebuild
            else:
                new = self._expr_new(arg)
            changed = changed or new is not arg
            args.append(new)
        if type(call) is E.Submit:
            deps = [self._expr_new(d) for d in call.deps]
            core_num = None if call.core_num is None else self._expr_new(call.core_num)
            predicate = None if call.predicate is None else self._expr_new(call.predicate)
            if (not changed and _same(deps, call.deps)
                    and core_num is call.core_num and predicate is call.predicate):
                return call
            return call.replace(args=args, deps=deps, core_num=core_num, predicate=predicate)
        return call.replace(args=args) if changed else call

    # -- statements (BodyFacts._stmt order) --------------------------------------------
    def _move(self, stmt: Stmt) -> Stmt:
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the ignores)
        cls = type(stmt)
        if cls is St.SeqStmts:
            old = stmt.stmts  # type: ignore[attr-defined]
            new = [self._move(s) for s in old]
            if _same(new, old):
                return stmt
            return St.SeqStmts.flatten(new, stmt.span)
        if cls is St.AssignStmt:
            return self._assign(stmt)  # type: ignore[arg-type]
        if cls is St.EvalStmt:
            evaluated: St.EvalStmt = stmt  # type: ignore[assignment]
            value = self._expr_new(evaluated.expr)
            kept = stmt if value is evaluated.expr else evaluated.replace(expr=value)
            target = self._bound_target(evaluated.expr)
            return kept if target is None else self._binding(target, value, stmt.span)
        if cls is St.ReturnStmt or cls is St.YieldStmt:
            old_values = stmt.value  # type: ignore[attr-defined]
            values = [self._expr_new(v) for v in old_values]
            if _same(values, old_values):
                return stmt
            return stmt.replace(value=values)
        if cls is St.ForStmt or cls is St.WhileStmt:
            return self._loop(cast("St.ForStmt | St.WhileStmt", stmt))
        if cls is St.IfStmt:
            return self._if(cast(St.IfStmt, stmt))
        if isinstance(stmt, S.ScopeStmt):
            return self._scope(stmt)
        if cls is St.BreakStmt or cls is St.ContinueStmt or cls is St.InlineStmt:
            return stmt
        raise Restart

    def _assign(self, stmt: St.AssignStmt) -> Stmt:
        value = self._expr_new(stmt.value)
        self._define(stmt.var)
        self._record_lineage(stmt.var, stmt.value)
        var = self._define_output(stmt.var)
        new = stmt if var is stmt.var and value is stmt.value else stmt.replace(var=var,
                                                                                value=value)
        target = self._bound_target(stmt.value)
        if target is None:
            return new
        return St.SeqStmts.flatten([new, self._binding(target, var, stmt.span)], stmt.span)

    def _bound_target(self, value: Expr) -> E.Var | None:
        """The captured target of a ``tile.store`` the function exports (§10.3 step 7)."""
        if not self._bind or type(value) is not E.Call or value.op.name != "tile.store" \
                or len(value.args) <= 2:
            return None
        target = value.args[2]
        return target if isinstance(target, E.Var) and target in self.captures else None

    def _binding(self, target: E.Var, value: Expr, span: Any) -> St.AssignStmt:
        name = self._names.store_binding(target.name_hint)
        return St.AssignStmt(E.Var(name, value.type, span), value, span)

    def _iter_args(self, loop: St.ForStmt | St.WhileStmt) -> list[E.IterArg]:
        out = []
        for arg in loop.iter_args:
            init = self._expr_new(arg.initValue)
            if init is arg.initValue:
                out.append(arg)
                continue
            fresh = E.IterArg(arg.name_hint, arg.type, init, arg.span)
            self.remap[arg] = fresh
            out.append(fresh)
        return out

    def _loop(self, loop: St.ForStmt | St.WhileStmt) -> Stmt:
        iter_args = self._iter_args(loop)
        if type(loop) is St.ForStmt:
            self._define(loop.loop_var)
        for var in (*loop.iter_args, *loop.return_vars):
            self._define(var)
        changes: dict[str, Any] = {}
        if isinstance(loop, St.ForStmt):  # (no statement class derives from ForStmt)
            for name in ("start", "stop", "step"):
                old = getattr(loop, name)
                new = self._expr_new(old)
                if new is not old:
                    changes[name] = new
        else:
            condition = self._expr_new(loop.condition)
            if condition is not loop.condition:
                changes["condition"] = condition
        self._visible_depth += 1
        body = self._move(loop.body)
        self._visible_depth -= 1
        self._loop_lineage(loop)
        rvs = [self._define_output(rv) for rv in loop.return_vars]
        if body is not loop.body:
            changes["body"] = body
        if not _same(iter_args, loop.iter_args):
            changes["iter_args"] = iter_args
        if not _same(rvs, loop.return_vars):
            changes["return_vars"] = rvs
        return loop.replace(**changes) if changes else loop

    def _if(self, stmt: St.IfStmt) -> Stmt:
        condition = self._expr_new(stmt.condition)
        self._visible_depth += 1
        then_body = self._move(stmt.then_body)
        else_body = None if stmt.else_body is None else self._move(stmt.else_body)
        self._visible_depth -= 1
        for var in stmt.return_vars:
            self._define(var)
        self._if_buffers(stmt)
        rvs = [self._define_output(rv) for rv in stmt.return_vars]
        if (condition is stmt.condition and then_body is stmt.then_body
                and else_body is stmt.else_body and _same(rvs, stmt.return_vars)):
            return stmt
        return stmt.replace(condition=condition, then_body=then_body, else_body=else_body,
                            return_vars=rvs)

    def _scope(self, scope: S.ScopeStmt) -> Stmt:
        if scope._attrs and attr_exprs(scope._attrs):
            raise Restart  # task ids, dump vars, ...: the two-walk path maps attrs
        changes: dict[str, Any] = {}
        if type(scope) is S.SpmdScopeStmt:
            core_num = self._expr_new(scope.core_num)
            if core_num is not scope.core_num:
                changes["core_num"] = core_num
        body = self._move(scope.body)  # scopes are transparent: definitions stay visible
        if body is not scope.body:
            changes["body"] = body
        return scope.replace(**changes) if changes else scope
