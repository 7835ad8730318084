"""What a picture shows, read off the IR: the call graph of a compiled program, and
the region tree of its input.

The region tree is derived, not guessed: an outliner gives the function it makes
the span of the region it lifted (``extract.py``), so a region of the input and
a function of the output belong together when their spans are equal and the
function is of the kind that region becomes (a ``pl.spmd`` and the kernel implied
inside it share a span, and are told apart by kind).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from ..ir import scope as S
from ..ir.enums import FunctionType
from ..ir.expr import Call, Submit
from ..ir.function import Function, Program
from ..ir.node import GlobalVar, Stmt
from ..ir.printer import python_print
from ..ir.span import Span
from ..ir.walk import iter_calls, stmt_children

__all__ = ["CallEdge", "FunctionBox", "Region", "call_graph", "region_tree", "label_of"]


@dataclass
class FunctionBox:
    name: str
    func_type: str
    label: str               # "Graph · CHIP · Orchestrator"
    kernels: list[str] = field(default_factory=list)  # a Graph function's own kernels


@dataclass(frozen=True)
class CallEdge:
    caller: str
    callee: str
    count: int      # call sites
    note: str       # e.g. "core_num=4"


@dataclass
class Region:
    kind: str                # "graph", "at", "cluster", "spmd", "scope", or "function"
    text: str                # how it reads in the source: pl.graph("step")
    line: int
    functions: list[str]     # what it became (empty: stays in place / not outlined)
    children: list["Region"] = field(default_factory=list)


def label_of(func: Function) -> str:
    parts = [func.func_type.name]
    if func.level is not None:
        parts.append(func.level.name)
    if func.role is not None:
        parts.append(func.role.name)
    return " · ".join(parts)


def call_graph(program: Program) -> tuple[list[FunctionBox], list[CallEdge]]:
    """Boxes in the program's order and one edge per (caller, callee) pair.

    A Graph function groups the kernels only it calls: they are listed in its
    ``kernels`` and get no box of their own at the top level.
    """
    functions = program.functions
    edges: dict[tuple[str, str], list] = {}
    callers: dict[str, set[str]] = {name: set() for name in functions}
    for name, func in functions.items():
        for call, _ in iter_calls(func.body):
            op = call.op
            if not isinstance(op, GlobalVar) or op.name not in functions:
                continue
            entry = edges.setdefault((name, op.name), [0, _launch_note(call)])
            entry[0] += 1
            callers[op.name].add(name)
    boxes = {name: FunctionBox(name, f.func_type.name, label_of(f))
             for name, f in functions.items()}
    for (caller, callee) in edges:
        if functions[caller].func_type is FunctionType.Graph and callers[callee] == {caller} \
                and functions[callee].func_type is not FunctionType.Graph and callee != caller:
            boxes[caller].kernels.append(callee)
    grouped = {k for box in boxes.values() for k in box.kernels}
    top = [box for name, box in boxes.items() if name not in grouped]
    return top + [boxes[k] for k in sorted(grouped)], [
        CallEdge(caller, callee, count, note) for (caller, callee), (count, note) in edges.items()]


def _launch_note(call: Call | Submit) -> str:
    core_num = call.attrs.get("core_num") if isinstance(call, Call) else call.core_num
    if core_num is None:
        return ""
    return f"core_num={core_num if isinstance(core_num, int) else python_print(core_num)}"


# -- the region tree --------------------------------------------------------------------

# scope class -> (kind, what the region becomes)
_BECOMES = {
    S.InCoreScopeStmt: ("at", lambda s, f: f.func_type in (FunctionType.InCore, FunctionType.AIC,
                                                          FunctionType.AIV)),
    S.HierarchyScopeStmt: ("at", lambda s, f: f.level is s.level and f.func_type in (
        FunctionType.Opaque, FunctionType.Orchestration) and s.role in (None, f.role)),
    S.GraphScopeStmt: ("graph", lambda s, f: f.func_type is FunctionType.Graph),
    S.ClusterScopeStmt: ("cluster", lambda s, f: f.func_type is FunctionType.Group),
    S.SpmdScopeStmt: ("spmd", lambda s, f: f.func_type is FunctionType.Spmd),
    S.RuntimeScopeStmt: ("scope", lambda s, f: False),
    S.SplitAivScopeStmt: ("split_aiv", lambda s, f: False),
}


def region_tree(source: Program, compiled: Program) -> list[Region]:
    """One root per function of ``source`` that holds regions; below it the regions
    as they nest, each with the functions of ``compiled`` it became."""
    by_span: dict[tuple, list[Function]] = {}
    for func in compiled.functions.values():
        by_span.setdefault(_span_key(func.span), []).append(func)
    roots = []
    for name, func in source.functions.items():
        children = _regions_below(func.body, by_span)
        if children:
            roots.append(Region("function", name, func.span.begin_line, [], children))
    return roots


def _span_key(span: Span) -> tuple:
    return (span.filename, span.begin_line, span.begin_column, span.end_line, span.end_column)


def _regions_below(body: Stmt, by_span: dict[tuple, list[Function]]) -> list[Region]:
    """The outermost regions under ``body``, each with its own subtree (iterative)."""
    top: list[Region] = []
    stack: list[tuple[Stmt, list[Region]]] = [(body, top)]
    while stack:
        stmt, into = stack.pop()
        kind = _BECOMES.get(type(stmt))
        if kind is not None:
            scope = cast(S.ScopeStmt, stmt)  # the keys of _BECOMES are scope classes
            becomes = kind[1]
            region = Region(kind[0], _region_text(scope), scope.span.begin_line,
                            [f.name for f in by_span.get(_span_key(scope.span), [])
                             if becomes(scope, f)])
            into.append(region)
            stack.append((scope.body, region.children))
            continue
        # children pushed in reverse so regions come out in source order
        stack.extend((child, into) for child in reversed(stmt_children(stmt)))
    return top


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _region_text(scope: S.ScopeStmt) -> str:
    hint = f", name_hint={_quoted(scope.name_hint)}" if scope.name_hint else ""
    if isinstance(scope, S.GraphScopeStmt):
        return f"pl.graph({_quoted(scope.name_hint)})"
    if isinstance(scope, S.InCoreScopeStmt):
        split = f", split={scope.split.name}" if scope.split.name != "NONE" else ""
        return f"pl.at(level=CORE_GROUP{split}{hint})"
    if isinstance(scope, S.HierarchyScopeStmt):
        role = f", role={scope.role.name}" if scope.role is not None else ""
        return f"pl.at(level={scope.level.name}{role}{hint})"
    if isinstance(scope, S.ClusterScopeStmt):
        return f"pl.cluster({_quoted(scope.name_hint)})" if scope.name_hint else "pl.cluster()"
    if isinstance(scope, S.SpmdScopeStmt):
        return f"pl.spmd({python_print(scope.core_num)}{hint})"
    return "pl.manual_scope()" if getattr(scope, "manual", False) else "pl.scope()"
