"""Closure lookup, Python-level evaluation and constant folding for the parser.

A decorated function sees ``{**f_globals, **f_locals}`` of the frame that applied
the decorator.  Names not bound in the DSL body resolve here; their Python
values convert to IR (ints, floats, bools, Exprs, ``pl.dynamic`` dims, lists).

That namespace is the user's own module, so expressions are evaluated in it (with
restricted builtins) -- but never through a dunder attribute or name, the usual way
out of a restricted ``eval``.  DSL text (``pl.parse``) gets ``TextClosure``
(``text_namespace.py``) instead, which evaluates nothing.
"""

from __future__ import annotations

import ast
import builtins
import operator
from typing import Any, Callable, Mapping, cast

from . import pyast
from ...ir import expr as E
from ...ir.dtype import DataType, int_range
from ...ir.node import Expr
from ...ir.span import Span
from ..typing import DynVar
from ._defects import raise_if_pypto_defect
from .diagnostics import ParserSyntaxError, ParserTypeError, UndefinedVariableError
from .recovery import DependentError, FailedEntity

__all__ = ["Closure", "SAFE_BUILTINS", "MISSING", "MAX_CONSTANT_BITS", "fold_binop",
           "is_dunder"]

SAFE_BUILTINS: dict[str, Any] = {
    name: getattr(builtins, name)
    for name in ("len", "max", "min", "abs", "sum", "round", "int", "float", "bool", "list",
                 "tuple", "range", "isinstance", "type")
}
SAFE_BUILTINS.update({"True": True, "False": False, "None": None})


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitAnd: operator.and_, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
# Folding ``9 ** 9 ** 9`` would hang the parser and exhaust memory; no dtype holds
# more than 64 bits, so an integer constant past this many bits is refused instead.
MAX_CONSTANT_BITS = 4096
_INDEX_RANGE = cast("tuple[int, int]", int_range(DataType.INDEX))  # INDEX is an integer dtype


def fold_binop(op: type, left: Any, right: Any) -> Any:
    """``left <op> right`` on Python numbers, refusing integer results past
    ``MAX_CONSTANT_BITS`` before computing them (``OverflowError``)."""
    if type(left) is int and type(right) is int and _too_large(op, left, right):
        raise OverflowError(f"integer constant larger than {MAX_CONSTANT_BITS} bits")
    result = _BINOPS[op](left, right)
    if type(result) is int and result.bit_length() > MAX_CONSTANT_BITS:
        raise OverflowError(f"integer constant larger than {MAX_CONSTANT_BITS} bits")
    return result


def _too_large(op: type, left: int, right: int) -> bool:
    """Would the result certainly need more than ``MAX_CONSTANT_BITS`` bits?"""
    if op is ast.Pow:
        return right > 0 and abs(left) > 1 and right * (left.bit_length() - 1) >= MAX_CONSTANT_BITS
    if op is ast.LShift:
        return left != 0 and right + left.bit_length() > MAX_CONSTANT_BITS
    if op is ast.Mult:
        return left.bit_length() + right.bit_length() > MAX_CONSTANT_BITS + 1
    return False


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _first_dunder(node: ast.AST) -> ast.AST | None:
    """The first ``x.__attr__`` or ``__name__`` inside ``node``, if any."""
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Attribute) and is_dunder(sub.attr)) \
                or (isinstance(sub, ast.Name) and is_dunder(sub.id)):
            return sub
    return None


def refuse_dunder(node: ast.AST, span: Span) -> None:
    raise ParserSyntaxError(f"'{ast.unparse(node)}': dunder names and attributes are not "
                            "allowed in DSL expressions", span,
                            hint="Name the value you need in your module and use that name")


class Closure:
    """The Python namespace a DSL body was written in (the decorator path)."""

    __slots__ = ("mapping", "_code_cache")

    def __init__(self, mapping: Mapping[str, Any]) -> None:
        self.mapping = mapping
        self._code_cache: dict[str, Any] = {}

    def lookup(self, name: str) -> Any:
        """The closure value of ``name``, or ``MISSING``."""
        try:
            value = self.mapping[name]
        except KeyError:
            return SAFE_BUILTINS.get(name, MISSING)
        if value.__class__ is FailedEntity:  # a definition that failed to parse
            raise DependentError(f"'{name}' failed to parse (see its error)")
        return value

    def with_inline(self, inline_closure: Mapping[str, Any]) -> "Closure":
        """The closure an ``@pl.inline`` body is parsed in: its own names, the caller's
        winning on a clash."""
        merged = dict(inline_closure)
        merged.update(self.mapping)
        return Closure(merged)

    def undeclared_dim(self, name: str, known: Mapping[str, Any]) -> bool:
        """May the unbound name ``name`` stand for a dynamic dim?  Not in Python source:
        there a dim is a ``pl.dynamic`` value of the closure (``known``: the dims made
        so far)."""
        return False

    def attribute(self, base: Any, name: str, node: ast.AST, span: Span) -> Any:
        """``base.name`` for the parser (``MISSING`` when absent); dunders refused."""
        if is_dunder(name):
            refuse_dunder(node, span)
        return getattr(base, name, MISSING)

    def evaluate(self, node: ast.expr, span: Span, *, in_shape: bool = False) -> Any:
        """Evaluate a Python expression against the closure (restricted builtins).

        ``in_shape``: the expression is a shape or dim, where DSL text lets an unbound
        name be an undeclared dynamic dim; in Python source it is an error like anywhere.
        """
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if is_dunder(node.id):
                refuse_dunder(node, span)
            value = self.lookup(node.id)
            if value is MISSING:
                raise UndefinedVariableError(f"Undefined variable '{node.id}'", span)
            return value
        if isinstance(node, ast.Attribute):
            base = self.evaluate(node.value, span)
            value = self.attribute(base, node.attr, node, span)
            if value is MISSING:
                raise ParserTypeError(
                    f"'{ast.unparse(node.value)}' has no attribute '{node.attr}'", span)
            return value
        return self._eval_general(node, span)

    def _eval_general(self, node: ast.expr, span: Span) -> Any:
        text = ast.unparse(node)
        code = self._code_cache.get(text)
        if code is None:
            dunder = _first_dunder(node)
            if dunder is not None:
                refuse_dunder(dunder, span)
            try:
                code = pyast.compile_tree(ast.Expression(body=node), "<pypto-closure>", "eval")
            except (SyntaxError, ValueError, TypeError) as exc:
                raise ParserTypeError(f"Cannot evaluate '{text}': {exc}", span) from None
            self._code_cache[text] = code
        scope = dict(self.mapping) if not isinstance(self.mapping, dict) else self.mapping
        try:
            return eval(code, {"__builtins__": SAFE_BUILTINS}, scope)  # noqa: S307
        except NameError as exc:
            raise_if_pypto_defect(exc, span, f"'{text}'")
            name = getattr(exc, "name", None) or str(exc)
            raise UndefinedVariableError(f"Undefined variable '{name}' in '{text}'", span) from None
        except Exception as exc:  # the user's Python expression failed
            raise_if_pypto_defect(exc, span, f"'{text}'")
            raise ParserTypeError(f"Cannot evaluate '{text}': {type(exc).__name__}: {exc}",
                                  span) from None

    # -- constant folding ------------------------------------------------------------
    def fold(self, node: ast.expr, is_dsl_name: Callable[[str], bool],
             cache: dict[int, bool]) -> tuple[bool, Any]:
        """Fold a BinOp/UnaryOp tree of constants and closure names (no DSL names).

        ``not`` and ``~`` are never folded, nor are comparisons.  ``cache`` memoises
        foldability per AST node, so nested operators are checked once each.
        """
        if not self._foldable(node, is_dsl_name, cache):
            return False, None
        return True, self._fold_value(node)

    def _foldable(self, node: ast.expr, is_dsl_name: Callable[[str], bool],
                  cache: dict[int, bool]) -> bool:
        key = id(node)
        found = cache.get(key)
        if found is not None:
            return found
        if isinstance(node, ast.Constant):
            result = isinstance(node.value, (int, float))
        elif isinstance(node, ast.Name):
            if is_dsl_name(node.id):
                result = False
            else:
                value = self.lookup(node.id)
                result = isinstance(value, (int, float))  # (so not MISSING)
        elif isinstance(node, ast.BinOp):
            result = (type(node.op) in _BINOPS and self._foldable(node.left, is_dsl_name, cache)
                      and self._foldable(node.right, is_dsl_name, cache))
        elif isinstance(node, ast.UnaryOp):
            result = (isinstance(node.op, (ast.USub, ast.UAdd))
                      and self._foldable(node.operand, is_dsl_name, cache))
        else:
            result = False
        cache[key] = result
        return result

    def _fold_value(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.BinOp):
            return fold_binop(type(node.op), self._fold_value(node.left),
                              self._fold_value(node.right))
        assert isinstance(node, ast.UnaryOp)
        value = self._fold_value(node.operand)
        return -value if isinstance(node.op, ast.USub) else +value


def python_to_ir(value: Any, span: Span, dyn_var: Callable[[DynVar], E.Var],
                 what: str = "closure variable") -> Expr:
    """Convert a closure value to IR (bool, int, float, Expr, DynVar, list/tuple)."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return E.ConstBool(value, span)
    if isinstance(value, int):
        lo, hi = _INDEX_RANGE
        if not lo <= value <= hi:
            raise ParserTypeError(f"The {what} is an integer that does not fit index "
                                  f"({lo} .. {hi})", span)
        return E.ConstInt(value, DataType.INDEX, span)
    if isinstance(value, float):
        return E.ConstFloat(value, DataType.FP32, span)
    if isinstance(value, DynVar):
        return dyn_var(value)
    if isinstance(value, (list, tuple)):
        return E.MakeTuple([python_to_ir(v, span, dyn_var, what) for v in value], span)
    raise ParserTypeError(f"Unsupported {what} type: {type(value).__name__}", span,
                          hint="Only int, float, bool, pl.dynamic(...) dims, IR expressions "
                               "and lists of them can be used inside a DSL body")
