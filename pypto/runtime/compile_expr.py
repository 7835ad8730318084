"""Compiling IR expressions into Python closures ``fn(frame) -> value``.

Compiling once and then calling closures keeps the per-op overhead to a few
Python calls, instead of a visitor dispatch per node per evaluation.  A frame is
a list with one slot per Var of the function (``FunctionCompiler.slot_of``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..ir import expr as E
from ..ir.node import Expr, GlobalVar
from ..ir.ops.registry import find_op
from ..ir.span import Span
from ..ir.types import ScalarType, ShapedType
from .dtypes import INVALID_TASK_ID, numpy_dtype, scalar_coercer
from .errors import ExecutionError, OpFailure
from .op_semantics import OP_SEMANTICS
from .scalar_semantics import OPERATOR_SYMBOLS, UNARY_SEMANTICS, binary_semantics, cast_semantics
from .distributed.launch import finish_launches, launch_on_rank
from .state import OpInfo
from .values import UNSET, describe_value

if TYPE_CHECKING:
    from .executor import CompiledFunction, Executor

__all__ = ["ExprCompiler", "Fn", "call_value", "as_condition"]

Fn = Callable[[list], Any]

# Exceptions an op implementation may leak on bad operands; reported with the op's
# name and span (the original exception stays chained for debugging).
_OP_LEAKS = (ArithmeticError, ValueError, TypeError, IndexError, AttributeError, KeyError)


def call_value(results: tuple) -> Any:
    """A call's value: its one result, else the tuple of results."""
    return results[0] if len(results) == 1 else results


def _args_evaluator(fns: list[Fn]) -> Callable[[list], list]:
    """Evaluate operands into a list; unrolled for the common small arities."""
    if len(fns) == 1:
        (a,) = fns
        return lambda frame: [a(frame)]
    if len(fns) == 2:
        a, b = fns
        return lambda frame: [a(frame), b(frame)]
    if len(fns) == 3:
        a, b, c = fns
        return lambda frame: [a(frame), b(frame), c(frame)]
    return lambda frame: [fn(frame) for fn in fns]


def _result_dtype(call: E.Call) -> Any:
    t = call.type
    return t.dtype if isinstance(t, (ShapedType, ScalarType)) else None


def as_condition(fn: Fn, owner: str, span: Span | None, fail: Callable) -> Fn:
    """``fn`` checked to produce a bool (an array here would mean malformed IR)."""
    def condition(frame: list) -> bool:
        value = fn(frame)
        if type(value) is bool:
            return value
        if isinstance(value, int):
            return value != 0
        raise fail(owner, span, f"condition must be a Bool scalar, got {describe_value(value)}")
    return condition


class ExprCompiler:
    """Mixin of ``FunctionCompiler``: expressions.  Needs ``executor``,
    ``function_name`` and ``slot_of``."""

    executor: "Executor"
    function_name: str

    def slot_of(self, var: E.Var) -> int:  # pragma: no cover - provided by FunctionCompiler
        raise NotImplementedError

    def fail(self, what: str, span: Span | None, detail: str) -> ExecutionError:
        return ExecutionError.at(what, span, detail, self.function_name)

    def compile_expr(self, expr: Expr) -> Fn:
        if isinstance(expr, E.Var):
            return self._var(expr)
        if isinstance(expr, (E.ConstInt, E.ConstFloat, E.ConstBool)):
            value = scalar_coercer(expr.type.dtype)(expr.value)
            return lambda frame: value
        if isinstance(expr, E.BinaryExpr):
            return self._binary(expr)
        if isinstance(expr, E.UnaryExpr):
            return self._unary(expr)
        if isinstance(expr, E.Call):
            if isinstance(expr.op, GlobalVar):
                return self._user_call(expr)
            return self._op_call(expr)
        if isinstance(expr, E.Submit):
            return self._submit(expr)
        if isinstance(expr, E.MakeTuple):
            return self._make_tuple(expr)
        if isinstance(expr, E.TupleGetItemExpr):
            return self._tuple_item(expr)
        raise self.fail(type(expr).__name__, expr.span,
                        "this expression kind cannot be executed")

    def compile_exprs(self, exprs: Any) -> list[Fn]:
        return [self.compile_expr(e) for e in exprs]

    # -- variables and tuples ---------------------------------------------------------

    def _var(self, var: E.Var) -> Fn:
        slot = self.slot_of(var)
        name, span, fail = var.name_hint, var.span, self.fail

        def read(frame: list) -> Any:
            value = frame[slot]
            if value is UNSET:
                raise fail(f"variable '{name}'", span, "read before it has a value (it is "
                           "assigned later, on a path not taken, or by a task that did "
                           "not run)")
            return value
        return read

    def _make_tuple(self, expr: E.MakeTuple) -> Fn:
        fns = self.compile_exprs(expr.elements)
        if len(fns) == 2:
            first, second = fns
            return lambda frame: (first(frame), second(frame))
        return lambda frame: tuple([fn(frame) for fn in fns])

    def _tuple_item(self, expr: E.TupleGetItemExpr) -> Fn:
        source, index, fail, span = self.compile_expr(expr.tuple), expr.index, self.fail, expr.span

        def item(frame: list) -> Any:
            value = source(frame)
            if not isinstance(value, tuple) or not 0 <= index < len(value):
                raise fail("tuple item", span, f"cannot take item {index} of "
                           f"{describe_value(value)}")
            return value[index]
        return item

    # -- scalar operators ------------------------------------------------------------

    def _binary(self, expr: E.BinaryExpr) -> Fn:
        node_class = type(expr)
        try:
            fn = binary_semantics(node_class, expr.dtype)
        except OpFailure as exc:
            raise self.fail(node_class.__name__, expr.span, str(exc)) from None
        normalize = scalar_coercer(expr.dtype)
        left, right = self.compile_expr(expr.left), self.compile_expr(expr.right)
        symbol = OPERATOR_SYMBOLS.get(node_class)
        label = f"{node_class.__name__} ({symbol})" if symbol else node_class.__name__
        fail, span = self.fail, expr.span

        def evaluate(frame: list) -> Any:
            a, b = left(frame), right(frame)
            try:
                return normalize(fn(a, b))
            except OpFailure as exc:
                raise fail(label, span, str(exc)) from None
            except _OP_LEAKS as exc:
                raise fail(label, span, f"cannot apply to {describe_value(a)} and "
                           f"{describe_value(b)}: {exc}") from exc
        return evaluate

    def _unary(self, expr: E.UnaryExpr) -> Fn:
        node_class = type(expr)
        if node_class is E.Cast:
            source = expr.operand.type
            fn = cast_semantics(source.dtype if isinstance(source, ScalarType) else None,
                                expr.dtype)
        else:
            semantics = UNARY_SEMANTICS.get(node_class)
            if semantics is None:
                raise self.fail(node_class.__name__, expr.span,
                                "no semantics for this scalar operator")
            fn = semantics
        normalize = scalar_coercer(expr.dtype)
        operand, label = self.compile_expr(expr.operand), node_class.__name__
        fail, span = self.fail, expr.span

        def evaluate(frame: list) -> Any:
            value = operand(frame)
            try:
                return normalize(fn(value))
            except OpFailure as exc:
                raise fail(label, span, str(exc)) from None
            except _OP_LEAKS as exc:
                raise fail(label, span, f"cannot apply to {describe_value(value)}: "
                           f"{exc}") from exc
        return evaluate

    # -- op calls ----------------------------------------------------------------------

    def _op_call(self, call: E.Call) -> Fn:
        name = call.op.name
        impl = OP_SEMANTICS.get(name)
        fail, span = self.fail, call.span
        if impl is None:
            def unsupported(frame: list) -> Any:
                raise fail(name, span, "this op has no NumPy semantics in pypto.runtime")
            return unsupported
        kwargs: dict[str, Any] = {}
        opdef = find_op(name)
        if opdef is not None:
            kwargs = {k.name: k.default for k in opdef.keywords if k.default is not None}
        kwargs.update(call._kwargs)
        out_dtype = _result_dtype(call)
        info = OpInfo(name, kwargs, out_dtype,
                      numpy_dtype(out_dtype) if out_dtype is not None else None, span,
                      call.type, call._attrs)
        arg_fns = self.compile_exprs(call.args)
        executor = self.executor

        evaluate_args = _args_evaluator(arg_fns)

        def run_op(frame: list) -> Any:
            if executor.pending_ranks:  # the host sees launched ranks finished
                finish_launches(executor, name, span)
            args = evaluate_args(frame)
            try:
                return impl(args, info, executor.state)
            except OpFailure as exc:
                raise fail(name, span, str(exc)) from None
            except _OP_LEAKS as exc:
                operands = ", ".join(describe_value(a) for a in args)
                raise fail(name, span, f"{type(exc).__name__}: {exc} (operands: "
                           f"{operands})") from exc
        return run_op

    # -- calls of program functions ---------------------------------------------------

    def _launch_count(self, value: Any) -> Fn | None:
        """``core_num`` (a call attr or Submit field) as a closure, or ``None``."""
        if value is None:
            return None
        if isinstance(value, Expr):
            return self.compile_expr(value)
        return lambda frame: value

    def _user_call(self, call: E.Call) -> Fn:
        callee_name, span = call.op.name, call.span
        arg_fns = self.compile_exprs(call.args)
        blocks = self._launch_count(call._attrs.get("core_num"))
        device = self._launch_count(call._attrs.get("device"))
        executor = self.executor
        if device is not None:
            caller = self.function_name

            def run_on_rank(frame: list) -> Any:
                args = tuple([fn(frame) for fn in arg_fns])
                callee = executor.callee(callee_name, span, caller)
                return call_value(launch_on_rank(executor, callee, args, device(frame),
                                                 None if blocks is None else blocks(frame),
                                                 span, caller))
            return run_on_rank

        def run_call(frame: list) -> Any:
            args = tuple([fn(frame) for fn in arg_fns])
            callee = executor.callee(callee_name, span, self.function_name)
            if blocks is None:
                return call_value(callee.invoke(args, span))
            return call_value(callee.launch(args, blocks(frame), span))
        return run_call

    def _submit(self, submit: E.Submit) -> Fn:
        """A task launch, run synchronously: ``(results..., task_id)``.  With a false
        predicate the task does not run: its id is -1 and results that the callee
        returns straight from a param are that argument, the others have no value."""
        callee_name, span = submit.op.name, submit.span
        arg_fns = self.compile_exprs(submit.args)
        dep_fns = self.compile_exprs(submit.deps)
        predicate = None if submit.predicate is None else as_condition(
            self.compile_expr(submit.predicate), "predicate", span, self.fail)
        blocks = self._launch_count(submit.core_num)
        executor = self.executor

        def run_submit(frame: list) -> tuple:
            args = tuple([fn(frame) for fn in arg_fns])
            for dep in dep_fns:
                dep(frame)  # evaluated for their errors; execution is already in order
            callee: CompiledFunction = executor.callee(callee_name, span, self.function_name)
            if predicate is not None and not predicate(frame):
                return callee.results_when_skipped(args) + (INVALID_TASK_ID,)
            task_id = executor.state.new_task_id()
            if blocks is None:
                results = callee.invoke(args, span)
            else:
                results = callee.launch(args, blocks(frame), span)
            return results + (task_id,)
        return run_submit
