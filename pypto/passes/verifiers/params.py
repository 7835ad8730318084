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

from ...ir import expr as E
from ...ir import scope as S
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.walk import CONST_TYPES, leaf_call_reads
from ..diagnostic import Diagnostic
from ..names import base_name
from ..verifier_registry import PropertyVerifier
from .def_use import DefUseWalker
from .checks import CheckVerifier, StmtCheck
from .walk import error, functions_of, type_vars

__all__ = ["OutParamNotShadowedVerifier", "InOutUseValidVerifier", "TENSOR_CREATING_OPS"]

TENSOR_CREATING_OPS = ("tensor.create", "tensor.full")
_WRITTEN = (ParamDirection.Out, ParamDirection.InOut)


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

    def check(self, stmt: St.AssignStmt, loop: Stmt | None) -> None:  # type: ignore[override]
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
    def __init__(self, program: Program, func: Function, diagnostics: list[Diagnostic]) -> None:
        super().__init__(func)
        self.program = program
        self.diagnostics = diagnostics
        self.params = set(func.params)
        # Var -> (direction, param name, callee name) of the call that wrote it
        self.consumed: dict[E.Var, tuple[ParamDirection, str, str]] = {}
        self.written_returned: dict[str, list[tuple[int, ParamDirection, str]]] = {}

    def on_define(self, var: E.Var, stmt: Stmt | None) -> None:
        self.consumed.pop(var, None)  # re-bound: later reads see the new value

    def define(self, var: E.Var, stmt: Stmt | None) -> None:
        """Only the consumed set matters here, not visibility: no binding."""
        for dim_var in type_vars(var.type):
            self.on_use(dim_var, stmt)
        self.consumed.pop(var, None)

    def on_use(self, var: E.Var, stmt: Stmt) -> None:
        found = self.consumed.pop(var, None)
        if found is None:
            return
        direction, param_name, callee = found
        self.diagnostics.append(error(
            "InOutUseValid", 0,
            f"Variable '{var.name_hint}' is read after being passed to {direction.name} "
            f"parameter '{param_name}' of '{callee}' in function '{self.func.name}'; use the "
            "call's result instead", stmt.span))

    def use(self, expr: Expr, stmt: Stmt) -> None:
        cls = type(expr)
        if cls is E.Var or cls is E.IterArg:  # the common operand: a plain read
            if self.consumed:
                self.on_use(expr, stmt)  # type: ignore[arg-type]
            return
        if cls in CONST_TYPES:  # for-loop bounds, mostly
            return
        reads = leaf_call_reads(expr) if cls is E.Call else None
        if reads is not None:  # a call over leaves (three-address form): reads, then writes
            if self.consumed:
                for var in reads:
                    self.on_use(var, stmt)
            self._mark_written(expr)
            return
        # Post-order: a call's arguments are read before the call writes them.
        stack: list[tuple[Expr, bool]] = [(expr, False)]
        while stack:
            node, done = stack.pop()
            if isinstance(node, E.Var):
                self.on_use(node, stmt)
            elif done:
                self._mark_written(node)
            else:
                stack.append((node, True))
                stack.extend((child, False) for child in reversed(_operands(node)))

    def _mark_written(self, node: Expr) -> None:
        if not (isinstance(node, (E.Call, E.Submit)) and isinstance(node.op, GlobalVar)):
            return
        callee = self.program.get_function(node.op.name)
        if callee is None:
            return
        args = node.args
        for index, direction, param_name in self._written_returned(callee):
            if index < len(args) and isinstance(args[index], E.Var):
                self.consumed[args[index]] = (direction, param_name, callee.name)

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

    def visit_values(self, stmt: St.ReturnStmt | St.YieldStmt) -> None:
        for value in stmt.value:
            if isinstance(stmt, St.ReturnStmt) and isinstance(value, E.Var) \
                    and value in self.params:
                continue  # a param-explicit return names the written buffer itself
            self.use(value, stmt)

    def visit_if(self, stmt: St.IfStmt) -> None:
        """Branches are alternatives: a buffer written in ``then`` may be read in ``else``
        (the outliners' if-carry yields the incoming value there); after the if, a
        buffer written in either branch counts as written."""
        self.use(stmt.condition, stmt)
        entry = dict(self.consumed)
        self.push()
        self.visit(stmt.then_body)
        branch_defs = self.pop()
        after_then = self.consumed
        self.consumed = dict(entry)
        if stmt.else_body is not None:
            self.push()
            self.visit(stmt.else_body)
            branch_defs = branch_defs + self.pop()
        self.consumed.update(after_then)
        if self.plain_if_leaks and not stmt.return_vars:
            self.reveal(branch_defs)
        for var in stmt.return_vars:
            self.define(var, stmt)

    def visit_scope(self, stmt: S.ScopeStmt) -> None:
        if isinstance(stmt, S.SpmdScopeStmt):
            self.use(stmt.core_num, stmt)
        self.visit(stmt.body)  # scope attrs (dump/dep lists) are metadata, not reads


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
        for func in functions_of(program):
            if func.func_type is FunctionType.Group:
                continue
            _InOutUseWalker(program, func, diagnostics).run()
