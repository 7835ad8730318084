"""PyPTO's ``pypto.language.parser.decorator`` path: ``@pl.function``, ``@pl.program``,
``@pl.inline`` (defined in ``pypto.language.decorators``)."""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level names of this path
from ...compile_profiling import CompileProfiler, get_active_profiler  # noqa: F401
from .ast_parser import ASTParser  # noqa: F401

from ..decorators import InlineFunction, function, inline, program
from .diagnostics import BUG_CLASS_EXCEPTIONS, ParserError, ParserSyntaxError
from .diagnostics import concise_error_message
from .enum_utils import (FUNCTION_TYPE_MAP, LEVEL_MAP, ROLE_MAP, SPLIT_MODE_MAP,
                         extract_enum_value)
from .comment_extractor import extract_line_comments
from .source_lookup import get_class_source_lines

__all__ = ["InlineFunction", "function", "inline", "program"]

AUTO_SCOPE_ATTR = "auto_scope"
EXTERNAL_SOURCE_ATTR = "external_source"
