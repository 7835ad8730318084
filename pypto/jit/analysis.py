"""Facts about one ``@pl.jit`` function that depend only on its source text.

``analyze`` reads the source (01-language.md §15 lookup order, through
``get_source_info``) once and records what every specialization needs: parameters,
which names are local, which names come from the namespace, the bare-name calls
(dependency candidates), ``x.bind_dynamic(axis, M)`` statements, comments, and a
hash of the text.  ``source_stamp`` tells cheaply whether the text may have changed.
"""

from __future__ import annotations

import ast
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, cast

from ..language.parser.diagnostics import ParserError, ParserSyntaxError, UnsupportedFeatureError
from ..language.parser.program_parser import find_def
from ..language.parser.source import SourceInfo, get_source_info
from .param_types import attr_chain, int_literal, parse_string_annotation

__all__ = ["NO_DEFAULT", "ParamFacts", "DynamicBind", "FunctionFacts", "analyze", "analyze_source",
           "source_stamp",
           "user_error", "SUBMIT_CALLS"]

NO_DEFAULT = object()
# pl.submit(kernel, ...) / pl.spmd_submit(kernel, ...) name a kernel without calling it.
SUBMIT_CALLS = (["pl", "submit"], ["pl", "spmd_submit"])


@dataclass(frozen=True)
class ParamFacts:
    name: str
    annotation: Optional[ast.expr]  # string annotations already parsed
    default: Any  # NO_DEFAULT when the parameter has none
    node: ast.arg


@dataclass(frozen=True)
class DynamicBind:
    """``x.bind_dynamic(axis, M)``: axis ``axis`` of parameter ``x`` is the dynamic dim ``M``."""

    param: str
    axis: int
    dim: ast.expr  # a name of a pl.dynamic(...) value, or a pl.dynamic("M") call
    node: ast.stmt


@dataclass(frozen=True)
class FunctionFacts:
    name: str
    info: SourceInfo
    node: ast.FunctionDef  # pristine: specializations rewrite copies
    params: tuple[ParamFacts, ...]
    local_names: frozenset[str]
    binding_counts: dict[str, int]  # body-bound name -> number of binding sites
    free_names: tuple[str, ...]  # sorted; names the namespace must supply
    attribute_chains: tuple[tuple[str, ...], ...]  # sorted ``cfg.rows``-like uses of those
    calls: dict[str, ast.expr]  # free name called by bare name (or submitted) -> first site
    call_sites: tuple[tuple[str, ast.Call], ...]  # every such call: (callee name, call)
    dynamic_binds: tuple[DynamicBind, ...]
    local_dynamic: dict[str, Any]  # ``M = pl.dynamic("M")`` in the body: name -> DynVar
    comments: tuple[tuple[int, str], ...]  # (source line, text) of full-line comments
    source_hash: str
    param_index: dict[str, int] = field(default_factory=dict)


def user_error(cls: type, message: str, info: SourceInfo, node: Optional[ast.AST],
               hint: Optional[str] = None) -> ParserError:
    """A parser error at ``node`` of the user's source, with the file's lines attached."""
    span = info.span(node) if node is not None else None
    return cls(message, span, hint=hint, source_lines=info.file_lines)


def source_stamp(fn: Callable) -> Any:
    """Changes when the function's source file changes; constant for cells and ``-c``
    (their text cannot change under an existing function object)."""
    filename = fn.__code__.co_filename
    try:
        status = os.stat(filename)
    except (OSError, ValueError):
        return filename
    return filename, status.st_mtime_ns, status.st_size


def analyze(fn: Callable) -> FunctionFacts:
    return analyze_source(get_source_info(fn), fn.__name__, _defaults_of(fn))


def analyze_source(info: SourceInfo, name: str,
                   defaults: Optional[dict[str, Any]] = None) -> FunctionFacts:
    """The facts of the function ``name`` defined in ``info`` (its defaults by name)."""
    try:
        node = find_def(info, name, ast.FunctionDef)
    except ParserError as err:
        raise err.with_source_lines(info.file_lines)
    params = _params(info, node, defaults or {})
    param_names = {p.name for p in params}
    scan = _BodyScan(info, param_names)
    for statement in node.body:
        scan.visit(statement)
    local_names = frozenset(scan.bound) | param_names
    for annotated in [p.annotation for p in params] + [node.returns]:
        if annotated is not None:
            scan.visit(parse_string_annotation(annotated))
    free = set(scan.loaded) - local_names
    chains = {chain for chain in scan.chains if chain[0] not in local_names and chain[0] != "pl"}
    calls = {name: site for name, site in scan.calls.items() if name not in local_names}
    sites = tuple((name, call) for name, call in scan.call_sites if name not in local_names)
    return FunctionFacts(
        name=node.name, info=info, node=node, params=tuple(params), local_names=local_names,
        binding_counts=dict(scan.bound), free_names=tuple(sorted(free)),
        attribute_chains=tuple(sorted(chains)), calls=calls, call_sites=sites,
        dynamic_binds=tuple(scan.binds),
        local_dynamic={name: dyn for name, dyn in scan.dynamic_defs.items()
                       if scan.bound.get(name) == 1 and name not in param_names},
        comments=_comments(info.source, node),
        source_hash=hashlib.sha256(info.source.encode("utf-8")).hexdigest(),
        param_index={p.name: i for i, p in enumerate(params)})


def _defaults_of(fn: Callable) -> dict[str, Any]:
    code = fn.__code__
    names = code.co_varnames[:code.co_argcount]
    values = fn.__defaults__ or ()
    return dict(zip(names[len(names) - len(values):], values))


def _params(info: SourceInfo, node: ast.FunctionDef,
            defaults: dict[str, Any]) -> list[ParamFacts]:
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        raise user_error(UnsupportedFeatureError,
                         f"Function '{node.name}': only plain positional parameters are "
                         "supported", info, node)
    return [ParamFacts(a.arg, None if a.annotation is None else parse_string_annotation(a.annotation),
                       defaults.get(a.arg, NO_DEFAULT), a) for a in args.args]


class _BodyScan(ast.NodeVisitor):
    """One walk over the body: bound names, loaded names, bare calls, bind_dynamic."""

    def __init__(self, info: SourceInfo, params: set[str]) -> None:
        self.info = info
        self.params = params
        self.bound: dict[str, int] = {}
        self.loaded: set[str] = set()
        self.calls: dict[str, ast.expr] = {}
        self.call_sites: list[tuple[str, ast.Call]] = []
        self.binds: list[DynamicBind] = []
        self.chains: set[tuple[str, ...]] = set()
        self.dynamic_defs: dict[str, Any] = {}
        self._statement_calls: set[int] = set()

    def visit_Assign(self, node: ast.Assign) -> None:
        value = node.value
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(value, ast.Call) and attr_chain(value.func) == ["pl", "dynamic"] \
                and len(value.args) == 1 and not value.keywords \
                and isinstance(value.args[0], ast.Constant) \
                and isinstance(value.args[0].value, str) and value.args[0].value.isidentifier():
            from ..language.typing import DynVar
            self.dynamic_defs[node.targets[0].id] = DynVar(value.args[0].value)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = attr_chain(node)
        if chain is None:
            self.generic_visit(node)
            return
        self.loaded.add(chain[0])
        self.chains.add(tuple(chain))  # only the longest chain: inner ones are not visited

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.loaded.add(node.id)
        else:
            self.bound[node.id] = self.bound.get(node.id, 0) + 1

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and call.func.attr == "bind_dynamic":
            self.binds.append(self._bind(node, call))
            self._statement_calls.add(id(call))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name):
            self.calls.setdefault(func.id, node)
            self.call_sites.append((func.id, node))
        elif attr_chain(func) in SUBMIT_CALLS and node.args and isinstance(node.args[0], ast.Name):
            self.calls.setdefault(node.args[0].id, node.args[0])
            submitted = ast.Call(func=node.args[0], args=node.args[1:], keywords=[])
            self.call_sites.append((node.args[0].id, submitted))
        elif isinstance(func, ast.Attribute) and func.attr == "bind_dynamic" \
                and id(node) not in self._statement_calls:
            raise user_error(ParserSyntaxError, "x.bind_dynamic(axis, M) must be a statement of "
                             "its own", self.info, node)
        self.generic_visit(node)

    def _bind(self, statement: ast.Expr, call: ast.Call) -> DynamicBind:
        target = cast(ast.Attribute, call.func).value  # (visit_Expr checked it)
        if not isinstance(target, ast.Name) or target.id not in self.params:
            what = ast.unparse(target)
            raise user_error(ParserSyntaxError, f"bind_dynamic() applies to tensor parameters; "
                             f"'{what}' is not a parameter", self.info, call)
        if call.keywords or len(call.args) != 2:
            raise user_error(ParserSyntaxError, f"{target.id}.bind_dynamic() takes two positional "
                             "arguments: an axis and a pl.dynamic dim", self.info, call)
        axis_node = call.args[0]
        axis = int_literal(axis_node)
        if axis is None:
            raise user_error(ParserSyntaxError, f"{target.id}.bind_dynamic(): the axis must be an "
                             "integer literal", self.info, axis_node)
        return DynamicBind(target.id, axis, call.args[1], statement)


def _comments(source: str, node: ast.FunctionDef) -> tuple[tuple[int, str], ...]:
    """Full-line comments inside the function body (the parser keeps those)."""
    if "#" not in source:
        return ()
    found = []
    last = node.end_lineno or node.lineno
    for number, line in enumerate(source.splitlines()[node.lineno:last], node.lineno + 1):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            text = stripped[1:]
            found.append((number, text[1:] if text.startswith(" ") else text))
    return tuple(found)
