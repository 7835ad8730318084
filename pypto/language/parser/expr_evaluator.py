"""Evaluate Python expressions of DSL source against the namespace it was written in
(shapes, dtypes, closure constants) and turn the values into IR."""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level name of this path

import ast
from typing import TYPE_CHECKING, Any, Mapping, Optional  # noqa: F401 - PyPTO shows TYPE_CHECKING

from ...ir.expr import Var
from ...ir.node import Expr
from ...ir.scalar_types import INDEX_TYPE
from ...ir.span import Span
from ..typing import DynVar
from .closure import Closure, python_to_ir
from .diagnostics import ParserError
from ...ir.dtype import DataType  # noqa: F401  (PyPTO's module-level names)
from ..typing import Scalar  # noqa: F401
from .diagnostics import BUG_CLASS_EXCEPTIONS, ParserTypeError  # noqa: F401

__all__ = ["ExprEvaluator"]


class ExprEvaluator:
    """``closure_vars``: the names an expression may use (restricted builtins, no dunder
    access); ``span_tracker`` positions the errors.  Dynamic dims become one ``ir.Var``
    per name (``dyn_var_cache``, which a ``TypeResolver`` may share)."""

    def __init__(self, closure_vars: Mapping[str, Any], span_tracker: Any = None) -> None:
        self.closure_vars = closure_vars
        self.span_tracker = span_tracker
        self.dyn_var_cache: dict[str, Var] = {}
        self._closure = Closure(closure_vars)

    def _span(self, node: ast.AST) -> Span:
        return self.span_tracker.get_span(node) if self.span_tracker else Span.unknown()

    def eval_expr(self, node: ast.expr) -> Any:
        """The Python value of ``node``; a ``ParserError`` if it cannot be evaluated."""
        return self._closure.evaluate(node, self._span(node))

    def try_eval_expr(self, node: ast.expr) -> tuple[bool, Any]:
        """``(True, value)``, or ``(False, None)`` when ``node`` does not evaluate."""
        try:
            return True, self.eval_expr(node)
        except ParserError:
            return False, None

    def get_or_create_dynvar(self, dv: DynVar, span: Optional[Span] = None) -> Var:
        """The one ``Var(name, Scalar[INDEX])`` of the dynamic dim ``dv``."""
        var = self.dyn_var_cache.get(dv.name)
        if var is None:
            var = self.dyn_var_cache[dv.name] = Var(dv.name, INDEX_TYPE, span)
        return var

    def python_value_to_ir(self, value: Any, span: Optional[Span] = None) -> Expr:
        """An int/float/bool/DynVar/IR value (or a list of them) as IR."""
        span = span or Span.unknown()
        return python_to_ir(value, span, lambda dv: self.get_or_create_dynvar(dv, span))

    def try_eval_as_ir(self, node: ast.expr) -> Optional[Expr]:
        """``node``'s value as IR, or ``None`` when it does not evaluate to one."""
        ok, value = self.try_eval_expr(node)
        if not ok:
            return None
        try:
            return self.python_value_to_ir(value, self._span(node))
        except ParserError:
            return None
