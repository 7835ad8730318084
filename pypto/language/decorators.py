"""``@pl.function``, ``@pl.program`` and ``@pl.inline``.

``@pl.function`` and ``@pl.program`` parse at decoration time and return IR
(``ir.Function`` / ``ir.Program``); errors therefore surface where the user
defined the code, rendered against their own lines.
"""

from __future__ import annotations

import ast
import inspect
import sys
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, ParamSpec, TypeVar, overload

from ..ir.enums import FunctionType, Level, Role
from ..ir.function import Function, Program
from .parser.closure import Closure
from .parser.diagnostics import ParserError, ParserSyntaxError
from .parser.program_parser import (ATTRS_DEPRECATION, frame_closure, parse_function_entity,
                                    parse_program_entity)
from .parser.recovery import record_entity_error
from .parser.source import SourceInfo

__all__ = ["function", "program", "inline", "InlineFunction"]

_OPTIONS_ATTR = "__pypto_function_options__"


def _in_class_body(frame: Any) -> bool:
    f_locals = frame.f_locals
    return "__module__" in f_locals and "__qualname__" in f_locals \
        and frame.f_code.co_name != "<module>"


def _expect_kind(target: Any, check: Callable[[Any], bool], decorator: str, what: str) -> None:
    if not check(target):
        raise TypeError(f"{decorator} decorates {what}, got {target.__class__.__name__}")


_P = ParamSpec("_P")
_R = TypeVar("_R")

if TYPE_CHECKING:
    class DSLFunction(Function, Generic[_R]):
        """What ``@pl.function`` gives to a type checker: the ``ir.Function`` it is, still
        callable in a program body (``self.kernel(x, out)``) with its declared result.
        The arguments are not checked against the DSL signature: a DSL call converts
        constants (``self.kernel(x, 2.0)`` for a ``pl.Scalar`` parameter)."""

        def __call__(self, *args: Any, **kwargs: Any) -> _R: ...
else:
    DSLFunction = Function


@overload
def function(func: Callable[_P, _R], /) -> DSLFunction[_R]: ...
@overload
def function(func: None = None, *, type: FunctionType = ..., level: Level | None = ...,
             role: Role | None = ..., attrs: dict[str, Any] | None = ...,
             auto_scope: bool = ..., strict_ssa: bool = ..., external_source: Any = ...
             ) -> Callable[[Callable[_P, _R]], DSLFunction[_R]]: ...


def function(func: Callable | None = None, *, type: FunctionType = FunctionType.Opaque,
             level: Level | None = None, role: Role | None = None,
             attrs: dict[str, Any] | None = None, auto_scope: bool = True,
             strict_ssa: bool = False, external_source: Any = None) -> Any:
    """Parse a DSL function into an ``ir.Function`` (bare or called form).

    Inside a ``@pl.program`` class body the method is returned unchanged (tagged);
    the program decorator parses it, reading the options from the source.
    """
    if func is not None and not callable(func):
        raise TypeError(f"pl.function() takes keyword arguments only, got a positional "
                        f"{func.__class__.__name__}")  # 'type' is a parameter here
    # external_source= (a kernel written outside the DSL, for code generation) is
    # rejected while parsing, where the keyword has a span.
    options = {"type": type, "level": level, "role": role, "attrs": attrs,
               "auto_scope": auto_scope, "strict_ssa": strict_ssa,
               "external_source": external_source is not None}
    caller = sys._getframe(1)
    if attrs is not None and not _in_class_body(caller):
        # In a class body the program parser warns, at the keyword, once.
        warnings.warn(ATTRS_DEPRECATION, DeprecationWarning, stacklevel=2)

    def decorate(fn: Callable) -> Any:
        _expect_kind(fn, inspect.isfunction, "pl.function", "a def")
        if _in_class_body(caller):
            setattr(fn, _OPTIONS_ATTR, options)
            return fn
        return _parsed_or_failed(fn.__name__, lambda: parse_function_entity(
            fn, options, frame_closure(caller)))

    if func is not None:
        return decorate(func)
    return decorate


# The class parameter is ``object`` for type checkers: pypto's mypy plugin gives a
# @pl.program class Program as its metaclass (docs/guide/typing.md).
@overload
def program(cls: None = None, *, strict_ssa: bool = ...) -> Callable[[object], Program]: ...
@overload
def program(cls: object, /) -> Program: ...


def program(cls: Any = None, *, strict_ssa: bool = False) -> Any:
    """Parse a class of ``@pl.function`` methods into an ``ir.Program``."""
    caller = sys._getframe(1)

    def decorate(klass: type) -> Program:
        _expect_kind(klass, inspect.isclass, "pl.program", "a class")
        return _parsed_or_failed(klass.__name__, lambda: parse_program_entity(
            klass, frame_closure(caller), strict_ssa=strict_ssa))

    if cls is not None:
        return decorate(cls)
    return decorate


def _parsed_or_failed(name: str, parse: Callable[[], Any]) -> Any:
    """The parsed entity; while a command collects errors, a failure is recorded and
    a placeholder returned, so the file goes on to its next definitions."""
    try:
        return parse()
    except ParserError as err:
        failed = record_entity_error(name, err)
        if failed is None:
            raise
        return failed


@dataclass
class InlineFunction:
    """A ``@pl.inline`` function: spliced into DSL bodies that call it by name.

    PyPTO's fields: ``func_def`` is the ``def``'s AST, whose line numbers index
    ``source_lines`` (the dedented definition); file line = AST line + ``line_offset``,
    file column = dedented column + ``col_offset``; ``closure_vars`` are the names the
    body may refer to.
    """

    name: str
    func_def: ast.FunctionDef
    param_names: list[str]
    source_file: str
    source_lines: list[str]
    line_offset: int
    col_offset: int
    closure_vars: dict[str, Any] = field(repr=False)

    @property
    def source(self) -> SourceInfo:
        """The definition's source, as the parser reads it (with the whole file's lines
        for error snippets when ``pl.inline`` made this)."""
        info = self.__dict__.get("_source")
        if info is None:
            info = SourceInfo(self.source_file, "\n".join(self.source_lines), self.line_offset,
                              self.col_offset, list(self.source_lines))
            self.__dict__["_source"] = info
        return info

    @classmethod
    def from_source(cls, name: str, func_def: ast.FunctionDef, param_names: list[str],
                    info: SourceInfo, closure_vars: dict[str, Any]) -> "InlineFunction":
        """The inline function of ``func_def`` read from ``info`` (kept for snippets)."""
        inline_fn = cls(name, func_def, param_names, info.filename, info.source.split("\n"),
                        info.line_offset, info.col_offset, closure_vars)
        inline_fn.__dict__["_source"] = info
        return inline_fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"@pl.inline function '{self.name}' can only be called from a DSL "
                           "body (@pl.function / @pl.program / @pl.jit)")


def inline(func: Callable) -> InlineFunction:
    """Mark a helper whose body is spliced (parsed in place) into DSL callers."""
    from .parser.program_parser import entity_definition, raise_with_source
    _expect_kind(func, inspect.isfunction, "pl.inline", "a def")
    caller = sys._getframe(1)
    info, node = entity_definition(func)
    try:
        if node is None:
            from .parser.program_parser import find_def
            node = find_def(info, func.__name__, ast.FunctionDef)
        params = [a.arg for a in node.args.args]
        if params and params[0] == "self":
            params = params[1:]
    except ParserSyntaxError as err:
        raise_with_source(err, info)
    closure = frame_closure(caller)
    return InlineFunction.from_source(func.__name__, node, params, info, closure)


_ = Closure, Function
