"""Entity level: turning a decorated function or class into ``ir.Function`` /
``ir.Program``, reading decorator options from the AST, and attaching source
lines to every error that leaves the parser."""

from __future__ import annotations

import ast
import re
import warnings
from typing import Any, Callable, TypeVar

from . import pyast
from ...errors import InternalError
from ...ir.enums import FunctionType, Level, Role
from ...ir.function import Function, Program
from ...ir.node import GlobalVar
from ...ir.span import Span
from .closure import Closure
from .context import ProgramContext
from .diagnostics import ParserError, ParserSyntaxError, UnsupportedFeatureError
from .enum_args import ENUM_KEYWORDS, check_function_name, read_bool, read_enum
from .function_parser import FunctionOptions, FunctionParser
from .recovery import DependentError, collected_error
from .source import SourceInfo, get_source_info, locate_entity

__all__ = ["parse_function_entity", "parse_program_entity", "parse_function_definition",
           "parse_program_definition", "frame_closure", "find_def", "raise_with_source",
           "decorator_keywords", "entity_source", "entity_definition", "options_from_ast",
           "record_error"]


ATTRS_DEPRECATION = ("@pl.function(attrs=...) is deprecated; use pl.func_attr({...}) as the "
                     "first statement of the body")


def frame_closure(frame: Any) -> dict[str, Any]:
    """``{**f_globals, **f_locals}`` of the frame that applied the decorator."""
    closure = dict(frame.f_globals)
    if frame.f_locals is not frame.f_globals:
        closure.update(frame.f_locals)
    return closure


def entity_source(obj: Any) -> SourceInfo:
    """Source of a decorated entity."""
    return entity_definition(obj)[0]


def entity_definition(obj: Any, kind: type | None = None) -> tuple[SourceInfo, Any]:
    """``(SourceInfo, def/class node)`` of a decorated entity.

    The fast path reuses one parse of the whole file for every entity in it; the
    slow path (no file text: ``python -c``, odd loaders) retrieves the entity's own
    source and parses just that.
    """
    found = locate_entity(obj)
    if found is not None:
        info, node = found
    else:
        info = get_source_info(obj)
        node = None
    if node is None and kind is not None:
        node = find_def(info, obj.__name__, kind)
    return info, node


def raise_with_source(err: ParserError, info: SourceInfo) -> None:
    """Re-raise a parser error with the file's lines attached (for rendering anywhere)."""
    if getattr(err, "source_lines", None) is None:
        err.source_lines = list(info.file_lines)
    raise err


_Def = TypeVar("_Def", ast.FunctionDef, ast.ClassDef)


def find_def(info: SourceInfo, name: str, kind: type[_Def]) -> _Def:
    try:
        module = pyast.parse(info.source)
    except SyntaxError as exc:
        raise ParserSyntaxError(f"Cannot parse the source of '{name}': {exc.msg}",
                                Span(info.filename, (exc.lineno or 1) + info.line_offset,
                                     (exc.offset or 1) + info.col_offset)) from None
    for node in module.body:
        if isinstance(node, kind) and node.name == name:
            return node
    for node in module.body:
        if isinstance(node, kind):
            return node
    if kind is ast.FunctionDef and module.body and isinstance(module.body[0], ast.AsyncFunctionDef):
        raise UnsupportedFeatureError(f"'{name}' is an async function; DSL functions are plain "
                                      "def functions", info.span(module.body[0]))
    raise ParserSyntaxError(f"Cannot find the definition of '{name}' in its source",
                            Span(info.filename, info.line_offset + 1, 1))


def _is_function_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id == "function"
    return isinstance(target, ast.Attribute) and target.attr == "function"


def decorator_keywords(node: ast.FunctionDef | ast.ClassDef) -> ast.Call | None:
    for deco in node.decorator_list:
        if _is_function_decorator(deco):
            return deco if isinstance(deco, ast.Call) else None
    return None


def options_from_ast(info: SourceInfo, node: ast.FunctionDef,
                     strict_ssa: bool) -> FunctionOptions:
    """``@pl.function(...)`` keywords read from the syntax tree (a program's methods, DSL
    text): literal enum members and bools only."""
    call = decorator_keywords(node)
    options = FunctionOptions(strict_ssa=strict_ssa)
    if call is None:
        return options
    if call.args:
        raise ParserSyntaxError("@pl.function takes keyword arguments only", info.span(call))
    for kw in call.keywords:
        if kw.arg in ENUM_KEYWORDS:
            enum_cls, dsl = ENUM_KEYWORDS[kw.arg]
            value = read_enum(kw.value, enum_cls, info.span, dsl)
            if kw.arg == "type":
                options.func_type = value
            elif kw.arg == "level":
                options.level = value
            else:
                options.role = value
        elif kw.arg == "auto_scope":
            if not read_bool(kw.value, "auto_scope=", info.span):
                options.attrs["auto_scope"] = False
        elif kw.arg == "strict_ssa":
            options.strict_ssa = read_bool(kw.value, "strict_ssa=", info.span)
        elif kw.arg == "attrs":
            span = info.span(kw)  # the warning points at the user's line, not at pypto
            warnings.warn_explicit(ATTRS_DEPRECATION, DeprecationWarning,
                                   span.filename or "<string>", max(span.begin_line, 1))
            options.attrs.update(_literal_dict(info, kw.value))
        elif kw.arg == "external_source":
            raise UnsupportedFeatureError("@pl.function(external_source=...) is not supported "
                                          "by pypto", info.span(kw))
        else:
            raise ParserSyntaxError(f"Unknown keyword argument '{kw.arg}' in @pl.function",
                                    info.span(kw))
    return options


def _literal_dict(info: SourceInfo, node: ast.expr) -> dict[str, Any]:
    try:
        value = ast.literal_eval(node)
    except ValueError:
        raise ParserSyntaxError("attrs= must be a literal dict", info.span(node)) from None
    if not isinstance(value, dict):
        raise ParserSyntaxError("attrs= must be a literal dict", info.span(node))
    return value


def _options_from_kwargs(options: dict[str, Any]) -> FunctionOptions:
    result = FunctionOptions(func_type=options["type"], level=options["level"],
                             role=options["role"], strict_ssa=options["strict_ssa"])
    for key, value, cls in (("type", result.func_type, FunctionType), ("level", result.level, Level),
                            ("role", result.role, Role)):
        if value is not None and not isinstance(value, cls):
            raise TypeError(f"pl.function({key}=...) expects pl.{cls.__name__}, got "
                            f"{type(value).__name__}")
    if options["attrs"]:
        result.attrs.update(options["attrs"])
    if not options["auto_scope"]:
        result.attrs["auto_scope"] = False
    return result


def _definition_or_raise(obj: Any, kind: type) -> tuple[SourceInfo, Any]:
    try:
        return entity_definition(obj, kind)
    except ParserError as err:
        if getattr(err, "source_lines", None) is None:
            found = locate_entity(obj)
            if found is not None:
                err.source_lines = list(found[0].file_lines)
        raise


def record_error(errors: list, err: ParserError) -> None:
    """Add a definition's error (and those it carries) to a list, once each; errors that
    only depend on an earlier one are left out."""
    for found in (err, *getattr(err, "also", ())):
        if not isinstance(found, DependentError) and not any(e is found for e in errors):
            errors.append(found)
    err.also = ()


def _guarded(info: SourceInfo, action: Callable[[], Any]) -> Any:
    try:
        return action()
    except ParserError as err:
        for other in getattr(err, "also", ()):
            other.with_source_lines(info.file_lines)
        raise_with_source(err, info)
    except (InternalError, AssertionError):
        raise


def parse_function_entity(fn: Callable, options: dict[str, Any],
                          closure: dict[str, Any]) -> Function:
    """``@pl.function`` outside a class: parse now and return the ``ir.Function``."""
    parsed_options = _options_from_kwargs(options)
    info, node = _definition_or_raise(fn, ast.FunctionDef)
    if options.get("external_source"):
        _guarded(info, lambda: _reject_external_source(info, node))
    return parse_function_definition(info, node, Closure(closure), parsed_options, fn.__name__)


def parse_function_definition(info: SourceInfo, node: ast.FunctionDef, closure: Closure,
                              options: FunctionOptions, name: str | None = None) -> Function:
    """A function ``def`` outside a program (decorated, or in DSL text) -> ``ir.Function``."""
    def run() -> Function:
        context = ProgramContext(name=name or node.name)
        parser = FunctionParser(info, closure, context, options)
        return parser.parse_function(node)
    return _guarded(info, run)


def _reject_external_source(info: SourceInfo, node: ast.FunctionDef) -> None:
    call = decorator_keywords(node)
    keyword = next((kw for kw in call.keywords if kw.arg == "external_source"), None) \
        if call is not None else None
    raise UnsupportedFeatureError("@pl.function(external_source=...) is not supported by pypto "
                                  "(no backend code generation)", info.span(keyword or node))


def _method_nodes(cls_node: ast.ClassDef) -> list[ast.FunctionDef]:
    return [n for n in cls_node.body if isinstance(n, ast.FunctionDef)
            and any(_is_function_decorator(d) for d in n.decorator_list)]


# Starts with the literal: the regex engine then jumps between occurrences of "self"
# instead of trying every position (deeply indented text is mostly spaces).
_SELF_CALL = re.compile(r"self\s*\.\s*([A-Za-z_]\w*)")
_WORD_CHAR = re.compile(r"\w")


def _callees(node: ast.FunctionDef, names: set[str], lines: list[str]) -> list[str]:
    """Methods this one calls as ``self.m`` -- read from its text, which is all the
    parse order needs (a stray match in a comment only reorders parsing)."""
    text = "\n".join(lines[node.lineno - 1:node.end_lineno])
    found = [match.group(1) for match in _SELF_CALL.finditer(text)
             if match.group(1) in names
             and not (match.start() and _WORD_CHAR.match(text, match.start() - 1))]
    return list(dict.fromkeys(found))


def _dependency_order(methods: list[ast.FunctionDef],
                      source_lines: list[str]) -> list[ast.FunctionDef]:
    """Callees before callers (so call results are typed); methods that call each other
    (a cycle of calls) in class order, as PyPTO parses them.

    Tarjan's strongly connected components, iteratively: a component is complete
    after every component it calls, so they come out callees first.
    """
    position = {m.name: i for i, m in enumerate(methods)}
    names = set(position)  # once: a set per method made this quadratic in the methods
    edges = {m.name: _callees(m, names, source_lines) for m in methods}
    order: list[ast.FunctionDef] = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    for root in methods:
        if root.name in index:
            continue
        work = [(root.name, iter(edges[root.name]))]
        index[root.name] = low[root.name] = len(index)
        stack.append(root.name)
        on_stack.add(root.name)
        while work:
            name, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[name] = min(low[name], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[name])
            if low[name] == index[name]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                order.extend(methods[i] for i in sorted(position[m] for m in component))
    return order


def _is_empty_body(node: ast.ClassDef) -> bool:
    """A class body of ``pass`` (after an optional docstring) and nothing else."""
    body = node.body[1:] if node.body and isinstance(node.body[0], ast.Expr) \
        and isinstance(node.body[0].value, ast.Constant) \
        and isinstance(node.body[0].value.value, str) else node.body
    return len(body) == 1 and isinstance(body[0], ast.Pass)


def _check_forward_calls(context: ProgramContext) -> None:
    """Calls of a method parsed after its caller (mutual recursion keeps the class
    order) are checked once every method is known."""
    from .calls import check_call_args
    for call, arg_spans in context.unchecked_calls:
        callee = context.functions.get(call.op.name)
        if callee is not None:
            check_call_args(call.op.name, callee, list(call.args), call.span, arg_spans)


def parse_program_entity(cls: type, closure: dict[str, Any], strict_ssa: bool = False) -> Program:
    """``@pl.program``: parse the class now and return the ``ir.Program``."""
    info, node = _definition_or_raise(cls, ast.ClassDef)
    return parse_program_definition(info, node, Closure(closure), strict_ssa, cls.__name__)


def parse_program_definition(info: SourceInfo, node: ast.ClassDef, closure: Closure,
                             strict_ssa: bool = False, name: str | None = None,
                             method_bodies: Callable[[ast.FunctionDef],
                                                     tuple[SourceInfo, ast.FunctionDef]]
                             | None = None) -> Program:
    """A ``@pl.program`` class (decorated, or in DSL text) -> ``ir.Program``.

    ``method_bodies`` (DSL text read in pieces, ``text_chunks``): the methods of ``node``
    are headers, and this gives each one's whole ``def`` and the info its positions
    refer to; the def is dropped once its function is built."""
    program_name = name or node.name

    def run() -> Program:
        methods = _method_nodes(node)
        if not methods and _is_empty_body(node):
            # What the printer writes for a program with no functions left (every one
            # was Inline and got spliced): read back as that empty program.
            return Program([], program_name, info.span(node))
        if not methods:
            raise ParserSyntaxError(f"Class '{program_name}' contains no @pl.function decorated "
                                    "methods", info.span(node),
                                    hint="Decorate each DSL method with @pl.function")
        context = ProgramContext(name=program_name, in_program=True)
        for method in methods:
            check_function_name(method.name, "Method name", info.span(method))
            if method.name in context.global_vars:
                raise ParserSyntaxError(f"Duplicate method '{method.name}' in program "
                                        f"'{program_name}'", info.span(method))
            context.global_vars[method.name] = GlobalVar(method.name)
            params = [a.arg for a in method.args.args]
            context.param_counts[method.name] = len(params) - (params[:1] == ["self"])
        parsed: dict[str, Function] = {}
        for method in _dependency_order(methods, info.source.splitlines()):
            try:
                method_info, method_def = (info, method) if method_bodies is None \
                    else method_bodies(method)
                options = options_from_ast(method_info, method_def, strict_ssa)
                parser = FunctionParser(method_info, closure, context, options)
                func = parser.parse_function(method_def)
                del method_def, parser
            except ParserError as err:  # go on with the other methods (recovery)
                context.failed.add(method.name)
                record_error(context.errors, err)
                continue
            parsed[method.name] = func
            context.functions[method.name] = func
        first = collected_error(context.errors)
        if first is not None:
            raise first
        if context.failed:  # only errors that depend on a definition that failed
            raise DependentError(f"program '{program_name}' uses a definition that failed",
                                 info.span(node))
        _check_forward_calls(context)
        functions = [parsed[m.name] for m in methods]
        for name, external in context.externals.items():
            if name in parsed:
                raise ParserSyntaxError(f"Conflicting external functions: '{name}' is also a "
                                        "method of this program", info.span(node))
            functions.append(external)
        start: ast.expr | ast.ClassDef = node.decorator_list[0] if node.decorator_list else node
        # The decorator expression starts after its '@'; the class keyword sits at the
        # indentation, which is where the '@' is.
        span = Span(info.filename, start.lineno + info.line_offset,
                    node.col_offset + 1 + info.col_offset)
        return Program(functions, program_name, span)
    return _guarded(info, run)
