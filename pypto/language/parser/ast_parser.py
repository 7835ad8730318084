"""PyPTO's ``ASTParser`` entry: parse one ``def`` of DSL source into an ``ir.Function``
(the parser proper is ``function_parser.FunctionParser`` and its handler modules)."""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level names of this path
from ...ir import op as ir_op  # noqa: F401
from ...ir.builder import IRBuilder  # noqa: F401
from ...ir.printer import python_print  # noqa: F401

import ast
from typing import Any, Optional, Sequence

from ...ir.enums import FunctionType
from ...ir.function import Function
from .ast_entries import ASTParserEntries
from .closure import Closure
from .context import ProgramContext
from .function_parser import FunctionOptions, FunctionParser
from .source import SourceInfo
# PyPTO's module-level names of this path (the pieces an ASTParser works with)
from ...ir.dtype import DataType  # noqa: E402,F401
from ..optimizations import SPLIT_SLOT_NUM_DEPRECATION  # noqa: F401
from ..typing import DynVar  # noqa: F401
from .diagnostics import (BUG_CLASS_EXCEPTIONS, InvalidOperationError, ParserError,  # noqa: F401
                          ParserSyntaxError, ParserTypeError, UndefinedVariableError,
                          UnsupportedFeatureError, concise_error_message)
from .enum_utils import (LEVEL_MAP, ROLE_MAP, SCOPE_MODE_MAP, SPLIT_MODE_MAP,  # noqa: F401
                         extract_enum_value)
from .expr_evaluator import ExprEvaluator  # noqa: F401
from .scope_manager import ScopeManager  # noqa: F401
from .span_tracker import SpanTracker  # noqa: F401
from .type_resolver import TypeResolver  # noqa: F401
from ._dsl_invoker import invoke_dsl, use_parser_span  # noqa: F401
from typing import TYPE_CHECKING  # noqa: F401

__all__ = ["ASTParser"]

from ..._function_attrs import AUTO_SCOPE_ATTR, EXTERNAL_SOURCE_ATTR  # noqa: E402,F401


class ASTParser(ASTParserEntries):
    """Parses ``def``s whose AST line numbers index ``source_lines`` (file line = AST line
    + ``line_offset``; column + ``col_offset``), resolving names in ``closure_vars``.

    ``global_vars`` / ``gvar_to_func``: the program's ``GlobalVar``s by name and the
    functions parsed so far, so ``self.f(...)`` calls resolve; ``dyn_var_cache`` shares
    the dynamic dims' variables between parsers.  ``buffer_name_meta``,
    ``pending_comments`` and ``alloc_window_buffer_names`` are accepted for PyPTO's
    signature; pypto's parser tracks those itself.

    ``parse_statement``, ``parse_expression``, ``parse_call`` ... parse one AST node in
    a statement session of their own (``ast_entries.py``).
    """

    def __init__(self, source_file: str, source_lines: Sequence[str], line_offset: int = 0,
                 col_offset: int = 0, global_vars: Optional[dict] = None,
                 gvar_to_func: Optional[dict] = None, strict_ssa: bool = False,
                 closure_vars: Optional[dict] = None, buffer_name_meta: Any = None,
                 dyn_var_cache: Optional[dict] = None, pending_comments: Any = None,
                 alloc_window_buffer_names: Any = None) -> None:
        lines = [line.rstrip("\r\n") for line in source_lines]
        self.info = SourceInfo(source_file, "\n".join(lines), line_offset, col_offset, lines)
        self.strict_ssa = strict_ssa
        self.closure_vars = dict(closure_vars or {})
        self.context = ProgramContext(name="")
        if global_vars:
            self.context.global_vars.update(global_vars)
            self.context.in_program = True
        if gvar_to_func:
            for gvar, func in gvar_to_func.items():
                self.context.functions[getattr(gvar, "name", gvar)] = func
        if dyn_var_cache is not None:
            self.context.dyn_vars = dyn_var_cache

    def parse_function(self, func_def: ast.FunctionDef,
                       func_type: FunctionType = FunctionType.Opaque, func_level: Any = None,
                       func_role: Any = None, func_attrs: Optional[dict] = None,
                       inline_body: Any = None,
                       requires_runtime_binding: bool = False) -> Function:
        """``func_def`` as an ``ir.Function`` with these decorator options (a
        ``ParserError`` for what the DSL does not allow).  ``inline_body`` and
        ``requires_runtime_binding`` are PyPTO's; pypto splices ``@pl.inline`` bodies at
        their call sites and has no runtime binding step, so they must keep their
        defaults."""
        if inline_body is not None or requires_runtime_binding:
            raise ValueError("ASTParser.parse_function: inline_body= and "
                             "requires_runtime_binding= have no pypto meaning")
        options = FunctionOptions(func_type=func_type, level=func_level, role=func_role,
                                  attrs=dict(func_attrs or {}), strict_ssa=self.strict_ssa)
        if not self.context.name:
            self.context.name = func_def.name
        parser = FunctionParser(self.info, Closure(self.closure_vars), self.context, options)
        function = parser.parse_function(func_def)
        self.context.functions[func_def.name] = function
        return function
