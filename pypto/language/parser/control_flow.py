"""Control flow: ``for`` over ``pl.range/parallel/unroll/pipeline/while_/spmd``,
plain ``while``, ``if``/``else``.

Two loop shapes exist (01-language.md §6.1): implicit carry (names assigned in
the body leak out; ConvertToSSA builds the iter_args later) and explicit carry
(``init_values=`` plus an assignment-form ``pl.yield_`` naming the return vars).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence, cast, overload

from ...ir import expr as E
from ...ir import stmt as S
from ...ir import types as T
from ...ir.dtype import DataType
from ...ir.enums import ForKind
from ...ir.node import Expr
from ...ir.scalar_types import scalar_type
from ...ir.span import Span
from ...ir.type_match import type_mismatch
from ...ir.walk import trailing_yield
from .annotations import attr_chain
from .context import LoopFrame, YieldContext
from .diagnostics import ParserSyntaxError, ParserTypeError, UnsupportedFeatureError

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["STMT_HANDLERS", "ITERATORS", "bind_result_var", "require_bool"]

_INDEX = DataType.INDEX
_KINDS = {"range": ForKind.Sequential, "parallel": ForKind.Parallel,
          "unroll": ForKind.Unroll, "pipeline": ForKind.Pipeline}


def require_bool(p: "FunctionParser", value: Expr, node: ast.AST, what: str) -> None:
    t = value.type
    if not (isinstance(t, T.ScalarType) and t.dtype is DataType.BOOL):
        raise ParserTypeError(f"{what} condition must be a Bool-typed scalar, got {t}",
                              p.span(node), hint="Compare explicitly, e.g. `if n > 0:`")


def bind_result_var(p: "FunctionParser", name: str, type_: T.Type, span: Any) -> E.Var:
    """A loop/if return var: the Var already named ``name`` (same type) or a new one.

    Inside a loop or a branch the Var is reused, which keeps non-SSA meaning intact:
    a name is one variable, so the enclosing loop or ``if`` sees the rebinding as an
    update it carries or merges (PyPTO's new Var there drops it: conformance 0828).
    At the function body's own level nothing can tell the two apart, and the
    result is a new Var, as in PyPTO (0306: ``acc = pl.yield_(b)`` after ``acc = x``
    prints as ``acc_1``).
    """
    existing = p.names.lookup(name)
    p.bindings.bound(name, existing is not None)
    nested = bool(p.yield_contexts or p.inline_stack)
    if nested and isinstance(existing, E.Var) and existing.type == type_ \
            and p.program.dyn_vars.get(name) is not existing:
        return existing
    var = E.Var(name, type_, span)
    p.names.bind_new(name, var, span)
    return var


def _iterator_call(p: "FunctionParser", node: ast.For) -> tuple[str, ast.Call]:
    call = node.iter
    if isinstance(call, ast.Call):
        chain = attr_chain(call.func)
        if chain is not None and len(chain) == 2 and chain[0] == "pl" and chain[1] in ITERATORS:
            return chain[1], call
    raise ParserSyntaxError("For loop must use pl.range(), pl.parallel(), pl.unroll(), "
                            "pl.pipeline(), pl.while_() or pl.spmd()", p.span(node.iter),
                            hint="e.g. `for i in pl.range(n):`")


def _for(p: "FunctionParser", node: ast.For) -> None:
    if node.orelse:
        raise UnsupportedFeatureError("for ... else is not supported", p.span(node))
    name, call = _iterator_call(p, node)
    ITERATORS[name](p, node, call)


def _bound(p: "FunctionParser", node: ast.expr, what: str) -> Expr:
    value = p.parse_expr(node)
    t = value.type
    if not (isinstance(t, T.ScalarType) and t.dtype.is_int()):
        raise ParserTypeError(f"Loop {what} must be an integer scalar, got {t}", p.span(node))
    return value


def _loop_var_dtype(bounds: list[Expr]) -> DataType:
    # (``_bound`` checked each bound is an integer scalar)
    typed = [dtype for b in bounds
             if not (isinstance(b, E.ConstInt) and b.dtype is _INDEX)
             and (dtype := cast(T.ScalarType, b.type).dtype) is not _INDEX]
    if not typed:
        return _INDEX
    for dtype in typed:
        if dtype is not DataType.INT64:
            return dtype
    return DataType.INT64


def _range_loop(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    name = cast("list[str]", attr_chain(call.func))[1]  # (the caller matched pl.<kind>)
    kind = _KINDS[name]
    span = p.span(node)
    if not 1 <= len(call.args) <= 3:
        raise ParserSyntaxError(f"pl.{name}() takes 1 to 3 positional bounds (stop | start, stop "
                                f"| start, stop, step), got {len(call.args)}", p.span(call))
    init_node = stage_node = attrs_node = None
    for kw in call.keywords:
        if kw.arg == "init_values":
            init_node = kw.value
        elif kw.arg == "stage":
            stage_node = kw.value
        elif kw.arg == "attrs":
            attrs_node = kw.value
        else:
            raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in pl.{name}()",
                                    p.span(kw))
    bounds = [_bound(p, a, ("stop", "start", "step")[0 if len(call.args) == 1 else i])
              for i, a in enumerate(call.args)]
    zero = E.ConstInt(0, _INDEX, span)
    one = E.ConstInt(1, _INDEX, span)
    start, stop, step = ([zero, bounds[0], one] if len(bounds) == 1 else
                         [bounds[0], bounds[1], one] if len(bounds) == 2 else bounds)
    attrs: dict[str, Any] = {}
    if attrs_node is not None:
        from .calls import parse_kwarg_value
        value = parse_kwarg_value(p, attrs_node)
        if not isinstance(value, dict):
            raise ParserSyntaxError("attrs= must be a dict literal", p.span(attrs_node))
        attrs.update(value)
    if kind is ForKind.Pipeline:
        if stage_node is None:
            raise ParserSyntaxError("pl.pipeline() requires stage=N", p.span(call))
        if not (isinstance(stage_node, ast.Constant) and type(stage_node.value) is int
                and stage_node.value >= 1):
            raise ParserSyntaxError("pl.pipeline stage= must be an integer literal >= 1",
                                    p.span(stage_node))
        attrs = {"pipeline_stages": stage_node.value, **attrs}
    elif stage_node is not None:
        raise ParserSyntaxError(f"stage= is only valid on pl.pipeline(), not pl.{name}()",
                                p.span(stage_node))
    if kind is ForKind.Unroll:
        for bound, src in zip(bounds, call.args):  # the defaulted bounds are constants
            if not isinstance(bound, E.ConstInt):
                raise ParserSyntaxError("pl.unroll() bounds must be compile-time constants",
                                        p.span(src))
        if init_node is not None:
            raise ParserSyntaxError("pl.unroll() does not take init_values", p.span(init_node))
    if isinstance(step, E.ConstInt) and step.value == 0:
        raise ParserSyntaxError(f"pl.{name}() step must not be 0", p.span(call),
                                hint="A loop whose step is 0 never ends")
    loop_dtype = _loop_var_dtype([start, stop, step])
    _build_for(p, node, kind, start, stop, step, loop_dtype, init_node, attrs)


def _init_values(p: "FunctionParser", init_node: ast.expr) -> list[Expr]:
    if not isinstance(init_node, (ast.Tuple, ast.List)):
        raise ParserSyntaxError("init_values= must be a tuple literal, e.g. init_values=(x,)",
                                p.span(init_node))
    if not init_node.elts:
        raise ParserSyntaxError("init_values= must not be empty", p.span(init_node))
    return [p.parse_expr(v) for v in init_node.elts]


@overload
def _carry_targets(p: "FunctionParser", target: ast.expr, count: int,
                   loop_target: Literal[True]) -> tuple[ast.Name, list[ast.Name]]: ...
@overload
def _carry_targets(p: "FunctionParser", target: ast.expr, count: int,
                   loop_target: Literal[False]) -> tuple[None, list[ast.Name]]: ...


def _carry_targets(p: "FunctionParser", target: ast.expr, count: int,
                   loop_target: bool) -> tuple[ast.Name | None, list[ast.Name]]:
    """``i, (a, b)`` (range) or ``(a, b)`` (while_) -> loop var and carried names."""
    if loop_target:
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
                and isinstance(target.elts[0], ast.Name)
                and isinstance(target.elts[1], (ast.Tuple, ast.List))):
            raise ParserSyntaxError(
                "The loop target must be a tuple when init_values is given: "
                "`for i, (a, b) in pl.range(n, init_values=(a0, b0)):`", p.span(target))
        loop_var, carried = target.elts[0], target.elts[1]
    else:
        if not isinstance(target, (ast.Tuple, ast.List)):
            raise ParserSyntaxError("The loop target must be a tuple when init_values is given: "
                                    "`for (a, b) in pl.while_(init_values=(a0, b0)):`",
                                    p.span(target))
        loop_var, carried = None, target
    names: list[ast.Name] = []
    for name in carried.elts:
        if not isinstance(name, ast.Name):
            raise ParserSyntaxError("Carried loop values must be plain names", p.span(name))
        names.append(name)
    if len(names) != count:
        raise ParserSyntaxError(f"Mismatch: {len(names)} iter_args but {count} init_values",
                                p.span(target))
    return loop_var, names


def _build_for(p: "FunctionParser", node: ast.For, kind: ForKind, start: Expr, stop: Expr,
               step: Expr, loop_dtype: DataType, init_node: ast.expr | None,
               attrs: dict[str, Any]) -> None:
    span = p.span(node)
    iter_args: list[E.IterArg] = []
    frame = p.names.push(leaky=True)
    try:
        if init_node is not None:
            inits = _init_values(p, init_node)
            loop_target, carried = _carry_targets(p, node.target, len(inits), True)
            for name, init in zip(carried, inits):
                arg = E.IterArg(name.id, init.type, init, p.span(name))
                frame.names[name.id] = arg
                iter_args.append(arg)
        else:
            if not isinstance(node.target, ast.Name):
                raise ParserSyntaxError(
                    "A tuple loop target needs init_values= (`for i, (a,) in pl.range(n, "
                    "init_values=(a0,)):`); otherwise use a single name", p.span(node.target))
            loop_target = node.target
        loop_var = E.Var(loop_target.id, scalar_type(loop_dtype), p.span(loop_target))
        frame.names[loop_target.id] = loop_var
        body, rvs = _loop_body(p, node, kind, iter_args, "for",
                               runs=_runs_at_least_once(start, stop, step))
    finally:
        p.names.pop()
    return_vars = [bind_result_var(p, n, t, s) for n, t, s in rvs]
    p.emit(S.ForStmt(loop_var, start, stop, step, iter_args, body, return_vars, span, kind,
                     attrs))


def _runs_at_least_once(start: Expr, stop: Expr, step: Expr) -> bool:
    """Constant bounds with at least one iteration: the body surely runs."""
    if not (isinstance(start, E.ConstInt) and isinstance(stop, E.ConstInt)
            and isinstance(step, E.ConstInt)) or step.value == 0:
        return False
    return len(range(start.value, stop.value, step.value)) > 0


def _loop_body(p: "FunctionParser", node: ast.For | ast.While, kind: ForKind | None,
               iter_args: list[E.IterArg], what: str,
               prologue: Callable[[], list[ast.stmt]] | None = None,
               runs: bool = False) -> tuple[S.Stmt, list]:
    """Parse a loop body; for an explicit carry, check its trailing yield.

    ``runs``: the body surely runs (constant bounds); unless it breaks or continues,
    what it binds is then bound after the loop too, as in Python."""
    context = YieldContext(what, explicit=bool(iter_args))
    frame = LoopFrame(kind, p.span(node), len(p.regions))
    p.loops.append(frame)
    p.yield_contexts.append(context)
    p.bindings.open()
    frame.body_depth, frame.carried = p.bindings.depth, iter_args
    try:
        body_nodes = node.body
        if prologue is not None:
            body_nodes = prologue()
        body = p.parse_block(body_nodes, node.lineno)
    finally:
        p.yield_contexts.pop()
        p.loops.pop()
    p.bindings.close_loop(_loop_name(node, kind), node.lineno,
                          surely_runs=runs and not frame.jumps)
    if not iter_args:
        if context.targets:
            raise ParserSyntaxError("x = pl.yield_(...) in a loop without init_values",
                                    p.span(node), hint="Add init_values=(...) to the loop to "
                                                       "carry values explicitly")
        return body, []
    last = trailing_yield(body)  # runtime scopes (pl.scope) are transparent
    if last is None or not context.targets:
        raise ParserSyntaxError(
            "A loop with init_values requires an assignment-form pl.yield_ as its last "
            "statement (e.g. `acc_out = pl.yield_(acc)`)", p.span(node))
    if len(last.value) != len(iter_args):
        raise ParserSyntaxError(f"pl.yield_ yields {len(last.value)} value(s) but the loop "
                                f"carries {len(iter_args)}", last.span)
    _check_yield_types(last.value, iter_args, "the loop carries it as", last.span)
    rvs = [(t.name, t.annotation or arg.type, t.span)
           for t, arg in zip(context.targets, iter_args)]
    return body, rvs


def _check_yield_types(values: Sequence[Expr], targets: Sequence[E.Var], what: str,
                       span: Span) -> None:
    """Each yielded value has its target's type (TypeCheck's yield rule: kind, dtype,
    shape).  Refused here, at the yield: the passes trust it, and a loop carrying a
    tensor that a scalar replaces would run one way as written and another once the
    carried value becomes an outlined function's parameter."""
    for value, target in zip(values, targets):
        reason = type_mismatch(value.type, target.type)
        if reason is not None:
            raise ParserTypeError(
                f"pl.yield_ gives '{target.name_hint}' a value of type "
                f"{value.type}, but {what} {target.type} "
                f"({reason})", span)


def _loop_name(node: ast.For | ast.While, kind: ForKind | None) -> str:
    if isinstance(node, ast.While):
        return "while loop"
    if kind is None:
        return "pl.while_ loop"
    return f"pl.{_KIND_NAMES[kind]} loop"


_KIND_NAMES = {kind: name for name, kind in _KINDS.items()}


def _while_loop(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    """``for (x, y) in pl.while_(init_values=(x0, y0)):`` + ``pl.cond(c)`` first."""
    span = p.span(node)
    if call.args:
        raise ParserSyntaxError("pl.while_() takes no positional arguments; use "
                                "init_values=(...) and pl.cond(c) as the first body statement",
                                p.span(call))
    init_node = None
    for kw in call.keywords:
        if kw.arg != "init_values":
            raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in pl.while_()",
                                    p.span(kw))
        init_node = kw.value
    if init_node is None:
        raise ParserSyntaxError("pl.while_() requires init_values=(...)", p.span(call))
    inits = _init_values(p, init_node)
    _, carried = _carry_targets(p, node.target, len(inits), False)
    condition: list[Expr] = []

    def take_condition() -> list[ast.stmt]:
        first = node.body[0]
        cond_call = _cond_call(first)
        if cond_call is None:
            raise ParserSyntaxError("The first statement of a pl.while_ loop must be "
                                    "pl.cond(<condition>)", p.span(first))
        if len(cond_call.args) != 1 or cond_call.keywords:
            raise ParserSyntaxError("pl.cond() takes exactly one condition", p.span(first))
        value = p.parse_expr(cond_call.args[0])
        require_bool(p, value, cond_call.args[0], "while")
        condition.append(value)
        return node.body[1:]

    frame = p.names.push(leaky=True)
    try:
        iter_args = []
        for name, init in zip(carried, inits):
            arg = E.IterArg(name.id, init.type, init, p.span(name))
            frame.names[name.id] = arg
            iter_args.append(arg)
        body, rvs = _loop_body(p, node, None, iter_args, "while", take_condition)
    finally:
        p.names.pop()
    return_vars = [bind_result_var(p, n, t, s) for n, t, s in rvs]
    p.emit(S.WhileStmt(condition[0], iter_args, body, return_vars, span))


def _cond_call(node: ast.stmt) -> ast.Call | None:
    """The ``pl.cond(...)`` call ``node`` is, else None."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
        return None
    return node.value if attr_chain(node.value.func) == ["pl", "cond"] else None


def _while(p: "FunctionParser", node: ast.While) -> None:
    if node.orelse:
        raise UnsupportedFeatureError("while ... else is not supported", p.span(node))
    condition = p.parse_expr(node.test)
    require_bool(p, condition, node.test, "while")
    body, _ = _loop_body(p, node, None, [], "while")
    p.emit(S.WhileStmt(condition, [], body, [], p.span(node)))


def _if(p: "FunctionParser", node: ast.If) -> None:
    span = p.span(node)
    condition = p.parse_expr(node.test)
    require_bool(p, condition, node.test, "if")
    context = YieldContext("if")
    p.yield_contexts.append(context)
    bindings = p.bindings
    try:
        bindings.open()
        then_body = p.parse_block(node.body, node.lineno)
        then_names = bindings.close_branch(node.lineno)
        then_yields = len(context.values)
        else_body = None
        bindings.open()
        if node.orelse:
            else_line = node.body[-1].end_lineno or node.lineno
            else_body = p.parse_block(node.orelse, else_line)
        else_names = bindings.close_branch(node.lineno)
    finally:
        p.yield_contexts.pop()
    bindings.merge(then_names, else_names, _exits(node.body), _exits(node.orelse), node.lineno,
                   bool(node.orelse))
    return_vars: list[E.Var] = []
    if context.targets:
        if else_body is None or then_yields == 0 or len(context.values) == then_yields:
            raise ParserSyntaxError(
                "An if that yields values (x = pl.yield_(...)) needs an else branch, and both "
                "branches must end with pl.yield_", span)
        first_values = context.values[0]
        return_vars = [bind_result_var(p, t.name, t.annotation or v.type, t.span)
                       for t, v in zip(context.targets, first_values)]
        for branch in (then_body, else_body):
            last = trailing_yield(branch)
            if last is not None:
                _check_yield_types(last.value, return_vars, "the if's result is",
                                   last.span)
    p.emit(S.IfStmt(condition, then_body, else_body, return_vars, span))


def _exits(body: list[ast.stmt]) -> bool:
    """Does the branch end in a jump (its end never reaches the code after the if)?"""
    return bool(body) and isinstance(body[-1], (ast.Break, ast.Continue, ast.Return))


ITERATORS: dict[str, Callable[["FunctionParser", ast.For, ast.Call], None]] = {
    "range": _range_loop,
    "parallel": _range_loop,
    "unroll": _range_loop,
    "pipeline": _range_loop,
    "while_": _while_loop,
}


def _spmd_for(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    from .scopes import spmd_for
    spmd_for(p, node, call)


ITERATORS["spmd"] = _spmd_for


def _split_aiv_for(p: "FunctionParser", node: ast.For, call: ast.Call) -> None:
    from .scopes import split_aiv_for
    split_aiv_for(p, node, call)


ITERATORS["split_aiv"] = _split_aiv_for

STMT_HANDLERS = {ast.For: _for, ast.While: _while, ast.If: _if}
