"""Expressions: names, constants, operators, comparisons, subscripts, tuples."""

from __future__ import annotations

import ast
import enum
from typing import TYPE_CHECKING, Any, Callable

from ...ir import builders as B
from ...ir import expr as E
from ...ir import types as T
from ...ir.dtype import DataType, int_range
from ...ir.linear import simplify_difference
from ...ir.node import Expr
from .annotations import attr_chain
from .closure import MISSING, python_to_ir
from .diagnostics import (InvalidOperationError, ParserSyntaxError, ParserTypeError,
                          UndefinedVariableError, UnsupportedFeatureError)

if TYPE_CHECKING:
    from .function_parser import FunctionParser

__all__ = ["EXPR_HANDLERS", "subscript_indices", "const_from_python", "scalar_builder_call"]

_INDEX, _FP32 = DataType.INDEX, DataType.FP32

# AST operator -> scalar builder; the shaped (tensor/tile) forms map to unified ops.
_SCALAR_BINOPS = {
    ast.Add: B.add, ast.Sub: B.sub, ast.Mult: B.mul, ast.Div: B.truediv,
    ast.FloorDiv: B.floordiv, ast.Mod: B.mod, ast.Pow: B.pow, ast.LShift: B.bit_shift_left,
    ast.RShift: B.bit_shift_right, ast.BitAnd: B.bit_and, ast.BitOr: B.bit_or,
    ast.BitXor: B.bit_xor,
}
_SHAPED_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}
_COMPARES = {ast.Eq: B.eq, ast.NotEq: B.ne, ast.Lt: B.lt, ast.LtE: B.le, ast.Gt: B.gt,
             ast.GtE: B.ge}


_INDEX_LOW, _INDEX_HIGH = int_range(_INDEX)  # type: ignore[misc]


def const_from_python(p: "FunctionParser", value: Any, node: ast.AST) -> Expr:
    span = p.span(node)
    if value.__class__ is int and _INDEX_LOW <= value <= _INDEX_HIGH:
        return E.ConstInt(value, _INDEX, span)  # the common literal, already known to fit
    if isinstance(value, bool):
        return E.ConstBool(value, span)
    if isinstance(value, int):
        check_int_fits(value, _INDEX, span)
        return E.ConstInt(value, _INDEX, span)
    if isinstance(value, float):
        # inf and NaN are legitimate fill values (-inf starts a max); they print as
        # 1e999 / float("nan") and read back.
        return E.ConstFloat(value, _FP32, span)
    raise ParserTypeError(f"Unsupported constant {value!r}", span)


def check_int_fits(value: int, dtype: DataType, span: Any, what: str = "The integer") -> None:
    """Refuse a constant the dtype cannot hold (a 64-bit INDEX, an INT8, ...)."""
    lo, hi = int_range(dtype) or (value, value)
    if not lo <= value <= hi:
        shown = str(value) if value.bit_length() < 200 else \
            f"{'-' if value < 0 else ''}a {value.bit_length()}-bit number"
        raise ParserTypeError(f"{what} {shown} does not fit {dtype.to_string()} "
                              f"({lo} .. {hi})", span)


def fold_constants(p: "FunctionParser", node: ast.expr) -> tuple[bool, Any]:
    """``Closure.fold`` with its arithmetic failures as diagnostics at ``node``."""
    try:
        return p.closure.fold(node, p.is_dsl_name, p.fold_cache)
    except (ArithmeticError, ValueError) as exc:
        raise ParserTypeError(f"Cannot fold '{_short(node)}': {exc}", p.span(node)) from None


def _short(node: ast.expr) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def scalar_builder_call(p: "FunctionParser", builder: Any, args: list[Expr], node: ast.AST,
                        what: str) -> Expr:
    try:
        return builder(*args, span=p.span(node))
    except (TypeError, ValueError) as exc:
        raise ParserTypeError(f"{what}: {exc}", p.span(node)) from None


def _name(p: "FunctionParser", node: ast.Name) -> Any:
    bound = p.names.lookup(node.id)
    if bound is not None:
        # (read_name's check, needed only while some name is bound on some paths only)
        return p.read_name(node.id, node) if p.bindings.maybe else bound
    span = p.span(node)
    value = p.closure.lookup(node.id)
    if value is MISSING:
        # DSL text may use dynamic dims it never declares (a Function printed alone
        # has no `M = pl.dynamic("M")` header) once a shape annotation names them.
        if p.closure.undeclared_dim(node.id, p.program.dyn_vars):
            from ..typing import DynVar
            return p.program.dyn_var(DynVar(node.id), span)
        raise UndefinedVariableError(f"Undefined variable '{node.id}'", span)
    return python_to_ir(value, span, lambda d: p.program.dyn_var(d, span))


def _constant(p: "FunctionParser", node: ast.Constant) -> Any:
    value = node.value
    if value is None:
        from ...ir.ops import create_op_call
        return create_op_call("system.task_invalid", [], span=p.span(node))
    if isinstance(value, (bool, int, float)):
        return const_from_python(p, value, node)
    raise UnsupportedFeatureError(f"Unsupported constant {value!r} in an expression",
                                  p.span(node))


def _is_shaped(value: Any) -> bool:
    return isinstance(value, Expr) and isinstance(value.type, T.ShapedType)


def _binop(p: "FunctionParser", node: ast.BinOp) -> Expr:
    folded, value = fold_constants(p, node)
    if folded:
        return const_from_python(p, value, node)
    op_type = type(node.op)
    if op_type not in _SCALAR_BINOPS:
        raise UnsupportedFeatureError(f"Unsupported binary operator {type(node.op).__name__}",
                                      p.span(node))
    left = p.parse_expr(node.left)
    right = p.parse_expr(node.right)
    if _is_shaped(left) or _is_shaped(right):
        name = _SHAPED_BINOPS.get(op_type)
        if name is None:
            raise UnsupportedFeatureError(
                f"Unsupported binary operator {type(node.op).__name__} on tensors/tiles",
                p.span(node), hint="Tensors and tiles support + - * / ; use the pl.* ops "
                                   "for anything else")
        from .calls import call_unified
        return call_unified(p, name, [left, right], {}, node)
    return scalar_builder_call(p, _SCALAR_BINOPS[op_type], [left, right], node,
                               f"Operator {type(node.op).__name__}")


def _unaryop(p: "FunctionParser", node: ast.UnaryOp) -> Expr:
    if isinstance(node.op, (ast.USub, ast.UAdd)):
        folded, value = fold_constants(p, node)
        if folded:
            return const_from_python(p, value, node)
    operand = p.parse_expr(node.operand)
    span = p.span(node)
    if isinstance(node.op, ast.UAdd):
        return operand
    if isinstance(node.op, ast.USub):
        if isinstance(operand, E.ConstInt):  # printed negative literals round-trip
            return E.ConstInt(-operand.value, operand.dtype, span)
        if isinstance(operand, E.ConstFloat):
            return E.ConstFloat(-operand.value, operand.dtype, span)
        if _is_shaped(operand):
            from .calls import call_unified
            return call_unified(p, "neg", [operand], {}, node)
        return scalar_builder_call(p, B.neg, [operand], node, "Operator -")
    if isinstance(node.op, ast.Not):
        return scalar_builder_call(p, B.not_, [operand], node, "Operator not")
    return scalar_builder_call(p, B.bit_not, [operand], node, "Operator ~")


def _boolop(p: "FunctionParser", node: ast.BoolOp) -> Expr:
    builder = B.and_ if isinstance(node.op, ast.And) else B.or_
    word = "and" if isinstance(node.op, ast.And) else "or"
    result = p.parse_expr(node.values[0])
    for operand in node.values[1:]:
        result = scalar_builder_call(p, builder, [result, p.parse_expr(operand)], node,
                                     f"Operator {word}")
    return result


def _compare(p: "FunctionParser", node: ast.Compare) -> Expr:
    if len(node.ops) != 1:
        raise UnsupportedFeatureError("Only simple comparisons supported (a < b, not a < b < c)",
                                      p.span(node))
    builder = _COMPARES.get(type(node.ops[0]))
    if builder is None:
        raise UnsupportedFeatureError(f"Unsupported comparison operator "
                                      f"{type(node.ops[0]).__name__}", p.span(node))
    left = p.parse_expr(node.left)
    right = p.parse_expr(node.comparators[0])
    if _is_shaped(left) or _is_shaped(right):
        raise UnsupportedFeatureError("Comparison operators work on scalars only", p.span(node),
                                      hint="Use pl.cmp(lhs, rhs, cmp_type=...) for tensors/tiles")
    return scalar_builder_call(p, builder, [left, right], node, "Comparison")


def _attribute(p: "FunctionParser", node: ast.Attribute) -> Expr:
    """``pl.Mem.Vec`` and closure attributes holding numbers; nothing on DSL values."""
    chain = attr_chain(node)
    span = p.span(node)
    if chain is not None and p.names.lookup(chain[0]) is None:
        value = p.closure.lookup(chain[0])
        if value is not MISSING:
            for part in chain[1:]:
                value = p.closure.attribute(value, part, node, span)
                if value is MISSING:
                    raise UndefinedVariableError(f"'{ast.unparse(node)}' does not exist", span)
            if isinstance(value, enum.Enum):
                return E.ConstInt(int(value.value), _INDEX, span)
            if isinstance(value, (bool, int, float, Expr)):
                return python_to_ir(value, span, lambda d: p.program.dyn_var(d, span))
    raise UnsupportedFeatureError(f"Standalone attribute access not supported: "
                                  f"'{ast.unparse(node)}'", span)


def _sequence(p: "FunctionParser", node: ast.List | ast.Tuple) -> Expr:
    return E.MakeTuple([p.parse_expr(e) for e in node.elts], p.span(node))


def subscript_indices(p: "FunctionParser", node: ast.Subscript, base: Expr) -> tuple[Any, bool]:
    """For ``A[i, j]`` / ``A[i:j, k]``: the offsets (as a list) and whether a slice occurs.

    A sliced target may name fewer axes than it has (``out[:] = e`` on a rank-2 tensor):
    the axes left out start at 0, as they do when reading ``x[i:j]``."""
    items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    has_slice = any(isinstance(item, ast.Slice) for item in items)
    offsets = []
    for item in items:
        if isinstance(item, ast.Slice):
            offsets.append(p.parse_expr(item.lower) if item.lower is not None
                           else E.ConstInt(0, _INDEX, p.span(item)))
        else:
            offsets.append(p.parse_expr(item))
    rank = len(base.type.shape) if isinstance(base.type, T.ShapedType) else len(items)
    if len(items) > rank:
        raise ParserSyntaxError(f"Too many indices ({len(items)}) for a rank-{rank} value",
                                p.span(node))
    if has_slice:
        offsets.extend(E.ConstInt(0, _INDEX, p.span(node)) for _ in range(rank - len(items)))
    return offsets, has_slice


def _subscript(p: "FunctionParser", node: ast.Subscript) -> Expr:
    base = p.parse_expr(node.value)
    span = p.span(node)
    btype = base.type
    if isinstance(btype, T.TupleType):
        index = node.slice
        if not (isinstance(index, ast.Constant) and type(index.value) is int):
            folded, value = fold_constants(p, index) \
                if isinstance(index, (ast.BinOp, ast.UnaryOp, ast.Name)) else (False, None)
            if not folded or type(value) is not int:
                raise ParserSyntaxError("A tuple index must be an integer constant", span)
            position = value
        else:
            position = index.value
        if not 0 <= position < len(btype.types):
            raise ParserSyntaxError(f"Tuple index {position} out of range for a tuple of "
                                    f"{len(btype.types)} element(s)", span)
        return E.TupleGetItemExpr(base, position, span)
    if isinstance(btype, T.ShapedType):
        return _shaped_subscript(p, node, base, btype)
    raise ParserTypeError(f"'{ast.unparse(node.value)}' of type {btype} cannot be subscripted",
                          span)


def _shaped_subscript(p: "FunctionParser", node: ast.Subscript, base: Expr,
                      btype: T.ShapedType) -> Expr:
    from .calls import call_unified
    items = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    rank = len(btype.shape)
    if len(items) > rank:
        raise ParserSyntaxError(f"Too many indices ({len(items)}) for a rank-{rank} value",
                                p.span(node))
    if not any(isinstance(item, ast.Slice) for item in items):
        if len(items) != rank:
            raise ParserSyntaxError(
                f"Reading one element needs {rank} indices, got {len(items)}", p.span(node),
                hint="Use slices (a[i:j, :]) to take a sub-tensor")
        return call_unified(p, "read", [base, [p.parse_expr(i) for i in items]], {}, node)
    offsets, shape, drop = [], [], []
    for axis in range(rank):
        item = items[axis] if axis < len(items) else ast.Slice()
        if isinstance(item, ast.Slice):
            if item.step is not None:
                raise UnsupportedFeatureError("Slices with a step are not supported",
                                              p.span(node))
            lower = p.parse_expr(item.lower) if item.lower is not None else \
                E.ConstInt(0, _INDEX, p.span(node))
            upper = p.parse_expr(item.upper) if item.upper is not None else btype.shape[axis]
            offsets.append(lower)
            shape.append(_extent(p, lower, upper, node))
        else:
            offsets.append(p.parse_expr(item))
            shape.append(E.ConstInt(1, _INDEX, p.span(node)))
            drop.append(axis)
    kwargs = {"drop_dims": drop} if drop else {}
    return call_unified(p, "slice", [base, shape, offsets], kwargs, node)


def _extent(p: "FunctionParser", lower: Expr, upper: Expr, node: ast.AST) -> Expr:
    if isinstance(lower, E.ConstInt) and isinstance(upper, E.ConstInt):
        return E.ConstInt(upper.value - lower.value, _INDEX, p.span(node))
    if isinstance(lower, E.ConstInt) and lower.value == 0:
        return upper
    simple = simplify_difference(upper, lower)  # x[:, k0:k0 + 16] has the static extent 16
    if isinstance(simple, E.ConstInt):
        return E.ConstInt(simple.value, _INDEX, p.span(node))
    if simple is not None:
        return simple
    return scalar_builder_call(p, B.sub, [upper, lower], node, "Slice bound")


def _unsupported_named(kind: str) -> Callable[["FunctionParser", ast.expr], Any]:
    def handler(p: "FunctionParser", node: ast.expr) -> Any:
        raise UnsupportedFeatureError(f"Unsupported expression type: {kind}", p.span(node),
                                      hint="DSL bodies support names, constants, arithmetic, "
                                           "comparisons, calls, subscripts and list/tuple literals")
    return handler


def _starred(p: "FunctionParser", node: ast.Starred) -> Any:
    raise InvalidOperationError("Star-unpacking is not supported in DSL calls", p.span(node))


EXPR_HANDLERS = {
    ast.Name: _name,
    ast.Constant: _constant,
    ast.BinOp: _binop,
    ast.UnaryOp: _unaryop,
    ast.BoolOp: _boolop,
    ast.Compare: _compare,
    ast.Attribute: _attribute,
    ast.Subscript: _subscript,
    ast.List: _sequence,
    ast.Tuple: _sequence,
    ast.Starred: _starred,
}
