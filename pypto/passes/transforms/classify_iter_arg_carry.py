"""ClassifyIterArgCarry: every ``for`` loop with iter_args records, per iter_arg, whether
its value is really carried from one iteration to the next (docs/guide/passes.md,
"ClassifyIterArgCarry").  ``attrs["iter_arg_carry"]`` holds one entry per iter_arg:

* ``"carry"``: the body reads the iter_arg, so iteration ``k + 1`` depends on what
  iteration ``k`` yielded (a loop-carried dependency);
* ``"escape"``: the body never reads it; the loop only hands the last iteration's value
  out (the initial value if it runs zero times).  ConvertToSSA makes such iter_args for
  values first defined in a loop and read after it.

The iterations of a loop whose iter_args all escape depend on each other through no
carried value.  Requires SSA form (each iter_arg is then one Var read only where the
body means it).  ``while`` loops are not annotated: their iter_args are what the
condition reads, and a ``WhileStmt`` has no attributes to record it in.
"""

from __future__ import annotations

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.visitor import IRMutator
from ...ir.walk import iter_stmts, stmt_exprs, type_vars, var_uses

__all__ = ["transform", "classify", "ATTR", "CARRY", "ESCAPE"]

ATTR = "iter_arg_carry"
CARRY, ESCAPE = "carry", "escape"


def _read_in(body: Stmt) -> set[E.Var]:
    read: set[E.Var] = set()
    for stmt in iter_stmts(body):
        for expr in stmt_exprs(stmt):
            for var in var_uses(expr):
                read.add(var)
                read.update(type_vars(var.type))
    return read


def classify(loop: St.ForStmt) -> list[str]:
    """``"carry"`` / ``"escape"`` per iter_arg of ``loop``."""
    read = _read_in(loop.body)
    return [CARRY if arg in read else ESCAPE for arg in loop.iter_args]


class _Classifier(IRMutator):
    def visit_expr(self, op: Expr) -> Expr:
        return op  # only loops' attributes change

    def visit_for_stmt(self, op: St.ForStmt) -> Stmt:
        loop = super().visit_for_stmt(op)
        assert isinstance(loop, St.ForStmt)
        if not loop.iter_args:
            return loop
        kinds = classify(loop)
        if list(loop._attrs.get(ATTR, ())) == kinds:
            return loop
        return loop.replace(_attrs={**loop._attrs, ATTR: kinds})


def transform(func: Function) -> Function:
    return _Classifier().visit_function(func)
