"""LegalizeGraphBoundary (03-passes.md §15): the record-once / replay contract of graphs.

A recorded graph is replayed with only its boundary tensor addresses and
boundary scalar slots patched.  A scalar the Graph body computes from its own
scalar params (``base = i * ROWS``) has no slot, so replay would reuse the
first call's value.  Step A moves such scalars to the call sites: the
definition is removed, a scalar parameter of the same name is appended, and
every caller passes the fully expanded expression over its own arguments --
the caller never sees a Graph-local name.  Bare renames (``n = batch``) are
substituted away.  Afterwards the boundary rules are checked with the
GraphBoundaryLegalized verifier's own implementation, so the pass and the
property can never disagree.
"""

from __future__ import annotations

from typing import Any

from ...ir import expr as E
from ...ir import stmt as St
from ...ir.enums import FunctionType, ParamDirection
from ...ir.function import Function, Program, is_incore_type, is_wrapper_type
from ...ir.node import Expr, GlobalVar, Stmt
from ...ir.types import ScalarType
from ...ir.visitor import IRMutator
from ...ir._deep import deep_recursion
from ...ir.walk import arith_leaves, iter_exprs, iter_stmts, stmt_children, stmt_exprs
from ..diagnostic import errors_of
from ..outline.outliner import Renamer
from ..verifiers.graph_boundary import GraphBoundaryLegalizedVerifier

__all__ = ["transform"]


class _GraphPlan:
    """Step A for one Graph function: which scalars move to the call sites."""

    def __init__(self, func: Function) -> None:
        self.func = func
        scalar_params = {p for p in func.params if isinstance(p.type, ScalarType)}
        self.expanded: dict[E.Var, Expr] = {}      # derived scalar -> expression over params
        self.renamed: dict[E.Var, Expr] = {}       # body substitution (derived -> new param)
        self.new_params: list[tuple[E.Var, Expr]] = []
        self.removed: set[int] = set()
        for stmt in iter_stmts(func.body):
            if not isinstance(stmt, St.AssignStmt) or not isinstance(stmt.var.type, ScalarType):
                continue
            expanded = self._expand(stmt.value, scalar_params)
            if expanded is None:
                continue
            self.removed.add(id(stmt))
            self.expanded[stmt.var] = expanded
            if isinstance(stmt.value, E.Var):  # a bare rename of a param
                self.renamed[stmt.var] = self.renamed.get(stmt.value, stmt.value)
                continue
            param = E.Var(stmt.var.name_hint, stmt.var.type, stmt.var.span)
            self.renamed[stmt.var] = param
            self.new_params.append((param, expanded))

    def _expand(self, value: Expr, scalar_params: set[E.Var]) -> Expr | None:
        """``value`` over the Graph's scalar params, or None if it is not derived from them."""
        leaves = arith_leaves(value)
        if not leaves:
            return None  # not arithmetic; or a literal, which is replay-invariant: it stays
        if any(v not in scalar_params and v not in self.expanded for v in leaves):
            return None
        return Renamer(self.expanded)(value) if self.expanded else value

    def rewrite_function(self) -> Function:
        removed = self.removed

        class Drop(IRMutator):
            def visit_assign_stmt(self, op: St.AssignStmt) -> Stmt:
                if id(op) in removed:
                    return St.SeqStmts([], op.span)
                return super().visit_assign_stmt(op)

        mutator = Drop()
        mutator.var_remap.update(self.renamed)
        body = mutator(self.func.body)
        params = [*zip(self.func.params, self.func.param_directions),
                  *((p, ParamDirection.In) for p, _ in self.new_params)]
        return Function(self.func.name, params, self.func.return_types, body, self.func.span,
                        type=FunctionType.Graph, attrs=self.func._attrs,
                        requires_runtime_binding=self.func.requires_runtime_binding)

    def extra_args(self, call_args: tuple[Expr, ...]) -> list[Expr]:
        by_param = dict(zip(self.func.params, call_args))
        return [Renamer(by_param)(expr) for _, expr in self.new_params]


def _is_device(func_type: FunctionType) -> bool:
    return is_incore_type(func_type) or is_wrapper_type(func_type)


class _CallSites(IRMutator):
    """Appends the hoisted expressions to every call of a rewritten Graph.

    Only statements on the way to such a call are rebuilt (``touched``, from one read-only
    walk): the rest of a function is returned as is without being mutated.
    """

    def __init__(self, plans: dict[str, _GraphPlan]) -> None:
        super().__init__()
        self.plans = plans
        self.touched: set[int] = set()

    def rewrite(self, func: Function) -> Function:
        self.touched.clear()
        with deep_recursion():
            if not self._mark(func.body):
                return func
        return self(func)

    def _mark(self, stmt: Stmt) -> bool:
        """Does ``stmt`` (or a statement inside it) call a rewritten Graph?"""
        found = any(self._calls_plan(expr) for expr in stmt_exprs(stmt))
        for child in stmt_children(stmt):
            found = self._mark(child) or found
        if found:
            self.touched.add(id(stmt))
        return found

    def _calls_plan(self, expr: Expr) -> bool:
        for node in iter_exprs(expr):
            if isinstance(node, (E.Call, E.Submit)) and isinstance(node.op, GlobalVar) \
                    and node.op.name in self.plans:
                return True
        return False

    def visit_stmt(self, op: Stmt) -> Stmt:
        if id(op) not in self.touched:
            return op
        return super().visit_stmt(op)

    def _extend(self, op: Any) -> Any:
        plan = self.plans.get(op.op.name) if isinstance(op.op, GlobalVar) else None
        if plan is None or not plan.new_params:
            return op
        return op.replace(args=tuple(op.args) + tuple(plan.extra_args(op.args)))

    def visit_call(self, op: E.Call) -> Expr:
        return self._extend(super().visit_call(op))

    def visit_submit(self, op: E.Submit) -> Expr:
        return self._extend(super().visit_submit(op))


def _param_explicit_returns(func: Function, program: Program) -> Function:
    """Return the parameter a result *is*: after OutlineIncoreScopes a Graph body returns
    the call result that names the buffer a kernel wrote in place (``acc_1`` for ``acc``);
    replay patches parameters only, so the boundary must return ``acc`` itself."""
    from ..outline.facts import BodyFacts
    body = func.body
    last = body.stmts[-1] if isinstance(body, St.SeqStmts) and body.stmts else body
    if not isinstance(last, St.ReturnStmt):
        return func
    params = set(func.params)
    facts = BodyFacts.lineage_of(body, program)
    values = [facts.root(v) if isinstance(v, E.Var) and facts.root(v) in params
              and facts.root(v).type == v.type else v for v in last.value]
    if all(a is b for a, b in zip(values, last.value)):
        return func
    stmts = list(body.stmts[:-1]) if isinstance(body, St.SeqStmts) else []
    new_body = St.SeqStmts.flatten([*stmts, last.replace(value=tuple(values))], body.span)
    return func.replace(body=new_body)


def transform(program: Program) -> Program:
    graphs = [f for f in program._functions.values() if f.func_type is FunctionType.Graph]
    if not graphs:
        return program
    explicit = [_param_explicit_returns(g, program) for g in graphs]
    if any(a is not b for a, b in zip(explicit, graphs)):
        program = program.with_functions(
            [*(f for f in program._functions.values() if f.func_type is not FunctionType.Graph),
             *explicit])
        graphs = explicit
    plans = {g.name: _GraphPlan(g) for g in graphs}
    changed = {name: plan for name, plan in plans.items() if plan.removed}
    result = program
    if changed:
        rewriter = _CallSites(changed)
        functions = []
        for func in program._functions.values():
            plan = changed.get(func.name)
            new = plan.rewrite_function() if plan is not None else func
            # Device kernels never launch a Graph; were one to, the boundary check
            # below would report the call's missing argument, so skipping is safe.
            functions.append(new if _is_device(new.func_type) else rewriter.rewrite(new))
        result = program.with_functions(functions)
    _check(result)
    return result


def _check(program: Program) -> None:
    diagnostics: list = []
    GraphBoundaryLegalizedVerifier().verify(program, diagnostics)
    errors = errors_of(diagnostics)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ValueError(f"LegalizeGraphBoundary: {first.message}{more} at {first.span}")
