"""Compiling IR statements into closures ``run(frame) -> signal``.

A statement returns ``None`` to continue, or a signal: ``BREAK``, ``CONTINUE``,
a ``Return``, or a plain tuple for a yield (the values feeding the enclosing
loop's iter_args or if's return vars).  Loops and ifs consume what is theirs and
pass the rest up; scopes pass everything up.

Loop carries: iter_args start at their init values (an init with no value yet --
ConvertToSSA's placeholder for a variable first defined in the loop -- leaves the
iter_arg unset); each yield feeds the next iteration; the return vars take the
final iter_arg values.  ``continue`` keeps the current iter_args; ``break`` leaves
with them.  Every loop kind (parallel, unroll, pipeline) runs sequentially.

Scopes run in place; their level, role and kind do not change the result, except:

* ``pl.spmd(n)`` runs its body once per block, with ``tile.get_block_idx()`` = 0..n-1;
* ``pl.split_aiv(n, mode=...)`` runs its body once per vector core, with
  ``tile.get_subblock_idx()`` = 0..n-1 (cross-core pipes hand each lane its half);
* every block or lane starts from the bindings the region was entered with: on the
  device the blocks run side by side, each from the same inputs, so a name one block
  rebinds (``s = s + 4``) is not seen by the next -- which is what the outlined form
  computes, where each block is a call taking the entry values as arguments.  Writes
  into tensors are shared (they are the same buffers); after the region the names
  hold the last block's values;
* a ``pl.cluster()`` holding a ``pl.spmd(n)`` runs its whole body once per block
  (the spmd itself then runs once per cluster block), which is what the cluster
  becomes after OutlineClusterScopes moves the launch onto the Group call; a count
  the cluster's own body computes is refused when the cluster runs, as that pass
  refuses it (P405);
* a scope that is a task (``as tid``, ``deps=``, ``allow_early_resolve=``,
  ``predicate=``) gets a fresh task id, and is skipped when its predicate is false.
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from ..ir import scope as S
from ..ir import stmt as St
from ..ir.expr import Var
from ..ir.node import Expr, Stmt
from ..ir.span import Span
from ..ir.utils import collect_def_vars
from ..ir.walk import var_uses
from .compile_expr import ExprCompiler, Fn, as_condition
from .values import describe_value

__all__ = ["StmtCompiler", "Return", "BREAK", "CONTINUE"]

Run = Callable[[list], Any]


class _Jump:
    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word


BREAK = _Jump("break")
CONTINUE = _Jump("continue")


class Return:
    __slots__ = ("values",)

    def __init__(self, values: tuple) -> None:
        self.values = values


_TASK_ATTRS = ("task_id_var", "manual_dep_edges", "allow_early_resolve", "predicate")


def _launched_spmd(cluster: S.ClusterScopeStmt) -> S.SpmdScopeStmt | None:
    """The one Spmd scope of a cluster body (not inside a nested cluster), if exactly one."""
    found: list[S.SpmdScopeStmt] = []
    stack: list[Stmt] = [cluster.body]
    while stack:
        node = stack.pop()
        if isinstance(node, S.SpmdScopeStmt):
            found.append(node)
        if isinstance(node, St.SeqStmts):
            stack.extend(node.stmts)
        elif isinstance(node, St.IfStmt):
            stack.append(node.then_body)
            if node.else_body is not None:
                stack.append(node.else_body)
        elif isinstance(node, (St.ForStmt, St.WhileStmt, S.ScopeStmt)) \
                and not isinstance(node, S.ClusterScopeStmt):
            stack.append(node.body)
    return found[0] if len(found) == 1 else None


def _count_defined_inside(cluster_body: Stmt, spmd: S.SpmdScopeStmt) -> Var | None:
    """A Var the spmd's block count reads that the cluster's body defines, if any.

    The cluster runs its body once per block of that count (as OutlineClusterScopes
    moves the launch onto the Group call), so the count must be known on entry."""
    reads = var_uses(spmd.core_num)
    if not reads:
        return None
    defined = set(collect_def_vars(cluster_body))
    return next((var for var in reads if var in defined), None)


class StmtCompiler(ExprCompiler):
    """Mixin of ``FunctionCompiler``: statements."""

    def __init__(self) -> None:
        # Spmd scopes whose blocks are run by their enclosing cluster.
        self._unwrapped_spmd: set[S.SpmdScopeStmt] = set()

    def compile_stmt(self, stmt: Stmt) -> Run:
        if isinstance(stmt, St.AssignStmt):
            slot, value = self.slot_of(stmt.var), self.compile_expr(stmt.value)

            def assign(frame: list) -> None:
                frame[slot] = value(frame)
            return assign
        if isinstance(stmt, St.EvalStmt):
            expr = self.compile_expr(stmt.expr)

            def evaluate(frame: list) -> None:
                expr(frame)
            return evaluate
        if isinstance(stmt, St.SeqStmts):
            return self._sequence(stmt)
        if isinstance(stmt, St.YieldStmt):
            values = self.compile_exprs(stmt.value)
            if len(values) == 1:
                (only,) = values
                return lambda frame: (only(frame),)
            return lambda frame: tuple([fn(frame) for fn in values])
        if isinstance(stmt, St.ReturnStmt):
            values = self.compile_exprs(stmt.value)
            return lambda frame: Return(tuple([fn(frame) for fn in values]))
        if isinstance(stmt, St.IfStmt):
            return self._if(stmt)
        if isinstance(stmt, St.ForStmt):
            return self._for(stmt)
        if isinstance(stmt, St.WhileStmt):
            return self._while(stmt)
        if isinstance(stmt, St.BreakStmt):
            return lambda frame: BREAK
        if isinstance(stmt, St.ContinueStmt):
            return lambda frame: CONTINUE
        if isinstance(stmt, S.ScopeStmt):
            return self._scope(stmt)
        if isinstance(stmt, St.InlineStmt):
            fail, span = self.fail, stmt.span

            def inline_source(frame: list) -> None:
                raise fail("InlineStmt", span, "inline Python source (a HOST-level SubWorker "
                           "body) cannot run on the reference executor")
            return inline_source
        raise self.fail(type(stmt).__name__, stmt.span, "this statement kind cannot be executed")

    def _sequence(self, seq: St.SeqStmts) -> Run:
        runs = [self.compile_stmt(s) for s in seq.stmts]

        def run_all(frame: list) -> Any:
            for run in runs:
                signal = run(frame)
                if signal is not None:
                    return signal
            return None
        return run_all

    # -- control flow ----------------------------------------------------------------------

    def _carry_targets(self, owner: str, span: Span, targets: tuple[Var, ...]) -> Callable:
        """``store(frame, values)``: assign yielded ``values`` to ``targets``' slots."""
        slots = [self.slot_of(v) for v in targets]
        count, fail = len(slots), self.fail
        if count == 1:
            (slot,) = slots

            def store_one(frame: list, values: tuple) -> None:
                if len(values) != 1:
                    raise fail(owner, span, f"yields {len(values)} value(s) for 1 "
                               "iter_arg/return var")
                frame[slot] = values[0]
            return store_one

        def store(frame: list, values: tuple) -> None:
            if len(values) != count:
                raise fail(owner, span, f"yields {len(values)} value(s) for {count} "
                           "iter_args/return vars")
            for slot, value in zip(slots, values):
                frame[slot] = value
        return store

    def _if(self, stmt: St.IfStmt) -> Run:
        condition = as_condition(self.compile_expr(stmt.condition), "IfStmt", stmt.span,
                                  self.fail)
        then_body = self.compile_stmt(stmt.then_body)
        else_body = None if stmt.else_body is None else self.compile_stmt(stmt.else_body)
        merge = self._carry_targets("IfStmt", stmt.span, stmt.return_vars)
        has_merge = bool(stmt.return_vars)

        def run_if(frame: list) -> Any:
            if condition(frame):
                signal = then_body(frame)
            elif else_body is not None:
                signal = else_body(frame)
            else:
                return None
            if type(signal) is tuple and (has_merge or not signal):
                merge(frame, signal)
                return None
            return signal
        return run_if

    def _iter_inits(self, iter_args: tuple) -> list[tuple[int, Fn]]:
        inits = []
        for iter_arg in iter_args:
            init = iter_arg.initValue
            if isinstance(init, Var):  # may legitimately have no value yet (see module doc)
                fn: Fn = operator.itemgetter(self.slot_of(init))  # frame[slot]
            else:
                fn = self.compile_expr(init)
            inits.append((self.slot_of(iter_arg), fn))
        return inits

    def _loop_parts(self, stmt: St.ForStmt | St.WhileStmt, owner: str) -> tuple:
        inits = self._iter_inits(stmt.iter_args)
        carry = self._carry_targets(owner, stmt.span, stmt.iter_args)
        finals = list(zip([self.slot_of(v) for v in stmt.return_vars],
                          [self.slot_of(v) for v in stmt.iter_args]))
        return inits, carry, finals, self.compile_stmt(stmt.body)

    def _for(self, stmt: St.ForStmt) -> Run:
        start, stop, step = (self.compile_expr(e) for e in (stmt.start, stmt.stop, stmt.step))
        loop_slot = self.slot_of(stmt.loop_var)
        inits, carry, finals, body = self._loop_parts(stmt, "ForStmt")
        fail, span = self.fail, stmt.span

        def run_for(frame: list) -> Any:
            bounds = (start(frame), stop(frame), step(frame))
            for bound in bounds:
                if isinstance(bound, bool) or not isinstance(bound, int):
                    raise fail("ForStmt", span, f"loop bounds must be integers, got "
                               f"{describe_value(bound)}")
            if bounds[2] == 0:
                raise fail("ForStmt", span, "loop step is 0")
            for slot, init in inits:
                frame[slot] = init(frame)
            for index in range(*bounds):
                frame[loop_slot] = index
                signal = body(frame)
                if signal is None or signal is CONTINUE:
                    continue
                if type(signal) is tuple:
                    carry(frame, signal)
                elif signal is BREAK:
                    break
                else:
                    return signal
            for target, source in finals:
                frame[target] = frame[source]
            return None
        return run_for

    def _while(self, stmt: St.WhileStmt) -> Run:
        condition = as_condition(self.compile_expr(stmt.condition), "WhileStmt", stmt.span,
                                  self.fail)
        inits, carry, finals, body = self._loop_parts(stmt, "WhileStmt")

        def run_while(frame: list) -> Any:
            for slot, init in inits:
                frame[slot] = init(frame)
            while condition(frame):
                signal = body(frame)
                if signal is None or signal is CONTINUE:
                    continue
                if type(signal) is tuple:
                    carry(frame, signal)
                elif signal is BREAK:
                    break
                else:
                    return signal
            for target, source in finals:
                frame[target] = frame[source]
            return None
        return run_while

    # -- scopes -------------------------------------------------------------------------------

    def _scope(self, scope: S.ScopeStmt) -> Run:
        launched = None
        if isinstance(scope, S.ClusterScopeStmt):
            launched = _launched_spmd(scope)
            if launched is not None:
                self._unwrapped_spmd.add(launched)
        body = self.compile_stmt(scope.body)
        if launched is not None:
            inside = _count_defined_inside(scope.body, launched)
            if inside is not None:
                return self._count_inside_cluster(launched, inside)
            body = self._blocks(launched.core_num, launched.span, body)
        elif isinstance(scope, S.SpmdScopeStmt) and scope not in self._unwrapped_spmd:
            body = self._blocks(scope.core_num, scope.span, body)
        elif isinstance(scope, S.SplitAivScopeStmt):
            body = self._lanes(scope.count, body)
        return self._as_task(scope, body)

    def _count_inside_cluster(self, spmd: S.SpmdScopeStmt, var: Var) -> Run:
        """A cluster whose ``pl.spmd`` count is computed in its own body: refused when run."""
        error = self.fail(
            "pl.spmd block count", spmd.span,
            f"it reads '{var.name_hint}', which is computed inside the enclosing "
            f"pl.cluster() (line {var.span.begin_line}); the cluster launches its blocks "
            "before its body runs, so compute the count before `with pl.cluster():`")

        def refuse(frame: list) -> Any:
            raise error
        return refuse

    def _lanes(self, count: int, body: Run) -> Run:
        """Run ``body`` once per vector core of the split, in lane order."""
        executor = self.executor

        def run_lanes(frame: list) -> Any:
            state = executor.state
            saved = state.subblock_idx
            entry = frame[:]
            signal = None
            try:
                for lane in range(count):
                    if lane:
                        frame[:] = entry
                    state.subblock_idx = lane
                    signal = body(frame)
                    if signal is not None:
                        break
            finally:
                state.subblock_idx = saved
            return signal
        return run_lanes

    def _blocks(self, core_num: Expr, span: Span, body: Run) -> Run:
        """Run ``body`` once per SPMD block."""
        count = self.compile_expr(core_num)
        executor = self.executor

        def run_blocks(frame: list) -> Any:
            blocks = executor.block_count(count(frame), span, self.function_name)
            state = executor.state
            saved = (state.block_idx, state.block_num)
            entry = frame[:]
            signal = None
            try:
                for block in range(blocks):
                    if block:
                        frame[:] = entry
                    state.block_idx, state.block_num = block, blocks
                    signal = body(frame)
                    if signal is not None and type(signal) is not tuple:
                        break
            finally:
                state.block_idx, state.block_num = saved
            return signal
        return run_blocks

    def _as_task(self, scope: S.ScopeStmt, body: Run) -> Run:
        attrs = scope._attrs
        if not any(attrs.get(key) for key in _TASK_ATTRS):
            return body
        predicate_expr = attrs.get("predicate")
        predicate = None
        if isinstance(predicate_expr, Expr):
            predicate = as_condition(self.compile_expr(predicate_expr), "predicate",
                                      scope.span, self.fail)
        tid_var = attrs.get("task_id_var")
        tid_slot = self.slot_of(tid_var) if isinstance(tid_var, Var) else None
        executor = self.executor

        def run_task(frame: list) -> Any:
            if predicate is not None and not predicate(frame):
                return None
            task_id = executor.state.new_task_id()
            if tid_slot is not None:
                frame[tid_slot] = task_id
            return body(frame)
        return run_task

