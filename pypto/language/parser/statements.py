"""Simple statements: assignments, return, expression statements, break/continue/pass."""

from __future__ import annotations

import ast
import inspect
from typing import TYPE_CHECKING, Callable, TypeGuard

from ...ir import expr as E
from ...ir import stmt as S
from ...ir import types as T
from ...ir.dtype import DataType
from ...ir.enums import ForKind, FunctionType
from ...ir.node import Expr
from ...ir.span import Span
from ...ir.type_match import return_mismatch
from .annotations import attr_chain, parse_annotation
from .context import YieldTarget
from .diagnostics import (InvalidOperationError, ParserSyntaxError, ParserTypeError,
                          SSAViolationError, UnsupportedFeatureError)

if TYPE_CHECKING:
    from .function_parser import FunctionParser

TUPLE_TMP = "_tuple_tmp"


# -- binding names --------------------------------------------------------------------

def _reconcile(p: "FunctionParser", name: str, value: Expr, annotation: T.Type | None,
               node: ast.AST) -> T.Type:
    """The type a new binding gets: the value's, refined or replaced by the annotation."""
    if annotation is None:
        return value.type
    inferred = value.type
    if inferred is annotation or inferred == annotation or isinstance(inferred, T.UnknownType):
        return annotation  # (reconcile_types' first answer, without the span it needs only
        # for a refusal)
    return reconcile_types(name, annotation, inferred, p.span(node))


def reconcile_types(name: str, annotation: T.Type, inferred: T.Type, span: Span) -> T.Type:
    """``name: annotation = <value of type inferred>``: the type the name gets, or a
    ``ParserTypeError`` when they disagree (same shape and dtype: the more informative).
    ``pl.UnknownType`` says nothing: the value's type stands, as in PyPTO."""
    if isinstance(inferred, T.UnknownType) or inferred == annotation:
        return annotation
    if isinstance(annotation, T.UnknownType):
        return inferred
    if isinstance(inferred, T.ShapedType) and isinstance(annotation, T.ShapedType) \
            and type(inferred) is type(annotation) and inferred.dtype is annotation.dtype \
            and T.TensorType([*inferred.shape], inferred.dtype) == \
            T.TensorType([*annotation.shape], annotation.dtype):
        return _more_informative(inferred, annotation)
    raise ParserTypeError(
        f"Type annotation of '{name}' ({annotation}) does not match the value's type ({inferred})",
        span)


def _more_informative(inferred: T.ShapedType, annotation: T.ShapedType) -> T.Type:
    """Same shape and dtype: keep whichever carries memory space / memref / view info."""
    def info(t: T.ShapedType) -> int:
        extra = int(t.memref is not None)
        if isinstance(t, T.TileType):
            extra += int(t.memory_space is not None) + int(t.tile_view is not None)
        elif isinstance(t, T.TensorType):
            extra += int(t.tensor_view is not None)
        return extra
    return annotation if info(annotation) >= info(inferred) else inferred


def _retype_index_const(value: Expr, annotation: T.Type | None, span: Span) -> Expr:
    """``x: pl.Scalar[pl.INT32] = 0`` types the INDEX literal as INT32 (if it fits)."""
    if (annotation is not None and isinstance(annotation, T.ScalarType)
            and isinstance(value, E.ConstInt) and value.dtype is DataType.INDEX
            and annotation.dtype.is_int() and annotation.dtype is not DataType.INDEX):
        from .expressions import check_int_fits
        check_int_fits(value.value, annotation.dtype, span)
        return E.ConstInt(value.value, annotation.dtype, value.span)
    return value


def assign_name(p: "FunctionParser", name: str, value: Expr, node: ast.AST,
                annotation: T.Type | None = None) -> E.Var:
    """``name = value``: reuse the Var already bound to ``name`` or define a new one."""
    span = p.span(node)
    if not isinstance(value, Expr):
        raise ParserTypeError(f"Cannot assign a {type(value).__name__} to '{name}'", span)
    if annotation is not None:
        value = _retype_index_const(value, annotation, span)
    existing = p.names.lookup(name)
    dim = value if isinstance(value, E.Var) and _aliases_dyn_dim(p, value, annotation) else None
    if existing is None and dim is not None:
        p.names.bind_new(name, dim, span)
        p.bindings.bound(name, False)
        return dim
    if existing is not None and p.options.strict_ssa:
        raise SSAViolationError(f"Variable '{name}' is assigned more than once (strict_ssa)",
                                span, previous_span=p.names.first_span(name),
                                hint=f"Use a new name instead of rebinding '{name}'")
    if dim is not None and isinstance(existing, E.Var) and _is_dyn_dim(p, existing):
        # ``n = M`` again where ``n`` already names a dim: no statement either, so the
        # printed program (in which the first leaves none) reads back the same.
        p.names.bind_new(name, dim, span)
        p.bindings.bound(name, True)
        return dim
    if isinstance(existing, E.Var) and not _is_dyn_dim(p, existing):
        new_type = value.type if annotation is None else \
            _reconcile(p, name, value, annotation, node)
        if not (new_type is existing.type or new_type == existing.type
                or isinstance(new_type, T.UnknownType)
                or isinstance(existing.type, T.UnknownType)):
            raise ParserTypeError(
                f"Cannot reassign '{name}' with a different type: it was {existing.type}, "
                f"the new value is {new_type}", span,
                hint=f"Use a new name for the {new_type} value")
        if not (p.loops and _rebinds_carry_in_its_body(p, existing)):
            p.emit(S.AssignStmt(existing, value, span))
            p.bindings.bound(name, True)
            return existing
        # A carried value is the iteration's input: rebinding its name at the loop body's
        # own level makes a new Var (what the trailing yield then hands on), as in PyPTO.
        var = E.Var(name, new_type, span)
    else:
        var = E.Var(name, _reconcile(p, name, value, annotation, node), span)
    frame = p.names.frame_of(name)
    if frame is not None and frame.leaky:
        frame.names[name] = var  # shadows an inline parameter inside its own body
    else:
        p.names.bind_new(name, var, span)
    p.emit(S.AssignStmt(var, value, span))
    p.bindings.bound(name, existing is not None)
    return var


def _rebinds_carry_in_its_body(p: "FunctionParser", existing: E.Var) -> bool:
    """Is ``existing`` an iter_arg of the innermost loop, rebound at that loop body's own
    level?  Inside an ``if`` branch or a nested loop the IterArg itself stays the target:
    a fresh Var there would not reach the code after the branch (PyPTO's parser drops
    such an update from the carry), while ConvertToSSA merges the IterArg's versions."""
    loop = p.loops[-1] if p.loops else None
    return (isinstance(existing, E.IterArg) and loop is not None
            and any(arg is existing for arg in loop.carried)
            and p.bindings.depth == loop.body_depth)


def _is_dyn_dim(p: "FunctionParser", var: E.Var) -> bool:
    dyn_vars = p.program.dyn_vars
    return bool(dyn_vars) and dyn_vars.get(var.name_hint) is var


def _aliases_dyn_dim(p: "FunctionParser", value: E.Var, annotation: T.Type | None) -> bool:
    """``n = M`` (``n = pl.dim(x, 0)`` folds to it) at the top of an Orchestration body
    names the dynamic dim itself: no statement, later reads of ``n`` are ``M``, as
    PyPTO's parser does (conformance 0277; OutlineIncoreScopes folds dims alike)."""
    return (p.options.func_type is FunctionType.Orchestration and _is_dyn_dim(p, value)
            and p.bindings.depth == 0 and not p.loops and not p.regions
            and (annotation is None or annotation == value.type))


def bind_tuple(p: "FunctionParser", targets: list[ast.expr], value: Expr, node: ast.AST) -> None:
    """``a, b = value``: ``_tuple_tmp = value; a = _tuple_tmp[0]; b = _tuple_tmp[1]``."""
    span = p.span(node)
    names = [_target_name(p, t) for t in targets]
    vtype = value.type
    if not isinstance(vtype, T.TupleType):
        raise ParserTypeError(f"Cannot unpack a value of type {vtype} into {len(names)} names",
                              span, hint="Only tuple-valued expressions can be unpacked")
    if len(vtype.types) != len(names):
        raise ParserTypeError(f"Cannot unpack a tuple of {len(vtype.types)} values into "
                              f"{len(names)} names", span)
    tmp = E.Var(TUPLE_TMP, vtype, span)
    p.emit(S.AssignStmt(tmp, value, span))
    for i, (name, target) in enumerate(zip(names, targets)):
        assign_name(p, name, E.TupleGetItemExpr(tmp, i, p.span(target)), target)


def _target_name(p: "FunctionParser", target: ast.expr) -> str:
    if isinstance(target, ast.Name):
        return target.id
    raise UnsupportedFeatureError(
        f"Unsupported assignment target '{ast.unparse(target)}'", p.span(target),
        hint="Assign to a name, a tuple of names, or a subscript of a tensor/tile")


# -- yields -----------------------------------------------------------------------------

def is_yield_call(node: object) -> TypeGuard[ast.Call]:
    """Any call whose callee ends in ``.yield_`` is a yield."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "yield_")


def emit_yield(p: "FunctionParser", call: ast.Call, targets: list[ast.expr] | None,
               annotation: T.Type | None, node: ast.AST) -> None:
    if call.keywords:
        raise ParserSyntaxError("pl.yield_() takes positional values only", p.span(call))
    values = [p.parse_expr(arg) for arg in call.args]
    if not p.yield_contexts:
        raise ParserSyntaxError("pl.yield_() outside a loop or if body", p.span(call),
                                hint="pl.yield_ ends the body of a pl.range(...init_values=...) "
                                     "loop, a pl.while_ loop or an if statement")
    context = p.yield_contexts[-1]
    if targets is not None:
        names = [_target_name(p, t) for t in targets]
        if len(names) != len(values):
            raise ParserSyntaxError(f"pl.yield_ yields {len(values)} value(s) into "
                                    f"{len(names)} name(s)", p.span(node))
        if context.targets or context.values:
            known = [t.name for t in context.targets]
            if known and known != names:
                raise ParserSyntaxError(
                    f"Both branches must yield into the same names ({', '.join(known)}), "
                    f"got {', '.join(names)}", p.span(node))
        if not context.targets:
            ann = [annotation if len(names) == 1 else None] * len(names)
            context.targets = [YieldTarget(n, a, p.span(t)) for n, a, t in zip(names, ann, targets)]
    context.values.append(tuple(values))
    p.emit(S.YieldStmt(values, p.span(call)))


# -- statement handlers -------------------------------------------------------------------

def _assign(p: "FunctionParser", node: ast.Assign) -> None:
    if len(node.targets) != 1:
        raise UnsupportedFeatureError("Chained assignment (a = b = ...) is not supported",
                                      p.span(node))
    target, value_node = node.targets[0], node.value
    _assign_to(p, target, value_node, node, None)


def _assign_to(p: "FunctionParser", target: ast.expr, value_node: ast.expr, node: ast.AST,
               annotation: T.Type | None) -> None:
    # The three special forms are all calls of an attribute (``x.yield_(...)``,
    # ``pl.submit(...)``): any other value skips their tests.
    func = value_node.func if value_node.__class__ is ast.Call else None
    special = func.__class__ is ast.Attribute
    if special and is_yield_call(value_node):
        targets = list(target.elts) if isinstance(target, ast.Tuple) else [target]
        emit_yield(p, value_node, targets, annotation, node)
        return
    if isinstance(target, ast.Subscript):
        _subscript_store(p, target, value_node, node)
        return
    if special and func.attr in _SUBMITS and _is_submit(value_node):  # type: ignore[union-attr]
        from .calls import parse_submit
        value = parse_submit(p, value_node)
    else:
        value = p.parse_expr(value_node)
    if isinstance(target, ast.Name):
        assign_name(p, target.id, value, node, annotation)
    elif isinstance(target, (ast.Tuple, ast.List)):
        bind_tuple(p, list(target.elts), value, node)
    else:
        _target_name(p, target)


_SUBMITS = ("submit", "spmd_submit")


def _is_submit(node: ast.expr) -> TypeGuard[ast.Call]:
    if not isinstance(node, ast.Call):
        return False
    chain = attr_chain(node.func)
    return chain is not None and chain[-1] in _SUBMITS and len(chain) == 2


def _ann_assign(p: "FunctionParser", node: ast.AnnAssign) -> None:
    if node.value is None:
        raise ParserSyntaxError("An annotated name needs a value (x: T = ...)", p.span(node))
    annotation = parse_annotation(p, node.annotation)
    _assign_to(p, node.target, node.value, node, annotation)


_AUG_TO_BINOP = {ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
                 ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor}


def _aug_assign(p: "FunctionParser", node: ast.AugAssign) -> None:
    if not isinstance(node.target, ast.Name):
        raise UnsupportedFeatureError("Augmented assignment needs a plain name target",
                                      p.span(node))
    load = ast.Name(id=node.target.id, ctx=ast.Load())
    binop = ast.BinOp(left=ast.copy_location(load, node.target), op=node.op, right=node.value)
    ast.copy_location(binop, node)
    assign_name(p, node.target.id, p.parse_expr(binop), node)


def _subscript_store(p: "FunctionParser", target: ast.Subscript, value_node: ast.expr,
                     node: ast.AST) -> None:
    """``dst[i:j, :] = src`` -> assemble; ``A[i, j] = v`` -> write (both rebind ``dst``)."""
    from .expressions import subscript_indices
    if p.options.strict_ssa:
        raise SSAViolationError("Subscript assignment rebinds its target and is not allowed "
                                "under strict_ssa", p.span(node),
                                hint="Use pl.assemble(...) / pl.write(...) with a new name")
    if not isinstance(target.value, ast.Name):
        raise UnsupportedFeatureError("Subscript assignment needs a named tensor or tile",
                                      p.span(target))
    name = target.value.id
    dst = p.read_name(name, target.value)
    if not isinstance(dst, E.Var) or not isinstance(dst.type, T.ShapedType):
        raise ParserTypeError(f"'{name}' is not a tensor or tile and cannot be assigned by "
                              "subscript", p.span(target.value))
    from .calls import call_unified
    value = p.parse_expr(value_node)
    offsets, has_slice = subscript_indices(p, target, dst)
    span = p.span(node)
    if has_slice:
        result = call_unified(p, "assemble", [dst, value, offsets], {}, node)
    else:
        result = call_unified(p, "write", [dst, offsets, value], {}, node)
    assign_name(p, name, result, node)
    del span


def _return(p: "FunctionParser", node: ast.Return) -> None:
    span = p.span(node)
    if node.value is None:
        values: list[Expr] = []
    elif isinstance(node.value, ast.Tuple):
        values = [p.parse_expr(v) for v in node.value.elts]
    else:
        values = [p.parse_expr(node.value)]
    if p.inline_stack:
        splice = p.inline_stack[-1]
        if len(p.blocks) > splice.block_depth:
            raise ParserSyntaxError(
                f"@pl.inline function '{splice.name}' may only return as the last statement "
                "of its body, not inside a loop, an if or a region", span,
                hint="The body is spliced into the caller, so a nested return could not leave "
                     "it early: compute the result and return it once, at the end")
        if splice.returned:
            raise ParserSyntaxError(f"@pl.inline function '{splice.name}' returns twice",
                                    span)
        splice.returned = True
        splice.value = values[0] if len(values) == 1 else (
            E.MakeTuple(values, span) if values else None)
        return
    region = p.outlined_region_since(0)
    if region is not None:
        raise InvalidOperationError(
            f"'return' inside {region.name} cannot leave the region: the region becomes a "
            f"function of its own, so this would return from that function, not from "
            f"'{p.func_name}'", span, hint="Assign the value inside the region and `return` "
                                           "it after the `with` block",
            note=f"the region starts at {region.span.filename}:{region.span.begin_line}")
    if p.return_types is not None:
        reason = return_mismatch(values, p.return_types)
        if reason is not None:
            declared = ", ".join(str(t) for t in p.return_types) or "no value"
            raise ParserTypeError(
                f"Return value does not match the declared return type of "
                f"'{p.func_name}': {reason}", span,
                hint=f"'{p.func_name}' is declared to return {declared}")
    p.emit(S.ReturnStmt(values, span))


def _expr_stmt(p: "FunctionParser", node: ast.Expr) -> None:
    value = node.value
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        p.add_pending_comments(inspect.cleandoc(value.value).splitlines() or [""])
        return
    if is_yield_call(value):
        context = p.yield_contexts[-1] if p.yield_contexts else None
        if context is not None and context.kind != "if" and context.explicit:
            raise ParserSyntaxError(
                "A loop with init_values requires an assignment-form pl.yield_ "
                "(e.g. `acc_out = pl.yield_(acc)`)", p.span(value))
        emit_yield(p, value, None, None, node)
        return
    if isinstance(value, ast.Call):
        from .directives import STATEMENT_DIRECTIVES, directive_name
        directive = directive_name(value)
        if directive is not None:
            STATEMENT_DIRECTIVES[directive](p, value)
            return
    saved, p.void_call = p.void_call, value if isinstance(value, ast.Call) else None
    try:
        expr = p.parse_expr(value)
    finally:
        p.void_call = saved
    if expr is None:  # a spliced @pl.inline call without a value
        return
    p.emit(S.EvalStmt(expr, p.span(node)))


def _loop_control(kind: str) -> Callable[["FunctionParser", ast.stmt], None]:
    def handler(p: "FunctionParser", node: ast.stmt) -> None:
        loop = p.innermost_loop()
        span = p.span(node)
        if loop is None:
            raise InvalidOperationError(f"'{kind}' outside loop", span)
        region = p.outlined_region_since(loop.region_depth)
        if region is not None:
            raise InvalidOperationError(
                f"'{kind}' inside {region.name} cannot leave the region: the region becomes "
                f"a function of its own, and the loop at line {loop.span.begin_line} is not "
                "in it", span,
                hint=f"Test the condition in the loop itself, before or after the `with` "
                     f"block, and '{kind}' there",
                note=f"the region starts at {region.span.filename}:{region.span.begin_line}")
        if loop.kind in (ForKind.Parallel, ForKind.Unroll):
            loop_name = "pl.parallel" if loop.kind is ForKind.Parallel else "pl.unroll"
            raise InvalidOperationError(f"'{kind}' is not allowed inside a {loop_name} loop",
                                        span, hint=f"Only pl.range, pl.pipeline and while loops "
                                                   f"support '{kind}'")
        loop.jumps = True
        p.emit(S.BreakStmt(span) if kind == "break" else S.ContinueStmt(span))
    return handler


def _pass(p: "FunctionParser", node: ast.Pass) -> None:
    return None


STMT_HANDLERS = {
    ast.Assign: _assign,
    ast.AnnAssign: _ann_assign,
    ast.AugAssign: _aug_assign,
    ast.Return: _return,
    ast.Expr: _expr_stmt,
    ast.Break: _loop_control("break"),
    ast.Continue: _loop_control("continue"),
    ast.Pass: _pass,
}

__all__ = ["STMT_HANDLERS", "assign_name", "bind_tuple", "emit_yield", "is_yield_call",
           "TUPLE_TMP", "Span"]
