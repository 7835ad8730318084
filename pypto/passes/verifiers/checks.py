"""Statement checks that share one walk: several properties, one traversal.

Many verifiers only look at each statement (and the calls it evaluates) on its
own.  Such a verifier is a ``CheckVerifier``: it makes a ``StmtCheck`` that
registers callbacks per statement class (``stmt_hooks``) and, optionally, one
per Call/Submit (``on_call``).  ``run_checks`` walks every function once in
pre-order and hands each statement to the hooks of every active check, so
``PropertyVerifierRegistry.verify`` of a set of properties costs one walk for
all of its ``CheckVerifier``s instead of one walk each.  Each check appends to
its own diagnostics list, so a property's diagnostics and their order are the
same whether it runs alone or fused.

Walk order (that of ``iter_stmts`` / ``iter_calls``): functions in program
order; statements in pre-order (sequence children in order, ``then`` before
``else``); for one statement, its hooks first, then its calls in the pre-order
of each of its own expressions.  A hook receives the statement and the nearest
enclosing ``for`` / ``while`` statement (``None`` outside loops).
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function, Program
from ...ir.node import Expr, Stmt
from ...ir.walk import LEAF_TYPES, StmtShape, calls_in, leaf_call_reads, stmt_shape
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import functions_of, stmt_exprs

__all__ = ["StmtCheck", "CheckVerifier", "run_checks", "StmtHook", "CallHook"]

StmtHook = Callable[[Stmt, "Stmt | None"], None]    # (statement, enclosing loop)
CallHook = Callable[[Expr, Stmt], None]             # (Call or Submit, its statement)


class StmtCheck:
    """One property's per-statement checks over one program.

    ``stmt_hooks`` maps a statement class to a callback; it also fires for
    subclasses (``isinstance`` semantics).  ``on_call`` (if not ``None``) sees
    every Call/Submit.  Before each function's walk ``begin_function`` sets
    ``self.func`` and asks ``applies_to`` whether the check runs on it.
    """

    stmt_hooks: Mapping[type, StmtHook] = {}
    on_call: CallHook | None = None

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        self.program = program
        self.diagnostics = diagnostics
        self.func: Function | None = None

    def applies_to(self, func: Function) -> bool:
        return True

    def begin_function(self, func: Function) -> bool:
        self.func = func
        return self.applies_to(func)


class CheckVerifier(PropertyVerifier):
    """A verifier made of one ``StmtCheck``; runs alone or fused (``run_checks``)."""

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        raise NotImplementedError

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        run_checks(program, [self.make_check(program, diagnostics)])


def _calls_of(stmt: Stmt, cls: type) -> list[Expr]:
    """``stmt``'s own Calls/Submits in the order of ``iter_calls``.  Fast path: an
    assignment or evaluation of one call over leaves (three-address form)."""
    if cls is St.AssignStmt or cls is St.EvalStmt:
        root = stmt.value if cls is St.AssignStmt else stmt.expr  # type: ignore[attr-defined]
        kind = type(root)
        if kind in LEAF_TYPES:
            return []
        if kind is E.Call and not root._attrs and leaf_call_reads(root) is not None:  # type: ignore[attr-defined]
            return [root]
        return calls_in(root)
    return [call for root in stmt_exprs(stmt) for call in calls_in(root)]


class _Dispatch:
    """Per statement class, the hooks of a fixed list of checks (resolved once)."""

    def __init__(self, checks: list[StmtCheck]) -> None:
        self.checks = checks
        self.by_class: dict[type, list[StmtHook]] = {}
        self.call_hooks = [c.on_call for c in checks if c.on_call is not None]

    def hooks(self, cls: type) -> list[StmtHook]:
        hooks = [hook for check in self.checks for base, hook in check.stmt_hooks.items()
                 if issubclass(cls, base)]
        self.by_class[cls] = hooks
        return hooks


def run_checks(program: Program, checks: Iterable[StmtCheck]) -> None:
    """Run ``checks`` over ``program`` in one walk of each function."""
    checks = list(checks)
    dispatches: dict[tuple[int, ...], _Dispatch] = {}
    for func in functions_of(program):
        active = tuple(i for i, check in enumerate(checks) if check.begin_function(func))
        if not active:
            continue
        dispatch = dispatches.get(active)
        if dispatch is None:
            dispatch = dispatches[active] = _Dispatch([checks[i] for i in active])
        _walk(func.body, dispatch)


def _walk(body: Stmt, dispatch: _Dispatch) -> None:
    by_class, call_hooks = dispatch.by_class, dispatch.call_hooks
    stack: list[tuple[Stmt, Stmt | None]] = [(body, None)]
    pop, push = stack.pop, stack.append
    while stack:
        node, loop = pop()
        cls = type(node)
        hooks = by_class.get(cls)
        if hooks is None:
            hooks = dispatch.hooks(cls)
        for hook in hooks:
            hook(node, loop)
        shape = stmt_shape(cls)
        if call_hooks and shape != StmtShape.SEQ:
            for call in _calls_of(node, cls):
                for on_call in call_hooks:
                    on_call(call, node)
        if shape == StmtShape.LEAF:
            continue
        if shape == StmtShape.SEQ:
            stack.extend([(child, loop) for child in reversed(node.stmts)])  # type: ignore[attr-defined]
        elif shape == StmtShape.LOOP:
            push((node.body, node))  # type: ignore[attr-defined]
        elif shape == StmtShape.BODY:
            push((node.body, loop))  # type: ignore[attr-defined]
        else:
            if node.else_body is not None:  # type: ignore[attr-defined]
                push((node.else_body, loop))  # type: ignore[attr-defined]
            push((node.then_body, loop))  # type: ignore[attr-defined]
