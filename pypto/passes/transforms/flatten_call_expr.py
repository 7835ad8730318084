"""FlattenCallExpr (03-passes.md §9): three-address form.

A ``Call`` inside a call argument, a binary/unary operand, an if/while condition,
a for bound, a return value or a yield value is bound to a fresh ``t__tmp_vN``
(one counter per function) by an ``AssignStmt`` emitted right before the
statement that evaluates it: before an if/for/while/scope statement for its
header expressions, inside a body (e.g. before the yield) for the statements of
that body.  Calls are hoisted left to right, innermost first.  A Call at the
root of an assignment value or an evaluated expression stays where it is.

A while condition is hoisted before the loop too, so a call in it may not read
the loop's iter_args (``PassError``): hoisted, it would run only once.

One walk over the statements and their expressions, so O(N).
"""

from __future__ import annotations

from operator import is_
from typing import Any, Callable, cast

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.depth import nesting_guard
from ...ir.function import Function
from ...ir.node import Expr, Stmt
from ...ir.walk import CONST_TYPES
from .ssa_index import expr_vars
from ..diagnostic import PassError, PassErrorCode
from ..names import auto_name, source_name

__all__ = ["transform", "TEMP_BASE", "PASS_NAME"]

PASS_NAME = "FlattenCallExpr"
TEMP_BASE = "t"


class _Flattener:
    def __init__(self, func_name: str) -> None:
        self._func_name = func_name
        self._counter = 0
        # Replaced loop-carried IterArgs (an init held a nested call): old -> new.
        self._remap: dict[E.Var, E.Var] = {}

    # -- expressions ----------------------------------------------------------------
    def _hoist(self, call: E.Call, out: list[Stmt]) -> E.Var:
        temp = E.Var(auto_name(TEMP_BASE, "tmp", self._counter), call.type, call.span)
        self._counter += 1
        out.append(St.AssignStmt(temp, call, call.span))
        return temp

    def expr(self, node: Expr, out: list[Stmt], hoist_root: bool) -> Expr:
        """``node`` with its nested calls bound to temps appended to ``out``.

        ``hoist_root``: a Call at ``node`` itself is nested too (it sits in an
        argument, an operand, a condition, a bound, or a return/yield value).
        """
        # (dispatch by exact class: mypy does not narrow through ``cls``, hence the casts)
        cls = type(node)
        if cls is E.Call:  # the common kinds by exact class first: this runs per node
            call = cast(E.Call, node)
            args = self._exprs(call.args, out, True)
            if args is not call.args:
                call = call.replace(args=args)
            return self._hoist(call, out) if hoist_root else call
        if cls is E.Var or cls is E.IterArg:
            return self._remap.get(cast(E.Var, node), node) if self._remap else node
        if cls in CONST_TYPES:
            return node
        if isinstance(node, E.Var):
            return self._remap.get(node, node)
        if isinstance(node, E.Call):
            args = self._exprs(node.args, out, True)
            call = node if args is node.args else node.replace(args=args)
            return self._hoist(call, out) if hoist_root else call
        if isinstance(node, E.BinaryExpr):
            left = self.expr(node.left, out, True)
            right = self.expr(node.right, out, True)
            if left is node.left and right is node.right:
                return node
            return node.replace(left=left, right=right)
        if isinstance(node, E.UnaryExpr):
            operand = self.expr(node.operand, out, True)
            return node if operand is node.operand else node.replace(operand=operand)
        if isinstance(node, E.MakeTuple):
            elements = self._exprs(node.elements, out, hoist_root)
            return node if elements is node.elements else E.MakeTuple(elements, node.span)
        if isinstance(node, E.TupleGetItemExpr):
            tup = self.expr(node.tuple, out, hoist_root)
            return node if tup is node.tuple else E.TupleGetItemExpr(tup, node.index, node.span)
        if isinstance(node, E.Submit):
            # A task launch stays at its root; calls in its arguments are nested.
            args = self._exprs(node.args, out, True)
            return node if args is node.args else node.replace(args=args)
        return node

    def _exprs(self, values: tuple, out: list[Stmt], hoist_root: bool) -> tuple:
        """``expr`` of each value, left to right; ``values`` itself when none changed.
        Leaves (most call arguments) are answered inline, without a call each."""
        remap = self._remap
        new: list | None = None
        for index, value in enumerate(values):
            cls = type(value)
            if cls in CONST_TYPES:
                result = value
            elif cls is E.Var or cls is E.IterArg:
                result = remap.get(value, value) if remap else value
            else:
                result = self.expr(value, out, hoist_root)
            if new is not None:
                new.append(result)
            elif result is not value:
                new = [*values[:index], result]
        return values if new is None else tuple(new)

    def _attrs(self, attrs: dict, out: list[Stmt]) -> dict:
        changed = False
        new_attrs = {}
        new: Any
        for key, value in attrs.items():
            if isinstance(value, Expr):
                new = self.expr(value, out, False)
            elif isinstance(value, (list, tuple)) and any(isinstance(v, Expr) for v in value):
                items = [self.expr(v, out, False) if isinstance(v, Expr) else v for v in value]
                new = value if _same(items, value) else type(value)(items)
            else:
                new = value
            changed = changed or new is not value
            new_attrs[key] = new
        return new_attrs if changed else attrs

    def _iter_args(self, iter_args: tuple, out: list[Stmt]) -> tuple:
        new_args = []
        for arg in iter_args:
            init = self.expr(arg.initValue, out, False)
            if init is arg.initValue:
                new_args.append(arg)
                continue
            fresh = E.IterArg(arg.name_hint, arg.type, init, arg.span)
            self._remap[arg] = fresh
            new_args.append(fresh)
        return tuple(new_args)

    def _check_while_condition(self, loop: St.WhileStmt, iter_args: tuple,
                               hoisted: list[Stmt]) -> None:
        """A call hoisted out of a while condition runs once, before the loop: it must
        not read the loop-carried values, which change every iteration."""
        if not hoisted or not iter_args:
            return
        carried = {id(arg) for arg in iter_args}
        for stmt in hoisted:
            call = cast(E.Call, cast(St.AssignStmt, stmt).value)  # ``_hoist``: ``tmp = call``
            for var in expr_vars(call):
                if id(var) in carried:
                    name = getattr(call.op, "name", "?")
                    raise PassError(
                        f"in function '{self._func_name}': the while condition "
                        f"calls '{name}' on the loop-carried value '{source_name(var.name_hint)}'; a call "
                        f"hoisted before the loop cannot see it. Compute the condition value "
                        f"in the loop body and yield it", loop.span,
                        code=PassErrorCode.HOISTED_CONDITION_READS_CARRY, pass_name=PASS_NAME)

    # -- statements -----------------------------------------------------------------
    def body(self, body: Stmt) -> Stmt:
        # A nested SeqStmts child goes through ``stmt`` (and back here); the final
        # ``flatten`` splices it, as if the body had been flattened up front.
        stmts = body.stmts if type(body) is St.SeqStmts else (body,)
        out: list[Stmt] = []
        changed = False
        for stmt in stmts:
            start = len(out)
            if type(stmt) is St.AssignStmt and type(stmt.value) is E.Call:
                # The most common statement, inline: ``stmt`` for an assigned call.
                value = stmt.value
                args = self._exprs(value.args, out, True)
                if args is value.args:
                    out.append(stmt)
                else:
                    out.append(stmt.replace(value=value.replace(args=args)))
            else:
                self.stmt(stmt, out)
            changed = changed or len(out) != start + 1 or out[-1] is not stmt
        if not changed:
            return body
        return St.SeqStmts.flatten(out, body.span)

    def stmt(self, stmt: Stmt, out: list[Stmt]) -> None:
        """Append ``stmt``'s hoisted temps, then ``stmt`` itself (rebuilt if needed)."""
        handler = _STMT_HANDLERS.get(type(stmt))
        if handler is None:
            handler = _handler_of_class(type(stmt))
        handler(self, stmt, out)

    def _assign(self, stmt: St.AssignStmt, out: list[Stmt]) -> None:
        value = self.expr(stmt.value, out, False)
        out.append(stmt if value is stmt.value else stmt.replace(value=value))

    def _eval(self, stmt: St.EvalStmt, out: list[Stmt]) -> None:
        expr = self.expr(stmt.expr, out, False)
        out.append(stmt if expr is stmt.expr else stmt.replace(expr=expr))

    def _values(self, stmt: St.ReturnStmt | St.YieldStmt, out: list[Stmt]) -> None:
        values = self._exprs(stmt.value, out, True)
        out.append(stmt if _same(values, stmt.value) else stmt.replace(value=values))

    def _if(self, stmt: St.IfStmt, out: list[Stmt]) -> None:
        condition = self.expr(stmt.condition, out, True)
        then_body = self.body(stmt.then_body)
        else_body = None if stmt.else_body is None else self.body(stmt.else_body)
        if (condition is stmt.condition and then_body is stmt.then_body
                and else_body is stmt.else_body):
            out.append(stmt)
        else:
            out.append(stmt.replace(condition=condition, then_body=then_body,
                                    else_body=else_body))

    def _for(self, stmt: St.ForStmt, out: list[Stmt]) -> None:
        start, stop, step = self._exprs((stmt.start, stmt.stop, stmt.step), out, True)
        iter_args = self._iter_args(stmt.iter_args, out)
        body = self.body(stmt.body)
        if (start is stmt.start and stop is stmt.stop and step is stmt.step
                and _same(iter_args, stmt.iter_args) and body is stmt.body):
            out.append(stmt)
        else:
            out.append(stmt.replace(start=start, stop=stop, step=step, iter_args=iter_args,
                                    body=body))

    def _while(self, stmt: St.WhileStmt, out: list[Stmt]) -> None:
        iter_args = self._iter_args(stmt.iter_args, out)
        first_hoisted = len(out)
        condition = self.expr(stmt.condition, out, True)
        self._check_while_condition(stmt, iter_args, out[first_hoisted:])
        body = self.body(stmt.body)
        if (condition is stmt.condition and _same(iter_args, stmt.iter_args)
                and body is stmt.body):
            out.append(stmt)
        else:
            out.append(stmt.replace(condition=condition, iter_args=iter_args, body=body))

    def _scope(self, stmt: S.ScopeStmt, out: list[Stmt]) -> None:
        changes: dict[str, Any] = {}
        if isinstance(stmt, S.SpmdScopeStmt):
            core_num = self.expr(stmt.core_num, out, False)
            if core_num is not stmt.core_num:
                changes["core_num"] = core_num
        attrs = self._attrs(stmt._attrs, out) if stmt._attrs else stmt._attrs
        if attrs is not stmt._attrs:
            changes["attrs"] = attrs
        body = self.body(stmt.body)
        if body is not stmt.body:
            changes["body"] = body
        out.append(stmt.replace(**changes) if changes else stmt)

    def _seq(self, stmt: St.SeqStmts, out: list[Stmt]) -> None:
        out.append(self.body(stmt))

    def _other(self, stmt: Stmt, out: list[Stmt]) -> None:
        out.append(stmt)  # break / continue / inline source: nothing to evaluate


# Statement base class -> handler, in the order the kinds are told apart.
_HANDLERS_BY_BASE = (
    (St.AssignStmt, _Flattener._assign), (St.EvalStmt, _Flattener._eval),
    ((St.ReturnStmt, St.YieldStmt), _Flattener._values), (St.IfStmt, _Flattener._if),
    (St.ForStmt, _Flattener._for), (St.WhileStmt, _Flattener._while),
    (S.ScopeStmt, _Flattener._scope), (St.SeqStmts, _Flattener._seq),
)
# Exact class -> handler: one dict lookup per statement; filled on first sight.
_STMT_HANDLERS: dict[type, Callable[[_Flattener, Any, list[Stmt]], None]] = {}


def _handler_of_class(cls: type) -> Callable[[_Flattener, Any, list[Stmt]], None]:
    handler = next((h for base, h in _HANDLERS_BY_BASE if issubclass(cls, base)),
                   _Flattener._other)
    _STMT_HANDLERS[cls] = handler
    return handler


def _same(new: tuple | list, old: tuple | list) -> bool:
    return len(new) == len(old) and all(map(is_, new, old))


def transform(func: Function) -> Function:
    """``func`` in three-address form (the same object when no call is nested)."""
    with nesting_guard(func):
        body = _Flattener(func.name).body(func.body)
    return func if body is func.body else func.replace(body=body)
