"""What a scope body needs from outside and gives back (03-passes.md §10.3, §10.5).

One walk over the (already rewritten) body collects, in first-read order, the
captures (upward-exposed uses) and per capture whether the body reads it,
writes it through a registry op, or passes it to a callee's In/Out/InOut
slot; the store targets in first-store order; aliases of written buffers; and
the lineage that lets an output tensor be returned as the parameter it is.
"""

from __future__ import annotations

from typing import Callable

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.enums import ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.walk import trailing_yield
from ...ir.ops import call_write_targets
from ...ir.ops.registry import Effect
from ...ir.types import TupleType
from ...ir.walk import stmt_children
from .walk import attr_exprs
from ..diagnostic import PassError, PassErrorCode
from ..names import source_name
from ..run_memo import remembered

__all__ = ["BodyFacts", "visible_definitions", "returned_params"]

# ``BodyFacts.root`` gives up after this many steps along a lineage (a loop has no end).
_ROOT_STEPS = 10_000

# Call attrs whose Vars are bookkeeping, not reads.
_NON_READ_ATTRS = ("dump_vars", "arg_direction_overrides_vars")
_WRITE_ALIAS_OPS = ("tile.store", "tensor.assemble", "tile.assemble", "tensor.write",
                    "tile.write")


def visible_definitions(body: Stmt) -> list[E.Var]:
    """Vars defined in ``body`` that are visible at its end, in pre-order.

    Scopes are transparent (their definitions leak); loop and if bodies are not
    (only their return vars are visible afterwards).
    """
    out: list[E.Var] = []
    stack = [body]
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, St.SeqStmts):
            stack.extend(reversed(stmt.stmts))
        elif isinstance(stmt, St.AssignStmt):
            out.append(stmt.var)
        elif isinstance(stmt, (St.ForStmt, St.WhileStmt, St.IfStmt)):
            out.extend(stmt.return_vars)
        elif isinstance(stmt, S.ScopeStmt):
            stack.append(stmt.body)
    return out


class BodyFacts:
    """Captures, directions evidence, store targets and lineage of one scope body."""

    def __init__(self, body: Stmt, is_known: Callable[[E.Var], bool],
                 is_type_var: Callable[[E.Var], bool], program: Program | None) -> None:
        self._is_known = is_known
        self._is_type_var = is_type_var
        self._program = program
        self.defined: set[E.Var] = set()
        self.captures: dict[E.Var, None] = {}      # first-read order
        self.read: set[E.Var] = set()
        self.builtin_written: set[E.Var] = set()
        self.callee_read: set[E.Var] = set()
        self.callee_written: set[E.Var] = set()
        self.store_targets: dict[E.Var, None] = {}  # tile.store targets, first-store order
        self.alias: dict[E.Var, E.Var] = {}          # v = <builtin write>(.., t): v names t
        # For direction evidence only: the Vars whose buffer another may be (a copy
        # ``b = acc``; a loop carry its initial and yielded values; a loop or if result
        # what it may hand on).  Resolved when the walk ends (``_resolve_buffers``).
        self.buffer: dict[E.Var, list[E.Var]] = {}
        self.lineage: dict[E.Var, E.Var] = {}        # value -> the Var it is another name for
        # per tuple-valued call result: the argument Var each element is (or None)
        self.tuple_sources: dict[E.Var, list[E.Var | None]] = {}
        with nesting_guard(body):
            self._stmt(body)
        self._resolve_buffers()

    @classmethod
    def lineage_of(cls, body: Stmt, program: Program | None) -> "BodyFacts":
        """Only the lineage of ``body`` (what ``root`` answers), for callers that need no
        captures or directions: one statement walk, no expression walk."""
        facts = cls.__new__(cls)
        facts._program = program
        facts.alias = {}
        facts.buffer = {}
        facts.lineage = {}
        facts.tuple_sources = {}
        with nesting_guard(body):
            facts._lineage_stmt(body)
        return facts

    def _lineage_stmt(self, stmt: Stmt) -> None:
        """The lineage records of ``_stmt``, in its order (loops after their body)."""
        if isinstance(stmt, St.AssignStmt):
            self._record_lineage(stmt.var, stmt.value)
            return
        for child in stmt_children(stmt):
            self._lineage_stmt(child)
        if isinstance(stmt, (St.ForStmt, St.WhileStmt)):
            self._loop_lineage(stmt)

    # -- helpers -------------------------------------------------------------------------
    def root(self, var: E.Var) -> E.Var:
        """Follow the lineage of ``var`` to the Var it ultimately is.

        Before SSA form the lineage can loop (``acc = pl.store(.., acc)`` names
        itself).  The answer on a loop is the Var ``_ROOT_STEPS`` steps along it (what
        a walk capped at that many steps gives); it is found by arithmetic on the
        loop's length instead of by taking every step.
        """
        lineage = self.lineage
        if var not in lineage:
            return var
        step_of: dict[E.Var, int] = {}
        path: list[E.Var] = []  # path[k]: the Var k steps along
        steps = 0
        while var in lineage and steps < _ROOT_STEPS:
            first = step_of.get(var)
            if first is not None:  # a loop of ``steps - first`` Vars from step ``first``
                return path[first + (_ROOT_STEPS - first) % (steps - first)]
            step_of[var] = steps
            path.append(var)
            var = lineage[var]
            steps += 1
        return var

    def _may_name(self, var: E.Var, value: Expr) -> None:
        """``var`` may be the buffer ``value`` is (a write to ``var`` may write it)."""
        if isinstance(value, E.Var) and value is not var:
            self.buffer.setdefault(var, []).append(value)

    def _if_buffers(self, stmt: St.IfStmt) -> None:
        """An if result is what either branch yields."""
        for body in (stmt.then_body, stmt.else_body):
            last = trailing_yield(body) if body is not None else None
            if last is not None:
                for rv, value in zip(stmt.return_vars, last.value):
                    self._may_name(rv, value)

    def _resolve_buffers(self) -> None:
        """Each evidence set extended by every Var its members may be: a store into
        ``c`` of ``init_values=(acc,)`` writes ``acc`` (and, from the second iteration,
        whatever the body yields for ``c``), so the capture ``acc`` is written."""
        edges, alias = self.buffer, self.alias
        if not edges:
            return
        for evidence in (self.read, self.builtin_written, self.callee_read,
                         self.callee_written):
            stack = list(evidence)
            while stack:
                var = stack.pop()
                for other in (*edges.get(var, ()), *((alias[var],) if var in alias else ())):
                    if other not in evidence:
                        evidence.add(other)
                        stack.append(other)

    def _define(self, var: E.Var) -> None:
        self.defined.add(var)

    def _use(self, var: E.Var, reads: bool = True) -> None:
        if var not in self.defined and var not in self.captures:
            if not self._is_known(var):
                if self._is_type_var(var):
                    return  # a dynamic dim: stays a free Var of the outlined function
                # Reachable from user text (an undeclared name becomes a dynamic dim in
                # pl.parse), so a user error, not a broken invariant.
                raise PassError(f"Variable '{source_name(var.name_hint)}' is used in a region "
                                "but defined nowhere in its function (not a parameter, not a "
                                "local, not a dynamic dimension of a parameter's type)", var.span,
                                code=PassErrorCode.UNDEFINED_IN_REGION)
            self.captures[var] = None
        if reads:
            self.read.add(self.alias.get(var, var))

    def _expr(self, expr: Expr) -> None:
        stack = [expr]
        while stack:
            node = stack.pop()
            cls = type(node)
            if cls is E.Var or cls is E.IterArg:  # the common leaves, by exact class
                self._use(node)  # type: ignore[arg-type]
            elif cls is E.ConstInt or cls is E.ConstFloat or cls is E.ConstBool:
                continue
            elif isinstance(node, E.Var):
                self._use(node)
            elif isinstance(node, (E.Call, E.Submit)):
                self._call(node)
            elif isinstance(node, E.BinaryExpr):
                stack.extend((node.right, node.left))
            elif isinstance(node, E.UnaryExpr):
                stack.append(node.operand)
            elif isinstance(node, E.MakeTuple):
                stack.extend(reversed(node.elements))
            elif isinstance(node, E.TupleGetItemExpr):
                stack.append(node.tuple)

    def _call(self, call: E.Call | E.Submit) -> None:
        writes = self._writes(call)
        user_callee = self._callee(call)
        is_store = isinstance(call, E.Call) and call.op.name == "tile.store"
        for index, arg in enumerate(call.args):
            if isinstance(arg, E.Var):
                self._var_arg(arg, index, writes.get(index), user_callee, is_store)
            else:
                self._expr(arg)
        if isinstance(call, E.Submit):
            for dep in call.deps:
                self._expr(dep)
            for extra in (call.core_num, call.predicate):
                if extra is not None:
                    self._expr(extra)
        for key, value in call._attrs.items():
            if key in _NON_READ_ATTRS:
                for var in _attr_vars(value):
                    self._use(var, reads=False)
                continue
            for item in attr_exprs({key: value}):
                self._expr(item)

    def _writes(self, call: E.Call | E.Submit) -> dict[int, Effect]:
        """Argument index -> how the call writes it (registry effect or callee direction)."""
        return {index: effect for _, index, effect in call_write_targets(call, self._program)}

    def _var_arg(self, arg: E.Var, index: int, effect: Effect | None,
                 user_callee: Function | None, is_store: bool) -> None:
        """Record a Var argument: read or not, written by the op or by the callee's
        param direction, and a ``tile.store`` target (argument 2)."""
        if user_callee is not None:
            direction = (user_callee.param_directions[index]
                         if index < len(user_callee.param_directions) else ParamDirection.In)
            self._use(arg, reads=direction is not ParamDirection.Out)
            target = self.alias.get(arg, arg)
            if direction is not ParamDirection.Out:
                self.callee_read.add(target)
            if direction is not ParamDirection.In:
                self.callee_written.add(target)
        elif effect is Effect.Write:
            self._use(arg, reads=False)
            self.builtin_written.add(self.alias.get(arg, arg))
        else:
            self._use(arg)
            if effect is Effect.ReadWrite:
                self.builtin_written.add(self.alias.get(arg, arg))
        if is_store and index == 2:
            self.store_targets.setdefault(self.alias.get(arg, arg), None)

    def _callee(self, call: E.Call | E.Submit) -> Function | None:
        if isinstance(call.op, GlobalVar) and self._program is not None:
            return self._program.get_function(call.op.name)
        return None

    # -- statements ---------------------------------------------------------------------
    def _stmt(self, stmt: Stmt) -> None:
        if isinstance(stmt, St.SeqStmts):
            for child in stmt.stmts:
                self._stmt(child)
        elif isinstance(stmt, St.AssignStmt):
            self._expr(stmt.value)
            self._define(stmt.var)
            self._record_lineage(stmt.var, stmt.value)
        elif isinstance(stmt, St.EvalStmt):
            self._expr(stmt.expr)
        elif isinstance(stmt, (St.ReturnStmt, St.YieldStmt)):
            for value in stmt.value:
                self._expr(value)
        elif isinstance(stmt, St.ForStmt):
            for arg in stmt.iter_args:
                self._expr(arg.initValue)
            self._define(stmt.loop_var)
            for var in (*stmt.iter_args, *stmt.return_vars):
                self._define(var)
            for bound in (stmt.start, stmt.stop, stmt.step):
                self._expr(bound)
            self._stmt(stmt.body)
            self._loop_lineage(stmt)
        elif isinstance(stmt, St.WhileStmt):
            for arg in stmt.iter_args:
                self._expr(arg.initValue)
            for var in (*stmt.iter_args, *stmt.return_vars):
                self._define(var)
            self._expr(stmt.condition)
            self._stmt(stmt.body)
            self._loop_lineage(stmt)
        elif isinstance(stmt, St.IfStmt):
            self._expr(stmt.condition)
            self._stmt(stmt.then_body)
            if stmt.else_body is not None:
                self._stmt(stmt.else_body)
            for var in stmt.return_vars:
                self._define(var)
            self._if_buffers(stmt)
        elif isinstance(stmt, S.ScopeStmt):
            if isinstance(stmt, S.SpmdScopeStmt):
                self._expr(stmt.core_num)
            for key, value in stmt._attrs.items():
                if key in _NON_READ_ATTRS:
                    for var in _attr_vars(value):
                        self._use(var, reads=False)
                elif key == "task_id_var":
                    continue
                else:
                    for item in attr_exprs({key: value}):
                        self._expr(item)
            self._stmt(stmt.body)

    # -- lineage ------------------------------------------------------------------------
    def _record_lineage(self, var: E.Var, value: Expr) -> None:
        if isinstance(value, E.Var):
            self.lineage[var] = value
            if value in self.alias:
                self.alias[var] = self.alias[value]
            self._may_name(var, value)  # ``b = acc``: a store into b writes acc
            return
        if isinstance(value, E.Call):
            name = value.op.name
            if name in _WRITE_ALIAS_OPS:
                target_index = 2 if name == "tile.store" else 0
                target = value.args[target_index] if len(value.args) > target_index else None
                if isinstance(target, E.Var):
                    self.lineage[var] = target
                    self.alias[var] = self.alias.get(target, target)
                return
            if not isinstance(value.op, GlobalVar):
                return  # only a user call returns one of its arguments (``_callee``)
            if isinstance(var.type, TupleType):
                # ``ret = k(t, acc); acc1 = ret[1]``: which results are which arguments
                self.tuple_sources[var] = [self._argument_returned(value, i)
                                for i in range(len(var.type.types))]
                return
            source = self._argument_returned(value, 0)
            if source is not None:
                self.lineage[var] = source
        elif isinstance(value, E.TupleGetItemExpr) and isinstance(value.tuple, E.Var):
            found = self.tuple_sources.get(value.tuple)
            source = found[value.index] if found is not None and value.index < len(found) \
                else None
            if source is not None:
                self.lineage[var] = source

    def _argument_returned(self, call: E.Call, position: int) -> E.Var | None:
        returned = self._returned_param(call, position)
        arg = call.args[returned] if returned is not None and returned < len(call.args) \
            else None
        return arg if isinstance(arg, E.Var) else None

    def _returned_param(self, call: E.Call, position: int = 0) -> int | None:
        callee = self._callee(call)
        if callee is None:
            return None
        returned = returned_params(callee)
        return returned[position] if position < len(returned) else None

    def _loop_lineage(self, stmt: St.ForStmt | St.WhileStmt) -> None:
        """A loop's result is its carried buffer (and that its initial value) when every
        iteration hands the same buffer on: the body yields the carry back written in
        place (``acc = pl.store(.., acc)``), or yields the very buffer the carry started
        as (``init_values=(acc,)`` ... ``pl.yield_(acc)``, directly or through another
        carry of it).  A value computed afresh (``acc = pl.add(acc, x)``) is a new
        tensor, and the outlined function must return it, not the buffer it started from."""
        last = trailing_yield(stmt.body)
        yielded = last.value if last is not None else ()
        runs = _runs_at_least_once(stmt)
        for arg, rv, value in zip(stmt.iter_args, stmt.return_vars, yielded):
            # the carry starts as its init and goes on as what the body yields; the
            # result is the last value yielded (the init when the loop does not run)
            self._may_name(arg, arg.initValue)
            self._may_name(arg, value)
            self._may_name(rv, value if runs else arg)
        pending: list[tuple[E.IterArg, E.Var, E.Var, E.Var]] = []
        for arg, rv, value in zip(stmt.iter_args, stmt.return_vars, yielded):
            if not isinstance(value, E.Var):
                continue
            init = arg.initValue
            if self.root(value) is arg:
                self._same_buffer(arg, rv)
            elif isinstance(init, E.Var):
                pending.append((arg, rv, value, init))
        # A carry yielding its own starting buffer: decided after the in-place carries,
        # and again after each one found (one may reach the buffer through another);
        # each round settles one carry at least, so there are at most as many rounds.
        found = True
        while pending and found:
            found = False
            for entry in list(pending):
                arg, rv, value, init = entry
                if self.root(value) is self.root(init):
                    self._same_buffer(arg, rv)
                    pending.remove(entry)
                    found = True

    def _same_buffer(self, arg: E.IterArg, rv: E.Var) -> None:
        self.lineage[rv] = arg
        if isinstance(arg.initValue, E.Var):
            self.lineage[arg] = arg.initValue


def _runs_at_least_once(loop: St.ForStmt | St.WhileStmt) -> bool:
    """A ``for`` with constant bounds and a trip count of at least one."""
    if not isinstance(loop, St.ForStmt):
        return False
    start, stop, step = loop.start, loop.stop, loop.step
    if not all(isinstance(b, E.ConstInt) for b in (start, stop, step)):
        return False
    first, last, stride = start.value, stop.value, step.value  # type: ignore[attr-defined]
    return (stride > 0 and first < last) or (stride < 0 and first > last)


def _attr_vars(value: object) -> list[E.Var]:
    if isinstance(value, E.Var):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, E.Var)]
    return []


def returned_params(func: Function) -> list[int | None]:
    """For each return value of ``func``: the index of the param it is (through aliases).

    ``o2 = tile.store(t, [0], o); return o2`` returns param ``o``.  Computed once
    per callee object in a run (``run_memo``).
    """
    return remembered("returned params", func, _returned_params)


def _returned_params(func: Function) -> list[int | None]:
    body = func.body
    last = body.stmts[-1] if isinstance(body, St.SeqStmts) and body.stmts else body
    result: list[int | None] = []
    if isinstance(last, St.ReturnStmt):
        facts = BodyFacts.lineage_of(body, None)
        index = {p: i for i, p in enumerate(func.params)}
        result = [index.get(facts.root(v)) if isinstance(v, E.Var) else None
                  for v in last.value]
    return result
