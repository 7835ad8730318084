"""Types of spliced values follow the caller's arguments (InlineFunctions).

An Inline helper's parameter may be declared less precisely than the argument a
caller passes: ``t: pl.Tile[[16, 16], pl.FP32]`` (no memory space) called with a
``Vec`` tile.  The helper's locals were typed when the helper was parsed, from the
declared type; once the argument stands in for the parameter, the op calls that read
it deduce a more precise type -- and so does the parser when it reads the printed
program back.  A spliced local keeping the declared type would print text that does
not reparse to the same program.  So the calls that read a retyped value are deduced
again, and a Var whose value's type changed is minted afresh with that type.

Only a Var with one definition in the body is retyped: a name assigned several times
(before SSA) keeps the type all its definitions share.
"""

from __future__ import annotations

from collections import Counter

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.node import Expr, GlobalVar, Op, Stmt
from ...ir.ops.call import create_op_call
from ...ir.ops.registry import get_op
from ...ir.visitor import IRMutator
from ...ir.walk import iter_stmts

__all__ = ["Retyping", "RetypeClone", "single_definitions"]


def single_definitions(body: Stmt) -> set[E.Var]:
    """Vars assigned by exactly one ``AssignStmt`` of ``body`` (and nowhere else defined
    in a way retyping could miss: loop and carry Vars are never retyped)."""
    counts: Counter[E.Var] = Counter()
    for stmt in iter_stmts(body):
        if type(stmt) is St.AssignStmt:
            counts[stmt.var] += 1
    return {var for var, count in counts.items() if count == 1}


def _deduced_again(call: E.Call) -> E.Call:
    """``call`` typed by its op's rule on its current operands (itself when the rule
    needs arguments the Call does not keep, or now refuses them)."""
    op = call.op
    if not isinstance(op, Op) or isinstance(op, GlobalVar):
        return call
    try:
        entry = get_op(op.name)
        if entry.type_params:
            return call
        fresh = create_op_call(op.name, list(call.args), call.kwargs, call.span,
                               attrs=call._attrs or None)
    except (TypeError, ValueError, KeyError):
        return call
    if fresh.type == call.type:
        return call
    return fresh


class Retyping:
    """What one function's splices retyped: the fresh Vars, for the calls reading them.

    The single definitions of the function's body are only gathered (a statement walk)
    when a splice first retypes a value: most splices retype nothing.
    """

    __slots__ = ("_body", "_single", "retyped")

    def __init__(self, body: Stmt) -> None:
        self._body = body
        self._single: set[E.Var] | None = None
        self.retyped: set[Expr] = set()

    @property
    def single(self) -> set[E.Var]:
        if self._single is None:
            self._single = single_definitions(self._body)
        return self._single

    def add_single(self, body: Stmt) -> None:
        """Count ``body``'s single definitions too (a spliced clone's)."""
        self.single.update(single_definitions(body))

    def mark(self, value: Expr) -> None:
        self.retyped.add(value)

    def reads_retyped(self, call: E.Call) -> bool:
        return any(arg in self.retyped for arg in call.args)

    def call(self, call: Expr) -> Expr:
        if type(call) is E.Call and self.reads_retyped(call):
            fresh = _deduced_again(call)
            if fresh is not call:
                self.retyped.add(fresh)
            return fresh
        return call

    def assign(self, mutator: IRMutator, stmt: St.AssignStmt, value: Expr) -> St.AssignStmt:
        """``var = value`` with ``var`` minted afresh when ``value``'s type moved on."""
        var = stmt.var
        if (value in self.retyped and var in self.single and type(var) is E.Var
                and value.type != var.type):
            fresh = E.Var(var.name_hint, value.type, var.span)
            mutator.var_remap[var] = fresh
            self.retyped.add(fresh)
            return St.AssignStmt(fresh, value, stmt.span)
        if value is stmt.value:
            return stmt
        return stmt.replace(value=value)


class RetypeClone(IRMutator):
    """Re-deduces, in a spliced clone, the calls that read a retyped argument."""

    def __init__(self, retyping: Retyping, body: Stmt) -> None:
        super().__init__()
        self._retyping = retyping
        retyping.add_single(body)

    def visit_call(self, op: E.Call) -> Expr:
        return self._retyping.call(super().visit_call(op))

    def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
        return self._retyping.assign(self, op, self.visit_expr(op.value))
