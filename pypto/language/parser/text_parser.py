"""``pl.parse`` / ``pl.loads``: DSL text (e.g. printed IR) back to ``ir.Function`` /
``ir.Program``.

DSL text is data -- printed programs are sent around and kept in files -- so it is
never executed.  Its syntax tree is read statement by statement: imports of the DSL's
own modules, module-level constants (literals, arithmetic on them, DSL enum members,
``pl.dynamic`` dims), and ``@pl.function`` / ``@pl.program`` definitions, which go to
the same definition parsers the decorators use, with a ``TextClosure`` as their
namespace (``text_namespace.py``).  Anything else is refused at its line.
"""

from __future__ import annotations

from ... import ir  # noqa: F401 - PyPTO's module-level name of this path

import ast
import warnings
from typing import Any, Callable, cast

from . import pyast
from ...ir.function import Function, Program
from ...ir.span import Span
from .annotations import attr_chain
from .diagnostics import DSLSyntaxError, ParserError, ParserSyntaxError
from .enum_args import read_bool
from .nesting import too_deep_for_python
from .program_parser import (options_from_ast, parse_function_definition,
                             parse_program_definition, record_error)
from .recovery import FailedEntity, collected_error, stored_names
from .source import SourceInfo
from .text_chunks import CHUNK_MIN_CHARS, CannotSplit, split_text
from ..typing import AnnotationRecord
from .text_namespace import (DSL_MODULES, TextClosure, annotation_names, dsl_module,
                             is_constant_value, not_allowed)
# PyPTO's module-level names of this path
from .diagnostics import BUG_CLASS_EXCEPTIONS  # noqa: E402,F401
from .enum_utils import FUNCTION_TYPE_MAP, LEVEL_MAP, ROLE_MAP  # noqa: E402,F401
from .span_tracker import ast_column_to_span_column  # noqa: E402,F401

__all__ = ["parse", "loads", "parse_program", "loads_program"]

_IMPORT_HINT = ("DSL text may import pypto.language (as pl), pypto.language.distributed "
                "(as pld) and pypto.ir (as ir)")


def parse(code: str, filename: str = "<string>", source_map: Any = None) -> Function | Program:
    """Parse DSL text; return the single ``ir.Function`` or ``ir.Program`` it defines.

    ``source_map`` (``@pl.jit``) maps positions in ``code`` back to the user's files.
    """
    return parse_text(code, filename, source_map)


def parse_text(code: str, filename: str = "<string>", source_map: Any = None,
               chunk_min_chars: int = CHUNK_MIN_CHARS) -> Function | Program:
    """``parse``; text of ``chunk_min_chars`` or more is read a definition at a time
    (``text_chunks``: the whole syntax tree of long text never exists at once)."""
    if not isinstance(code, str):
        raise TypeError(f"pl.parse expects the program text as str, got {type(code).__name__}")
    info = SourceInfo.from_text(code, filename)
    chunked = split_text(code, info, chunk_min_chars) if source_map is None else None
    if chunked is not None:
        reader = _TextReader(info, _whole_text_needed)
        reader.method_bodies = chunked.bodies
        try:
            for stmt, stmt_info in chunked.statements:
                reader.info = stmt_info
                reader.statement(stmt)
                if reader.errors:
                    raise _WholeTextNeeded()
        except (_WholeTextNeeded, CannotSplit):
            # An error in the text, a name only the whole tree knows, or a method body
            # that does not parse alone: the whole-text reading below decides.  Nothing
            # else is caught, so a defect of the chunked reading is never hidden by it.
            pass
        else:
            return reader.single_result()
        del chunked, reader
    try:
        tree = pyast.parse(code, filename)
    except RecursionError:  # Python's parser ran out of stack: never raise the limit
        raise too_deep_for_python(code, filename, info.file_lines) from None
    except SyntaxError as exc:
        raise DSLSyntaxError(f"Failed to compile code from {filename}: {exc.msg}",
                             Span(filename, exc.lineno or 1, exc.offset or 0),
                             source_lines=info.file_lines) from None
    if source_map is not None:
        info = source_map.wrap(info)
    reader = _TextReader(info, lambda: annotation_names(tree))
    for stmt in tree.body:
        reader.statement(stmt)
    first = collected_error(reader.errors)
    if first is not None:  # every independent error, the first one raised
        for err in (first, *first.also):
            err.with_source_lines(info.file_lines)
        raise first
    return reader.single_result()


class _WholeTextNeeded(Exception):
    """Read in pieces, the text needs its whole tree (a name from any annotation), or it
    has an error: the whole-text reading decides."""


def _whole_text_needed() -> frozenset[str]:
    raise _WholeTextNeeded()


class _TextReader:
    """Reads the module level of one DSL text, in order, binding what it defines."""

    def __init__(self, info: SourceInfo, annotation_names: Callable[[], frozenset[str]]) -> None:
        self.info = info  # of the statement being read (read in pieces: of its piece)
        self.filename = info.filename
        # `pl` and `pld` need no import line (a Function printed alone has none); `ir`
        # comes with its own, which the printer never writes.
        self.bindings: dict[str, Any] = {"pl": dsl_module("pypto.language"),
                                         "pld": dsl_module("pypto.language.distributed")}
        self.closure = TextClosure(self.bindings, annotation_names, self.span)
        self.method_bodies: Callable[[ast.FunctionDef], tuple[SourceInfo, ast.FunctionDef]] \
            | None = None  # read in pieces: a method's whole def, by its header
        self.results: list[Function | Program] = []
        self.errors: list[ParserError] = []

    def span(self, node: ast.AST) -> Span:
        return self.info.span(node)

    def statement(self, stmt: ast.stmt) -> None:
        """Read one module-level statement; a failure is recorded and the names the
        statement binds stand for it, so what uses them is not reported again."""
        try:
            handler = _MODULE_STATEMENTS.get(type(stmt))
            if handler is None:
                raise not_allowed(_statement_text(stmt), self.span(stmt))
            handler(self, stmt)
        except ParserError as err:
            record_error(self.errors, err)
            for name in _bound_names(stmt):
                self.bindings[name] = FailedEntity(name, err)

    # -- module-level statements --------------------------------------------------------
    def _import(self, stmt: ast.Import) -> None:
        for alias in stmt.names:
            module = dsl_module(alias.name)
            if module is None or alias.asname is None:
                raise not_allowed(f"'import {alias.name}'", self.span(stmt), hint=_IMPORT_HINT)
            self.bindings[alias.asname] = module

    def _import_from(self, stmt: ast.ImportFrom) -> None:
        if stmt.module == "__future__" and all(a.name == "annotations" for a in stmt.names):
            return  # annotations are never evaluated anyway
        for alias in stmt.names:
            path = f"{stmt.module}.{alias.name}"
            module = dsl_module(path) if stmt.level == 0 else None
            if module is None:
                raise not_allowed(f"'from {'.' * stmt.level}{stmt.module or ''} import "
                                  f"{alias.name}'", self.span(stmt), hint=_IMPORT_HINT)
            self.bindings[alias.asname or alias.name] = module

    def _assign(self, stmt: ast.Assign) -> None:
        for target in stmt.targets:
            if not isinstance(target, ast.Name):
                raise not_allowed(f"Assigning to '{ast.unparse(target)}'", self.span(target),
                                  hint="Module-level assignments in DSL text bind one name "
                                       "to a constant: SIZE = 64, M = pl.dynamic(\"M\")")
        value = self.closure.evaluate(stmt.value, self.span(stmt.value))
        if not is_constant_value(value):
            what = ("a type alias that holds a pl.MemRef or a view"
                    if isinstance(value, AnnotationRecord) else f"a {type(value).__name__}")
            raise not_allowed(f"Binding {what} at module level", self.span(stmt.value),
                              hint="Module-level names in DSL text hold constants: numbers, "
                                   "strings, dtypes, enum members, pl.dynamic dims, type "
                                   "aliases without a memref or view (write those inline)")
        for target in stmt.targets:
            self.bindings[cast(ast.Name, target).id] = value  # (each checked a Name above)

    def _expression(self, stmt: ast.Expr) -> None:
        if not isinstance(stmt.value, ast.Constant):  # a docstring or `...` is inert
            raise not_allowed(_statement_text(stmt), self.span(stmt))

    def _pass(self, stmt: ast.stmt) -> None:
        pass

    def _function(self, node: ast.FunctionDef) -> None:
        if self._is_inline(node):
            return self._inline(node)
        self._dsl_decorator(node, "function")
        self._refuse_defaults(node)
        options = options_from_ast(self.info, node, strict_ssa=False)
        self._define(node, lambda: parse_function_definition(self.info, node, self.closure,
                                                             options))

    def _program(self, node: ast.ClassDef) -> None:
        call = self._dsl_decorator(node, "program")
        strict_ssa = self._program_options(call)
        if node.bases or node.keywords:
            raise not_allowed(f"A base class or class keyword of '{node.name}'",
                              self.span(node.bases[0] if node.bases else node.keywords[0]))
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                self._dsl_decorator(item, "function")
                self._refuse_defaults(item)
            elif not (isinstance(item, ast.Pass) or (isinstance(item, ast.Expr)
                                                     and isinstance(item.value, ast.Constant))):
                raise not_allowed(f"{_statement_text(item)} in a @pl.program class",
                                  self.span(item), hint="A @pl.program class in DSL text "
                                  "holds @pl.function methods (and a docstring)")
        self._define(node, lambda: parse_program_definition(self.info, node, self.closure,
                                                            strict_ssa,
                                                            method_bodies=self.method_bodies))

    def _is_inline(self, node: ast.FunctionDef) -> bool:
        deco = node.decorator_list[0] if len(node.decorator_list) == 1 else None
        chain = attr_chain(deco) if deco is not None else None
        return chain is not None and len(chain) == 2 and chain[1] == "inline" \
            and self.closure.lookup(chain[0]) is dsl_module("pypto.language")

    def _inline(self, node: ast.FunctionDef) -> None:
        """``@pl.inline``: kept as syntax, spliced where a later definition calls it."""
        from ..decorators import InlineFunction
        self._refuse_defaults(node)
        params = [a.arg for a in node.args.args]
        if params[:1] == ["self"]:
            params = params[1:]
        self.bindings[node.name] = InlineFunction.from_source(node.name, node, params, self.info,
                                                              dict(self.bindings))

    # -- helpers -------------------------------------------------------------------------
    def _define(self, node: ast.FunctionDef | ast.ClassDef,
                parse_definition: Callable[[], Function | Program]) -> None:
        result = parse_definition()
        self.bindings[node.name] = result  # later definitions may call a function
        self.results.append(result)

    def _dsl_decorator(self, node: ast.FunctionDef | ast.ClassDef, name: str) -> ast.Call | None:
        """The one ``@pl.<name>`` / ``@pl.<name>(...)`` decorator of ``node``."""
        decorators = node.decorator_list
        for extra in decorators[1:]:
            raise not_allowed(f"A second decorator '@{ast.unparse(extra)}'", self.span(extra))
        deco = decorators[0] if decorators else None
        target = deco.func if isinstance(deco, ast.Call) else deco
        chain = attr_chain(target) if target is not None else None
        if chain is None or len(chain) != 2 or chain[1] != name \
                or self.closure.lookup(chain[0]) is not dsl_module("pypto.language"):
            what = f"The decorator '@{ast.unparse(deco)}'" if deco is not None else \
                f"An undecorated {'def' if name == 'function' else 'class'} '{node.name}'"
            raise not_allowed(what, self.span(deco if deco is not None else node),
                              hint=f"Definitions in DSL text are decorated @pl.{name}")
        return deco if isinstance(deco, ast.Call) else None

    def _program_options(self, call: ast.Call | None) -> bool:
        if call is None:
            return False
        if call.args:
            raise ParserSyntaxError("@pl.program takes keyword arguments only",
                                    self.span(call.args[0]))
        strict_ssa = False
        for kw in call.keywords:
            if kw.arg != "strict_ssa":
                raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in @pl.program",
                                        self.span(kw))
            strict_ssa = read_bool(kw.value, "strict_ssa=", self.span)
        return strict_ssa

    def _refuse_defaults(self, node: ast.FunctionDef) -> None:
        defaults = [d for d in [*node.args.defaults, *node.args.kw_defaults] if d is not None]
        if defaults:
            raise not_allowed("A default parameter value", self.span(defaults[0]),
                              hint="DSL functions take every argument explicitly")

    def single_result(self) -> Function | Program:
        if not self.results:
            raise ValueError(f"No @pl.function or @pl.program found in {self.filename}")
        if len(self.results) > 1:
            names = ", ".join(result.name for result in self.results)
            raise ValueError(f"Multiple functions/programs found in {self.filename}: {names}")
        return self.results[0]


_MODULE_STATEMENTS: dict[type, Callable[[_TextReader, Any], None]] = {
    ast.Import: _TextReader._import,
    ast.ImportFrom: _TextReader._import_from,
    ast.Assign: _TextReader._assign,
    ast.Expr: _TextReader._expression,
    ast.Pass: _TextReader._pass,
    ast.FunctionDef: _TextReader._function,
    ast.ClassDef: _TextReader._program,
}


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [alias.asname or alias.name.split(".")[0] for alias in stmt.names]
    return stored_names(stmt)


_STATEMENT_WORDS = {"AsyncFunctionDef": "async def", "AnnAssign": "annotated assignment",
                    "AugAssign": "augmented assignment", "Expr": "expression"}


def _statement_text(stmt: ast.stmt) -> str:
    """``"A for statement ('for i in ...')"`` for a refusal message."""
    first = ast.unparse(stmt).split("\n", 1)[0]
    if len(first) > 60:
        first = first[:57] + "..."
    kind = type(stmt).__name__
    word = _STATEMENT_WORDS.get(kind, kind.lower())
    article = "An" if word[0] in "aeiou" else "A"
    return f"{article} {word} statement ('{first}')"


def loads(filepath: str) -> Function | Program:
    """Read a DSL file and parse it (``pl.parse(text, filename=filepath)``)."""
    with open(filepath, encoding="utf-8") as handle:
        return parse(handle.read(), filename=str(filepath))


def parse_program(code: str, filename: str = "<string>") -> Program:
    """Deprecated: ``pl.parse`` that insists on a Program."""
    warnings.warn("pl.parse_program is deprecated; use pl.parse", DeprecationWarning,
                  stacklevel=2)
    result = parse(code, filename)
    if not isinstance(result, Program):
        raise ValueError(f"Expected a @pl.program in {filename}, found a function")
    return result


def loads_program(filepath: str) -> Program:
    """Deprecated: ``pl.loads`` that insists on a Program."""
    warnings.warn("pl.loads_program is deprecated; use pl.loads", DeprecationWarning,
                  stacklevel=2)
    result = loads(filepath)
    if not isinstance(result, Program):
        raise ValueError(f"Expected a @pl.program in {filepath}, found a function")
    return result

