"""A flattening interpreter that records which ops run, in which order.

``op_trace(program, entry, args)`` runs ``entry`` symbolically: scalars are Python
numbers (so loop trip counts and branch conditions are decided exactly), tensors
and tiles are opaque tokens, and every builtin op call appends its name to the
trace.  Calls of program functions are followed (the interpreter steps into the
callee), so a program and its outlined form -- where a region became a function
and the region a call -- give the same trace exactly when outlining kept every op
and its order.

Ops the pipeline legitimately removes are left out of the trace: the parser's
task-id placeholder ``system.task_invalid`` and ``tensor.dim`` (folded into the
dynamic-dim Var it reads).  Regions run their body once (an spmd region stands for
its block group, before and after outlining alike).
"""

from __future__ import annotations

import math
from typing import Any

from pypto import ir

UNTRACED_OPS = frozenset({"system.task_invalid", "tensor.dim"})
MAX_STEPS = 200_000  # a generated program is small; more means a runaway loop


class TraceError(Exception):
    """The program cannot be traced (a data-dependent branch, a runaway loop)."""


class _Opaque:
    """A tensor/tile (or a scalar read from one): its value is never needed."""

    __slots__ = ("label",)

    def __init__(self, label: str) -> None:
        self.label = label

    def __repr__(self) -> str:
        return f"<{self.label}>"


_BINARY = {
    ir.Add: lambda a, b: a + b,
    ir.Sub: lambda a, b: a - b,
    ir.Mul: lambda a, b: a * b,
    ir.FloorDiv: lambda a, b: a // b,
    ir.FloorMod: lambda a, b: a % b,
    ir.FloatDiv: lambda a, b: a / b,
    ir.Min: min,
    ir.Max: max,
    ir.Pow: lambda a, b: a ** b,
    ir.Eq: lambda a, b: a == b,
    ir.Ne: lambda a, b: a != b,
    ir.Lt: lambda a, b: a < b,
    ir.Le: lambda a, b: a <= b,
    ir.Gt: lambda a, b: a > b,
    ir.Ge: lambda a, b: a >= b,
    ir.And: lambda a, b: bool(a) and bool(b),
    ir.Or: lambda a, b: bool(a) or bool(b),
    ir.BitAnd: lambda a, b: a & b,
    ir.BitOr: lambda a, b: a | b,
    ir.BitXor: lambda a, b: a ^ b,
    ir.BitShiftLeft: lambda a, b: a << b,
    ir.BitShiftRight: lambda a, b: a >> b,
}
_UNARY = {
    ir.Neg: lambda a: -a,
    ir.Not: lambda a: not a,
    ir.BitNot: lambda a: ~a,
    ir.Abs: abs,
}


class _Yield(Exception):
    def __init__(self, values: list) -> None:
        self.values = values


class _Return(Exception):
    def __init__(self, values: list) -> None:
        self.values = values


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class Tracer:
    def __init__(self, program: ir.Program) -> None:
        self.program = program
        self.trace: list[str] = []
        self.steps = 0

    # -- functions ----------------------------------------------------------------------
    def call(self, func: ir.Function, args: list) -> list:
        if len(args) != len(func.params):
            raise TraceError(f"{func.name}: {len(args)} arguments for {len(func.params)} "
                             "params")
        env: dict = dict(zip(func.params, args))
        try:
            self.stmt(func.body, env)
        except _Return as ret:
            return ret.values
        return []

    # -- statements ----------------------------------------------------------------------
    def stmt(self, stmt: ir.Stmt, env: dict) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise TraceError("too many steps (a runaway loop?)")
        if isinstance(stmt, ir.SeqStmts):
            for child in stmt.stmts:
                self.stmt(child, env)
        elif isinstance(stmt, ir.AssignStmt):
            env[stmt.var] = self.expr(stmt.value, env)
        elif isinstance(stmt, ir.EvalStmt):
            self.expr(stmt.expr, env)
        elif isinstance(stmt, ir.ReturnStmt):
            raise _Return([self.expr(v, env) for v in stmt.value])
        elif isinstance(stmt, ir.YieldStmt):
            raise _Yield([self.expr(v, env) for v in stmt.value])
        elif isinstance(stmt, ir.IfStmt):
            branch = stmt.then_body if self.decide(stmt.condition, env) else stmt.else_body
            values = self.body(branch, env) if branch is not None else []
            self.bind_results(stmt.return_vars, values, env)
        elif isinstance(stmt, ir.ForStmt):
            self.for_stmt(stmt, env)
        elif isinstance(stmt, ir.WhileStmt):
            self.while_stmt(stmt, env)
        elif isinstance(stmt, ir.ScopeStmt):
            if isinstance(stmt, ir.SpmdScopeStmt):
                self.expr(stmt.core_num, env)
            self.stmt(stmt.body, env)
        elif isinstance(stmt, ir.BreakStmt):
            raise _Break()
        elif isinstance(stmt, ir.ContinueStmt):
            raise _Continue()
        elif not isinstance(stmt, ir.InlineStmt):
            raise TraceError(f"unexpected statement {type(stmt).__name__}")

    def body(self, body: ir.Stmt, env: dict) -> list:
        """Run a loop or branch body; the values it yields (none without a yield)."""
        try:
            self.stmt(body, env)
        except _Yield as yielded:
            return yielded.values
        return []

    @staticmethod
    def bind_results(targets, values: list, env: dict) -> None:
        if targets and len(values) != len(targets):
            raise TraceError(f"{len(values)} values yielded for {len(targets)} targets")
        for var, value in zip(targets, values):
            env[var] = value

    def for_stmt(self, loop: ir.ForStmt, env: dict) -> None:
        start, stop, step = (self.integer(e, env) for e in (loop.start, loop.stop, loop.step))
        if step == 0:
            raise TraceError("loop step is 0")
        current = [self.expr(a.initValue, env) for a in loop.iter_args]
        for i in range(start, stop, step):
            env[loop.loop_var] = i
            for arg, value in zip(loop.iter_args, current):
                env[arg] = value
            try:
                yielded = self.body(loop.body, env)
            except _Break:
                break
            except _Continue:
                continue
            if loop.iter_args:
                current = yielded
        self.bind_results(loop.return_vars, current, env)

    def while_stmt(self, loop: ir.WhileStmt, env: dict) -> None:
        current = [self.expr(a.initValue, env) for a in loop.iter_args]
        while True:
            for arg, value in zip(loop.iter_args, current):
                env[arg] = value
            if not self.decide(loop.condition, env):
                break
            try:
                yielded = self.body(loop.body, env)
            except _Break:
                break
            except _Continue:
                continue
            if loop.iter_args:
                current = yielded
        self.bind_results(loop.return_vars, current, env)

    # -- expressions ---------------------------------------------------------------------
    def decide(self, cond: ir.Expr, env: dict) -> bool:
        value = self.expr(cond, env)
        if isinstance(value, _Opaque):
            raise TraceError("a branch depends on tensor data")
        return bool(value)

    def integer(self, expr: ir.Expr, env: dict) -> int:
        value = self.expr(expr, env)
        if isinstance(value, _Opaque) or isinstance(value, float):
            raise TraceError("a loop bound depends on tensor data")
        return int(value)

    def expr(self, expr: ir.Expr, env: dict) -> Any:
        if isinstance(expr, ir.Var):  # IterArgs included
            if expr not in env:
                raise TraceError(f"'{expr.name_hint}' read before it was assigned")
            return env[expr]
        if isinstance(expr, (ir.ConstInt, ir.ConstFloat, ir.ConstBool)):
            return expr.value
        if isinstance(expr, ir.Call):
            args = [self.expr(a, env) for a in expr.args]
            if isinstance(expr.op, ir.GlobalVar):
                callee = self.program.get_function(expr.op.name)
                if callee is None:
                    raise TraceError(f"call of unknown function '{expr.op.name}'")
                results = self.call(callee, args)
                return results[0] if len(results) == 1 else tuple(results)
            if expr.op.name not in UNTRACED_OPS:
                self.trace.append(expr.op.name)
            return _Opaque(expr.op.name)
        if isinstance(expr, ir.MakeTuple):
            return tuple(self.expr(e, env) for e in expr.elements)
        if isinstance(expr, ir.TupleGetItemExpr):
            value = self.expr(expr.tuple, env)
            if isinstance(value, _Opaque):
                return value
            return value[expr.index]
        if isinstance(expr, ir.Cast):
            value = self.expr(expr.operand, env)
            if isinstance(value, _Opaque):
                return value
            return float(value) if expr.dtype.is_float() else math.floor(value)
        for cls, fn in _UNARY.items():
            if isinstance(expr, cls):
                value = self.expr(expr.operand, env)
                return value if isinstance(value, _Opaque) else fn(value)
        for cls, fn in _BINARY.items():
            if isinstance(expr, cls):
                left, right = self.expr(expr.left, env), self.expr(expr.right, env)
                if isinstance(left, _Opaque) or isinstance(right, _Opaque):
                    return _Opaque(cls.__name__)
                return fn(left, right)
        raise TraceError(f"unexpected expression {type(expr).__name__}")


def op_trace(program: ir.Program, entry: str, args: list) -> list[str]:
    """The builtin ops ``entry(*args)`` runs, in order, following calls."""
    tracer = Tracer(program)
    func = program.get_function(entry)
    if func is None:
        raise TraceError(f"no function '{entry}'")
    tracer.call(func, list(args))
    return tracer.trace


def tensor_arg(label: str) -> _Opaque:
    return _Opaque(label)
