"""Which lines of a DSL program read a value computed from a given line.

A swap mutation (``tests/properties/test_semantic_mutations.py``) may be well typed on
its own line and make a later use ill typed: ``s = k0 * 2`` becoming ``s = x * 2`` is
fine until ``pl.load(x, [s, 0], ...)``.  Python and mypy report such a mistake at the
use, and so may pypto.  ``dependent_lines(text, line)`` is the set of lines where that
is justified: the statements that read a name whose value depends on ``line``,
transitively through assignments, ``pl.yield_`` (into the loop's carried names) and
returns (into the calls of the function); the names the line passes to a function
depend on it too (the call may write them in place, as ``InOut`` arguments).

The walk is in program order (a statement before ``line`` depends on it only inside a
loop that also holds ``line``: loop bodies are walked twice), branches start from the
same names and merge, and the dependence is on names, not on control flow -- a
condition that reads a dependent name is itself a dependent line, but what its
branches assign is not -- except the branches' yields, which must agree on the if's
result types: one depending on the line makes the other's line dependent too.
"""

from __future__ import annotations

import ast

__all__ = ["dependent_lines"]


def dependent_lines(text: str, line: int) -> set[int]:
    functions = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.FunctionDef)]
    walk = _Walk(line)
    while True:  # until no further function returns a dependent value
        tainted_before = set(walk.tainted_functions)
        for func in functions:
            walk.function(func)
        if walk.tainted_functions == tainted_before:
            return walk.lines


class _Walk:
    def __init__(self, line: int) -> None:
        self.line = line
        self.lines: set[int] = set()
        self.tainted_functions: set[str] = set()

    def function(self, func: ast.FunctionDef) -> None:
        self.current = func.name
        self.block(func.body, set())

    def block(self, stmts: list[ast.stmt], names: set[str]) -> set[str]:
        for stmt in stmts:
            names = self.statement(stmt, names)
        return names

    def statement(self, stmt: ast.stmt, names: set[str]) -> set[str]:
        if isinstance(stmt, ast.For):
            header = self.reads(stmt.iter, names) or stmt.lineno == self.line
            if header:
                self.lines.add(stmt.lineno)
                names = names | _targets(stmt.target)
            inner = names
            for _ in range(2):  # a second pass: what the first carried around the loop
                inner = self.block(stmt.body, inner | self.carried(stmt, inner))
            return names | inner
        if isinstance(stmt, ast.While):
            if self.reads(stmt.test, names) or stmt.lineno == self.line:
                self.lines.add(stmt.lineno)
            inner = names
            for _ in range(2):
                inner = self.block(stmt.body, inner)
            return names | inner
        if isinstance(stmt, ast.If):
            if self.reads(stmt.test, names) or stmt.lineno == self.line:
                self.lines.add(stmt.lineno)
            merged = self.block(stmt.body, names) | self.block(stmt.orelse, names)
            # The branches' yields give the if's results one type: when one of them
            # depends on the line, a disagreement may be reported at the other (as mypy
            # reports the second of two assignments of different types).
            yields = [y for y in (_trailing_yield(stmt.body), _trailing_yield(stmt.orelse))
                      if y is not None]
            if any(y.lineno == self.line or y.lineno in self.lines for y in yields):
                self.lines.update(y.lineno for y in yields if y.lineno != self.line)
            return merged
        if isinstance(stmt, ast.With):
            if any(self.reads(item.context_expr, names) for item in stmt.items):
                self.lines.add(stmt.lineno)
            return self.block(stmt.body, names)
        # a simple statement: one line (the generator writes no multi-line statement)
        if self.reads(stmt, names) or stmt.lineno == self.line:
            if stmt.lineno != self.line:
                self.lines.add(stmt.lineno)
            if isinstance(stmt, ast.Return):
                self.tainted_functions.add(self.current)
            names = names | {n for t in _assign_targets(stmt) for n in _targets(t)}
            if stmt.lineno == self.line:  # a call may write what it is given (InOut)
                names = names | _call_arguments(stmt)
        return names

    def carried(self, loop: ast.For, names: set[str]) -> set[str]:
        """The loop's carried names when a ``pl.yield_`` at the end of its body yields a
        dependent value into them (by position)."""
        last = loop.body[-1] if loop.body else None
        value = last.value if isinstance(last, (ast.Assign, ast.Expr)) else None
        if not (isinstance(value, ast.Call) and _is_pl(value.func, "yield_")):
            return set()
        carried = _carried_targets(loop)
        return {name for arg, name in zip(value.args, carried) if self.reads(arg, names)}

    def reads(self, node: ast.AST, names: set[str]) -> bool:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and sub.id in names:
                return True
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                    and isinstance(sub.func.value, ast.Name) and sub.func.value.id == "self" \
                    and sub.func.attr in self.tainted_functions:
                return True
        return False


def _is_pl(func: ast.expr, attr: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == attr \
        and isinstance(func.value, ast.Name) and func.value.id == "pl"


def _call_arguments(stmt: ast.stmt) -> set[str]:
    """The names passed to ``self.<function>(...)`` calls in ``stmt``."""
    return {arg.id for node in ast.walk(stmt) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
            for arg in node.args if isinstance(arg, ast.Name)}


def _trailing_yield(body: list[ast.stmt]) -> ast.stmt | None:
    last = body[-1] if body else None
    value = last.value if isinstance(last, (ast.Assign, ast.Expr)) else None
    return last if isinstance(value, ast.Call) and _is_pl(value.func, "yield_") else None


def _assign_targets(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, ast.Assign):
        return list(stmt.targets)
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        return [stmt.target]
    return []


def _targets(target: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _carried_targets(loop: ast.For) -> list[str]:
    """``for i, (a, b) in pl.range(..., init_values=...)`` -> [a, b];
    ``for (w, c) in pl.while_(...)`` -> [w, c]; else []."""
    target, call = loop.target, loop.iter
    if not isinstance(call, ast.Call):
        return []
    if _is_pl(call.func, "while_") and isinstance(target, ast.Tuple):
        elements = target.elts
    elif isinstance(target, ast.Tuple) and len(target.elts) == 2 \
            and isinstance(target.elts[1], ast.Tuple):
        elements = target.elts[1].elts
    else:
        return []
    return [e.id for e in elements if isinstance(e, ast.Name)]
