"""The user's statement behind a LegalizeGraphBoundary refusal.

The boundary rules are checked on the outlined Graph function, whose span is the
region's ``with`` line; but two of them are broken by one statement the user wrote:

* a graph returns only its parameters (replay patches nothing else): a value the
  region defines -- a tile, a new tensor -- and the code after it reads is the
  mistake; ``escaping_read`` follows the value from the Graph call to its first read
  in the caller, into the functions it is passed to (the kernel outlined from the
  ``pl.at`` region that holds the read);
* a graph takes no write-only (``Out``) tensor: ``first_use`` finds where the region
  first touches the tensor -- a write, since it is never read -- following it into
  the kernels it is passed to.
"""

from __future__ import annotations

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function, Program
from ...ir.node import GlobalVar, Stmt
from ...ir.walk import calls_in, iter_stmts, stmt_exprs, var_uses
from ..names import source_name

__all__ = ["escaping_read", "first_use"]

_MAX_HOPS = 16  # function boundaries followed from the call to the read


def escaping_read(program: Program, graph: Function,
                  sites: list[tuple[Function, list]]) -> tuple[str, Stmt] | None:
    """The first returned value of ``graph`` that is not one of its parameters, by the
    user's name, with the statement after a call of ``graph`` that first reads it
    (``sites``: each function with its Graph call index); ``None`` when not found."""
    body = graph.body
    last = body.stmts[-1] if isinstance(body, St.SeqStmts) and body.stmts else body
    if not isinstance(last, St.ReturnStmt):
        return None
    params = set(graph.params)
    index = next((i for i, v in enumerate(last.value) if v not in params), None)
    if index is None:
        return None
    value = last.value[index]
    name = value.name_hint if isinstance(value, E.Var) else type(value).__name__
    for caller, calls in sites:
        for call, stmt, _ in calls:
            if call.op.name != graph.name or not isinstance(stmt, St.AssignStmt):
                continue
            result = _result_var(caller, stmt, index, len(last.value))
            read = first_use(program, caller, result) if result is not None else None
            if read is not None:
                return source_name(name), read
    return None


def _result_var(caller: Function, call_stmt: St.AssignStmt, index: int,
                count: int) -> E.Var | None:
    """The caller's Var bound to result ``index`` of the call in ``call_stmt``."""
    if count == 1:
        return call_stmt.var
    for stmt in iter_stmts(caller.body):
        if isinstance(stmt, St.AssignStmt) and isinstance(stmt.value, E.TupleGetItemExpr) \
                and stmt.value.tuple is call_stmt.var and stmt.value.index == index:
            return stmt.var
    return None


def first_use(program: Program, func: Function, var: E.Var) -> Stmt | None:
    """The first statement of ``func`` (pre-order) using ``var``; when that statement
    passes it on to a function outlined from ``func``'s regions, the first use there
    (and so on): the user wrote that statement in ``func``.  A call of a function the
    user wrote is itself the use."""
    for _ in range(_MAX_HOPS):
        reader = next((s for s in iter_stmts(func.body)
                       if _reads(s, var)), None)
        if reader is None:
            return None
        passed = _passed_to(program, reader, var)
        if passed is None or not _outlined_from(passed[0], func):
            return reader  # a call of the user's own function reads it here, at the call
        func, var = passed
    return None


def _outlined_from(callee: Function, func: Function) -> bool:
    """Was ``callee`` a region of ``func`` (outlined by a pass: its span is inside
    ``func``'s text), rather than a function the user wrote and ``func`` calls?"""
    where, start = callee.span, func.span
    if not where.is_valid() or not start.is_valid() or where.filename != start.filename:
        return False
    last = max((stmt.span.begin_line for stmt in iter_stmts(func.body)), default=-1)
    return start.begin_line <= where.begin_line <= last


def _reads(stmt: Stmt, var: E.Var) -> bool:
    # ``is``: ``==`` on IR expressions builds a comparison expression
    return any(use is var for root in stmt_exprs(stmt) for use in var_uses(root))


def _passed_to(program: Program, stmt: Stmt, var: E.Var) -> tuple[Function, E.Var] | None:
    """The function and parameter ``stmt`` hands ``var`` to as a direct call argument."""
    for root in stmt_exprs(stmt):
        for call in calls_in(root):
            if not isinstance(call.op, GlobalVar):
                continue
            callee = program.get_function(call.op.name)
            if callee is None:
                continue
            for arg, param in zip(call.args, callee.params):
                if arg is var:
                    return callee, param
    return None
