"""``pl.parse`` / ``pl.loads``: DSL text (e.g. printed IR) back to ``ir.Function`` /
``ir.Program``.

Text parsing runs the very same decorator code as source parsing: the text is
executed in a throw-away module with ``pl`` injected, the decorators parse the
definitions it contains, and the single Function/Program found is returned.
"""

from __future__ import annotations

import __future__
import ast
import itertools
import sys
import types
import warnings
from typing import Any

from ...errors import InternalError
from ...ir._deep import deep_recursion
from ...ir.function import Function, Program
from ...ir.span import Span
from .diagnostics import DSLSyntaxError, ParserError, ParserSyntaxError
from .enum_args import ENUM_KEYWORDS, read_enum
from .program_parser import _is_function_decorator, text_mode
from .source import (SourceInfo, forget_module_ast, iter_definitions, registered_source,
                     seed_module_ast)

__all__ = ["parse", "loads", "parse_program", "loads_program"]

_module_ids = itertools.count()
# Annotations stay unevaluated: the parser reads them from the AST anyway, and
# evaluating them would fail on undeclared dynamic dims.
_COMPILE_FLAGS = __future__.annotations.compiler_flag


def _prevalidate(tree: ast.Module, info: SourceInfo) -> None:
    """Check ``@pl.function(type=/level=/role=)`` before executing, column-accurately."""
    for node in iter_definitions(tree):
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call) and _is_function_decorator(deco):
                for kw in deco.keywords:
                    if kw.arg in ENUM_KEYWORDS:
                        enum_cls, dsl = ENUM_KEYWORDS[kw.arg]
                        read_enum(kw.value, enum_cls, info.span, dsl)


def parse(code: str, filename: str = "<string>", source_map: Any = None) -> Function | Program:
    """Parse DSL text; return the single ``ir.Function`` or ``ir.Program`` it defines."""
    if not isinstance(code, str):
        raise TypeError(f"pl.parse expects the program text as str, got {type(code).__name__}")
    info = SourceInfo.from_text(code, filename)
    with registered_source(code, filename):
        try:
            with deep_recursion():  # long operator chains make deep (but valid) ASTs
                tree = ast.parse(code, filename)
                compiled = compile(tree, filename, "exec", flags=_COMPILE_FLAGS,
                                   dont_inherit=True)
        except SyntaxError as exc:
            raise DSLSyntaxError(f"Failed to compile code from {filename}: {exc.msg}",
                                 Span(filename, exc.lineno or 1, exc.offset or 0),
                                 source_lines=info.file_lines) from None
        try:
            _prevalidate(tree, info)
        except ParserError as err:
            err.with_source_lines(info.file_lines)
            raise
        seed_module_ast(filename, tree)  # the decorators reuse this parse
        try:
            namespace = _run(compiled, filename, info, source_map)
        finally:
            forget_module_ast(filename)
    return _single_result(namespace, filename)


def _run(compiled: Any, filename: str, info: SourceInfo, source_map: Any) -> dict[str, Any]:
    from ... import language as pl
    module_name = f"_pypto_text_{next(_module_ids)}"
    module = types.ModuleType(module_name)
    module.__file__ = filename
    namespace = module.__dict__
    namespace["pl"] = pl
    sys.modules[module_name] = module
    try:
        with text_mode(source_map):
            exec(compiled, namespace)  # noqa: S102 - the text is the user's program
    except (ParserError, InternalError, AssertionError):
        raise  # parser errors are already located; bugs must stay loud (§14.2)
    except Exception as exc:
        line = _line_in(exc, filename)
        if line is None:
            raise RuntimeError(f"pl.parse: executing {filename} failed: "
                               f"{type(exc).__name__}: {exc}") from exc
        err = ParserSyntaxError(f"{type(exc).__name__}: {exc}", Span(filename, line, 1))
        err.with_source_lines(info.file_lines)
        raise err from exc
    finally:
        sys.modules.pop(module_name, None)
    return namespace


def _line_in(exc: BaseException, filename: str) -> int | None:
    """The innermost traceback line that belongs to ``filename``."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _single_result(namespace: dict[str, Any], filename: str) -> Function | Program:
    found = [v for k, v in namespace.items()
             if not k.startswith("__") and isinstance(v, (Function, Program))]
    unique = list({id(v): v for v in found}.values())
    if not unique:
        raise ValueError(f"No @pl.function or @pl.program found in {filename}")
    if len(unique) > 1:
        names = ", ".join(getattr(v, "name", "?") for v in unique)
        raise ValueError(f"Multiple functions/programs found in {filename}: {names}")
    return unique[0]


def loads(path: str) -> Function | Program:
    """Read a DSL file and parse it (``pl.parse(text, filename=path)``)."""
    with open(path, encoding="utf-8") as handle:
        return parse(handle.read(), filename=str(path))


def parse_program(code: str, filename: str = "<string>") -> Program:
    """Deprecated: ``pl.parse`` that insists on a Program."""
    warnings.warn("pl.parse_program is deprecated; use pl.parse", DeprecationWarning,
                  stacklevel=2)
    result = parse(code, filename)
    if not isinstance(result, Program):
        raise ValueError(f"Expected a @pl.program in {filename}, found a function")
    return result


def loads_program(path: str) -> Program:
    """Deprecated: ``pl.loads`` that insists on a Program."""
    warnings.warn("pl.loads_program is deprecated; use pl.loads", DeprecationWarning,
                  stacklevel=2)
    result = loads(path)
    if not isinstance(result, Program):
        raise ValueError(f"Expected a @pl.program in {path}, found a function")
    return result
