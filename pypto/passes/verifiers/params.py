"""OutParamNotShadowed and InOutUseValid verifiers (parameter-direction rules).

* OutParamNotShadowed: an ``Out``/``InOut`` param is never re-bound to a
  tensor-creating op.  Before SSA the re-binding assigns the param Var itself;
  after SSA it assigns a new version of the same source name, so both count.
* InOutUseValid: a Var passed to an ``Out``/``InOut`` param of a user-function
  call that *returns* that buffer is not read after that call (read the call's
  result; a buffer written in place and not returned has no newer value).  Group
  bodies are skipped, and returning a param is not a read: outlined functions
  return their written params explicitly ("param-explicit" returns).
"""

from __future__ import annotations

from typing import Any, cast

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.walk import CONST_TYPES
from ..diagnostic import Diagnostic
from ..names import base_name
from ..verifier_registry import PropertyVerifier
from .checks import CheckVerifier, StmtCheck
from .def_use import DefUseWalker
from .walk import error, functions_of, type_vars

__all__ = ["OutParamNotShadowedVerifier", "InOutUseValidVerifier", "TENSOR_CREATING_OPS"]

TENSOR_CREATING_OPS = ("tensor.create", "tensor.full")
_WRITTEN = (ParamDirection.Out, ParamDirection.InOut)
_VAR, _ITER_ARG, _CALL, _MAKE_TUPLE = E.Var, E.IterArg, E.Call, E.MakeTuple
_CONSTS = frozenset(CONST_TYPES)
_BINARY = frozenset(E.BINARY_CLASSES)


class _OutParamShadowCheck(StmtCheck):
    def __init__(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        super().__init__(program, diagnostics)
        self.stmt_hooks = {St.AssignStmt: self.check}
        self.written: dict[E.Var, ParamDirection] = {}
        self.by_base: dict[str, E.Var] = {}

    def applies_to(self, func: Function) -> bool:
        self.written = {p: d for p, d in zip(func.params, func.param_directions)
                        if d in _WRITTEN}
        self.by_base = {base_name(p.name_hint): p for p in self.written}
        return bool(self.written)

    def check(self, stmt: St.AssignStmt, loop: Stmt | None) -> None:
        if not isinstance(stmt.value, E.Call):
            return
        op_name = stmt.value.op.name
        if isinstance(stmt.value.op, GlobalVar) or op_name not in TENSOR_CREATING_OPS:
            return
        param = stmt.var if stmt.var in self.written else self.by_base.get(
            base_name(stmt.var.name_hint))
        if param is None:
            return
        self.diagnostics.append(error(
            OutParamNotShadowedVerifier.rule_name, 0,
            f"{self.written[param].name} parameter '{param.name_hint}' of function "
            f"'{self.func.name}' is shadowed by a new tensor from '{op_name}'; write into "
            "the parameter instead", stmt.span))


class OutParamNotShadowedVerifier(CheckVerifier):
    rule_name = "OutParamNotShadowed"

    def make_check(self, program: Program, diagnostics: list[Diagnostic]) -> StmtCheck:
        return _OutParamShadowCheck(program, diagnostics)


class _InOutUseWalker(DefUseWalker):
    """Walks one function in execution order tracking ``consumed``: the Vars passed to
    a written-and-returned param, each with the (direction, param, callee) of that
    call.  Visibility does not matter here, so ``define`` and ``use`` are replaced and
    nothing is bound; a Var read or re-defined leaves ``consumed``.  While ``consumed``
    is empty (most of a typical body) reads and definitions cost nothing."""

    def __init__(self, program: Program, func: Function, diagnostics: list[Diagnostic],
                 written_returned: dict[str, list[tuple[int, ParamDirection, str]]]) -> None:
        super().__init__(func)
        self.program = program
        self.diagnostics = diagnostics
        self.params = set(func.params)
        self.consumed: dict[E.Var, tuple[ParamDirection, str, str]] = {}
        self.written_returned = written_returned  # shared by the program's functions

    def define_params(self) -> None:
        pass  # no visibility to set up

    def read(self, var: E.Var, stmt: Stmt) -> None:
        found = self.consumed.pop(var, None)
        if found is None:
            return
        direction, param_name, callee = found
        self.diagnostics.append(error(
            "InOutUseValid", 0,
            f"Variable '{var.name_hint}' is read after being passed to {direction.name} "
            f"parameter '{param_name}' of '{callee}' in function '{self.func.name}'; use the "
            "call's result instead", stmt.span))

    def define(self, var: E.Var, stmt: Stmt) -> None:
        """Dims of the type are read; a re-bound Var's later reads see the new value."""
        consumed = self.consumed
        if not consumed:
            return
        for dim_var in type_vars(var.type):
            if consumed:
                self.read(dim_var, stmt)
        consumed.pop(var, None)

    def use(self, expr: Expr, stmt: Stmt) -> None:
        """Reads and call writes of ``expr`` in post-order: a call's arguments are read
        before the call writes them.  Reads come in pre-order too, so only calls of
        program functions (the only writers) push a marker to run after their args."""
        cls = type(expr)
        if cls is _VAR or cls is _ITER_ARG:  # the common operand: a plain read
            if self.consumed:
                self.read(cast(E.Var, expr), stmt)  # (exact class checked above)
            return
        if cls in _CONSTS:  # for-loop bounds, mostly
            return
        consumed = self.consumed
        stack: list[Any] = [expr]
        pop, push = stack.pop, stack.extend
        seen: set[int] = set()  # a sub-expression shared by hand-built IR: walked once
        while stack:
            node = pop()
            cls = type(node)
            if cls is _VAR or cls is _ITER_ARG:
                if consumed:
                    self.read(node, stmt)
                continue
            if cls in _CONSTS:
                continue
            if cls is not _WrittenBy:
                if id(node) in seen:
                    continue
                seen.add(id(node))
            if cls is _WrittenBy:
                self._mark_written(node.call)
            elif cls is _CALL:
                if type(node.op) is GlobalVar or isinstance(node.op, GlobalVar):
                    stack.append(_WrittenBy(node))
                push(reversed(node.args))
            elif cls is _MAKE_TUPLE:
                push(reversed(node.elements))
            elif cls in _BINARY:  # scalar arithmetic: conditions, bounds
                push((node.right, node.left))
            elif isinstance(node, E.Var):
                if consumed:
                    self.read(node, stmt)
            else:
                if isinstance(node, (E.Call, E.Submit)) and isinstance(node.op, GlobalVar):
                    stack.append(_WrittenBy(node))
                operands = _operands(node)
                operands.reverse()
                push(operands)

    def _mark_written(self, node: E.Call | E.Submit) -> None:
        callee = self.program.get_function(node.op.name)
        if callee is None:
            return
        args = node.args
        for index, direction, param_name in self._written_returned(callee):
            arg = args[index] if index < len(args) else None
            if isinstance(arg, E.Var):
                self.consumed[arg] = (direction, param_name, callee.name)

    def _written_returned(self, callee: Function) -> list[tuple[int, ParamDirection, str]]:
        """(index, direction, name) of each written param ``callee`` also returns (cached).

        Only a buffer the callee hands back has a "call's result" to use instead; a
        written param the callee does not return (e.g. a HOST function made by
        OutlineHierarchyScopes) is legitimately read through its own name afterwards."""
        found = self.written_returned.get(callee.name)
        if found is None:
            returned = _returned_param_indices(callee)
            found = [(index, direction, param.name_hint) for index, (param, direction)
                     in enumerate(zip(callee.params, callee.param_directions))
                     if direction in _WRITTEN and index in returned]
            self.written_returned[callee.name] = found
        return found

    # -- statements: DefUseWalker's order, with these exceptions -----------------------
    def visit_return(self, stmt: St.ReturnStmt) -> None:
        for value in stmt.value:
            if isinstance(value, E.Var) and value in self.params:
                continue  # a param-explicit return names the written buffer itself
            self.use(value, stmt)

    def visit_if(self, stmt: St.IfStmt) -> None:
        """Branches are alternatives: a buffer written in ``then`` may be read in ``else``
        (the outliners' if-carry yields the incoming value there); after the if, a
        buffer written in either branch counts as written."""
        self.use(stmt.condition, stmt)
        entry = dict(self.consumed)
        self.visit(stmt.then_body)
        after_then = self.consumed
        self.consumed = entry
        if stmt.else_body is not None:
            self.visit(stmt.else_body)
        self.consumed.update(after_then)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        if isinstance(stmt, S.SpmdScopeStmt):
            self.use(stmt.core_num, stmt)
        self.visit(stmt.body)  # scope attrs (dump/dep lists) are metadata, not reads


class _WrittenBy:
    """Stack marker of ``_InOutUseWalker.use``: ``call`` writes once its args are read."""

    __slots__ = ("call",)

    def __init__(self, call: E.Call | E.Submit) -> None:
        self.call = call


def _returned_param_indices(callee: Function) -> set[int]:
    from ..outline.facts import returned_params
    return {i for i in returned_params(callee) if i is not None}


def _operands(node: Expr) -> list[Expr]:
    """Operands that are real reads (call attrs are metadata)."""
    if isinstance(node, E.Call):
        return list(node.args)
    if isinstance(node, E.Submit):
        return [*node.args, *node.deps,
                *(x for x in (node.core_num, node.predicate) if x is not None)]
    if isinstance(node, E.BinaryExpr):
        return [node.left, node.right]
    if isinstance(node, E.UnaryExpr):
        return [node.operand]
    if isinstance(node, E.MakeTuple):
        return list(node.elements)
    if isinstance(node, E.TupleGetItemExpr):
        return [node.tuple]
    return []


class InOutUseValidVerifier(PropertyVerifier):
    rule_name = "InOutUseValid"

    def verify(self, program: Program, diagnostics: list[Diagnostic]) -> None:
        written_returned: dict[str, list[tuple[int, ParamDirection, str]]] = {}
        for func in functions_of(program):
            if func.func_type is FunctionType.Group:
                continue
            _InOutUseWalker(program, func, diagnostics, written_returned).run()
