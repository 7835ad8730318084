"""Resolve DSL type annotations (``pl.Tensor[[64, M], pl.FP32]``, ``pl.InOut[...]``,
``pl.FP32``, ``pl.NZ``, ``pl.MemRef(...)``) to IR types outside a function parse.

The parser's own annotation reader (``annotations.py``) needs a little of the
function parser's state -- the closure, spans, the names bound so far, the dynamic
dims of the program; ``TypeResolver`` supplies them from its arguments.
"""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level name of this path

import ast
from typing import TYPE_CHECKING, Any, Callable, Optional  # noqa: F401 - PyPTO shows TYPE_CHECKING

from ...ir import types as T
from ...ir.array_types import PtrType
from ...ir.expr import Var
from ...ir.dtype import DataType
from ...ir.enums import ParamDirection, TensorLayout
from ...ir.span import Span
# (``from . import annotations`` would read to mypy as the ``__future__`` feature)
from .annotations import _enum_slot, parse_annotation, parse_dtype, parse_param_annotation
from .diagnostics import ParserTypeError
from .expr_evaluator import ExprEvaluator
from .statements import reconcile_types
from ..typing import DynVar, Scalar  # noqa: F401  (PyPTO's module-level names)
from .diagnostics import ParserError  # noqa: F401

__all__ = ["TypeResolver"]


class _Names:
    """The DSL names an annotation may refer to (scalars bound in the body)."""

    def __init__(self, lookup: Optional[Callable[[str], Any]]) -> None:
        self._lookup = lookup

    def lookup(self, name: str) -> Any:
        return None if self._lookup is None else self._lookup(name)


class _Program:
    def __init__(self, evaluator: ExprEvaluator) -> None:
        self._evaluator = evaluator
        self._base_ptrs: dict[str, Var] = {}

    def dyn_var(self, dyn: Any, span: Optional[Span] = None) -> Any:
        return self._evaluator.get_or_create_dynvar(dyn, span)

    def interned_base_ptr(self, name: str, span: Optional[Span] = None) -> Var:
        var = self._base_ptrs.get(name)
        if var is None:
            var = self._base_ptrs[name] = Var(name, PtrType.get(), span)
        return var


class TypeResolver:
    """``expr_evaluator`` evaluates closure values (shapes, dtypes); ``scope_lookup(name)``
    gives a name bound in the DSL body (``None``: unbound); ``span_tracker`` positions
    errors; ``dyn_var_cache`` shares the dynamic dims' variables; ``parse_expression(node)``
    parses a dim that is a DSL expression (``N + 1`` over a body scalar)."""

    def __init__(self, expr_evaluator: ExprEvaluator, scope_lookup: Any = None,
                 span_tracker: Any = None, dyn_var_cache: Optional[dict] = None,
                 parse_expression: Any = None) -> None:
        self.expr_evaluator = expr_evaluator
        if dyn_var_cache is not None:
            expr_evaluator.dyn_var_cache = dyn_var_cache
        self._span_tracker = span_tracker or expr_evaluator.span_tracker
        self._parse_expression = parse_expression
        # what annotations.py reads off a FunctionParser
        self.closure = expr_evaluator._closure
        self.names = _Names(scope_lookup)
        self.program = _Program(expr_evaluator)

    # -- the FunctionParser protocol of annotations.py ------------------------------------
    def span(self, node: ast.AST) -> Span:
        return self._span_tracker.get_span(node) if self._span_tracker else Span.unknown()

    def read_name(self, name: str, node: ast.AST) -> Any:
        return self.names.lookup(name)

    def parse_expr(self, node: ast.expr) -> Any:
        if self._parse_expression is not None:
            return self._parse_expression(node)
        return self.expr_evaluator.python_value_to_ir(self.expr_evaluator.eval_expr(node),
                                                      self.span(node))

    # -- PyPTO's API ---------------------------------------------------------------------
    def resolve_type(self, type_node: ast.expr) -> T.Type:
        """A value annotation (``pl.Tensor[...]``, ``pl.Tile[...]``, ``pl.Scalar[...]``,
        ``pl.Tuple[...]``) as an IR type."""
        return parse_annotation(self, type_node)

    def resolve_param_type(self, type_node: ast.expr) -> tuple[T.Type, ParamDirection]:
        """A parameter annotation: its type and direction (``pl.InOut[...]`` ...)."""
        return parse_param_annotation(self, type_node)

    def resolve_dtype(self, dtype_node: ast.expr) -> DataType:
        return parse_dtype(self, dtype_node)

    def resolve_layout(self, layout_node: ast.expr, dn_allowed: bool = True) -> TensorLayout:
        value = self.closure.evaluate(layout_node, self.span(layout_node))
        if not isinstance(value, TensorLayout):
            raise ParserTypeError(f"Expected a tensor layout such as pl.NZ, got "
                                  f"'{ast.unparse(layout_node)}'", self.span(layout_node))
        if value is TensorLayout.DN and not dn_allowed:
            raise ParserTypeError("pl.DN is not a tensor layout here", self.span(layout_node))
        return value

    def interned_base_ptr(self, name: str) -> Var:
        """The one ``pl.Ptr`` variable of this resolver for a memref base named in a string
        (``pl.MemRef("mem_ddr_0", ...)``): every annotation naming it shares the buffer."""
        return self.program.interned_base_ptr(name)

    def resolve_memref(self, node: ast.expr) -> T.MemRef:
        value = _enum_slot(self, node)
        if not isinstance(value, T.MemRef):
            raise ParserTypeError(f"Expected pl.MemRef(...), got '{ast.unparse(node)}'",
                                  self.span(node))
        return value

    def validate_annotation_consistency(self, annotation_type: T.Type, inferred_type: T.Type,
                                        var_name: str, span: Span) -> T.Type:
        """``var_name: annotation_type = <value of inferred_type>``: the type the name
        gets; a ``ParserTypeError`` at ``span`` when they disagree."""
        return reconcile_types(var_name, annotation_type, inferred_type, span)
