"""The AST -> IR parser of one DSL function body.

``FunctionParser`` holds the state of one function parse; the per-construct
handlers live in sibling modules (``statements``, ``expressions``, ``calls``,
``control_flow``, ``scopes``) and are wired in through dispatch tables keyed by
AST node type or by DSL construct name, so adding a construct means adding a
handler, not growing an if-chain.
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ...errors import InternalError
from ...ir import expr as E
from ...ir.enums import FunctionType, Level, ParamDirection, Role, level_to_linqu_level
from ...ir.function import Function
from ...ir.node import Stmt, attach_leading_comments
from ...ir.span import Span
from ...ir.stmt import InlineStmt, SeqStmts, YieldStmt
from ._defects import raise_if_pypto_defect
from .annotations import parse_param_annotation, parse_return_annotation
from .binding import DefiniteBindings
from .closure import Closure
from .context import LoopFrame, NameTable, ProgramContext, RegionFrame, YieldContext
from .diagnostics import (ParserError, ParserSyntaxError, ParserTypeError,
                          UndefinedVariableError, UnsupportedFeatureError,
                          concise_error_message)
from .nesting import check_source_nesting
from .recovery import POISONED, DependentError, collected_error, stored_names
from .source import SourceInfo

__all__ = ["FunctionParser", "FunctionOptions", "InlineSplice"]


@dataclass
class FunctionOptions:
    """Decorator options of one ``@pl.function`` (already validated)."""

    func_type: FunctionType = FunctionType.Opaque
    level: Level | None = None
    role: Role | None = None
    attrs: dict[str, Any] = field(default_factory=dict)
    strict_ssa: bool = False
    allow_bare_tensors: bool = False  # @pl.jit signature placeholders

    def is_verbatim_subworker(self) -> bool:
        """HOST-and-above SubWorker bodies are kept as verbatim Python, not parsed."""
        return (self.role is Role.SubWorker and self.level is not None
                and level_to_linqu_level(self.level) >= 3)


@dataclass
class InlineSplice:
    """A ``@pl.inline`` body being spliced: where its ``return`` value goes."""

    name: str
    value: Any = None
    returned: bool = False
    block_depth: int = 0  # the caller's open blocks: the body's top level is spliced into them


class FunctionParser:
    """Parses one ``ast.FunctionDef`` into an ``ir.Function``."""

    # Filled by the handler modules (see _install_handlers at the bottom).
    STMT_HANDLERS: dict[type, Callable[["FunctionParser", Any], None]] = {}
    EXPR_HANDLERS: dict[type, Callable[["FunctionParser", Any], Any]] = {}

    def __init__(self, info: SourceInfo, closure: Closure, program: ProgramContext,
                 options: FunctionOptions) -> None:
        self.info = info
        self.closure = closure
        self.program = program
        self.options = options
        self.func_name = ""
        self.names = NameTable()
        self.bindings = DefiniteBindings()
        self.blocks: list[list[Stmt]] = []
        self.loops: list[LoopFrame] = []
        self.regions: list[RegionFrame] = []
        self.yield_contexts: list[YieldContext] = []
        self.inline_stack: list[InlineSplice] = []
        self.void_call: ast.Call | None = None  # the call of the expression statement being parsed
        self.current_node: ast.AST | None = None
        self.fold_cache: dict[int, bool] = {}
        self.func_attrs: dict[str, Any] = {}
        self.params: list[E.Var] = []
        self.return_types: list | None = None  # declared (None: no annotation, unchecked)
        self._comment_lines, self._comment_texts = info.full_line_comments()
        self._pending_comments: list[str] = []
        # The source's own method, bound once: a span is made for almost every node.
        self.span = info.span  # type: ignore[method-assign]

    # -- small helpers ---------------------------------------------------------------
    def span(self, node: ast.AST) -> Span:
        return self.info.span(node)

    def emit(self, stmt: Stmt) -> None:
        self.blocks[-1].append(stmt)

    def read_name(self, name: str, node: ast.AST) -> Any:
        """The DSL value bound to ``name`` (``None`` if none), refusing a read of a name
        that is not bound on every path to here (see ``binding``)."""
        bound = self.names.lookup(name)
        if bound is not None and self.bindings.maybe:
            why = self.bindings.maybe.get(name)
            if why is not None:
                raise UndefinedVariableError(f"Variable '{name}' may be unbound here: {why[0]}",
                                             self.span(node), hint=f"Assign '{name}' {why[1]}")
        return bound

    def is_dsl_name(self, name: str) -> bool:
        return self.names.lookup(name) is not None

    def parse_expr(self, node: ast.expr) -> Any:
        handler = self.EXPR_HANDLERS.get(node.__class__)
        if handler is None:
            raise UnsupportedFeatureError(
                f"Unsupported expression type: {type(node).__name__}", self.span(node),
                hint="DSL bodies support names, constants, arithmetic, comparisons, calls, "
                     "subscripts and list/tuple literals")
        return handler(self, node)

    # -- statement blocks --------------------------------------------------------------
    def parse_block(self, body: list[ast.stmt], header_line: int) -> Stmt:
        """Parse a statement list into one (flattened) statement."""
        stmts: list[Stmt] = []
        self.blocks.append(stmts)
        try:
            previous_end = header_line
            has_comments = bool(self._comment_lines)
            for node in body:
                if stmts and stmts[-1].__class__ is YieldStmt:
                    raise ParserSyntaxError(
                        "pl.yield_ must be the last statement of its loop or if body",
                        self.span(node), hint="Move this statement before the pl.yield_")
                if has_comments:
                    self._collect_comments(previous_end, node.lineno)
                self._parse_stmt_recovering(node)
                previous_end = node.end_lineno or node.lineno
        finally:
            self.blocks.pop()
        self._pending_comments = []  # comments trailing a block have no statement to sit on
        return SeqStmts.flatten(stmts, self.span(body[0]) if body else Span.unknown())

    def _parse_stmt_recovering(self, node: ast.stmt) -> None:
        """Parse one statement; on a user error record it and go on (``recovery``)."""
        errors = self.program.errors
        recorded = len(errors)
        saved = self._snapshot()
        try:
            self.parse_stmt(node)
            return
        except (InternalError, AssertionError, RecursionError):
            raise
        except DependentError:
            pass  # reads a poisoned name or a failed method: already reported
        except ParserError as err:
            if len(errors) == recorded:  # else a consequence of an inner error
                errors.append(err)
        except Exception as exc:  # noqa: BLE001 - wrapped as parse_function does
            raise_if_pypto_defect(exc, self.span(self.current_node or node),
                                  f"function '{self.func_name}'")
            if len(errors) == recorded:
                wrapped = ParserSyntaxError(
                    f"Failed to parse function '{self.func_name}': {concise_error_message(exc)}",
                    self.span(self.current_node or node))
                wrapped.__cause__ = exc
                errors.append(wrapped)
        self._restore(saved)
        for name in stored_names(node):
            if self.names.frame_of(name) is None:
                self.names.bind_new(name, POISONED, self.span(node))

    def _snapshot(self) -> tuple:
        return (len(self.blocks[-1]), len(self.blocks), len(self.loops), len(self.regions),
                len(self.yield_contexts), len(self.inline_stack), len(self.names.frames),
                self.current_node, self.void_call)

    def _restore(self, saved: tuple) -> None:
        """Undo what a failed statement left half-done (emitted statements, open frames)."""
        (emitted, blocks, loops, regions, yields, inlines, frames, self.current_node,
         self.void_call) = saved
        del self.blocks[blocks:]
        del self.blocks[-1][emitted:]
        del self.loops[loops:]
        del self.regions[regions:]
        del self.yield_contexts[yields:]
        del self.inline_stack[inlines:]
        del self.names.frames[frames:]
        self._pending_comments = []

    def _collect_comments(self, after_line: int, before_line: int) -> None:
        lines = self._comment_lines
        if not lines:
            return
        lo = bisect.bisect_right(lines, after_line)
        hi = bisect.bisect_left(lines, before_line)
        if lo < hi:
            self._pending_comments.extend(self._comment_texts[lo:hi])

    def add_pending_comments(self, texts: list[str]) -> None:
        self._pending_comments.extend(texts)

    def parse_stmt(self, node: ast.stmt) -> None:
        handler = self.STMT_HANDLERS.get(node.__class__)
        if handler is None:
            raise UnsupportedFeatureError(f"Unsupported statement type: {type(node).__name__}",
                                          self.span(node))
        block = self.blocks[-1]
        start = len(block)
        comments = self._pending_comments
        self._pending_comments = []
        saved_node, self.current_node = self.current_node, node
        handler(self, node)
        self.current_node = saved_node
        if comments:
            if len(block) > start and not isinstance(block[start], SeqStmts):
                first = block[start]
                attach_leading_comments(first, list(first.leading_comments) + comments)
            else:  # nothing emitted (pass, directive, docstring): keep for the next statement
                self._pending_comments = comments + self._pending_comments

    # -- functions -------------------------------------------------------------------
    def parse_function(self, node: ast.FunctionDef, name: str | None = None) -> Function:
        """Parse ``node``; any non-parser failure becomes a ParserSyntaxError with a span.

        Statement errors are recorded and parsing goes on (``recovery``); the function
        then raises its first error, the others following it in ``err.also``.
        """
        self.func_name = name or node.name
        errors = self.program.errors
        recorded = len(errors)
        try:
            # Refused before anything recurses into it: the limits hold for every walk
            # of the IR too (pypto.ir.depth).
            check_source_nesting(node, self.span)
            try:
                return self._parse_function(node, recorded)
            except RecursionError:  # a deep Python stack before the parser started
                raise ParserSyntaxError(
                    f"function '{self.func_name}' is nested too deeply for the Python "
                    "stack left here", self.span(node)) from None
        except Exception:
            # A failure after recorded errors is most likely their consequence (a body
            # left half-parsed): report what was recorded.
            first = collected_error(errors, recorded)
            if first is None:
                raise
            first.__suppress_context__ = True
            raise first

    def _parse_function(self, node: ast.FunctionDef, recorded: int) -> Function:
        try:
            return self._parse_function_body(node, recorded)
        except (ParserError, InternalError, AssertionError, RecursionError):
            raise
        except Exception as exc:
            where = self.current_node or node
            raise_if_pypto_defect(exc, self.span(where), f"function '{self.func_name}'")
            raise ParserSyntaxError(
                f"Failed to parse function '{self.func_name}': {concise_error_message(exc)}",
                self.span(where)) from exc

    def _parse_function_body(self, node: ast.FunctionDef, recorded: int) -> Function:
        options = self.options
        self.current_node = node
        params = self._parse_params(node)
        return_types = parse_return_annotation(self, node.returns)
        if node.returns is not None:
            self.return_types = return_types
        span = self.span(node)
        attrs = dict(options.attrs)
        requires_binding = False
        if options.is_verbatim_subworker():
            body, requires_binding = self._verbatim_body(node)
        else:
            body_nodes = self._leading_directives(node.body)
            body = self.parse_block(body_nodes, node.lineno) if body_nodes else SeqStmts([], span)
            first = collected_error(self.program.errors, recorded)
            if first is not None:
                raise first
        attrs.update(self.func_attrs)
        if options.func_type is FunctionType.Inline:
            _check_inline_returns(self.func_name, body, return_types, span)
        try:
            return Function(self.func_name, params, return_types, body, span,
                            type=options.func_type, level=options.level, role=options.role,
                            attrs=attrs, requires_runtime_binding=requires_binding)
        except ValueError as exc:
            raise ParserSyntaxError(str(exc), span) from None

    def _parse_params(self, node: ast.FunctionDef) -> list[tuple[E.Var, ParamDirection]]:
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            raise UnsupportedFeatureError(
                f"Function '{self.func_name}': only plain positional parameters are supported",
                self.span(node))
        positional = list(args.args)
        if positional and positional[0].arg == "self":
            if self.options.is_verbatim_subworker():
                raise ParserSyntaxError(
                    f"Function '{self.func_name}' is a HOST-level SubWorker and must not take "
                    "'self'", self.span(positional[0]),
                    hint="Declare it as a self-contained function without 'self'")
            positional = positional[1:]
        params = []
        for arg in positional:
            if arg.annotation is None:
                raise ParserTypeError(f"Parameter '{arg.arg}' missing type annotation",
                                      self.span(arg),
                                      hint="Annotate it, e.g. x: pl.Tensor[[64], pl.FP32]")
            self.current_node = arg
            type_, direction = parse_param_annotation(
                self, arg.annotation, allow_bare=self.options.allow_bare_tensors)
            if self.names.frames[0].names.get(arg.arg) is not None:
                raise ParserSyntaxError(f"Duplicate parameter '{arg.arg}'", self.span(arg))
            var = E.Var(arg.arg, type_, self.span(arg))
            self.names.bind_new(arg.arg, var, self.span(arg))
            self.params.append(var)
            params.append((var, direction))
        return params

    def _leading_directives(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """Consume leading ``pl.func_attr({...})`` statements (after a docstring, if any)."""
        from .directives import is_func_attr, parse_func_attr
        docstring = body[:1] if body and _is_docstring(body[0]) else []
        index = len(docstring)
        while index < len(body) and is_func_attr(body[index]):
            parse_func_attr(self, body[index])
            index += 1
        return docstring + body[index:]

    def _verbatim_body(self, node: ast.FunctionDef) -> tuple[Stmt, bool]:
        """A HOST-level SubWorker: keep the body's statements as written, without their
        comments (as PyPTO keeps them); ``...`` means runtime-bound."""
        body = node.body
        if len(body) == 1 and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and body[0].value.value is Ellipsis:
            return SeqStmts([], self.span(node)), True
        lines = self.info.source.splitlines()
        first, last = body[0].lineno, body[-1].end_lineno or body[-1].lineno
        text = _without_comments("\n".join(lines[first - 1:last]))
        import textwrap
        return InlineStmt(textwrap.dedent(text), span=self.span(body[0])), False

    # -- loops and regions -------------------------------------------------------------
    def innermost_loop(self) -> LoopFrame | None:
        return self.loops[-1] if self.loops else None

    def enclosing_regions(self) -> Iterator[RegionFrame]:
        return reversed(self.regions)

    def outlined_region_since(self, depth: int) -> RegionFrame | None:
        """The innermost region opened after the first ``depth`` ones that becomes a
        function of its own (control flow cannot jump out of it)."""
        for region in reversed(self.regions[depth:]):
            if region.outlined:
                return region
        return None


def _without_comments(text: str) -> str:
    """``text`` (complete statements) without its ``#`` comments: a comment-only line
    goes, a trailing comment is cut with the blanks before it.  The tokenizer tells a
    comment from a ``#`` inside a string."""
    import io
    import tokenize
    cuts: dict[int, int] = {}  # 0-based line -> column where its comment starts
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                cuts[token.start[0] - 1] = token.start[1]
    except (tokenize.TokenError, SyntaxError):
        return text  # the statements parsed, so this is not expected; keep the text
    if not cuts:
        return text
    kept: list[str] = []
    for number, line in enumerate(text.split("\n")):
        column = cuts.get(number)
        if column is None:
            kept.append(line)
        elif line[:column].strip():
            kept.append(line[:column].rstrip())
    return "\n".join(kept)


def _is_docstring(node: ast.stmt) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _install_handlers() -> None:
    from . import calls, control_flow, expressions, scopes, statements  # noqa: F401
    for module in (statements, expressions, control_flow, scopes, calls):
        FunctionParser.STMT_HANDLERS.update(getattr(module, "STMT_HANDLERS", {}))
        FunctionParser.EXPR_HANDLERS.update(getattr(module, "EXPR_HANDLERS", {}))

_install_handlers()


def _check_inline_returns(name: str, body: Stmt, return_types: list, span: Span) -> None:
    """An Inline function is spliced at its call sites (InlineFunctions): it may return
    only as its last statement, and must end in a return when it declares a result."""
    from ...ir.stmt import ReturnStmt
    from ...ir.walk import iter_stmts
    stmts = body.stmts if isinstance(body, SeqStmts) else [body]
    trailing = stmts[-1] if stmts and isinstance(stmts[-1], ReturnStmt) else None
    for stmt in iter_stmts(body):
        if isinstance(stmt, ReturnStmt) and stmt is not trailing:
            raise ParserSyntaxError(
                f"Inline function '{name}' may only return at the end of its body",
                stmt.span, hint="Inline functions are spliced into their callers; compute "
                                "the result and return it once, as the last statement")
    if return_types and trailing is None:
        raise ParserSyntaxError(
            f"Inline function '{name}' declares a result but does not end with a return",
            span)
