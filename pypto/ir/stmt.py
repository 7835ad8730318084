"""Statement nodes (scopes live in ``scope.py``)."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, Sequence

from .dtype import DataType
from .enums import ForKind, InlineLanguage
from .expr import ConstInt, IterArg, Var, _ordered_dict, _span
from .node import Expr, FieldKind, Stmt, as_tuple, check_type
from .span import Span

__all__ = ["AssignStmt", "EvalStmt", "ReturnStmt", "YieldStmt", "SeqStmts", "IfStmt",
           "ForStmt", "WhileStmt", "BreakStmt", "ContinueStmt", "InlineStmt"]

_set = object.__setattr__
_U, _D, _I = FieldKind.USUAL, FieldKind.DEF, FieldKind.IGNORE


class AssignStmt(Stmt):
    __slots__ = ("var", "value")
    var: Var
    value: Expr
    _fields = (("var", _D), ("value", _U))

    def __init__(self, var: Var, value: Expr, span: Span | None = None) -> None:
        if not isinstance(var, Var):
            check_type("AssignStmt", "var", var, Var, "Var")
        if not isinstance(value, Expr):
            check_type("AssignStmt", "value", value, Expr, "Expr")
        _set(self, "var", var)
        _set(self, "value", value)
        _set(self, "span", span if span.__class__ is Span else _span("AssignStmt", span))
        _set(self, "leading_comments", ())


class EvalStmt(Stmt):
    """An expression evaluated for its effect."""

    __slots__ = ("expr",)
    expr: Expr
    _fields = (("expr", _U),)

    def __init__(self, expr: Expr, span: Span | None = None) -> None:
        if not isinstance(expr, Expr):
            check_type("EvalStmt", "expr", expr, Expr, "Expr")
        _set(self, "expr", expr)
        _set(self, "span", span if span.__class__ is Span else _span("EvalStmt", span))
        _set(self, "leading_comments", ())


def _values(owner: str, value: Any, span: Any) -> tuple[tuple, Any]:
    """``X(value, span)`` / ``X(span)`` / ``X()`` for Return and Yield."""
    if isinstance(value, Span) and span is None:
        return (), value
    if value is None:
        return (), span
    if isinstance(value, Expr):
        value = [value]
    return as_tuple(owner, "value", value, Expr, "Expr"), span


class ReturnStmt(Stmt):
    __slots__ = ("value",)
    value: tuple[Expr, ...]
    _fields = (("value", _U),)

    def __init__(self, value: Sequence[Expr] | Span | None = None, span: Span | None = None) -> None:
        values, span = _values("ReturnStmt", value, span)
        _set(self, "value", values)
        self._init_stmt(_span("ReturnStmt", span))


class YieldStmt(Stmt):
    """Ends a loop/if body; feeds its return vars or the next iteration's iter_args."""

    __slots__ = ("value",)
    value: tuple[Expr, ...]
    _fields = (("value", _U),)

    def __init__(self, value: Sequence[Expr] | Span | None = None, span: Span | None = None) -> None:
        values, span = _values("YieldStmt", value, span)
        _set(self, "value", values)
        self._init_stmt(_span("YieldStmt", span))


class SeqStmts(Stmt):
    """A transparent statement list.  Build lists with ``SeqStmts.flatten``."""

    __slots__ = ("stmts",)
    stmts: tuple[Stmt, ...]
    _fields = (("stmts", _U),)

    def __init__(self, stmts: Iterable[Stmt], span: Span | None = None) -> None:
        _set(self, "stmts", as_tuple("SeqStmts", "stmts", stmts, Stmt, "Stmt"))
        self._init_stmt(_span("SeqStmts", span))

    def __len__(self) -> int:
        return len(self.stmts)

    def __getitem__(self, index: int) -> Stmt:
        return self.stmts[index]

    def __iter__(self) -> Iterator[Stmt]:
        return iter(self.stmts)

    @staticmethod
    def flatten(stmts: Iterable[Stmt], span: Span | None = None) -> Stmt:
        """Splice nested ``SeqStmts``; return the single statement when one remains.

        Guarantees the NoRedundantBlocks shape: never a single-child or nested SeqStmts.
        """
        out: list[Stmt] = []
        _splice(stmts, out)
        if len(out) == 1:
            return out[0]
        if span is None:
            span = out[0].span if out else Span.unknown()
        elif span.__class__ is not Span:
            check_type("SeqStmts", "span", span, Span, "Span")
        # ``_splice`` checked every statement: the node is built without a second check.
        seq = SeqStmts.__new__(SeqStmts)
        _set(seq, "stmts", tuple(out))
        _set(seq, "span", span)
        _set(seq, "leading_comments", ())
        return seq


def _splice(stmts: Iterable[Stmt], out: list[Stmt]) -> None:
    """Append ``stmts`` to ``out`` with every nested SeqStmts opened (iteratively)."""
    kind = type(stmts)
    if kind is list or kind is tuple:
        # The usual case, one flat level of statements: no iterator stack.
        for stmt in stmts:
            if type(stmt) is SeqStmts or not isinstance(stmt, Stmt):
                break
        else:
            out.extend(stmts)
            return
    stack = [iter(stmts)]
    while stack:
        for stmt in stack[-1]:
            if type(stmt) is SeqStmts:
                stack.append(iter(stmt.stmts))
                break
            if not isinstance(stmt, Stmt):
                check_type("SeqStmts.flatten", "stmts", stmt, Stmt, "Stmt")
            out.append(stmt)
        else:
            stack.pop()


def _body(owner: str, field: str, body: Any) -> Stmt:
    if isinstance(body, (list, tuple)):
        return SeqStmts.flatten(body)
    check_type(owner, field, body, Stmt, "Stmt")
    return body


def _bound(owner: str, field: str, value: Any) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return ConstInt(value, DataType.INDEX)
    check_type(owner, field, value, Expr, "Expr or int")
    return value


class IfStmt(Stmt):
    __slots__ = ("condition", "then_body", "else_body", "return_vars")
    condition: Expr
    then_body: Stmt
    else_body: Stmt | None
    return_vars: tuple[Var, ...]
    _fields = (("condition", _U), ("then_body", _U), ("else_body", _U), ("return_vars", _D))

    def __init__(self, condition: Expr, then_body: Stmt, else_body: Stmt | None = None,
                 return_vars: Iterable[Var] = (), span: Span | None = None) -> None:
        check_type("IfStmt", "condition", condition, Expr, "Expr")
        _set(self, "condition", condition)
        _set(self, "then_body", _body("IfStmt", "then_body", then_body))
        _set(self, "else_body", None if else_body is None
             else _body("IfStmt", "else_body", else_body))
        _set(self, "return_vars", as_tuple("IfStmt", "return_vars", return_vars, Var, "Var"))
        self._init_stmt(_span("IfStmt", span))


class ForStmt(Stmt):
    __slots__ = ("loop_var", "start", "stop", "step", "iter_args", "body", "return_vars",
                 "kind", "_attrs")
    loop_var: Var
    start: Expr
    stop: Expr
    step: Expr
    iter_args: tuple[IterArg, ...]
    body: Stmt
    return_vars: tuple[Var, ...]
    kind: ForKind
    _attrs: dict[str, Any]
    _fields = (("loop_var", _D), ("start", _U), ("stop", _U), ("step", _U), ("iter_args", _D),
               ("body", _U), ("return_vars", _D), ("kind", _U), ("attrs", _U))

    def __init__(self, loop_var: Var, start: Expr | int, stop: Expr | int, step: Expr | int,
                 iter_args: Iterable[IterArg], body: Stmt, return_vars: Iterable[Var],
                 span: Span | None = None, kind: ForKind = ForKind.Sequential,
                 attrs: Mapping[str, Any] | None = None) -> None:
        if not isinstance(loop_var, Var):
            check_type("ForStmt", "loop_var", loop_var, Var, "Var")
        iters = as_tuple("ForStmt", "iter_args", iter_args, IterArg, "IterArg")
        rvs = as_tuple("ForStmt", "return_vars", return_vars, Var, "Var")
        if len(iters) != len(rvs):
            raise ValueError(f"ForStmt: {len(iters)} iter_args but {len(rvs)} return_vars")
        if kind.__class__ is not ForKind:
            check_type("ForStmt", "kind", kind, ForKind, "ForKind")
            kind = ForKind(kind)
        _set(self, "loop_var", loop_var)
        _set(self, "start", _bound("ForStmt", "start", start))
        _set(self, "stop", _bound("ForStmt", "stop", stop))
        _set(self, "step", _bound("ForStmt", "step", step))
        _set(self, "iter_args", iters)
        _set(self, "body", body if isinstance(body, Stmt) else _body("ForStmt", "body", body))
        _set(self, "return_vars", rvs)
        _set(self, "kind", kind)
        _set(self, "_attrs", _ordered_dict("ForStmt", "attrs", attrs))
        _set(self, "span", span if span.__class__ is Span else _span("ForStmt", span))
        _set(self, "leading_comments", ())

    @property
    def attrs(self) -> dict:
        return dict(self._attrs)


class WhileStmt(Stmt):
    """``while``; the condition sees the current iter_args."""

    __slots__ = ("condition", "iter_args", "body", "return_vars")
    condition: Expr
    iter_args: tuple[IterArg, ...]
    body: Stmt
    return_vars: tuple[Var, ...]
    _fields = (("iter_args", _D), ("condition", _U), ("body", _U), ("return_vars", _D))

    def __init__(self, condition: Expr, iter_args: Iterable[IterArg], body: Stmt,
                 return_vars: Iterable[Var], span: Span | None = None) -> None:
        check_type("WhileStmt", "condition", condition, Expr, "Expr")
        iters = as_tuple("WhileStmt", "iter_args", iter_args, IterArg, "IterArg")
        rvs = as_tuple("WhileStmt", "return_vars", return_vars, Var, "Var")
        if len(iters) != len(rvs):
            raise ValueError(f"WhileStmt: {len(iters)} iter_args but {len(rvs)} return_vars")
        _set(self, "condition", condition)
        _set(self, "iter_args", iters)
        _set(self, "body", _body("WhileStmt", "body", body))
        _set(self, "return_vars", rvs)
        self._init_stmt(_span("WhileStmt", span))


class BreakStmt(Stmt):
    __slots__ = ()

    def __init__(self, span: Span | None = None) -> None:
        self._init_stmt(_span("BreakStmt", span))


class ContinueStmt(Stmt):
    __slots__ = ()

    def __init__(self, span: Span | None = None) -> None:
        self._init_stmt(_span("ContinueStmt", span))


class InlineStmt(Stmt):
    """Verbatim source (a HOST-level SubWorker body); a leaf for every pass."""

    __slots__ = ("body", "language")
    body: str
    language: InlineLanguage
    _fields = (("body", _U), ("language", _U))

    def __init__(self, body: str, language: InlineLanguage = InlineLanguage.Python,
                 span: Span | None = None) -> None:
        if isinstance(language, Span) and span is None:
            language, span = InlineLanguage.Python, language
        check_type("InlineStmt", "body", body, str, "str")
        check_type("InlineStmt", "language", language, InlineLanguage, "InlineLanguage")
        _set(self, "body", body)
        _set(self, "language", InlineLanguage(language))
        self._init_stmt(_span("InlineStmt", span))
