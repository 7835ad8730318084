"""Statements and scopes as DSL lines (02-ir.md §12.7-§12.8)."""

from __future__ import annotations

import textwrap
from typing import Any, Sequence, cast

from ...errors import InternalError
from .. import expr as E
from .. import scope as S
from .. import stmt as St
from ..dtype import DataType
from ..enums import ForKind, Level, SplitMode
from ..node import GlobalVar, Stmt
from ..types import ScalarType
from .exprs import ExprPrinter
from .spelling import dict_text, enum_text, quote, value_text

__all__ = ["StmtPrinter", "flatten_body"]

_INDENT = "    "
_INDEX_SCALAR = ScalarType(DataType.INDEX)  # the type the parser gives a spmd loop index
_ITERATORS = {ForKind.Sequential: "range", ForKind.Parallel: "parallel",
              ForKind.Unroll: "unroll", ForKind.Pipeline: "pipeline"}
# Scope attrs printed as `pl.at(...)`-style keywords, in canonical order.
_ATTR_KEYWORDS = (("manual_dep_edges", "deps"), ("arg_direction_overrides_vars", "no_dep_args"),
                  ("dump_vars", "dumps"), ("allow_early_resolve", "allow_early_resolve"),
                  ("predicate", "predicate"))
# Scope attrs with a dedicated spelling (`as tid`, `optimizations=[...]`).
_SPECIAL_ATTRS = frozenset({"task_id_var", "slot_num"})
_KNOWN_SCOPE_ATTRS = frozenset(key for key, _ in _ATTR_KEYWORDS) | _SPECIAL_ATTRS


def flatten_body(node: Stmt) -> list[Stmt]:
    """The statements of a body with nested SeqStmts spliced (iterative)."""
    if type(node) is not St.SeqStmts:
        return [node]
    out: list[Stmt] = []
    stack = [iter(node.stmts)]
    while stack:
        for child in stack[-1]:
            if type(child) is St.SeqStmts:
                stack.append(iter(child.stmts))
                break
            out.append(child)
        else:
            stack.pop()
    return out


def _is_call_to(value: Any, op_name: str) -> bool:
    """``value`` is a bare ``op_name()`` call: nothing the elided statement would lose."""
    return (type(value) is E.Call and not isinstance(value.op, GlobalVar)
            and value.op.name == op_name and not value.args and not value._kwargs
            and not value._attrs)


class StmtPrinter:
    """Appends the lines of statements to ``lines``; expressions go through ``exprs``."""

    def __init__(self, exprs: ExprPrinter, concise: bool, lines: list[str]) -> None:
        self.exprs = exprs
        self.prefix = exprs.prefix
        self.concise = concise
        self.lines = lines
        self._indents: list[str] = [""]

    # -- helpers -------------------------------------------------------------------
    def indent(self, depth: int) -> str:
        indents = self._indents
        while len(indents) <= depth:
            indents.append(indents[-1] + _INDENT)
        return indents[depth]

    def line(self, depth: int, text: str) -> None:
        self.lines.append(self.indent(depth) + text)

    def _comments(self, node: Stmt, depth: int) -> None:
        for comment in node.leading_comments:
            for text in comment.split("\n"):
                self.line(depth, f"# {text}" if text else "#")

    def _names(self, vars_: Sequence[E.Var]) -> str:
        return ", ".join(self.exprs.var_name(var) for var in vars_)

    def _exprs(self, values: Sequence[Any]) -> str:
        expr = self.exprs.expr
        return ", ".join(expr(value) for value in values)

    def _tuple(self, values: Sequence[Any]) -> str:
        """``(a, b)`` with the one-element trailing comma ``(a,)``."""
        text = self._exprs(values)
        return f"({text},)" if len(values) == 1 else f"({text})"

    def _value(self, value: Any, where: str) -> str:
        return value_text(value, self.exprs.values, where)

    # -- bodies --------------------------------------------------------------------
    def body(self, node: Stmt, depth: int, targets: tuple = (), top_level: bool = False) -> None:
        """A block: ``pass`` when empty; the last yield binds ``targets`` (return vars).

        ``top_level`` marks a function body, where a yield prints as ``return``.
        """
        self.block(flatten_body(node), depth, targets, top_level)

    def block(self, stmts: Sequence[Stmt], depth: int, targets: tuple = (),
              top_level: bool = False) -> None:
        lines = self.lines
        start = len(lines)
        last = len(stmts) - 1
        pad = self.indent(depth)
        for i, stmt in enumerate(stmts):
            cls = type(stmt)
            if cls is St.AssignStmt and not stmt.leading_comments:  # most statements
                if i == last or not isinstance(stmts[i + 1], S.ScopeStmt) \
                        or not self._is_task_placeholder(stmt, stmts[i + 1]):
                    lines.append(pad + self._assign_text(stmt))  # type: ignore[arg-type]
                    continue
            if i < last and self._is_task_placeholder(stmt, stmts[i + 1]):
                self._comments(stmt, depth)  # the scope's `as tid` re-creates the statement
                continue
            if top_level and cls is St.YieldStmt:
                values = cast(St.YieldStmt, stmt).value
                self._comments(stmt, depth)
                self.line(depth, f"return {self._exprs(values)}" if values else "return")
                continue
            self.stmt(stmt, depth, targets if i == last else ())
        if not _has_code(lines, start):
            self.line(depth, "pass")

    @staticmethod
    def _is_task_placeholder(stmt: Stmt, following: Stmt) -> bool:
        """``tid = pl.system.task_invalid()`` right before the scope that binds ``tid``."""
        return (type(stmt) is St.AssignStmt and isinstance(following, S.ScopeStmt)
                and following._attrs.get("task_id_var") is stmt.var
                and _is_call_to(stmt.value, "system.task_invalid"))

    # -- statements ----------------------------------------------------------------
    def stmt(self, node: Stmt, depth: int, targets: tuple = ()) -> None:
        handler = _HANDLERS.get(type(node))
        if handler is None:
            for base in type(node).__mro__[1:]:
                handler = _HANDLERS.get(base)
                if handler is not None:
                    break
            else:
                raise InternalError(f"printer: no spelling for statement {type(node).__name__}")
        if type(node) is not St.SeqStmts:
            self._comments(node, depth)
        handler(self, node, depth, targets)

    def _seq(self, node: St.SeqStmts, depth: int, targets: tuple) -> None:
        self.body(node, depth, targets)

    def _assign(self, node: St.AssignStmt, depth: int, targets: tuple) -> None:
        self.line(depth, self._assign_text(node))

    def _assign_text(self, node: St.AssignStmt) -> str:
        exprs = self.exprs
        var = node.var
        name = exprs.names.get(var)
        if name is None:
            name = exprs.var_name(var)
        value = exprs.expr(node.value)
        if self.concise:
            return f"{name} = {value}"
        return f"{name}: {exprs.type(var.type)} = {value}"

    def _eval(self, node: St.EvalStmt, depth: int, targets: tuple) -> None:
        self.line(depth, self.exprs.expr(node.expr))

    def _return(self, node: St.ReturnStmt, depth: int, targets: tuple) -> None:
        self.line(depth, f"return {self._exprs(node.value)}" if node.value else "return")

    def _yield(self, node: St.YieldStmt, depth: int, targets: tuple) -> None:
        call = f"{self.prefix}.yield_({self._exprs(node.value)})"
        if not targets:
            self.line(depth, call)
        elif len(targets) == 1 and not self.concise:
            var = targets[0]
            self.line(depth, f"{self.exprs.var_name(var)}: {self.exprs.type(var.type)} = {call}")
        else:
            self.line(depth, f"{self._names(targets)} = {call}")

    def _break(self, node: Stmt, depth: int, targets: tuple) -> None:
        self.line(depth, "break")

    def _continue(self, node: Stmt, depth: int, targets: tuple) -> None:
        self.line(depth, "continue")

    def _inline(self, node: St.InlineStmt, depth: int, targets: tuple) -> None:
        indent = self.indent(depth)
        for text in textwrap.dedent(node.body).splitlines():
            self.lines.append(indent + text if text.strip() else "")

    def _if(self, node: St.IfStmt, depth: int, targets: tuple) -> None:
        self.line(depth, f"if {self.exprs.expr(node.condition)}:")
        self.body(node.then_body, depth + 1, node.return_vars)
        if node.else_body is not None:
            self.line(depth, "else:")
            self.body(node.else_body, depth + 1, node.return_vars)

    def _for(self, node: St.ForStmt, depth: int, targets: tuple) -> None:
        if node.kind is ForKind.Unroll and node.iter_args:
            raise ValueError(
                f"python_print: cannot print ForStmt over '{node.loop_var.name_hint}': an Unroll "
                "loop with iter_args has no DSL spelling (pl.unroll rejects init_values)")
        iterator = _ITERATORS.get(node.kind)
        if iterator is None:
            raise ValueError(f"python_print: ForStmt field 'kind' holds {node.kind!r}, "
                             "not a ForKind")
        target = self.exprs.var_name(node.loop_var)
        if node.iter_args:
            names = self._names(node.iter_args)
            target += f", ({names},)" if len(node.iter_args) == 1 else f", ({names})"
        args = self._bounds(node)
        attrs = dict(node._attrs)
        if node.kind is ForKind.Pipeline and "pipeline_stages" in attrs:
            args.append(f"stage={self._value(attrs.pop('pipeline_stages'), 'loop attr')}")
        if node.iter_args:
            args.append(f"init_values={self._tuple([arg.initValue for arg in node.iter_args])}")
        if attrs:
            args.append(f"attrs={self._dict(attrs, 'loop attr')}")
        self.line(depth, f"for {target} in {self.prefix}.{iterator}({', '.join(args)}):")
        self.body(node.body, depth + 1, node.return_vars)

    def _bounds(self, node: St.ForStmt) -> list[str]:
        """``stop`` / ``start, stop`` / all three; only INDEX constants are elided."""
        expr = self.exprs.expr
        step_is_one = _is_index_const(node.step, 1)
        if step_is_one and _is_index_const(node.start, 0):
            return [expr(node.stop)]
        if step_is_one:
            return [expr(node.start), expr(node.stop)]
        return [expr(node.start), expr(node.stop), expr(node.step)]

    def _while(self, node: St.WhileStmt, depth: int, targets: tuple) -> None:
        condition = self.exprs.expr(node.condition)
        if not node.iter_args:
            self.line(depth, f"while {condition}:")
            self.body(node.body, depth + 1, node.return_vars)
            return
        names = self._names(node.iter_args)
        target = f"({names},)" if len(node.iter_args) == 1 else f"({names})"
        inits = self._tuple([arg.initValue for arg in node.iter_args])
        self.line(depth, f"for {target} in {self.prefix}.while_(init_values={inits}):")
        self.line(depth + 1, f"{self.prefix}.cond({condition})")
        # The cond line is the body's first statement, so an empty body needs no `pass`.
        stmts = flatten_body(node.body)
        if stmts:
            self.block(stmts, depth + 1, node.return_vars)

    def _dict(self, mapping: dict, where: str) -> str:
        return dict_text(mapping, self.exprs.values, where)

    # -- scopes --------------------------------------------------------------------
    def _scope(self, node: S.ScopeStmt, depth: int, targets: tuple) -> None:
        # Runtime scopes are transparent to yields (the parser looks through them).
        inner_targets = targets if type(node) is S.RuntimeScopeStmt else ()
        if type(node) is S.SpmdScopeStmt and self._spmd_loop(node, depth):
            return
        args, task_id = self._scope_args(node)
        header = f"with {self.prefix}.{_scope_builder(node)}({', '.join(args)})"
        if task_id is not None:
            header += f" as {self.exprs.expr(task_id)}"
        self.line(depth, header + ":")
        self.body(node.body, depth + 1, inner_targets)

    def _scope_args(self, node: S.ScopeStmt) -> tuple[list[str], Any]:
        """Builder arguments in the order the DSL documents, plus the ``as`` target."""
        attrs = node._attrs
        for key in attrs:
            if key not in _KNOWN_SCOPE_ATTRS:
                raise InternalError(f"python_print: {type(node).__name__} carries attr '{key}', "
                                    "which has no DSL spelling")
        prefix = self.prefix
        args: list[str] = []
        cls = type(node)
        if cls is S.InCoreScopeStmt:
            args.append(f"level={enum_text(Level.CORE_GROUP, prefix)}")
        elif cls is S.HierarchyScopeStmt:
            hierarchy = cast(S.HierarchyScopeStmt, node)
            args.append(f"level={enum_text(hierarchy.level, prefix)}")
            if hierarchy.role is not None:
                args.append(f"role={enum_text(hierarchy.role, prefix)}")
        elif cls is S.SpmdScopeStmt:
            spmd = cast(S.SpmdScopeStmt, node)
            args.append(self.exprs.expr(spmd.core_num))
            if spmd.sync_start:
                args.append("sync_start=True")
        elif cls is S.GraphScopeStmt:
            args.append(quote(node.name_hint, '"'))
        optimizations = []
        split = getattr(node, "split", SplitMode.NONE)
        if split is not SplitMode.NONE:
            optimizations.append(f"{prefix}.split({enum_text(split, prefix)})")
        if "slot_num" in attrs:
            slot = self._value(attrs["slot_num"], "scope attr 'slot_num'")
            optimizations.append(f"{prefix}.cross_core_slot(slot_num={slot})")
        if optimizations:
            args.append(f"optimizations=[{', '.join(optimizations)}]")
        if node.name_hint and cls is not S.GraphScopeStmt:
            args.append(f"name_hint={quote(node.name_hint, chr(34))}")
        for key, keyword in _ATTR_KEYWORDS:
            if key in attrs:
                args.append(f"{keyword}={self._value(attrs[key], f'scope attr {key!r}')}")
        return args, attrs.get("task_id_var")

    def _spmd_loop(self, node: S.SpmdScopeStmt, depth: int) -> bool:
        """Print ``for i in pl.spmd(n):`` when the scope is exactly its desugaring."""
        carrier = node.body
        if (type(carrier) is not S.InCoreScopeStmt or carrier._attrs or node._attrs
                or carrier.split is not SplitMode.NONE or carrier.leading_comments):
            return False
        expected_name = f"{carrier.name_hint}_spmd" if carrier.name_hint else ""
        if node.name_hint != expected_name:
            return False
        stmts = flatten_body(carrier.body)
        first = stmts[0] if stmts else None
        if (type(first) is not St.AssignStmt or first.leading_comments
                or first.var.type != _INDEX_SCALAR
                or not _is_call_to(first.value, "tile.get_block_idx")):
            return False
        args = [self.exprs.expr(node.core_num)]
        if node.sync_start:
            args.append("sync_start=True")
        if carrier.name_hint:
            args.append(f"name_hint={quote(carrier.name_hint, chr(34))}")
        index = self.exprs.var_name(first.var)
        self.line(depth, f"for {index} in {self.prefix}.spmd({', '.join(args)}):")
        self.block(stmts[1:], depth + 1)
        return True

    def _split_aiv(self, node: S.SplitAivScopeStmt, depth: int, targets: tuple) -> None:
        """``for aiv_id in pl.split_aiv(n, mode=...):``; the loop name is the body's first
        statement when that binds the sub-block index, else ``_`` (which binds nothing)."""
        if node._attrs:
            raise InternalError(f"python_print: SplitAivScopeStmt carries attr "
                                f"'{next(iter(node._attrs))}', which has no DSL spelling")
        prefix = self.prefix
        args = [str(node.count), f"mode={enum_text(node.split, prefix)}"]
        if node.name_hint:
            args.append(f"name_hint={quote(node.name_hint, chr(34))}")
        stmts = flatten_body(node.body)
        first = stmts[0] if stmts else None
        index = "_"
        if (type(first) is St.AssignStmt and not first.leading_comments
                and first.var.type == _INDEX_SCALAR
                and _is_call_to(first.value, "tile.get_subblock_idx")):
            index = self.exprs.var_name(first.var)
            stmts = stmts[1:]
        self.line(depth, f"for {index} in {prefix}.split_aiv({', '.join(args)}):")
        self.block(stmts, depth + 1)


def _has_code(lines: list[str], start: int) -> bool:
    """Whether ``lines[start:]`` holds a statement (not only comments or blank lines).

    Stops at the first code line, which is almost always the first line.
    """
    for i in range(start, len(lines)):
        text = lines[i].lstrip()
        if text and not text.startswith("#"):
            return True
    return False


def _is_index_const(value: Any, expected: int) -> bool:
    return type(value) is E.ConstInt and value.dtype is DataType.INDEX and value.value == expected


def _scope_builder(node: S.ScopeStmt) -> str:
    cls = type(node)
    if cls is S.InCoreScopeStmt or cls is S.HierarchyScopeStmt:
        return "at"
    if cls is S.ClusterScopeStmt:
        return "cluster"
    if cls is S.SpmdScopeStmt:
        return "spmd"
    if cls is S.RuntimeScopeStmt:
        return "manual_scope" if cast(S.RuntimeScopeStmt, node).manual else "scope"
    if cls is S.GraphScopeStmt:
        return "graph"
    raise InternalError(f"printer: no spelling for scope {cls.__name__}")


_HANDLERS: dict[type, Any] = {
    St.AssignStmt: StmtPrinter._assign,
    St.EvalStmt: StmtPrinter._eval,
    St.ReturnStmt: StmtPrinter._return,
    St.YieldStmt: StmtPrinter._yield,
    St.SeqStmts: StmtPrinter._seq,
    St.IfStmt: StmtPrinter._if,
    St.ForStmt: StmtPrinter._for,
    St.WhileStmt: StmtPrinter._while,
    St.BreakStmt: StmtPrinter._break,
    St.ContinueStmt: StmtPrinter._continue,
    St.InlineStmt: StmtPrinter._inline,
    S.InCoreScopeStmt: StmtPrinter._scope,
    S.ClusterScopeStmt: StmtPrinter._scope,
    S.HierarchyScopeStmt: StmtPrinter._scope,
    S.SpmdScopeStmt: StmtPrinter._scope,
    S.RuntimeScopeStmt: StmtPrinter._scope,
    S.GraphScopeStmt: StmtPrinter._scope,
    S.SplitAivScopeStmt: StmtPrinter._split_aiv,
}
