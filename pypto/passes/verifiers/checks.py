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

from typing import Any, Callable, Iterable, Mapping, cast

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.walk import LEAF_TYPES, StmtShape, calls_in, stmt_shape
from ..diagnostic import Diagnostic
from ..verifier_registry import PropertyVerifier
from .walk import functions_of, stmt_exprs

__all__ = ["StmtCheck", "CheckVerifier", "run_checks", "StmtHook", "CallHook"]

# (statement, enclosing loop): a hook is keyed by a statement class and takes statements
# of that class, which a Callable type cannot tie to its key.
StmtHook = Callable[[Any, "Stmt | None"], None]
CallHook = Callable[["E.Call | E.Submit", Stmt], None]  # (Call or Submit, its statement)


class StmtCheck:
    """One property's per-statement checks over one program.

    ``stmt_hooks`` maps a statement class to a callback; it also fires for
    subclasses (``isinstance`` semantics).  ``on_call`` (if not ``None``) sees
    every Call/Submit (only those of program functions if ``function_calls_only``).
    Before each function's walk ``begin_function`` sets
    ``self.func`` and asks ``applies_to`` whether the check runs on it.
    """

    stmt_hooks: Mapping[type, StmtHook] = {}
    on_call: CallHook | None = None
    # True if ``on_call`` ignores every call whose op is not a ``GlobalVar`` (a call of
    # a program function): the walk then skips the op calls, most of them, for it.
    function_calls_only: bool = False
    func: Function  # the function being walked: set by ``begin_function`` before any hook

    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        self.program = program
        self.diagnostics = diagnostics

    def applies_to(self, func: Function) -> bool:
        return True

    def begin_function(self, func: Function) -> bool:
        self.func = func
        return self.applies_to(func)

    def release(self) -> None:
        """Called when the walk is done: drop an instance hook table.  Its bound
        methods tie the check to itself, a cycle that would keep the check -- and the
        program it holds -- alive until the next cycle collection (to the process's
        exit under the command line's paused collector)."""
        vars(self).pop("stmt_hooks", None)


class CheckVerifier(PropertyVerifier):
    """A verifier made of one ``StmtCheck``; runs alone or fused (``run_checks``)."""

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        raise NotImplementedError

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        run_checks(program, [self.make_check(program, diagnostics)])


_BINARY = frozenset(E.BINARY_CLASSES)


def _root_calls(root: Expr) -> "list[Expr] | tuple[Expr, ...]":
    """Calls/Submits of one expression in pre-order (``calls_in``), with exact-class
    fast paths for the common nodes; leaves are never pushed."""
    # (dispatch by exact class: mypy does not narrow through ``kind``, hence the casts;
    # the stack holds ``Any`` for the same reason)
    kind = type(root)
    if kind in LEAF_TYPES:
        return ()
    if kind in _BINARY:
        binary = cast(E.BinaryExpr, root)
        if type(binary.left) in LEAF_TYPES and type(binary.right) in LEAF_TYPES:
            return ()  # a condition or bound like ``k > 0``
    if kind is E.Call and not cast(E.Call, root)._attrs:
        for arg in cast(E.Call, root).args:
            arg_kind = type(arg)
            if arg_kind in LEAF_TYPES or (arg_kind is E.MakeTuple and all(
                    type(item) in LEAF_TYPES for item in cast(E.MakeTuple, arg).elements)):
                continue
            break
        else:
            return (root,)  # three-address form: one call over leaves
    found: list[Expr] = []
    stack: list[Any] = [root]
    pop, push = stack.pop, stack.extend
    seen: set[int] = set()  # a sub-expression shared by hand-built IR: once
    while stack:
        node = pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        kind = type(node)
        if kind is E.Call and not node._attrs:
            found.append(node)
            push([arg for arg in reversed(node.args) if type(arg) not in LEAF_TYPES])
        elif kind is E.MakeTuple:
            push([item for item in reversed(node.elements) if type(item) not in LEAF_TYPES])
        else:
            found.extend(calls_in(node))
    return found


def _roots_calls(roots: Iterable[Expr]) -> list[Expr]:
    return [call for root in roots for call in _root_calls(root)]


# The expressions a statement evaluates itself, per exact class (``stmt_exprs`` order).
_OWN_CALLS: dict[type, Callable[[Any], Any]] = {
    St.AssignStmt: lambda s: _root_calls(s.value),
    St.EvalStmt: lambda s: _root_calls(s.expr),
    St.ReturnStmt: lambda s: _roots_calls(s.value),
    St.YieldStmt: lambda s: _roots_calls(s.value),
    St.IfStmt: lambda s: _root_calls(s.condition),
}


def _own_calls_of(cls: type) -> Callable[[Any], Any]:
    """How to list the Calls/Submits of a statement of class ``cls`` (``iter_calls``)."""
    found = _OWN_CALLS.get(cls)
    if found is None:
        found = lambda stmt: _roots_calls(stmt_exprs(stmt))  # noqa: E731
    return found


class _Dispatch:
    """Per statement class, the hooks of a fixed list of checks (resolved once)."""

    def __init__(self, checks: list[StmtCheck]) -> None:
        self.checks = checks
        # class -> (hooks, shape, own-calls getter or None when no check sees calls)
        self.by_class: dict[type, tuple[list[StmtHook], int, Any]] = {}
        self.call_hooks = [c.on_call for c in checks if c.on_call is not None]
        self.all_calls_hooks = [c.on_call for c in checks
                                if c.on_call is not None and not c.function_calls_only]
        self.function_calls_hooks = [c.on_call for c in checks
                                     if c.on_call is not None and c.function_calls_only]

    def plan(self, cls: type) -> tuple[list[StmtHook], int, Any]:
        hooks = [hook for check in self.checks for base, hook in check.stmt_hooks.items()
                 if issubclass(cls, base)]
        shape = stmt_shape(cls)
        calls = _own_calls_of(cls) if self.call_hooks and shape != StmtShape.SEQ else None
        found = self.by_class[cls] = (hooks, shape, calls)
        return found


def run_checks(program: Program, checks: Iterable[StmtCheck]) -> None:
    """Run ``checks`` over ``program`` in one walk of each function."""
    checks = list(checks)
    dispatches: dict[tuple[int, ...], _Dispatch] = {}
    try:
        for func in functions_of(program):
            active = tuple(i for i, check in enumerate(checks) if check.begin_function(func))
            if not active:
                continue
            dispatch = dispatches.get(active)
            if dispatch is None:
                dispatch = dispatches[active] = _Dispatch([checks[i] for i in active])
            _walk(func.body, dispatch)
    finally:
        for check in checks:
            check.release()


class _LeaveLoop:
    """Stack marker: the walk leaves a loop body; ``outer`` is the enclosing loop."""

    __slots__ = ("outer",)

    def __init__(self, outer: Stmt | None) -> None:
        self.outer = outer


def _walk(body: Stmt, dispatch: _Dispatch) -> None:
    by_class = dispatch.by_class
    all_calls_hooks = dispatch.all_calls_hooks
    function_calls_hooks = dispatch.function_calls_hooks
    loop: Stmt | None = None  # the nearest enclosing for / while
    stack: list[Any] = [body]
    pop, push, extend = stack.pop, stack.append, stack.extend
    SEQ, LEAF, LOOP, BODY = StmtShape.SEQ, StmtShape.LEAF, StmtShape.LOOP, StmtShape.BODY
    while stack:
        node = pop()
        cls = type(node)
        if cls is _LeaveLoop:
            loop = node.outer
            continue
        plan = by_class.get(cls)
        if plan is None:
            plan = dispatch.plan(cls)
        hooks, shape, own_calls = plan
        for hook in hooks:
            hook(node, loop)
        if own_calls is not None:
            for call in own_calls(node):
                for on_call in all_calls_hooks:
                    on_call(call, node)
                if function_calls_hooks and isinstance(call.op, GlobalVar):
                    for on_call in function_calls_hooks:
                        on_call(call, node)
        if shape == SEQ:
            extend(reversed(node.stmts))
        elif shape == LEAF:
            continue
        elif shape == LOOP:
            push(_LeaveLoop(loop))
            push(node.body)
            loop = node
        elif shape == BODY:
            push(node.body)
        else:
            if node.else_body is not None:
                push(node.else_body)
            push(node.then_body)
