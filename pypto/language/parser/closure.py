"""Closure lookup, Python-level evaluation and constant folding for the parser.

A decorated function sees ``{**f_globals, **f_locals}`` of the frame that applied
the decorator.  Names not bound in the DSL body resolve here; their Python
values convert to IR (ints, floats, bools, Exprs, ``pl.dynamic`` dims, lists).
"""

from __future__ import annotations

import ast
import builtins
import operator
from typing import Any, Callable, Mapping

from ...ir import expr as E
from ...ir.dtype import DataType
from ...ir.node import Expr
from ...ir.span import Span
from ..typing import DynVar
from .diagnostics import ParserTypeError, UndefinedVariableError
from .recovery import DependentError, FailedEntity

__all__ = ["Closure", "SAFE_BUILTINS", "MISSING"]

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


class Closure:
    """The Python namespace a DSL body was written in."""

    __slots__ = ("mapping", "auto_dynamic", "_code_cache")

    def __init__(self, mapping: Mapping[str, Any], auto_dynamic: bool = False) -> None:
        self.mapping = mapping
        # Text parsing (pl.parse) lets shapes use undeclared dynamic dims.
        self.auto_dynamic = auto_dynamic
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

    def evaluate(self, node: ast.expr, span: Span, *, in_shape: bool = False) -> Any:
        """Evaluate a Python expression against the closure (restricted builtins)."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            value = self.lookup(node.id)
            if value is MISSING:
                if in_shape and self.auto_dynamic and not node.id.startswith("__"):
                    return DynVar(node.id)
                raise UndefinedVariableError(f"Undefined variable '{node.id}'", span)
            return value
        if isinstance(node, ast.Attribute):
            base = self.evaluate(node.value, span, in_shape=in_shape)
            try:
                return getattr(base, node.attr)
            except AttributeError:
                raise ParserTypeError(
                    f"'{ast.unparse(node.value)}' has no attribute '{node.attr}'", span) from None
        return self._eval_general(node, span)

    def _eval_general(self, node: ast.expr, span: Span) -> Any:
        text = ast.unparse(node)
        code = self._code_cache.get(text)
        if code is None:
            try:
                code = compile(ast.Expression(body=node), "<pypto-closure>", "eval")
            except (SyntaxError, ValueError, TypeError) as exc:
                raise ParserTypeError(f"Cannot evaluate '{text}': {exc}", span) from None
            self._code_cache[text] = code
        scope = dict(self.mapping) if not isinstance(self.mapping, dict) else self.mapping
        try:
            return eval(code, {"__builtins__": SAFE_BUILTINS}, scope)  # noqa: S307
        except NameError as exc:
            name = getattr(exc, "name", None) or str(exc)
            raise UndefinedVariableError(f"Undefined variable '{name}' in '{text}'", span) from None
        except Exception as exc:  # the user's Python expression failed
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
                result = isinstance(value, (int, float)) and value is not MISSING
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
            return _BINOPS[type(node.op)](self._fold_value(node.left), self._fold_value(node.right))
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
