"""Entity level: turning a decorated function or class into ``ir.Function`` /
``ir.Program``, reading decorator options from the AST, and attaching source
lines to every error that leaves the parser."""

from __future__ import annotations

import ast
import re
import threading
from typing import Any, Callable

from ...errors import InternalError
from ...ir.enums import FunctionType, Level, Role
from ...ir.function import Function, Program
from ...ir.node import GlobalVar
from ...ir.span import Span
from .closure import Closure
from .context import ProgramContext
from .diagnostics import ParserError, ParserSyntaxError, UnsupportedFeatureError
from .enum_args import ENUM_KEYWORDS, read_bool, read_enum
from .function_parser import FunctionOptions, FunctionParser
from .recovery import DependentError, collected_error
from .source import SourceInfo, get_source_info, locate_entity

__all__ = ["parse_function_entity", "parse_program_entity", "frame_closure", "find_def",
           "raise_with_source", "text_mode", "decorator_keywords", "entity_source",
           "current_source_map", "entity_definition"]

_state = threading.local()


class text_mode:
    """While ``pl.parse`` executes text, shapes may use undeclared dynamic dims."""

    def __init__(self, source_map: Any = None) -> None:
        self.source_map = source_map

    def __enter__(self) -> None:
        _state.depth = getattr(_state, "depth", 0) + 1
        self._saved = getattr(_state, "source_map", None)
        _state.source_map = self.source_map

    def __exit__(self, *exc: Any) -> None:
        _state.depth -= 1
        _state.source_map = self._saved


def current_source_map() -> Any:
    """The ``source_map`` of the ``pl.parse`` call being executed (``@pl.jit``), if any."""
    return getattr(_state, "source_map", None)


def _in_text_mode() -> bool:
    return getattr(_state, "depth", 0) > 0


def frame_closure(frame: Any) -> dict[str, Any]:
    """``{**f_globals, **f_locals}`` of the frame that applied the decorator."""
    closure = dict(frame.f_globals)
    if frame.f_locals is not frame.f_globals:
        closure.update(frame.f_locals)
    return closure


def entity_source(obj: Any) -> SourceInfo:
    """Source of a decorated entity; under ``pl.parse(..., source_map=...)`` (``@pl.jit``)
    the map's ``wrap`` makes spans and snippets point at the user's original file."""
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
    source_map = current_source_map()
    if source_map is not None:
        info = source_map.wrap(info)
    if node is None and kind is not None:
        node = find_def(info, obj.__name__, kind)
    return info, node


def raise_with_source(err: ParserError, info: SourceInfo) -> None:
    """Re-raise a parser error with the file's lines attached (for rendering anywhere)."""
    if getattr(err, "source_lines", None) is None:
        err.source_lines = list(info.file_lines)
    raise err


def find_def(info: SourceInfo, name: str, kind: type) -> Any:
    try:
        module = ast.parse(info.source)
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


def _options_from_ast(info: SourceInfo, node: ast.FunctionDef,
                      strict_ssa: bool) -> FunctionOptions:
    """Decorator keywords inside a program must be literal enum members / bools."""
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
            import warnings
            warnings.warn("@pl.function(attrs=...) is deprecated; use pl.func_attr({...})",
                          DeprecationWarning, stacklevel=4)
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


def _record(errors: list, err: ParserError) -> None:
    """Add a method's error (and those it carries) to the program's list, once each."""
    for found in (err, *getattr(err, "also", ())):
        if not isinstance(found, DependentError) and not any(e is found for e in errors):
            errors.append(found)
    err.also = ()  # type: ignore[attr-defined]


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

    def run() -> Function:
        if options.get("external_source"):
            _reject_external_source(info, node)
        context = ProgramContext(name=fn.__name__)
        parser = FunctionParser(info, Closure(closure, _in_text_mode()), context, parsed_options)
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
    """Callees before callers (so call results are typed); class order otherwise."""
    by_name = {m.name: m for m in methods}
    names = set(by_name)
    edges = {m.name: _callees(m, names, source_lines) for m in methods}
    order: list[ast.FunctionDef] = []
    state: dict[str, int] = {}  # 1 = in progress, 2 = done
    for root in methods:
        stack = [(root.name, iter(edges[root.name]))]
        if state.get(root.name):
            continue
        state[root.name] = 1
        while stack:
            name, children = stack[-1]
            advanced = False
            for child in children:
                if not state.get(child):
                    state[child] = 1
                    stack.append((child, iter(edges[child])))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                state[name] = 2
                order.append(by_name[name])
    return order


def parse_program_entity(cls: type, closure: dict[str, Any], strict_ssa: bool = False) -> Program:
    info, node = _definition_or_raise(cls, ast.ClassDef)

    def run() -> Program:
        methods = _method_nodes(node)
        if not methods:
            raise ParserSyntaxError(f"Class '{cls.__name__}' contains no @pl.function decorated "
                                    "methods", info.span(node),
                                    hint="Decorate each DSL method with @pl.function")
        context = ProgramContext(name=cls.__name__, in_program=True)
        for method in methods:
            if method.name in context.global_vars:
                raise ParserSyntaxError(f"Duplicate method '{method.name}' in program "
                                        f"'{cls.__name__}'", info.span(method))
            context.global_vars[method.name] = GlobalVar(method.name)
            params = [a.arg for a in method.args.args]
            context.param_counts[method.name] = len(params) - (params[:1] == ["self"])
        program_closure = Closure(closure, _in_text_mode())
        parsed: dict[str, Function] = {}
        for method in _dependency_order(methods, info.source.splitlines()):
            try:
                options = _options_from_ast(info, method, strict_ssa)
                parser = FunctionParser(info, program_closure, context, options)
                func = parser.parse_function(method)
            except ParserError as err:  # go on with the other methods (recovery)
                context.failed.add(method.name)
                _record(context.errors, err)
                continue
            parsed[method.name] = func
            context.functions[method.name] = func
        first = collected_error(context.errors)
        if first is not None:
            raise first
        if context.failed:  # only errors that depend on a definition that failed
            raise DependentError(f"program '{cls.__name__}' uses a definition that failed",
                                 info.span(node))
        functions = [parsed[m.name] for m in methods]
        for name, external in context.externals.items():
            if name in parsed:
                raise ParserSyntaxError(f"Conflicting external functions: '{name}' is also a "
                                        "method of this program", info.span(node))
            functions.append(external)
        first = node.decorator_list[0] if node.decorator_list else node
        # The decorator expression starts after its '@'; the class keyword sits at the
        # indentation, which is where the '@' is.
        span = Span(info.filename, first.lineno + info.line_offset,
                    node.col_offset + 1 + info.col_offset)
        return Program(functions, cls.__name__, span)
    return _guarded(info, run)
