"""UnrollLoops: every ``pl.unroll`` loop (``ForKind.Unroll``) becomes one copy of its body
per iteration, the loop variable replaced by that iteration's constant
(docs/guide/passes.md, "UnrollLoops").  Other loops are kept; unroll loops nested in
them (or in each other) are expanded too, the innermost first.

* The bounds must be integer constants (after the loop's own expressions are read as
  written); otherwise the pass refuses at the loop.  A zero step is refused too.
* Carried values (``iter_args``, what ConvertToSSA makes of a value reassigned in the
  body): copy ``k`` reads what copy ``k - 1`` yielded (the first reads the initial
  values), and after the last copy each return var is assigned the last yielded value
  (the initial one if the loop runs zero times).
* In SSA form (every Var defined once in the function) each copy gets fresh Vars for
  what its body defines, so the result stays in SSA form.  Otherwise the copies assign
  the same Vars one after the other, as the iterations did.
* A ``break`` or ``continue`` in the body (the parser rejects them; hand-built IR may
  hold one) and a body reassigning the loop variable are refused by name.
"""

from __future__ import annotations

from typing import cast

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import ForKind
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.utils import deep_clone
from ...ir.visitor import IRMutator
from ...ir.walk import def_sites, iter_stmts
from ..diagnostic import PassError, PassErrorCode
from .scalar_values import const_value
from .simplify_expr import fold_constant_node

__all__ = ["transform", "PASS_NAME"]

PASS_NAME = "UnrollLoops"


def _refuse(message: str, loop: St.ForStmt) -> PassError:
    return PassError(message, loop.span, code=PassErrorCode.UNROLL_REFUSED,
                     pass_name=PASS_NAME)


def _is_ssa(func: Function) -> bool:
    defined = [*func.params, *(v for stmt in iter_stmts(func.body) for v in def_sites(stmt))]
    return len(defined) == len(set(defined))


class _Substitute(IRMutator):
    """Uses replaced per ``var_remap``; definitions kept (non-SSA copies).  An operator
    whose operands became constants is folded (``u * 16`` in copy 2 is ``32``)."""

    def visit_binary_expr(self, op: E.BinaryExpr) -> Expr:
        return fold_constant_node(super().visit_binary_expr(op))

    def visit_unary_expr(self, op: E.UnaryExpr) -> Expr:
        return fold_constant_node(super().visit_unary_expr(op))


class _Unroller(IRMutator):
    def __init__(self, ssa: bool) -> None:
        super().__init__()
        self._ssa = ssa

    def visit_for_stmt(self, op: St.ForStmt) -> Stmt:
        loop = super().visit_for_stmt(op)  # inner loops first
        if not isinstance(loop, St.ForStmt) or loop.kind is not ForKind.Unroll:
            return loop
        return self._expand(loop)

    def _expand(self, loop: St.ForStmt) -> Stmt:
        values = _iterations(loop)
        for node in iter_stmts(loop.body):
            if isinstance(node, (St.BreakStmt, St.ContinueStmt)):
                word = "break" if isinstance(node, St.BreakStmt) else "continue"
                raise _refuse(f"cannot unroll a pl.unroll loop whose body holds a '{word}'",
                              loop)
            if any(var is loop.loop_var for var in def_sites(node)):  # (Var == builds IR)
                raise _refuse(f"cannot unroll a pl.unroll loop whose body reassigns its "
                              f"loop variable '{loop.loop_var.name_hint}'", loop)
        if loop.iter_args and not isinstance(_last(loop.body), St.YieldStmt):
            raise _refuse("cannot unroll a pl.unroll loop with carried values whose body "
                          "does not end with a yield", loop)
        carried: list[Expr] = [a.initValue for a in loop.iter_args]
        out: list[Stmt] = []
        dtype = loop.loop_var.type.dtype  # type: ignore[attr-defined]  # a scalar Var
        for value in values:
            mapping: dict[Expr, Expr] = {loop.loop_var: E.ConstInt(value, dtype, loop.span)}
            mapping.update(zip(loop.iter_args, carried))
            body = self._copy(loop.body, mapping)
            if loop.iter_args:
                *stmts, yielded = _flat(body)
                assert isinstance(yielded, St.YieldStmt)
                carried = list(yielded.value)
                out += stmts
            else:
                out.append(body)
        out += [St.AssignStmt(rv, value, loop.span) for rv, value in zip(loop.return_vars,
                                                                          carried)]
        if not out:
            return St.SeqStmts([], loop.span)
        return St.SeqStmts.flatten(out, loop.span)

    def _copy(self, body: Stmt, mapping: dict[Expr, Expr]) -> Stmt:
        if self._ssa:
            body = deep_clone(body, mapping)[0]  # fresh definitions, then the folding below
            mapping = {}
        substitute = _Substitute()
        for var, value in mapping.items():  # (the keys are the loop's Vars)
            substitute.var_remap[cast(E.Var, var)] = value
        return substitute.visit_stmt(body)


def _iterations(loop: St.ForStmt) -> range:
    bounds = [const_value(e) for e in (loop.start, loop.stop, loop.step)]
    if not all(isinstance(b, int) and not isinstance(b, bool) for b in bounds):
        raise _refuse("a pl.unroll loop needs constant bounds to be unrolled; its start, "
                      "stop and step must be integer constants", loop)
    start, stop, step = bounds
    if step == 0:
        raise _refuse("a pl.unroll loop with step 0 cannot be unrolled", loop)
    return range(start, stop, step)


def _flat(body: Stmt) -> list[Stmt]:
    return list(body.stmts) if isinstance(body, St.SeqStmts) else [body]


def _last(body: Stmt) -> Stmt:
    return _flat(body)[-1] if _flat(body) else body


def transform(func: Function) -> Function:
    return _Unroller(_is_ssa(func)).visit_function(func)
